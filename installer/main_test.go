package installer

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the tests a home folder of their own: an install with the
// machine's environment writes user-scoped client configs (Claude Code's
// local scope in ~/.claude.json), which must never reach the real home.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "agentos-installer-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "CODEX_HOME", "CLINE_DATA_DIR", "APPDATA"} {
		os.Unsetenv(v)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}
