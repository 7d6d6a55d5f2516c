package fsys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// probeName is a file name no system has; a confinement bug that wrote
// through the /etc symlink would create it, and the test removes it.
const probeName = "agentos-fsys-confinement-probe"

// hostilePath is a path no action may act on, and the code every action
// must answer with.
type hostilePath struct {
	name string
	path string
	code string
}

func hostilePaths(f *fixture) []hostilePath {
	return []hostilePath{
		{"dotdot", "../x", toolkit.CodeForbidden},
		{"dotdot to sentinel", "../outside/secret.txt", toolkit.CodeForbidden},
		{"inner dotdot escape", "a/../../x", toolkit.CodeForbidden},
		{"bare dotdot", "..", toolkit.CodeForbidden},
		{"absolute system path", "/etc/passwd", toolkit.CodeForbidden},
		{"absolute sibling", filepath.ToSlash(filepath.Join(f.outside, "secret.txt")), toolkit.CodeForbidden},
		{"absolute sibling dir", filepath.ToSlash(f.outside), toolkit.CodeForbidden},
		{"absolute root prefix trick", filepath.ToSlash(f.root) + "/../outside/secret.txt", toolkit.CodeForbidden},
		{"backslash dotdot", `..\..\x`, toolkit.CodeForbidden},
		{"inner backslash dotdot", `a\..\..\x`, toolkit.CodeForbidden},
		{"NUL byte", "README.md\x00.txt", toolkit.CodeValidation},
		{"5000-byte path", strings.Repeat("a/", 2500), toolkit.CodeValidation},
		{"300-byte component", strings.Repeat("x", 300), toolkit.CodeValidation},
		{"symlink to /etc", "etclink/" + probeName, toolkit.CodeForbidden},
		{"symlink to /etc itself", "etclink", toolkit.CodeForbidden},
		{"relative symlink to sibling", "outlink/secret.txt", toolkit.CodeForbidden},
		{"relative symlink to sibling itself", "outlink", toolkit.CodeForbidden},
		{"absolute symlink to sibling", "outabs/secret.txt", toolkit.CodeForbidden},
		{"inner symlink to ../..", "sub/up/outside/secret.txt", toolkit.CodeForbidden},
		{"inner symlink to ../.. itself", "sub/up", toolkit.CodeForbidden},
		{"symlink loop", "loop_a", toolkit.CodeForbidden},
		{"through symlink loop", "loop_a/x", toolkit.CodeForbidden},
	}
}

// actionCase builds the arguments that put p where an action takes a path.
type actionCase struct {
	name  string
	field string
	args  func(p string) map[string]any
}

var actionCases = []actionCase{
	{"read", "path", func(p string) map[string]any { return map[string]any{"action": "read", "path": p} }},
	{"write", "path", func(p string) map[string]any { return map[string]any{"action": "write", "path": p, "content": "pwned"} }},
	{"append", "path", func(p string) map[string]any {
		return map[string]any{"action": "append", "path": p, "content": "pwned"}
	}},
	{"list", "path", func(p string) map[string]any { return map[string]any{"action": "list", "path": p, "recursive": true} }},
	{"stat", "path", func(p string) map[string]any { return map[string]any{"action": "stat", "path": p} }},
	{"exists", "path", func(p string) map[string]any { return map[string]any{"action": "exists", "path": p} }},
	{"glob", "path", func(p string) map[string]any { return map[string]any{"action": "glob", "path": p, "pattern": "**"} }},
	{"mkdir", "path", func(p string) map[string]any { return map[string]any{"action": "mkdir", "path": p} }},
	{"delete", "path", func(p string) map[string]any { return map[string]any{"action": "delete", "path": p, "recursive": true} }},
	{"move from", "path", func(p string) map[string]any {
		return map[string]any{"action": "move", "path": p, "destination": "moved", "overwrite": true}
	}},
	{"move to", "destination", func(p string) map[string]any {
		return map[string]any{"action": "move", "path": "README.md", "destination": p, "overwrite": true}
	}},
	{"copy from", "path", func(p string) map[string]any {
		return map[string]any{"action": "copy", "path": p, "destination": "copied", "recursive": true, "overwrite": true}
	}},
	{"copy to", "destination", func(p string) map[string]any {
		return map[string]any{"action": "copy", "path": "README.md", "destination": p, "overwrite": true}
	}},
}

// TestConfinementCorpus runs every hostile path through every action and
// checks the exact error code, the field it names, and that nothing inside
// or outside the root changed. Every case must leave the tree as it was, so
// one fixture serves them all: a case that changed anything fails itself.
func TestConfinementCorpus(t *testing.T) {
	t.Cleanup(func() { os.Remove(filepath.Join("/etc", probeName)) })
	f := newFixture(t)
	before := snapshot(t, f.base)
	for _, hp := range hostilePaths(f) {
		for _, ac := range actionCases {
			t.Run(hp.name+"/"+ac.name, func(t *testing.T) {
				e := f.fail(t, ac.args(hp.path), hp.code)
				if got := field(e); got != ac.field {
					t.Errorf("error field %q, want %q (message: %s)", got, ac.field, e.Message)
				}
				sameSnapshot(t, before, snapshot(t, f.base))
				if _, err := os.Lstat(filepath.Join("/etc", probeName)); err == nil {
					t.Fatalf("a file was created in /etc")
				}
			})
		}
	}
}

// TestGuardedWrites covers the write guards: .git, .agentos/.cache, .agentos/state and
// gitignored paths, for every action that writes.
func TestGuardedWrites(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		code string
	}{
		{"write .git/config", map[string]any{"action": "write", "path": ".git/config", "content": "x"}, toolkit.CodeForbidden},
		{"write .git/config via absolute path", map[string]any{"action": "write", "path": "ROOT/.git/config", "content": "x"}, toolkit.CodeForbidden},
		{"write .GIT/config", map[string]any{"action": "write", "path": ".GIT/config", "content": "x"}, toolkit.CodeForbidden},
		{"write nested .git", map[string]any{"action": "write", "path": "sub/.git/config", "content": "x"}, toolkit.CodeForbidden},
		{"append .git/config", map[string]any{"action": "append", "path": ".git/config", "content": "x"}, toolkit.CodeForbidden},
		{"mkdir in .git", map[string]any{"action": "mkdir", "path": ".git/hooks2"}, toolkit.CodeForbidden},
		{"delete .git", map[string]any{"action": "delete", "path": ".git", "recursive": true}, toolkit.CodeForbidden},
		{"delete .git/config", map[string]any{"action": "delete", "path": ".git/config"}, toolkit.CodeForbidden},
		{"move into .git", map[string]any{"action": "move", "path": "README.md", "destination": ".git/README.md"}, toolkit.CodeForbidden},
		{"move .git away", map[string]any{"action": "move", "path": ".git", "destination": "git-backup"}, toolkit.CodeForbidden},
		{"copy into .git", map[string]any{"action": "copy", "path": "README.md", "destination": ".git/README.md"}, toolkit.CodeForbidden},
		{"copy root", map[string]any{"action": "copy", "path": ".", "destination": "copy", "recursive": true}, toolkit.CodeForbidden},
		{"copy tree holding .git", map[string]any{"action": "copy", "path": "vendored", "destination": "vendored2", "recursive": true}, toolkit.CodeForbidden},
		{"move tree holding .git", map[string]any{"action": "move", "path": "vendored", "destination": "vendored2"}, toolkit.CodeForbidden},
		{"delete tree holding .git", map[string]any{"action": "delete", "path": "vendored", "recursive": true}, toolkit.CodeForbidden},
		{"write via symlink into .git", map[string]any{"action": "write", "path": "gitlink/config", "content": "x"}, toolkit.CodeForbidden},
		{"write .agentos/.cache/x", map[string]any{"action": "write", "path": ".agentos/.cache/x", "content": "x"}, toolkit.CodeForbidden},
		{"delete .agentos/.cache", map[string]any{"action": "delete", "path": ".agentos/.cache", "recursive": true}, toolkit.CodeForbidden},
		{"write .agentos/state/workflows/x/state.json", map[string]any{"action": "write", "path": ".agentos/state/workflows/x/state.json", "content": "{}"}, toolkit.CodeForbidden},
		{"write .agentos/state/approvals/spec.json", map[string]any{"action": "write", "path": ".agentos/State/approvals/spec.json", "content": "{}"}, toolkit.CodeForbidden},
		{"delete .agentos holding .cache", map[string]any{"action": "delete", "path": ".agentos", "recursive": true}, toolkit.CodeForbidden},
		{"move .agentos holding .cache", map[string]any{"action": "move", "path": ".agentos", "destination": "agentos2"}, toolkit.CodeForbidden},
		{"copy into .agentos/.cache", map[string]any{"action": "copy", "path": "cachelike", "destination": ".agentos/.cache/x", "recursive": true}, toolkit.CodeForbidden},
		{"write ignored dir", map[string]any{"action": "write", "path": "build/out.txt", "content": "x"}, toolkit.CodeForbidden},
		{"write ignored glob", map[string]any{"action": "write", "path": "debug.log", "content": "x"}, toolkit.CodeForbidden},
		{"write nested ignored", map[string]any{"action": "write", "path": "nested/local.txt", "content": "x"}, toolkit.CodeForbidden},
		{"write info/exclude", map[string]any{"action": "write", "path": "excluded.txt", "content": "x"}, toolkit.CodeForbidden},
		{"mkdir ignored", map[string]any{"action": "mkdir", "path": "build"}, toolkit.CodeForbidden},
		{"copy to ignored", map[string]any{"action": "copy", "path": "README.md", "destination": "build/README.md"}, toolkit.CodeForbidden},
		{"move to ignored", map[string]any{"action": "move", "path": "README.md", "destination": "x.log"}, toolkit.CodeForbidden},
		{"delete ignored", map[string]any{"action": "delete", "path": "old.log"}, toolkit.CodeForbidden},
		{"glob ../**", map[string]any{"action": "glob", "pattern": "../**"}, toolkit.CodeForbidden},
		{"glob inner dotdot", map[string]any{"action": "glob", "pattern": "src/../../*"}, toolkit.CodeForbidden},
		{"glob dotdot alternative", map[string]any{"action": "glob", "pattern": "{src,..}/*"}, toolkit.CodeForbidden},
		{"glob through symlink to sibling", map[string]any{"action": "glob", "pattern": "outlink/*"}, toolkit.CodeForbidden},
		{"glob through symlink to /etc", map[string]any{"action": "glob", "pattern": "etclink/*"}, toolkit.CodeForbidden},
		{"glob backslash", map[string]any{"action": "glob", "pattern": `..\*`}, toolkit.CodeForbidden},
		{"glob absolute", map[string]any{"action": "glob", "pattern": "/etc/*"}, toolkit.CodeValidation},
		{"glob NUL", map[string]any{"action": "glob", "pattern": "*\x00"}, toolkit.CodeValidation},
		{"glob bad pattern", map[string]any{"action": "glob", "pattern": "[a"}, toolkit.CodeValidation},
		{"delete root", map[string]any{"action": "delete", "path": ".", "recursive": true}, toolkit.CodeForbidden},
		{"delete root by absolute path", map[string]any{"action": "delete", "path": "ROOT", "recursive": true}, toolkit.CodeForbidden},
		{"delete root via dotdot", map[string]any{"action": "delete", "path": "src/..", "recursive": true}, toolkit.CodeForbidden},
		{"move root", map[string]any{"action": "move", "path": ".", "destination": "x"}, toolkit.CodeForbidden},
	}
	f := newFixture(t)
	must(t, os.Symlink(".git", f.path("gitlink")))
	must(t, os.WriteFile(f.path("old.log"), []byte("old\n"), 0o644))
	must(t, os.MkdirAll(f.path("cachelike/.cache"), 0o755))
	must(t, os.MkdirAll(f.path(".GIT"), 0o755))
	must(t, os.MkdirAll(f.path("vendored/.git"), 0o755))
	must(t, os.WriteFile(f.path("vendored/.git/HEAD"), []byte("ref\n"), 0o644))
	before := snapshot(t, f.base)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{}
			for k, v := range tc.args {
				if s, ok := v.(string); ok {
					v = strings.Replace(s, "ROOT", filepath.ToSlash(f.root), 1)
				}
				args[k] = v
			}
			f.fail(t, args, tc.code)
			sameSnapshot(t, before, snapshot(t, f.base))
		})
	}
	t.Run("copy a .cache folder to be .agentos", func(t *testing.T) {
		f := newFixture(t)
		must(t, os.RemoveAll(f.path(".agentos")))
		must(t, os.MkdirAll(f.path("cachelike/.cache"), 0o755))
		before := snapshot(t, f.base)
		f.fail(t, map[string]any{"action": "copy", "path": "cachelike", "destination": ".agentos", "recursive": true}, toolkit.CodeForbidden)
		sameSnapshot(t, before, snapshot(t, f.base))
	})
}

func TestGitignoreOverride(t *testing.T) {
	f := newFixture(t)
	e := f.fail(t, map[string]any{"action": "write", "path": "build/out.txt", "content": "x"}, toolkit.CodeForbidden)
	if !strings.Contains(e.Message, "override_gitignore") {
		t.Errorf("message does not say how to override: %s", e.Message)
	}
	f.ok(t, map[string]any{"action": "write", "path": "build/out.txt", "content": "x", "override_gitignore": true})
	if got := readFile(t, f.path("build/out.txt")); got != "x" {
		t.Errorf("content %q", got)
	}
	// A negated pattern re-includes, and an unrelated name is not ignored.
	f.ok(t, map[string]any{"action": "write", "path": "keep.log", "content": "x"})
	f.ok(t, map[string]any{"action": "write", "path": "local.txt", "content": "x"})
	// Ignore files are read per call: a new pattern applies at once.
	must(t, os.WriteFile(f.path(".gitignore"), []byte("*.md\n"), 0o644))
	f.fail(t, map[string]any{"action": "write", "path": "NOTES.md", "content": "x"}, toolkit.CodeForbidden)
	f.ok(t, map[string]any{"action": "write", "path": "debug.log", "content": "x"})
	// Reading ignored files is fine.
	f.ok(t, map[string]any{"action": "read", "path": "build/out.txt"})
}
