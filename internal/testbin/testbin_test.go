package testbin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// module lays out a small module: a command, a package it imports with an
// embedded file, and a package it does not import.
func module(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"cmd/hi/main.go":   "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/lib\"\n)\n\nfunc main() { fmt.Print(lib.Greeting()) }\n",
		"lib/lib.go":       "package lib\n\nimport _ \"embed\"\n\n//go:embed greeting.txt\nvar greeting string\n\nfunc Greeting() string { return greeting }\n",
		"lib/greeting.txt": "hello",
		"lib/lib_test.go":  "package lib\n",
		"other/other.go":   "package other\n",
		"lib/tagged.go":    "//go:build special\n\npackage lib\n",
	}
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}
	return dir
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func spec(dir string) Spec {
	return Spec{Dir: dir, Package: "./cmd/hi", Flags: []string{"-trimpath"}, Env: []string{"CGO_ENABLED=0"}}
}

func key(t *testing.T, s Spec) string {
	t.Helper()
	k, err := Key(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Every input of the build changes the key; what is not built into the
// binary does not.
func TestKeyFollowsTheSources(t *testing.T) {
	t.Parallel()
	dir := module(t)
	base := key(t, spec(dir))
	if key(t, spec(dir)) != base {
		t.Fatal("the same sources gave two keys")
	}
	edits := []struct {
		name, file, content string
		changes             bool
	}{
		{"a Go file of an imported package", "lib/lib.go", "package lib\n\nimport _ \"embed\"\n\n//go:embed greeting.txt\nvar greeting string\n\nfunc Greeting() string { return greeting + \"!\" }\n", true},
		{"an embedded file", "lib/greeting.txt", "hullo", true},
		{"the main package", "cmd/hi/main.go", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/lib\"\n)\n\nfunc main() { fmt.Println(lib.Greeting()) }\n", true},
		{"a new file in an imported package", "lib/more.go", "package lib\n\nconst More = 1\n", true},
		{"go.mod", "go.mod", "module example.com/m\n\ngo 1.23\n", true},
		{"a test file", "lib/lib_test.go", "package lib\n\nconst x = 1\n", false},
		{"a package the command does not import", "other/other.go", "package other\n\nconst y = 2\n", false},
		{"a file outside any package", "README.md", "notes\n", false},
		{"a file the build's tags leave out", "lib/tagged.go", "//go:build special\n\npackage lib\n\nconst z = 3\n", false},
	}
	for _, e := range edits {
		path := filepath.Join(dir, e.file)
		old, err := os.ReadFile(path)
		existed := err == nil
		write(t, path, e.content)
		if got := key(t, spec(dir)); (got != base) != e.changes {
			t.Errorf("editing %s: key changed = %v, want %v", e.name, got != base, e.changes)
		}
		if existed {
			write(t, path, string(old))
		} else {
			os.Remove(path)
		}
		if key(t, spec(dir)) != base {
			t.Fatalf("undoing the edit of %s did not give the first key back", e.name)
		}
	}

	s := spec(dir)
	s.Flags = []string{"-trimpath", "-ldflags=-s -w"}
	if key(t, s) == base {
		t.Error("other build flags gave the same key")
	}
	s = spec(dir)
	s.Flags = []string{"-trimpath", "-tags=special"}
	tagged := key(t, s)
	write(t, filepath.Join(dir, "lib", "tagged.go"), "//go:build special\n\npackage lib\n\nconst z = 4\n")
	if key(t, s) == tagged {
		t.Error("editing a file the build's tags take in kept the key")
	}
	s = spec(dir)
	s.Env = []string{"CGO_ENABLED=1"}
	if key(t, s) == base {
		t.Error("another environment gave the same key")
	}

	// Where the module sits does not count: a second clone shares the binary.
	clone := module(t)
	if key(t, spec(clone)) != base {
		t.Error("a copy of the module in another folder has another key")
	}
}

func TestKeyOfABrokenPackageFails(t *testing.T) {
	t.Parallel()
	dir := module(t)
	if err := os.Remove(filepath.Join(dir, "lib", "greeting.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := Key(context.Background(), spec(dir)); err == nil || !strings.Contains(err.Error(), "greeting.txt") {
		t.Fatalf("a missing embedded file: %v", err)
	}
}

// Builds running at once build one binary; a second call takes it from the
// cache; an edit builds a new one.
func TestBuildOnceAndAgainAfterAnEdit(t *testing.T) {
	t.Parallel()
	dir, root := module(t), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	paths := make([]string, 4)
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() { paths[i], errs[i] = buildIn(ctx, spec(dir), root) })
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if paths[i] != paths[0] {
			t.Fatalf("two paths for one build: %s and %s", paths[0], paths[i])
		}
	}
	run := func(bin string) string {
		t.Helper()
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if got := run(paths[0]); got != "hello" {
		t.Fatalf("the built binary printed %q", got)
	}
	first, _ := os.Stat(paths[0])

	again, err := buildIn(ctx, spec(dir), root)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(again); again != paths[0] || !os.SameFile(first, info) {
		t.Error("the second call built again")
	}

	write(t, filepath.Join(dir, "lib", "greeting.txt"), "bonjour")
	edited, err := buildIn(ctx, spec(dir), root)
	if err != nil {
		t.Fatal(err)
	}
	if edited == paths[0] || run(edited) != "bonjour" {
		t.Fatalf("after an edit: %s printed %q", edited, run(edited))
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 2 {
		t.Errorf("%d entries in the cache, want 2 (one per key)", len(entries))
	}
}

// A binary nobody used for longer than keep is removed when another is
// built; one used recently stays.
func TestPruneRemovesOnlyLongUnused(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	now := time.Now()
	for name, age := range map[string]time.Duration{"old": keep + time.Hour, "recent": time.Hour, "current": 2 * keep} {
		d := filepath.Join(root, name)
		write(t, filepath.Join(d, "agentos"), "x")
		os.Chtimes(d, now.Add(-age), now.Add(-age))
	}
	prune(root, "current", now)
	for name, want := range map[string]bool{"old": false, "recent": true, "current": true} {
		if _, err := os.Stat(filepath.Join(root, name)); (err == nil) != want {
			t.Errorf("%s kept = %v, want %v", name, err == nil, want)
		}
	}
}
