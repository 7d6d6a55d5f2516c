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

// RemoveLeftovers removes what a write cut short leaves beside the file,
// and nothing else: not the file, not other files' leftovers, not names that
// only look alike, not folders or symbolic links.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.snap")
	if err := WriteFile(path, []byte("saved"), 0o644); err != nil {
		t.Fatal(err)
	}
	var leftovers []string
	for range 2 { // as write creates them, and as a crash leaves them
		f, err := os.CreateTemp(dir, tempPrefix("index.snap")+"*")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("half a snapshot")
		f.Close()
		leftovers = append(leftovers, f.Name())
	}
	outside := filepath.Join(t.TempDir(), "precious")
	os.WriteFile(outside, []byte("keep"), 0o644)
	kept := []string{"index.snap", ".index.snap.tmp-", ".index.snap.tmp-12ab", "index.snap.tmp-1", ".other.snap.tmp-1", ".index.snap.tmp-1.bak", "notes.txt"}
	for _, name := range kept[1:] {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, ".index.snap.tmp-77"), 0o755)
	kept = append(kept, ".index.snap.tmp-77")
	if err := os.Symlink(outside, filepath.Join(dir, ".index.snap.tmp-78")); err == nil {
		kept = append(kept, ".index.snap.tmp-78")
	}

	removed, err := RemoveLeftovers(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != len(leftovers) {
		t.Errorf("removed %v, want %v", removed, leftovers)
	}
	for _, l := range leftovers {
		if _, err := os.Lstat(l); !os.IsNotExist(err) {
			t.Errorf("leftover %s is still there", l)
		}
	}
	for _, name := range kept {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep" {
		t.Error("the file a look-alike link points to was touched")
	}
	if removed, err := RemoveLeftovers(filepath.Join(t.TempDir(), "gone", "index.snap")); err != nil || removed != nil {
		t.Errorf("a missing folder: %v %v", removed, err)
	}
}

// A chain of links (relative and absolute) is written through: every link
// stays a link, the file at the end gets the content, and the temporary
// file was made beside it, not beside the first link.
func TestWriteThroughKeepsLinks(t *testing.T) {
	home, store := t.TempDir(), t.TempDir()
	target := filepath.Join(store, "config.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(home, "mid.json")
	link := filepath.Join(home, ".config.json")
	if err := os.Symlink(target, mid); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("mid.json", link); err != nil {
		t.Fatal(err)
	}
	if got, err := Resolve(link); err != nil || got != target {
		t.Fatalf("Resolve = %q, %v; want %q", got, err, target)
	}
	if err := WriteThrough(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v %v", l, fi, err)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Fatalf("target holds %q", data)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 2 {
		t.Fatalf("the link's folder got more than the links: %v", entries)
	}
}

// A link to nothing and a loop of links are refused, and nothing is
// written anywhere.
func TestWriteThroughRefusesDanglingAndLoops(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink(filepath.Join(dir, "gone", "x.json"), dangling); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	err := WriteThrough(dangling, []byte("x"), 0o644)
	var de *DanglingLinkError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("dangling link: %v", err)
	}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if err := WriteThrough(a, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Fatalf("loop: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Fatalf("something was written: %v", entries)
	}
	// A path that is not a link resolves to itself, present or not.
	if got, err := Resolve(filepath.Join(dir, "new.json")); err != nil || got != filepath.Join(dir, "new.json") {
		t.Fatalf("Resolve of a new file = %q, %v", got, err)
	}
}
