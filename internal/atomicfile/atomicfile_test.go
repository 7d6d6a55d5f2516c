package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCopyReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bin")
	if err := WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Copy(path, strings.NewReader("new content"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(data) != "new content" || fi.Mode().Perm() != 0o755 {
		t.Errorf("got %q %v", data, fi.Mode())
	}
}

type failing struct{ n int }

func (f *failing) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("device went away")
	}
	f.n--
	return copy(p, "partial"), nil
}

// A source that fails part-way leaves the old file as it was and no
// temporary file behind.
func TestCopyFailureKeepsOriginal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bin")
	if err := WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Copy(path, io.MultiReader(&failing{n: 3}), 0o755)
	if err == nil || !strings.Contains(err.Error(), "device went away") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("original = %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
