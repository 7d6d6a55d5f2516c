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
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
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
	return WriteStream(path, v, func(add func(name string, data []byte) error) error {
		for _, s := range sections {
			if err := add(s.Name, s.Data); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteStream writes a snapshot to path atomically with format version v,
// its sections added one by one by fill: each goes to the file as it is
// added, so the caller can encode one section, add it and drop it before
// encoding the next. A large index's sections together are as large as its
// file (hundreds of megabytes at monorepo size); held at once, beside the
// index itself and a copy joined for writing, they made a save the peak of a
// build's memory. The header's length and checksum are written last.
func WriteStream(path string, v uint32, fill func(add func(name string, data []byte) error) error) error {
	return atomicfile.WriteFunc(path, 0o644, func(f *os.File) error {
		if _, err := f.Write(make([]byte, headerSize)); err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		crc := crc32.New(table)
		out := io.MultiWriter(w, crc)
		var size uint64
		var num [binary.MaxVarintLen64]byte
		put := func(b []byte) error {
			size += uint64(len(b))
			_, err := out.Write(b)
			return err
		}
		add := func(name string, data []byte) error {
			if err := put(binary.AppendUvarint(num[:0], uint64(len(name)))); err != nil {
				return err
			}
			if err := put([]byte(name)); err != nil {
				return err
			}
			if err := put(binary.AppendUvarint(num[:0], uint64(len(data)))); err != nil {
				return err
			}
			return put(data)
		}
		if err := fill(add); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		h := make([]byte, headerSize)
		copy(h, magic)
		binary.LittleEndian.PutUint32(h[len(magic):], v)
		binary.LittleEndian.PutUint64(h[len(magic)+4:], size)
		binary.LittleEndian.PutUint32(h[len(magic)+12:], crc.Sum32())
		_, err := f.WriteAt(h, 0)
		return err
	})
}

// Read reads and verifies a snapshot written with format version v and
// returns its sections by name. A missing file is reported with an error
// satisfying errors.Is(err, fs.ErrNotExist).
func Read(path string, v uint32) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := ReadStream(path, v, func(name string, data []byte) error {
		out[name] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadStream reads and verifies a snapshot written with format version v
// and hands its sections to fn one at a time, in the order they were
// written, each in a buffer of its own that fn may keep: the file is never
// in memory whole beside what its sections decode into (a few hundred
// megabytes at monorepo size, once the peak of a restart). The length and
// checksum are verified in a first pass over the file, before any section
// is handed over, so fn only ever sees sound bytes. An error from fn stops
// the read and is returned as it is. A missing file is reported with an
// error satisfying errors.Is(err, fs.ErrNotExist).
func ReadStream(path string, v uint32, fn func(name string, data []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fmt.Errorf("read index snapshot: %w", err)
	}
	defer f.Close()
	h := make([]byte, headerSize)
	if _, err := io.ReadFull(f, h); err != nil || string(h[:len(magic)]) != magic {
		return ErrCorrupt
	}
	if got := binary.LittleEndian.Uint32(h[len(magic):]); got != v {
		return fmt.Errorf("%w (%d, want %d)", ErrVersion, got, v)
	}
	size := binary.LittleEndian.Uint64(h[len(magic)+4:])
	sum := binary.LittleEndian.Uint32(h[len(magic)+12:])
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read index snapshot: %w", err)
	}
	if uint64(fi.Size()-int64(headerSize)) != size {
		return ErrCorrupt
	}
	crc := crc32.New(table)
	if _, err := io.Copy(crc, io.NewSectionReader(f, int64(headerSize), int64(size))); err != nil {
		return fmt.Errorf("read index snapshot: %w", err)
	}
	if crc.Sum32() != sum {
		return ErrCorrupt
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, int64(headerSize), int64(size)), 1<<20)
	field := func() ([]byte, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		if n > size {
			return nil, ErrCorrupt
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, ErrCorrupt
		}
		return b, nil
	}
	for {
		name, err := field()
		if err == io.EOF {
			return nil // the end of the last section
		}
		if err != nil {
			return ErrCorrupt
		}
		data, err := field()
		if err != nil {
			return ErrCorrupt
		}
		if err := fn(string(name), data); err != nil {
			return err
		}
	}
}
