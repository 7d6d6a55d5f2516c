package installer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	// The example checks find tsc in the user's cache, where
	// scripts/install-checkers.sh puts it: keep that cache reachable.
	if os.Getenv("AGENTOS_STANDARDS_CACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			os.Setenv("AGENTOS_STANDARDS_CACHE", filepath.Join(dir, "agentos-standards"))
		}
	}
	keepGoCaches()
	os.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "CODEX_HOME", "CLINE_DATA_DIR", "APPDATA"} {
		os.Unsetenv(v)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// keepGoCaches pins Go's build and module caches where they are before HOME
// moves: the language matrix builds its Go examples with the go command,
// which under a fresh HOME would rebuild the standard library from nothing
// (20 s of a 50 s package) and look for modules in an empty cache.
func keepGoCaches() {
	vars := []string{"GOCACHE", "GOMODCACHE", "GOPATH"}
	out, err := exec.Command("go", append([]string{"env"}, vars...)...).Output()
	if err != nil {
		return // no go command: the tests that need it say so
	}
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if i < len(vars) && v != "" {
			os.Setenv(vars[i], v)
		}
	}
}
