package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentos-dev/agentos/workflow"
)

// TestMain lets the test binary run as `agentos` inside the scripts, and as
// `start-session WORKFLOW`, which starts a session as an agent would.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"agentos": main, "start-session": startSession})
}

// startSession starts a session of the workflow named by its argument in the
// project of the working folder, as an agent through svc_workflow does (no
// CLI command starts one), and prints its id.
func startSession() {
	p, cfg, _, err := openProject("")
	if err == nil {
		var e *workflow.Engine
		if e, err = workflow.ForProject(p, cfg, nil); err == nil {
			var s *workflow.Session
			if s, err = e.Start(context.Background(), os.Args[1], nil, workflow.Actor{Client: "agent"}); err == nil {
				fmt.Println(s.ID)
				os.Exit(0)
			}
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// TestScripts runs the CLI end to end: testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	// One cache folder for every script: install remembers there the digest
	// of the binary it pins (internal/filesum), this 40 MB test binary, which
	// each script's install hashed anew when the cache was in its own home
	// (two thirds of the scripts' CPU).
	cache := t.TempDir()
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(env *testscript.Env) error {
		// A home inside the script's work folder: install writes user-scoped
		// client configs (Claude Code's local scope in ~/.claude.json).
		env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
		env.Setenv("XDG_CACHE_HOME", cache)
		for _, v := range []string{"XDG_CONFIG_HOME", "CODEX_HOME", "CLINE_DATA_DIR", "APPDATA"} {
			env.Setenv(v, "")
		}
		return nil
	}, Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
		// sessionid VAR sets $VAR to the id of the project's only session.
		"sessionid": func(ts *testscript.TestScript, neg bool, args []string) {
			entries, err := os.ReadDir(ts.MkAbs(".agentos/state/workflows"))
			ts.Check(err)
			if len(entries) != 1 || len(args) != 1 {
				ts.Fatalf("usage: sessionid VAR, with one session (there are %d)", len(entries))
			}
			ts.Setenv(args[0], entries[0].Name())
		},
	}})
}
