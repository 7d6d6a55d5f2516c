package workflow

import (
	"os"
	"testing"
)

// TestMain keeps the machine-wide files the engine reads and writes (the
// signing key, the record of trusted settings) in a folder of the run's own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentos-workflow-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("AGENTOS_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
