package installer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkedClaudeJSON makes ~/.claude.json a relative link into a dotfiles
// folder, as stow does, and returns the link, its text and its target.
func linkedClaudeJSON(t *testing.T, home, content string) (link, text, target string) {
	t.Helper()
	target = filepath.Join(home, "dotfiles", "claude", "claude.json")
	writeTestFile(t, target, content)
	link, text = filepath.Join(home, ".claude.json"), filepath.Join("dotfiles", "claude", "claude.json")
	if err := os.Symlink(text, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	return link, text, target
}

func assertLink(t *testing.T, link, text string) {
	t.Helper()
	if got, err := os.Readlink(link); err != nil || got != text {
		t.Fatalf("%s is no longer the link to %s: %q, %v", link, text, got, err)
	}
}

// An install writes through a linked user config: the link stays, the
// dotfiles copy gets the entry, and the backup holds the original content.
func TestInstallWritesThroughLinkedConfig(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := homeFor(root)
	original := "{\n  \"numStartups\": 3,\n  \"projects\": {}\n}\n"
	link, text, target := linkedClaudeJSON(t, env.Home, original)
	if _, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Env: env, Yes: true}); err != nil {
		t.Fatal(err)
	}
	assertLink(t, link, text)
	got := readTestFile(t, target)
	wantContains(t, got, `"agentos"`)
	wantContains(t, got, `"numStartups": 3`)
	backup := filepath.Join(root, ".agentos", "backups", "original", "_home", ".claude.json")
	if b := readTestFile(t, backup); b != original {
		t.Errorf("backup = %q, want the original content", b)
	}
	if fi, err := os.Lstat(backup); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("backup is not a regular file: %v", err)
	}
}

// A failing install puts a linked config back through its link: the link is
// the same link and the target the same bytes.
func TestRollbackRestoresLinkedConfig(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := homeFor(root)
	original := "\uFEFF{\r\n  \"numStartups\": 3,\r\n  \"projects\": {}\r\n}\r\n"
	link, text, target := linkedClaudeJSON(t, env.Home, original)
	p := mustPaths(t, root)
	changes, _, err := plan(context.Background(), p, Options{Dir: root, BinaryPath: binary, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	diskFull := errors.New("install: no space left on device")
	changes = append(changes, change{step: Step{Path: "AGENTS.md"}, apply: func() error { return diskFull }})
	if err := applyAll(context.Background(), newJournal(p, env.Home), changes, &Report{}, nil); !errors.Is(err, diskFull) {
		t.Fatalf("err = %v", err)
	}
	assertLink(t, link, text)
	if got := readTestFile(t, target); got != original {
		t.Fatalf("target not restored byte for byte: %q", got)
	}
}

// The journal also puts back a link that a step replaced by a file.
func TestRollbackRestoresReplacedLink(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, nil)
	env := homeFor(root)
	link, text, target := linkedClaudeJSON(t, env.Home, "{}\n")
	j := newJournal(mustPaths(t, root), env.Home)
	replace := change{step: Step{Path: "~/.claude.json"}, apply: func() error {
		if err := os.Remove(link); err != nil {
			return err
		}
		return os.WriteFile(link, []byte("replaced"), 0o644)
	}}
	if err := j.apply(replace); err != nil {
		t.Fatal(err)
	}
	if err := j.rollback(errors.New("later step failed")); !strings.Contains(err.Error(), "put back") {
		t.Fatalf("rollback: %v", err)
	}
	assertLink(t, link, text)
	if got := readTestFile(t, target); got != "{}\n" {
		t.Fatalf("target = %q", got)
	}
}

// A link to a missing file and a read-only target stop the install before
// anything is written, naming the file.
func TestLinkedConfigRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, want string
		setup      func(t *testing.T, home string)
	}{
		{"dangling", "does not exist", func(t *testing.T, home string) {
			if err := os.Symlink(filepath.Join(home, "dotfiles", "gone.json"), filepath.Join(home, ".claude.json")); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		}},
		{"read-only", "read-only", func(t *testing.T, home string) {
			_, _, target := linkedClaudeJSON(t, home, "{\"projects\": {}}\n")
			if err := os.Chmod(target, 0o444); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
			env := homeFor(root)
			os.MkdirAll(env.Home, 0o755)
			tc.setup(t, env.Home)
			beforeRoot, beforeHome := snapshot(t, root), snapshot(t, env.Home)
			_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Env: env, Yes: true})
			if err == nil {
				t.Fatal("want an error")
			}
			wantContains(t, err.Error(), tc.want)
			wantContains(t, err.Error(), filepath.Join(env.Home, ".claude.json"))
			assertSameTree(t, beforeRoot, snapshot(t, root))
			assertSameTree(t, beforeHome, snapshot(t, env.Home))
		})
	}
}
