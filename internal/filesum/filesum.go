// Package filesum owns the SHA-256 of the agentos binaries that install and
// upgrade record in the manifest: tens of megabytes, which on a machine
// without SHA instructions take a fifth of a second of CPU to hash — most of
// what an install costs. A file's digest is remembered in the user's cache
// folder under what identifies that version of the file (its path, device,
// inode, size, and modification and change times, as git's index does), so
// each build of agentos is hashed once, not at every install.
//
// The change time cannot be set by a program (only the kernel sets it,
// whenever the file's content or metadata changes), so a file rewritten
// with the same size and modification time still misses. Where the system
// gives no change time (Windows), nothing is remembered.
package filesum

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// keep is how long a remembered digest stays after it was last written:
// builds come and go, and the folder must not grow without end.
const keep = 30 * 24 * time.Hour

// minRemembered is the smallest file whose digest is remembered: a smaller
// one hashes in less time than an entry takes to look up and keep (a test's
// stand-in binary is a few bytes; a real one tens of megabytes).
var minRemembered int64 = 1 << 20

// Sum returns the hex SHA-256 of the file at path, from the cache when this
// version of the file was hashed before.
func Sum(path string) (string, error) {
	before, size, ok := identity(path)
	entry := ""
	if ok && size >= minRemembered {
		if dir := cacheDir(); dir != "" {
			entry = filepath.Join(dir, before)
			if data, err := os.ReadFile(entry); err == nil && isDigest(string(data)) {
				return string(data), nil
			}
		}
	}
	sum, err := hashFile(path)
	if err != nil {
		return "", err
	}
	// Remembered only when the file did not change while it was read.
	if after, _, ok := identity(path); entry != "" && ok && after == before {
		remember(entry, sum)
	}
	return sum, nil
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("checksum: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("checksum: read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cacheDir is where digests are remembered; "" when the system has no user
// cache folder.
func cacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "agentos", "sums")
}

// remember writes the entry, best effort: a digest that cannot be kept is
// computed again next time. The entry appears whole or not at all (written
// beside and renamed). Old entries are dropped when one is added.
func remember(entry, sum string) {
	dir := filepath.Dir(entry)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(sum)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), entry) != nil {
		os.Remove(tmp.Name())
		return
	}
	prune(dir)
}

// prune removes the entries not written for keep.
func prune(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > keep {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// isDigest reports whether s is a hex SHA-256, as remember writes it: a
// torn or foreign entry is a miss.
func isDigest(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// key names a version of a file: the hex SHA-256 of what identifies it.
func key(parts string) string {
	s := sha256.Sum256([]byte(parts))
	return hex.EncodeToString(s[:16])
}
