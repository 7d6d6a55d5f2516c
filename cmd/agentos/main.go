// Command agentos installs the agentos framework into a project and runs its
// MCP tool server. This package only parses flags, calls the package that does
// the work, and prints; see the other packages for behaviour.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdStreams())
	stop()
	os.Exit(code)
}
