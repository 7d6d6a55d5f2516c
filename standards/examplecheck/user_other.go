//go:build !unix

package examplecheck

import (
	"context"
	"os/exec"
)

func runAsNonRoot(dir string) (func(ctx context.Context, name string, args ...string) ([]byte, error), error) {
	return func(ctx context.Context, name string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}, nil
}
