package snapshot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRoundTripAndDamage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "index.snap")
	if _, err := Read(p, 1); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	secs := []Section{{"meta", []byte("hello")}, {"empty", nil}, {"big", make([]byte, 100000)}}
	if err := Write(p, 3, secs); err != nil {
		t.Fatal(err)
	}
	got, err := Read(p, 3)
	if err != nil {
		t.Fatal(err)
	}
	if string(got["meta"]) != "hello" || len(got["empty"]) != 0 || len(got["big"]) != 100000 {
		t.Fatalf("sections %v", len(got))
	}
	if _, err := Read(p, 4); !errors.Is(err, ErrVersion) {
		t.Errorf("version: %v", err)
	}
	data, _ := os.ReadFile(p)
	// Truncated.
	os.WriteFile(p, data[:len(data)-10], 0o644)
	if _, err := Read(p, 3); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
	// One flipped byte.
	bad := append([]byte(nil), data...)
	bad[len(bad)/2] ^= 0x40
	os.WriteFile(p, bad, 0o644)
	if _, err := Read(p, 3); !errors.Is(err, ErrCorrupt) {
		t.Errorf("flipped byte: %v", err)
	}
	// Not a snapshot at all.
	os.WriteFile(p, []byte("hello"), 0o644)
	if _, err := Read(p, 3); !errors.Is(err, ErrCorrupt) {
		t.Errorf("garbage: %v", err)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}
