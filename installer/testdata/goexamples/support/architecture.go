package example

import (
	"context"
	"io"
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error { return nil }
