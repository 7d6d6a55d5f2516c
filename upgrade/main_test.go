package upgrade

import (
	"fmt"
	"os"
	"testing"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

// TestMain keeps the machine-wide agentos state the tests write (the
// signing key, the record of each project's port) out of the user's config
// folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentos-upgrade-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv(machinekey.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
