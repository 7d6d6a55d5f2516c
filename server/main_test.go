package server

import (
	"fmt"
	"net/http"
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

// testHTTP sends each request on a connection of its own. The package's
// tests start and stop servers in one port range at once, so a server often
// listens where another test's stopped one did; a kept-alive connection to
// the stopped one, taken from a shared pool for the same address before the
// client has read its close (on a loaded machine), carries the request to
// nobody: EOF, and net/http retries no POST. A request's Close does not
// prevent that: it closes the connection after the request, not before
// choosing one.
var testHTTP = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
