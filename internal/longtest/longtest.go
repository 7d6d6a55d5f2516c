// Package longtest decides which tests are long: those the fast test run
// (`scripts/test.sh`, a developer's every change) leaves to the long run
// (`scripts/test.sh --long`, which sets AGENTOS_LONG=1 and which CI runs).
// A test is long when it repeats, at seconds of CPU, what a cheaper test of
// the fast run already proves: the same promise on another test runner or
// language, another kill point, another view in a real browser.
// docs/development.md says which tests are long and what covers each in
// the fast run.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that asks for the long tests.
const Env = "AGENTOS_LONG"

// Enabled reports whether the long tests were asked for.
func Enabled() bool { return os.Getenv(Env) != "" }

// Skip skips t unless the long tests were asked for.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("a long test: scripts/test.sh --long runs it")
	}
}
