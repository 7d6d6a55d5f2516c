package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as `agentos` inside the scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"agentos": main})
}

// TestScripts runs the CLI end to end: testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(env *testscript.Env) error {
		// A home inside the script's work folder: install writes user-scoped
		// client configs (Claude Code's local scope in ~/.claude.json).
		env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
		for _, v := range []string{"XDG_CONFIG_HOME", "CODEX_HOME", "CLINE_DATA_DIR", "APPDATA"} {
			env.Setenv(v, "")
		}
		return nil
	}})
}
