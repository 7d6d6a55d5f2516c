package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as `agentos` inside the scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"agentos": main})
}

// TestScripts runs the CLI end to end: testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
