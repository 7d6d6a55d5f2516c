package fsys

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/server/toolkit"
)

func TestNew(t *testing.T) {
	if _, err := New("relative/root", Options{}); err == nil {
		t.Error("relative root accepted")
	}
	if _, err := New(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Error("missing root accepted")
	}
	file := filepath.Join(t.TempDir(), "file")
	must(t, os.WriteFile(file, nil, 0o644))
	if _, err := New(file, Options{}); err == nil {
		t.Error("file as root accepted")
	}
	tl, err := New(t.TempDir(), Options{})
	must(t, err)
	a := tl.Def.Annotations
	if tl.Def.Name != Name || *a.ReadOnlyHint || !*a.DestructiveHint || *a.IdempotentHint || *a.OpenWorldHint {
		t.Errorf("definition: name %q annotations %+v", tl.Def.Name, a)
	}
}

func TestUnknownAction(t *testing.T) {
	f := newFixture(t)
	e := f.fail(t, map[string]any{"action": "chmod", "path": "README.md"}, toolkit.CodeValidation)
	if field(e) != "action" {
		t.Errorf("field %q", field(e))
	}
	f.fail(t, map[string]any{"action": "read", "path": 42}, toolkit.CodeValidation)
}

func TestRead(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "read", "path": "README.md"})
	if *out.Content != "hello\nworld\n" || *out.Truncated || out.TotalLines != 2 || out.StartLine != 1 || out.EndLine != 2 || *out.Size != 12 || out.Path != "README.md" {
		t.Errorf("full read: %+v", out)
	}
	// Through a symlink inside the root, and by an absolute path inside it.
	out = f.ok(t, map[string]any{"action": "read", "path": "inlink/main.go"})
	if *out.Content != "package main\n" || out.Path != "inlink/main.go" {
		t.Errorf("read through symlink: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "read", "path": "inabs/main.go"})
	if *out.Content != "package main\n" {
		t.Errorf("read through absolute symlink: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "read", "path": filepath.ToSlash(f.path("src/main.go"))})
	if out.Path != "src/main.go" {
		t.Errorf("absolute path reported as %q", out.Path)
	}
	// An empty file is empty content, not an error.
	must(t, os.WriteFile(f.path("empty.txt"), nil, 0o644))
	out = f.ok(t, map[string]any{"action": "read", "path": "empty.txt"})
	if *out.Content != "" || *out.Truncated || out.TotalLines != 0 {
		t.Errorf("empty read: %+v", out)
	}

	f.fail(t, map[string]any{"action": "read", "path": "missing.txt"}, toolkit.CodeNotFound)
	e := f.fail(t, map[string]any{"action": "read", "path": "src"}, toolkit.CodeValidation)
	if !strings.Contains(e.Message, "list") {
		t.Errorf("directory read does not suggest list: %s", e.Message)
	}
	f.fail(t, map[string]any{"action": "read", "path": "README.md/x"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "read", "path": ""}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "read"}, toolkit.CodeValidation)
}

func TestReadPaging(t *testing.T) {
	f := newFixture(t)
	must(t, os.WriteFile(f.path("lines.txt"), []byte("1\n2\n3\n4\n5"), 0o644))
	out := f.ok(t, map[string]any{"action": "read", "path": "lines.txt", "start_line": 2, "max_lines": 2})
	if *out.Content != "2\n3\n" || !*out.Truncated || out.StartLine != 2 || out.EndLine != 3 || out.NextStartLine != 4 || out.TotalLines != 0 {
		t.Errorf("page: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "read", "path": "lines.txt", "start_line": 4, "max_lines": 2})
	if *out.Content != "4\n5" || *out.Truncated || out.TotalLines != 5 || out.NextStartLine != 0 {
		t.Errorf("last page: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "read", "path": "lines.txt", "start_line": 3, "max_lines": 3})
	if *out.Content != "3\n4\n5" || *out.Truncated {
		t.Errorf("page reaching the end exactly: %+v", out)
	}
	e := f.fail(t, map[string]any{"action": "read", "path": "lines.txt", "start_line": 6}, toolkit.CodeValidation)
	if field(e) != "start_line" || !strings.Contains(e.Message, "5 lines") {
		t.Errorf("past end: %+v", e)
	}
	must(t, os.WriteFile(f.path("nl.txt"), []byte("a\nb\n"), 0o644))
	f.fail(t, map[string]any{"action": "read", "path": "nl.txt", "start_line": 3}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "read", "path": "nl.txt", "start_line": -1}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "read", "path": "nl.txt", "max_lines": -1}, toolkit.CodeValidation)
}

func TestReadTruncation(t *testing.T) {
	f := newFixture(t, Options{MaxReadBytes: 10})
	must(t, os.WriteFile(f.path("long.txt"), []byte("aaaa\nbbbb\ncccc\n"), 0o644))
	out := f.ok(t, map[string]any{"action": "read", "path": "long.txt"})
	if *out.Content != "aaaa\nbbbb\n" || !*out.Truncated || *out.Size != 15 || out.NextStartLine != 3 || out.EndLine != 2 {
		t.Errorf("truncated read: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "read", "path": "long.txt", "start_line": out.NextStartLine})
	if *out.Content != "cccc\n" || *out.Truncated || out.TotalLines != 3 {
		t.Errorf("continued read: %+v", out)
	}
	// A line longer than the cap is cut on a rune boundary and the next page
	// starts after it.
	must(t, os.WriteFile(f.path("wide.txt"), []byte("ééééééé\nnext\n"), 0o644))
	out = f.ok(t, map[string]any{"action": "read", "path": "wide.txt"})
	if *out.Content != "ééééé" || !*out.Truncated || out.NextStartLine != 2 || out.EndLine != 1 {
		t.Errorf("cut line: %+v", out)
	}
}

func TestReadLongLineBeyondBuffer(t *testing.T) {
	f := newFixture(t)
	long := strings.Repeat("x", 200<<10) + "\nend\n"
	must(t, os.WriteFile(f.path("long.txt"), []byte(long), 0o644))
	out := f.ok(t, map[string]any{"action": "read", "path": "long.txt"})
	if *out.Content != long || out.TotalLines != 2 {
		t.Errorf("long line read: %d bytes, %+v lines", len(*out.Content), out.TotalLines)
	}
	out = f.ok(t, map[string]any{"action": "read", "path": "long.txt", "start_line": 2})
	if *out.Content != "end\n" {
		t.Errorf("skipping a long line: %q", *out.Content)
	}
}

func TestReadBinary(t *testing.T) {
	f := newFixture(t)
	must(t, os.WriteFile(f.path("blob.bin"), []byte("PK\x03\x04\x00\x00data"), 0o644))
	e := f.fail(t, map[string]any{"action": "read", "path": "blob.bin"}, toolkit.CodeBusinessLogic)
	if !strings.Contains(e.Message, "binary") {
		t.Errorf("message: %s", e.Message)
	}
}

func TestWrite(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "write", "path": "docs/new/guide.md", "content": "# Guide\n"})
	if !*out.Created || *out.BytesWritten != 8 || out.Path != "docs/new/guide.md" {
		t.Errorf("new file: %+v", out)
	}
	if got := readFile(t, f.path("docs/new/guide.md")); got != "# Guide\n" {
		t.Errorf("content %q", got)
	}
	// Replacing keeps the file's permissions and leaves no temporary file.
	must(t, os.Chmod(f.path("README.md"), 0o600))
	out = f.ok(t, map[string]any{"action": "write", "path": "README.md", "content": ""})
	if *out.Created || *out.BytesWritten != 0 {
		t.Errorf("replace: %+v", out)
	}
	fi, err := os.Stat(f.path("README.md"))
	must(t, err)
	if fi.Mode().Perm() != 0o600 || fi.Size() != 0 {
		t.Errorf("replaced file: mode %v size %d", fi.Mode(), fi.Size())
	}
	entries, err := os.ReadDir(f.root)
	must(t, err)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	// Writing through a symlink updates the target and keeps the link.
	f.ok(t, map[string]any{"action": "write", "path": "filelink", "content": "via link"})
	if fi, err := os.Lstat(f.path("filelink")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("symlink replaced: %v %v", fi, err)
	}
	if got := readFile(t, f.path("README.md")); got != "via link" {
		t.Errorf("target content %q", got)
	}
	// An absolute path inside the root works.
	f.ok(t, map[string]any{"action": "write", "path": filepath.ToSlash(f.path("abs.txt")), "content": "a"})

	e := f.fail(t, map[string]any{"action": "write", "path": "nope/x.txt", "content": "x", "create_parents": false}, toolkit.CodeNotFound)
	if !strings.Contains(e.Message, "create_parents") {
		t.Errorf("message: %s", e.Message)
	}
	f.fail(t, map[string]any{"action": "write", "path": "src", "content": "x"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "write", "path": "x.txt"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "write", "path": "README.md/x", "content": "x"}, toolkit.CodeValidation)
}

func TestWriteSizeCap(t *testing.T) {
	f := newFixture(t, Options{MaxWriteBytes: 4})
	f.ok(t, map[string]any{"action": "write", "path": "ok.txt", "content": "1234"})
	e := f.fail(t, map[string]any{"action": "write", "path": "big.txt", "content": "12345"}, toolkit.CodeValidation)
	if field(e) != "content" {
		t.Errorf("field %q", field(e))
	}
	f.fail(t, map[string]any{"action": "append", "path": "ok.txt", "content": "12345"}, toolkit.CodeValidation)
	if _, err := os.Stat(f.path("big.txt")); !os.IsNotExist(err) {
		t.Errorf("oversized write created the file: %v", err)
	}
}

func TestAppend(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "append", "path": "logs/notes.txt", "content": "one\n"})
	if !*out.Created || *out.Size != 4 {
		t.Errorf("first append: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "append", "path": "logs/notes.txt", "content": "two\n"})
	if *out.Created || *out.Size != 8 || *out.BytesWritten != 4 {
		t.Errorf("second append: %+v", out)
	}
	if got := readFile(t, f.path("logs/notes.txt")); got != "one\ntwo\n" {
		t.Errorf("content %q", got)
	}
}

func TestMkdir(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "mkdir", "path": "a/b/c"})
	if !*out.Created {
		t.Errorf("mkdir: %+v", out)
	}
	if fi, err := os.Stat(f.path("a/b/c")); err != nil || !fi.IsDir() {
		t.Errorf("not created: %v", err)
	}
	out = f.ok(t, map[string]any{"action": "mkdir", "path": "a/b/c"})
	if *out.Created {
		t.Errorf("second mkdir: %+v", out)
	}
	f.fail(t, map[string]any{"action": "mkdir", "path": "README.md"}, toolkit.CodeBusinessLogic)
	f.fail(t, map[string]any{"action": "mkdir", "path": "README.md/x"}, toolkit.CodeValidation)
}

func TestList(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "list", "path": "src"})
	if got := paths(out.Entries); got != "src/main.go src/util" || *out.Truncated || *out.Count != 2 {
		t.Errorf("list src: %s %+v", got, out)
	}
	main := out.Entries[0]
	if main.Name != "main.go" || main.Type != "file" || main.Size != 13 || main.Modified == "" {
		t.Errorf("entry: %+v", main)
	}

	out = f.ok(t, map[string]any{"action": "list"})
	got := paths(out.Entries)
	for _, want := range []string{".git", "README.md", "etclink", "loop_a", "outlink", "src"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("root listing lacks %s: %s", want, got)
		}
	}
	if strings.Contains(got, "src/") {
		t.Errorf("non-recursive listing went deeper: %s", got)
	}
	for _, e := range out.Entries {
		if e.Name == "outlink" && e.Type != "symlink" {
			t.Errorf("outlink type %s", e.Type)
		}
	}

	out = f.ok(t, map[string]any{"action": "list", "recursive": true})
	got = " " + paths(out.Entries) + " "
	if !strings.Contains(got, " src/util/util.go ") || !strings.Contains(got, " .git ") {
		t.Errorf("recursive listing: %s", got)
	}
	if strings.Contains(got, ".git/") || strings.Contains(got, "outlink/") || strings.Contains(got, "etclink/") || strings.Contains(got, "secret") {
		t.Errorf("recursive listing entered .git or a symlink: %s", got)
	}

	out = f.ok(t, map[string]any{"action": "list", "recursive": true, "max_results": 3})
	if len(out.Entries) != 3 || !*out.Truncated {
		t.Errorf("capped listing: %+v", out)
	}
	f.fail(t, map[string]any{"action": "list", "max_results": 1001}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "list", "path": "README.md"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "list", "path": "missing"}, toolkit.CodeNotFound)
}

func paths(entries []Entry) string {
	var ps []string
	for _, e := range entries {
		ps = append(ps, e.Path)
	}
	return strings.Join(ps, " ")
}

func TestStat(t *testing.T) {
	f := newFixture(t)
	must(t, os.Chmod(f.path("README.md"), 0o640))
	out := f.ok(t, map[string]any{"action": "stat", "path": "README.md"})
	if out.Type != "file" || *out.Size != 12 || out.Mode != "0640" || out.Modified == "" || out.Target != "" {
		t.Errorf("file: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "stat", "path": "src"})
	if out.Type != "dir" || out.Size != nil {
		t.Errorf("dir: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "stat", "path": "inlink"})
	if out.Type != "symlink" || out.Target != "src" || out.TargetType != "dir" {
		t.Errorf("symlink: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "stat", "path": "inabs"})
	if out.Target != "src" {
		t.Errorf("absolute symlink: %+v", out)
	}
	must(t, os.Symlink("gone.txt", f.path("dangling")))
	out = f.ok(t, map[string]any{"action": "stat", "path": "dangling"})
	if out.Type != "symlink" || out.Target != "gone.txt" || out.TargetType != "missing" {
		t.Errorf("dangling symlink: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "stat", "path": "."})
	if out.Type != "dir" || out.Path != "." {
		t.Errorf("root: %+v", out)
	}
	f.fail(t, map[string]any{"action": "stat", "path": "missing"}, toolkit.CodeNotFound)
}

func TestExists(t *testing.T) {
	f := newFixture(t)
	for p, want := range map[string]bool{"README.md": true, "src": true, "missing": false, "missing/deeper": false, "README.md/x": false, "inlink/main.go": true} {
		out := f.ok(t, map[string]any{"action": "exists", "path": p})
		if *out.Exists != want {
			t.Errorf("exists %s = %v, want %v", p, *out.Exists, want)
		}
	}
	must(t, os.Symlink("gone.txt", f.path("dangling")))
	out := f.ok(t, map[string]any{"action": "exists", "path": "dangling"})
	if !*out.Exists || out.Type != "symlink" {
		t.Errorf("dangling: %+v", out)
	}
}

func TestGlob(t *testing.T) {
	f := newFixture(t)
	must(t, os.WriteFile(f.path(".git/hooks.go"), []byte("x"), 0o644))
	out := f.ok(t, map[string]any{"action": "glob", "pattern": "**/*.go"})
	// inlink and inabs are symlinks to src: wildcards do not follow them.
	if got := paths(out.Entries); got != "src/main.go src/util/util.go" || *out.Count != 2 || *out.Truncated {
		t.Errorf("**/*.go: %s %+v", got, out)
	}
	out = f.ok(t, map[string]any{"action": "glob", "path": "src", "pattern": "*.go"})
	if got := paths(out.Entries); got != "src/main.go" {
		t.Errorf("with base path: %s", got)
	}
	out = f.ok(t, map[string]any{"action": "glob", "pattern": "inlink/*.go"})
	if got := paths(out.Entries); got != "inlink/main.go" {
		t.Errorf("literal symlink prefix inside root: %s", got)
	}
	out = f.ok(t, map[string]any{"action": "glob", "pattern": "src/{main,nope}.go"})
	if got := paths(out.Entries); got != "src/main.go" {
		t.Errorf("alternatives: %s", got)
	}
	out = f.ok(t, map[string]any{"action": "glob", "pattern": "**"})
	got := " " + paths(out.Entries) + " "
	if strings.Contains(got, " .git ") || strings.Contains(got, " .git/") || strings.Contains(got, "secret") || strings.Contains(got, "passwd") || strings.Contains(got, " . ") {
		t.Errorf("** reached .git, the base itself or left the root: %s", got)
	}
	if !strings.Contains(got, " src/util/util.go ") || !strings.Contains(got, " nested/.gitignore ") {
		t.Errorf("** missed entries: %s", got)
	}
	out = f.ok(t, map[string]any{"action": "glob", "pattern": ".git/*"})
	if len(out.Entries) != 0 {
		t.Errorf(".git searched: %s", paths(out.Entries))
	}
	out = f.ok(t, map[string]any{"action": "glob", "pattern": "**", "max_results": 2})
	if len(out.Entries) != 2 || !*out.Truncated {
		t.Errorf("capped: %+v", out)
	}
	out = f.ok(t, map[string]any{"action": "glob", "pattern": "missing/**"})
	if len(out.Entries) != 0 || *out.Count != 0 {
		t.Errorf("missing base: %+v", out)
	}
	f.fail(t, map[string]any{"action": "glob"}, toolkit.CodeValidation)
}

func TestMove(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "move", "path": "README.md", "destination": "docs/README.md"})
	if out.Path != "README.md" || out.Destination != "docs/README.md" || out.Type != "file" {
		t.Errorf("move: %+v", out)
	}
	if got := readFile(t, f.path("docs/README.md")); got != "hello\nworld\n" {
		t.Errorf("moved content %q", got)
	}
	f.fail(t, map[string]any{"action": "move", "path": "README.md", "destination": "x"}, toolkit.CodeNotFound)

	// No overwrite unless asked; directories are never replaced.
	must(t, os.WriteFile(f.path("a.txt"), []byte("a"), 0o644))
	must(t, os.WriteFile(f.path("b.txt"), []byte("b"), 0o644))
	e := f.fail(t, map[string]any{"action": "move", "path": "a.txt", "destination": "b.txt"}, toolkit.CodeBusinessLogic)
	if !strings.Contains(e.Message, "overwrite") {
		t.Errorf("message: %s", e.Message)
	}
	f.fail(t, map[string]any{"action": "move", "path": "a.txt", "destination": "src", "overwrite": true}, toolkit.CodeBusinessLogic)
	f.ok(t, map[string]any{"action": "move", "path": "a.txt", "destination": "b.txt", "overwrite": true})
	if got := readFile(t, f.path("b.txt")); got != "a" {
		t.Errorf("overwritten content %q", got)
	}

	// Directories move whole, but not into themselves.
	f.fail(t, map[string]any{"action": "move", "path": "src", "destination": "src/inner"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "move", "path": "src", "destination": "src"}, toolkit.CodeValidation)
	f.ok(t, map[string]any{"action": "move", "path": "src", "destination": "lib/src"})
	if got := readFile(t, f.path("lib/src/util/util.go")); got != "package util\n" {
		t.Errorf("moved tree: %q", got)
	}
	f.fail(t, map[string]any{"action": "move", "path": "b.txt", "destination": "no/parent.txt", "create_parents": false}, toolkit.CodeNotFound)
	f.fail(t, map[string]any{"action": "move", "path": "b.txt"}, toolkit.CodeValidation)

	// A symlink is moved itself, not its target.
	f.ok(t, map[string]any{"action": "move", "path": "filelink", "destination": "link2"})
	if fi, err := os.Lstat(f.path("link2")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("symlink not moved as a link: %v", err)
	}
}

func TestCopy(t *testing.T) {
	f := newFixture(t)
	must(t, os.Chmod(f.path("src/main.go"), 0o755))
	out := f.ok(t, map[string]any{"action": "copy", "path": "src/main.go", "destination": "bin/main.go"})
	if *out.BytesWritten != 13 || *out.Count != 1 || out.Type != "file" {
		t.Errorf("copy file: %+v", out)
	}
	if fi, err := os.Stat(f.path("bin/main.go")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("copied file mode: %v %v", fi, err)
	}
	f.fail(t, map[string]any{"action": "copy", "path": "README.md", "destination": "bin/main.go"}, toolkit.CodeBusinessLogic)
	f.ok(t, map[string]any{"action": "copy", "path": "README.md", "destination": "bin/main.go", "overwrite": true})
	if got := readFile(t, f.path("bin/main.go")); got != "hello\nworld\n" {
		t.Errorf("overwritten copy %q", got)
	}

	e := f.fail(t, map[string]any{"action": "copy", "path": "src", "destination": "src2"}, toolkit.CodeValidation)
	if field(e) != "recursive" {
		t.Errorf("field %q", field(e))
	}
	must(t, os.Symlink("main.go", f.path("src/alias.go")))
	out = f.ok(t, map[string]any{"action": "copy", "path": "src", "destination": "src2", "recursive": true})
	if *out.Count != 2 || out.Type != "dir" {
		t.Errorf("copy tree: %+v", out)
	}
	if got := readFile(t, f.path("src2/util/util.go")); got != "package util\n" {
		t.Errorf("copied tree content %q", got)
	}
	if dest, err := os.Readlink(f.path("src2/alias.go")); err != nil || dest != "main.go" {
		t.Errorf("symlink in tree: %q %v", dest, err)
	}
	f.fail(t, map[string]any{"action": "copy", "path": "src", "destination": "src/deeper", "recursive": true}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "copy", "path": "src", "destination": "inlink/deeper", "recursive": true}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "copy", "path": "src", "destination": "src2", "recursive": true}, toolkit.CodeBusinessLogic)
	f.fail(t, map[string]any{"action": "copy", "path": "missing", "destination": "x"}, toolkit.CodeNotFound)
}

func TestDelete(t *testing.T) {
	f := newFixture(t)
	out := f.ok(t, map[string]any{"action": "delete", "path": "README.md"})
	if out.Type != "file" {
		t.Errorf("delete: %+v", out)
	}
	if _, err := os.Stat(f.path("README.md")); !os.IsNotExist(err) {
		t.Errorf("file still there: %v", err)
	}
	f.fail(t, map[string]any{"action": "delete", "path": "README.md"}, toolkit.CodeNotFound)

	e := f.fail(t, map[string]any{"action": "delete", "path": "src"}, toolkit.CodeValidation)
	if field(e) != "recursive" {
		t.Errorf("field %q", field(e))
	}
	// A symlink is deleted itself; its target stays.
	f.ok(t, map[string]any{"action": "delete", "path": "inlink"})
	if _, err := os.Stat(f.path("src/main.go")); err != nil {
		t.Errorf("symlink target removed: %v", err)
	}
	f.ok(t, map[string]any{"action": "delete", "path": "src", "recursive": true})
	if _, err := os.Stat(f.path("src")); !os.IsNotExist(err) {
		t.Errorf("tree still there: %v", err)
	}
	f.fail(t, map[string]any{"action": "delete", "path": ""}, toolkit.CodeValidation)
}

// TestRootEnforcesConfinement bypasses the up-front checks and shows that
// the os.Root still refuses to leave the root.
func TestRootEnforcesConfinement(t *testing.T) {
	f := newFixture(t)
	tl, err := newTool(f.root, Options{})
	must(t, err)
	r, err := os.OpenRoot(f.root)
	must(t, err)
	defer r.Close()
	o := &op{tool: tl, ctx: context.Background(), r: r, in: input{Action: actWrite}}
	before := snapshot(t, f.base)
	for _, name := range []string{"outlink/secret.txt", "sub/up/outside/secret.txt", "../outside/secret.txt"} {
		err := o.writeAtomic(name, strings.NewReader("pwned"), 0o644, false)
		var te *toolkit.Error
		if err == nil {
			t.Fatalf("write %s succeeded", name)
		}
		if mapped := o.osError("path", name, err); !asToolkit(mapped, &te) || te.Code != toolkit.CodeForbidden {
			t.Errorf("write %s: %v maps to %v", name, err, mapped)
		}
	}
	sameSnapshot(t, before, snapshot(t, f.base))
}

func asToolkit(err error, te **toolkit.Error) bool {
	e, ok := err.(*toolkit.Error)
	*te = e
	return ok
}
