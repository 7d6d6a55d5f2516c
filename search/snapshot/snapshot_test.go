package snapshot

import (
	"bytes"
	"errors"
	"fmt"
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

// WriteStream writes the file Write writes; a fill that fails leaves the
// snapshot there before untouched and no temporary file.
func TestWriteStream(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.snap"), filepath.Join(dir, "b.snap")
	secs := []Section{{"meta", []byte("hello")}, {"empty", nil}, {"big", make([]byte, 3<<20)}}
	if err := Write(a, 2, secs); err != nil {
		t.Fatal(err)
	}
	err := WriteStream(b, 2, func(add func(string, []byte) error) error {
		for _, s := range secs {
			if err := add(s.Name, s.Data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatalf("streamed file differs from the written one (%d and %d bytes)", len(db), len(da))
	}
	failed := errors.New("encode failed")
	err = WriteStream(b, 2, func(add func(string, []byte) error) error {
		if err := add("meta", []byte("other")); err != nil {
			return err
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("failed fill: %v", err)
	}
	if got, err := Read(b, 2); err != nil || string(got["meta"]) != "hello" {
		t.Errorf("after a failed write: %v %q", err, got["meta"])
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files left: %v", entries)
	}
}

// ReadStream hands over the sections in the order they were written, each
// in its own buffer; a damaged file is found out before any is handed over,
// and an error of the caller's stops the read and comes back as it is.
func TestReadStream(t *testing.T) {
	p := filepath.Join(t.TempDir(), "index.snap")
	secs := []Section{{"header", []byte("h")}, {"big", bytes.Repeat([]byte{7}, 3<<20)}, {"empty", nil}, {"tail", []byte("t")}}
	if err := Write(p, 5, secs); err != nil {
		t.Fatal(err)
	}
	var names []string
	var kept [][]byte
	if err := ReadStream(p, 5, func(name string, data []byte) error {
		names = append(names, name)
		kept = append(kept, data)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(names); got != "[header big empty tail]" {
		t.Fatalf("sections %s, want them in the order written", got)
	}
	for i, s := range secs {
		if !bytes.Equal(kept[i], s.Data) {
			t.Errorf("section %s: %d bytes, want %d", s.Name, len(kept[i]), len(s.Data))
		}
	}
	kept[0][0] = 'x' // a buffer of its own: changing it changes no other
	if kept[3][0] != 't' {
		t.Error("sections share a buffer")
	}

	stop := errors.New("embedder changed")
	calls := 0
	if err := ReadStream(p, 5, func(string, []byte) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("an error of the caller's: %v after %d calls, want it back after one", err, calls)
	}

	data, _ := os.ReadFile(p)
	for what, bad := range map[string][]byte{
		"a flipped byte of the last section": func() []byte {
			b := bytes.Clone(data)
			b[len(b)-1] ^= 1
			return b
		}(),
		"truncated":      data[:len(data)-3],
		"extended":       append(bytes.Clone(data), 0),
		"not a snapshot": []byte("hello, world, this is no index"),
	} {
		os.WriteFile(p, bad, 0o644)
		calls = 0
		err := ReadStream(p, 5, func(string, []byte) error { calls++; return nil })
		if !errors.Is(err, ErrCorrupt) || calls != 0 {
			t.Errorf("%s: %v after %d sections, want ErrCorrupt before any", what, err, calls)
		}
	}
}
