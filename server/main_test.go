package server

import (
	"fmt"
	"os"
	"testing"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

// TestMain keeps the machine's signing key of workflow state, which every
// server makes on first use, in a temporary folder: never the real user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentos-server-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(machinekey.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
