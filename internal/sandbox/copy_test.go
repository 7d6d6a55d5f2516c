package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// writeTree writes files (relative paths with slashes → content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCopyTreeLeavesOutWhatIsSkippedAndFollowsNoLink(t *testing.T) {
	src, dst, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, src, map[string]string{
		"main.go":                    "package main\n",
		"sub/dir/a.txt":              "a",
		".agentos/.cache/auth_token": "secret-token",
		".agentos/state/approvals/x": "approved",
		".agentos/bin/agentos":       "binary",
	})
	writeTree(t, outside, map[string]string{"secret": "outside"})
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(src, "main.go"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(src, "sub/dir/a.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := runtime.GOOS != "windows"
	if linked {
		if err := os.Symlink(outside, filepath.Join(src, "out")); err != nil {
			t.Fatal(err)
		}
	}
	var cloned []string
	clone := func(from, to string) error {
		rel, _ := filepath.Rel(src, from)
		cloned = append(cloned, filepath.ToSlash(rel))
		return errors.New("no clones here")
	}
	if err := copyTree(src, dst, []string{".agentos/state", ".agentos/.cache/"}, clone); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dst, "main.go")); got != "package main\n" {
		t.Errorf("main.go = %q", got)
	}
	if fi, err := os.Stat(filepath.Join(dst, "main.go")); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("main.go lost its time: %v %v", fi.ModTime(), err)
	}
	if fi, err := os.Stat(filepath.Join(dst, "sub/dir/a.txt")); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o755) {
		t.Errorf("a.txt lost its mode: %v %v", fi, err)
	}
	if got := readFile(t, filepath.Join(dst, ".agentos/bin/agentos")); got != "binary" {
		t.Errorf(".agentos/bin/agentos = %q", got)
	}
	for _, rel := range []string{".agentos/state", ".agentos/.cache"} {
		if _, err := os.Lstat(filepath.Join(dst, filepath.FromSlash(rel))); err == nil {
			t.Errorf("%s was copied", rel)
		}
	}
	if linked {
		fi, err := os.Lstat(filepath.Join(dst, "out"))
		if err != nil || fi.Mode().Type() != os.ModeSymlink {
			t.Errorf("the link was not copied as a link: %v %v", fi, err)
		}
	}
	// A clone is tried on whole entries only, never on one holding a
	// skipped path, and a failed one falls back to a copy, whose entries
	// are tried again.
	for _, rel := range []string{"main.go", "sub", "sub/dir", ".agentos/bin"} {
		if !slices.Contains(cloned, rel) {
			t.Errorf("no clone was tried for %s: %v", rel, cloned)
		}
	}
	for _, rel := range []string{".agentos", ".agentos/state", ".agentos/.cache"} {
		if slices.Contains(cloned, rel) {
			t.Errorf("a clone was tried for %s: %v", rel, cloned)
		}
	}
}

func TestCopyTreeKeepsAWholeClone(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	writeTree(t, src, map[string]string{"a/b.txt": "b", "c.txt": "c"})
	clone := func(from, to string) error {
		// Stands for an APFS clone: the entry arrives whole.
		return os.CopyFS(to, os.DirFS(from))
	}
	cloneFile := func(from, to string) error {
		if fi, err := os.Lstat(from); err == nil && fi.Mode().IsRegular() {
			return copyFile(from, to, fi)
		}
		return clone(from, to)
	}
	if err := copyTree(src, dst, nil, cloneFile); err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(dst, "a/b.txt")) != "b" || readFile(t, filepath.Join(dst, "c.txt")) != "c" {
		t.Error("the clones are not in the copy")
	}
}

func TestApplyLayerReplacesAndFollowsNoLink(t *testing.T) {
	root, layer, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"main.go": "package main\n", "pkg/keep.go": "keep"})
	writeTree(t, layer, map[string]string{"main.go": "package stub\n", "pkg/new.go": "new", "via/x.go": "x"})
	writeTree(t, outside, map[string]string{"x.go": "outside"})
	if runtime.GOOS != "windows" {
		if err := os.Symlink(outside, filepath.Join(root, "via")); err != nil {
			t.Fatal(err)
		}
	}
	if err := applyLayer(layer, root); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{"main.go": "package stub\n", "pkg/keep.go": "keep", "pkg/new.go": "new", "via/x.go": "x"} {
		if got := readFile(t, filepath.Join(root, filepath.FromSlash(rel))); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if got := readFile(t, filepath.Join(outside, "x.go")); got != "outside" {
		t.Errorf("the layer was written through a link: %q", got)
	}
}

func TestRemoveBeneathRootFollowsNoLink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"main.go": "package main\n", "dir/f": "f"})
	writeTree(t, outside, map[string]string{"victim": "keep"})
	if runtime.GOOS != "windows" {
		if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"main.go", "dir/f", "link/victim", "missing/file", "../escape"} {
		if err := removeBeneathRoot(root, rel); err != nil {
			t.Errorf("removing %s: %v", rel, err)
		}
	}
	for _, rel := range []string{"main.go", "dir/f"} {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			t.Errorf("%s is still there", rel)
		}
	}
	if got := readFile(t, filepath.Join(outside, "victim")); got != "keep" {
		t.Error("a removal followed a link")
	}
}

func TestPlainFileRefusesLinksAndOtherFiles(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"real/r.xml": "ok"})
	writeTree(t, outside, map[string]string{"hostname": "outside"})
	if _, _, ok := plainFile(root, "real/r.xml"); !ok {
		t.Error("a plain file is refused")
	}
	for _, rel := range []string{"real", "missing.xml", "../x", "."} {
		if p, _, ok := plainFile(root, rel); ok {
			t.Errorf("plainFile(%q) = %s", rel, p)
		}
	}
	if runtime.GOOS == "windows" {
		return
	}
	if err := os.Symlink(outside, filepath.Join(root, "reports")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "hostname"), filepath.Join(root, "report.xml")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"reports/hostname", "report.xml"} {
		if p, _, ok := plainFile(root, rel); ok {
			t.Errorf("plainFile(%q) = %s, through a link", rel, p)
		}
	}
}

func TestMarksTellWrittenFilesFromFoundOnes(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"stale.xml": "<old/>", "same.xml": "<same/>", "kept.txt": "k"})
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, rel := range []string{"stale.xml", "same.xml", "kept.txt"} {
		if err := os.Chtimes(filepath.Join(root, rel), old, old); err != nil {
			t.Fatal(err)
		}
	}
	m, err := recordMarks(root)
	if err != nil {
		t.Fatal(err)
	}
	// The run: rewrites stale.xml, writes same.xml's bytes again, makes new.
	writeTree(t, root, map[string]string{"stale.xml": "<new/>", "same.xml": "<same/>", "new/r.xml": "r"})
	for rel, want := range map[string]bool{"stale.xml": true, "same.xml": true, "new/r.xml": true, "kept.txt": false} {
		_, fi, ok := plainFile(root, rel)
		if !ok {
			t.Fatalf("%s is gone", rel)
		}
		if got := m.written(rel, fi); got != want {
			t.Errorf("written(%s) = %v, want %v", rel, got, want)
		}
	}
}

func TestWithin(t *testing.T) {
	dirs := []string{".agentos/state", ".agentos/backups/"}
	for rel, want := range map[string]bool{
		".agentos/state": true, ".agentos/state/x": true, ".agentos/backups/a/b": true,
		".agentos/stateful": false, ".agentos": false, "main.go": false,
	} {
		if got := within(rel, dirs); got != want {
			t.Errorf("within(%q) = %v, want %v", rel, got, want)
		}
	}
}
