// Package upgradetest records a project's files the way the upgrade and
// rollback tests compare them: each file's path and a fingerprint, leaving
// out what every run writes anew (backups, caches, upgrade reports). Its
// Digest is the content fingerprint for any such before-and-after
// comparison within one test process.
package upgradetest

import (
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// seed keys Digest for this process.
var seed = maphash.MakeSeed()

// Digest fingerprints content for comparing snapshots taken in one test
// process. Not SHA-256: these snapshots never meet a manifest, and hashing
// the 28 MB pinned binary at every snapshot with SHA-256 (on a machine
// without SHA instructions) was half the CPU the e2e test process spent.
func Digest(data []byte) string {
	return fmt.Sprintf("%016x-%d", maphash.Bytes(seed, data), len(data))
}

// Fingerprint says what of a file a snapshot compares: rel is its path
// relative to the snapshot's base, slash-separated.
type Fingerprint func(rel string, data []byte, fi fs.FileInfo) string

// Snapshot walks each of roots and maps every file's path, relative to base,
// to its fingerprint.
func Snapshot(t testing.TB, base string, roots []string, fp Fingerprint) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(base, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			switch {
			case d.IsDir() && (rel == ".agentos/backups" || rel == ".agentos/.cache"):
				return filepath.SkipDir
			case d.IsDir():
				return nil
			case strings.HasPrefix(rel, ".agentos/state/upgrade/") && strings.HasSuffix(rel, ".json"):
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			out[rel] = fp(rel, data, fi)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Diff lists, sorted, the paths whose fingerprints differ between a and b;
// those only in b are marked " (new)".
func Diff(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k+" (new)")
		}
	}
	sort.Strings(out)
	return out
}
