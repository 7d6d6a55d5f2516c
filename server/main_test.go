package server

import (
	"fmt"
	"os"
	"testing"

	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/testmain"
)

// TestMain keeps the machine's signing key of workflow state, which every
// server makes on first use, in a temporary folder: never the real user's.
// The parallel tests mostly wait (on deadlines, bridges, dropped streams):
// eight run at once.
func TestMain(m *testing.M) {
	testmain.WaitingParallel("8")
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
