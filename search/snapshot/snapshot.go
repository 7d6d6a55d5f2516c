// Package snapshot is the on-disk format of a search index: one file holding
// named sections, written atomically (a temporary file in the same folder,
// synced, then renamed over the old one) so a reader never sees a torn file.
//
// Layout: the magic "AGOSIDX\n", a format version (uint32), the payload's
// length (uint64) and its CRC-32C (uint32), all little-endian, then the
// payload: for each section its name length (uvarint), name, data length
// (uvarint) and data. Read verifies the magic, version, length and checksum, so
// a truncated, corrupt or foreign file is an error (ErrCorrupt or ErrVersion)
// the caller answers by rebuilding the index.
package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"

	"github.com/agentos-dev/agentos/internal/atomicfile"
)

const magic = "AGOSIDX\n"

const headerSize = len(magic) + 4 + 8 + 4

// Errors from Read.
var (
	// ErrCorrupt: the file is truncated, damaged or not a snapshot.
	ErrCorrupt = errors.New("index snapshot is corrupt or truncated")
	// ErrVersion: the file was written by another format version.
	ErrVersion = errors.New("index snapshot has another format version")
)

var table = crc32.MakeTable(crc32.Castagnoli)

// Section is one named part of a snapshot.
type Section struct {
	Name string
	Data []byte
}

// Write writes sections to path atomically with format version v.
func Write(path string, v uint32, sections []Section) error {
	n := headerSize
	for _, s := range sections {
		n += 2*binary.MaxVarintLen64 + len(s.Name) + len(s.Data)
	}
	b := make([]byte, headerSize, n)
	for _, s := range sections {
		b = binary.AppendUvarint(b, uint64(len(s.Name)))
		b = append(b, s.Name...)
		b = binary.AppendUvarint(b, uint64(len(s.Data)))
		b = append(b, s.Data...)
	}
	payload := b[headerSize:]
	copy(b, magic)
	binary.LittleEndian.PutUint32(b[len(magic):], v)
	binary.LittleEndian.PutUint64(b[len(magic)+4:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(b[len(magic)+12:], crc32.Checksum(payload, table))
	return atomicfile.WriteFile(path, b, 0o644)
}

// Read reads and verifies a snapshot written with format version v. A missing
// file is reported with an error satisfying errors.Is(err, fs.ErrNotExist).
func Read(path string, v uint32) (map[string][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("read index snapshot: %w", err)
	}
	if len(b) < headerSize || string(b[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	if got := binary.LittleEndian.Uint32(b[len(magic):]); got != v {
		return nil, fmt.Errorf("%w (%d, want %d)", ErrVersion, got, v)
	}
	size := binary.LittleEndian.Uint64(b[len(magic)+4:])
	sum := binary.LittleEndian.Uint32(b[len(magic)+12:])
	payload := b[headerSize:]
	if uint64(len(payload)) != size || crc32.Checksum(payload, table) != sum {
		return nil, ErrCorrupt
	}
	out := map[string][]byte{}
	for len(payload) > 0 {
		name, rest, ok := field(payload)
		if !ok {
			return nil, ErrCorrupt
		}
		data, rest, ok := field(rest)
		if !ok {
			return nil, ErrCorrupt
		}
		out[string(name)] = data
		payload = rest
	}
	return out, nil
}

func field(b []byte) ([]byte, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}
