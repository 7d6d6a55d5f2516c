package filesum

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func digest(data string) string {
	s := sha256.Sum256([]byte(data))
	return hex.EncodeToString(s[:])
}

// useCache points the user cache folder at a temporary one and returns the
// folder entries go to.
func useCache(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", base)
	t.Setenv("HOME", base) // macOS: ~/Library/Caches
	old := minRemembered
	minRemembered = 0 // the files here are a few bytes
	t.Cleanup(func() { minRemembered = old })
	return cacheDir()
}

func TestSumIsTheFilesDigest(t *testing.T) {
	useCache(t)
	path := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(path, []byte("build one"), 0o755); err != nil {
		t.Fatal(err)
	}
	for range 2 { // computed, then remembered
		if got, err := Sum(path); err != nil || got != digest("build one") {
			t.Fatalf("Sum = %q, %v", got, err)
		}
	}
	if _, err := Sum(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("no error for a missing file")
	}
}

// A remembered digest answers only for the version of the file it was
// computed from: rewriting the file with the same size and putting its
// modification time back still reads the new content.
func TestSumFollowsTheFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("nothing is remembered without a change time")
	}
	dir := useCache(t)
	path := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(path, []byte("build one"), 0o755); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if _, err := Sum(path); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("cache holds %d entries, want 1", len(entries))
	}
	// The cache is what answers: a forged entry for this version is believed.
	entry := filepath.Join(dir, entries[0].Name())
	forged := strings.Repeat("ab", 32)
	if err := os.WriteFile(entry, []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := Sum(path); got != forged {
		t.Fatalf("the remembered digest was not used: %s", got)
	}
	// A torn entry is a miss, and is written again.
	if err := os.WriteFile(entry, []byte("ab"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := Sum(path); got != digest("build one") {
		t.Fatalf("a torn entry gave %s", got)
	}

	time.Sleep(10 * time.Millisecond) // a change time the clock can tell apart
	if err := os.WriteFile(path, []byte("build two"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got, _ := Sum(path); got != digest("build two") {
		t.Fatalf("after a rewrite with the old size and time: %s, want the new content's digest", got)
	}
}

func TestOldEntriesArePruned(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("nothing is remembered without a change time")
	}
	dir := useCache(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old, fresh := filepath.Join(dir, "old"), filepath.Join(dir, "fresh")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte(digest(p)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-keep - time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(path, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Sum(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Error("an entry older than keep was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a recent entry was removed")
	}
}

func TestSmallFilesAreNotRemembered(t *testing.T) {
	dir := useCache(t)
	minRemembered = 100
	path := filepath.Join(t.TempDir(), "stand-in")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Sum(path); err != nil || got != digest("#!/bin/sh\n") {
		t.Fatalf("Sum = %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a small file's digest was kept: %d entries", len(entries))
	}
}
