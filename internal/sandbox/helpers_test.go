package sandbox

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// run runs command in sandbox s, in the project, and returns its output and
// exit status.
func run(t *testing.T, s *Sandbox, command string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, err := s.Command(ctx, s.Project(), command)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	code := 0
	if err != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return out.String(), code
}
