package installer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A step that fails late, after folders, standards, the binary, the
// .gitignore block and edits to the user's files were written (the last
// step's disk write fails), makes the install put everything back: the
// project and the home folder are exactly as they were, updated files
// included.
func TestLateFailureRollsEverythingBack(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{
		"main.go":    "package main\n",
		".gitignore": "build/\n",
		"AGENTS.md":  "# notes\n",
	})
	env := homeFor(root)
	writeTestFile(t, filepath.Join(env.Home, ".claude.json"), `{"numStartups": 3, "projects": {}}`+"\n")
	beforeRoot, beforeHome := snapshot(t, root), snapshot(t, env.Home)

	p := mustPaths(t, root)
	opts := Options{Dir: root, BinaryPath: binary, Env: env, Secondary: []string{"codex", "cline"}}
	changes, _, err := plan(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	diskFull := errors.New("install: write AGENTS.md: no space left on device")
	changes = append(changes, change{step: Step{Path: "AGENTS.md"}, apply: func() error { return diskFull }})
	err = applyAll(context.Background(), newJournal(p, env.Home), changes, &Report{}, nil)
	if !errors.Is(err, diskFull) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("err = %v", err)
	}
	assertSameTree(t, beforeRoot, snapshot(t, root))
	assertSameTree(t, beforeHome, snapshot(t, env.Home))
}

// A canceled install undoes what it had written.
func TestCanceledMidInstallRollsBack(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n", ".gitignore": "x\n"})
	before := snapshot(t, root)
	p := mustPaths(t, root)
	changes, _, err := plan(context.Background(), p, Options{Dir: root, BinaryPath: binary, Env: homeFor(root)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	applied := 0
	for i, c := range changes {
		if c.apply == nil {
			continue
		}
		inner := c.apply
		changes[i].apply = func() error {
			if applied++; applied == 20 {
				cancel() // the user presses Ctrl-C part-way
			}
			return inner()
		}
	}
	err = applyAll(ctx, newJournal(p, homeFor(root).Home), changes, &Report{}, nil)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("err = %v", err)
	}
	assertSameTree(t, before, snapshot(t, root))
}

// A malformed user config (Claude Code's ~/.claude.json, where its entry
// goes by default) stops the install before anything is written, naming the
// file and the line, and leaves that file as it was.
func TestMalformedUserConfigWritesNothing(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := homeFor(root)
	bad := "{\n  \"numStartups\": 3,\n  \"projects\": {,\n}\n"
	writeTestFile(t, filepath.Join(env.Home, ".claude.json"), bad)
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Env: env, Yes: true})
	if err == nil {
		t.Fatal("want an error")
	}
	wantContains(t, err.Error(), filepath.Join(env.Home, ".claude.json"))
	wantContains(t, err.Error(), "line 3")
	assertSameTree(t, before, snapshot(t, root))
	if got := readTestFile(t, filepath.Join(env.Home, ".claude.json")); got != bad {
		t.Errorf("the malformed file was touched: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos")); !os.IsNotExist(err) {
		t.Errorf(".agentos written: %v", err)
	}
}
