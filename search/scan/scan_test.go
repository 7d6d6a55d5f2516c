package scan

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func write(t *testing.T, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func paths(fs []File) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}

func TestWalkHonoursIgnoreRules(t *testing.T) {
	root := t.TempDir()
	src := []byte("package x\n")
	for _, rel := range []string{
		"main.go",
		"gen/out.go",          // ignored by the root .gitignore (folder)
		"pkg/a.go",            //
		"pkg/a_gen.go",        // ignored by pkg/.gitignore
		"pkg/keep_gen.go",     // re-included by pkg/.gitignore
		"other/a_gen.go",      // pkg's rule does not reach here
		"secret/key.go",       // ignored by info/exclude
		"node_modules/m/x.go", // built-in
		"vendor/v/x.go",       // built-in
		"sub/dist/x.go",       // built-in, nested
		"target/x.go",         // built-in
		".venv/lib/x.go",      // built-in
		".hidden/x.go",        // hidden folder
		"notes.txt",           // extension
		"debug.log.go",        // ignored by *.log.go
	} {
		write(t, root, rel, src)
	}
	write(t, root, "bin.go", []byte("package x\x00\x01"))
	write(t, root, "big.go", bytes.Repeat([]byte("a"), 2<<20))
	write(t, root, ".gitignore", []byte("# comment\n/gen/\n*.log.go\n"))
	write(t, root, "pkg/.gitignore", []byte("*_gen.go\n!keep_gen.go\n"))
	write(t, root, ".git/info/exclude", []byte("secret\n"))
	if err := os.Symlink(filepath.Join(root, "main.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}

	s, err := New(Options{Root: root, Extensions: []string{".go"}, Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Walk()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bin.go", "main.go", "other/a_gen.go", "pkg/a.go", "pkg/keep_gen.go"}
	if !reflect.DeepEqual(paths(got), want) {
		t.Errorf("Walk = %q\nwant   %q", paths(got), want)
	}
	if _, _, err := s.ReadFile("bin.go"); !errors.Is(err, ErrBinary) {
		t.Errorf("binary file: %v", err)
	}
	if _, _, err := s.ReadFile("big.go"); !errors.Is(err, ErrTooBig) {
		t.Errorf("big file: %v", err)
	}
	if data, info, err := s.ReadFile("main.go"); err != nil || string(data) != "package x\n" || info.Size != 10 {
		t.Errorf("ReadFile: %q %+v %v", data, info, err)
	}

	for rel, want := range map[string]bool{
		"main.go": true, "pkg/a.go": true, "pkg/keep_gen.go": true, "pkg/new.go": true,
		"pkg/a_gen.go": false, "gen/out.go": false, "secret/key.go": false, "node_modules/m/x.go": false,
		"sub/dist/x.go": false, ".hidden/x.go": false, "notes.txt": false, "../up.go": false, "debug.log.go": false,
	} {
		if ok, why := s.Accept(rel); ok != want {
			t.Errorf("Accept(%q) = %v (%s), want %v", rel, ok, why, want)
		}
	}
}

func TestPathsAndGitignoreOff(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".agentos/standards/universal/a.md", []byte("# A\n"))
	write(t, root, ".agentos/standards/development/b.md", []byte("# B\n"))
	write(t, root, ".agentos/workflows/w.md", []byte("# W\n"))
	write(t, root, ".agentos/other/c.md", []byte("# C\n"))
	write(t, root, ".gitignore", []byte(".agentos/\n"))
	write(t, root, ".git/HEAD", []byte("ref: refs/heads/main\n"))
	s, err := New(Options{Root: root, Paths: []string{".agentos/standards", ".agentos/workflows"}, Extensions: []string{".md"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Walk()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".agentos/standards/development/b.md", ".agentos/standards/universal/a.md", ".agentos/workflows/w.md"}
	if !reflect.DeepEqual(paths(got), want) {
		t.Errorf("Walk = %q", paths(got))
	}
	if ok, _ := s.Accept(".agentos/other/c.md"); ok {
		t.Errorf("accepted a path outside the configured folders")
	}
	// With git rules on, the ignored folder drops out.
	s, _ = New(Options{Root: root, Paths: []string{".agentos/standards"}, Extensions: []string{".md"}, Gitignore: true})
	if got, _ := s.Walk(); len(got) != 0 {
		t.Errorf("ignored configured folder walked: %q", paths(got))
	}
	if _, err := (func() ([]File, error) {
		s, _ := New(Options{Root: root, Paths: []string{"missing"}})
		return s.Walk()
	})(); err == nil {
		t.Errorf("missing source path: no error")
	}
}

// Files are read through the path policy: no symbolic link is followed, not
// to a file outside, not through a folder; a second hard link and a secret
// are refused; a configured path that is a link is an error, not a walk.
func TestReadFollowsNoLink(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	write(t, outside, "secret.go", []byte("package outside // OUTSIDE-UNIQUE\n"))
	write(t, root, "src/a.go", []byte("package src\n"))
	write(t, root, ".agentos/.cache/auth_token", []byte("token\n"))
	for link, target := range map[string]string{
		"src/out.go":  filepath.Join(outside, "secret.go"),
		"src/in.go":   "a.go",
		"outdir":      outside,
		"src/token":   filepath.Join(root, ".agentos", ".cache", "auth_token"),
		"linked-tree": filepath.Join(root, "src"),
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(Options{Root: root, Extensions: []string{".go"}, Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	files, err := s.Walk()
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(files); !reflect.DeepEqual(got, []string{"src/a.go"}) {
		t.Errorf("walk = %v, want only src/a.go", got)
	}
	if data, _, err := s.ReadFile("src/a.go"); err != nil || string(data) != "package src\n" {
		t.Fatalf("src/a.go: %q %v", data, err)
	}
	for _, rel := range []string{"src/out.go", "src/in.go", "outdir/secret.go", "src/token", "linked-tree/a.go", ".agentos/.cache/auth_token"} {
		if data, _, err := s.ReadFile(rel); !errors.Is(err, ErrNotFollowed) {
			t.Errorf("%s: %q %v, want ErrNotFollowed", rel, data, err)
		}
	}
	if err := os.Link(filepath.Join(outside, "secret.go"), filepath.Join(root, "src", "hard.go")); err != nil {
		t.Skipf("hard links: %v", err)
	}
	if data, _, err := s.ReadFile("src/hard.go"); err == nil || errors.Is(err, ErrNotFollowed) {
		t.Errorf("hard link: %q %v, want an unreadable file", data, err)
	}
	// A configured path that is a symbolic link is refused, not walked.
	for _, p := range []string{"outdir", "linked-tree", "outdir/sub"} {
		s, err := New(Options{Root: root, Paths: []string{p}})
		if err != nil {
			t.Fatal(err)
		}
		if files, err := s.Walk(); !errors.Is(err, ErrNotFollowed) {
			t.Errorf("walk of %s: %v %v, want ErrNotFollowed", p, paths(files), err)
		}
	}
}

// A project that is not a git repository still has its .gitignore honoured.
func TestGitignoreOutsideARepository(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		".gitignore":       "generated/\n*.tmp.go\n",
		"a.go":             "package a\n",
		"b.tmp.go":         "package a\n",
		"generated/gen.go": "package generated\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	s, err := New(Options{Root: root, Paths: []string{"."}, Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	files, err := s.Walk()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	if !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("walked %v", got)
	}
	if ok, _ := s.Accept("generated/gen.go"); ok {
		t.Error("a file in an ignored folder is accepted")
	}
}
