package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/project"
)

// A server that cannot be stopped (here: the project lock is held by a
// holder that names no pid) stops the uninstall unless --yes; with --yes
// a warning says so and the uninstall goes ahead.
func TestUninstallStopServerCannotStop(t *testing.T) {
	p, err := project.At(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		t.Fatal(err)
	}
	held := flock.New(p.Lock())
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()

	var out, errb strings.Builder
	s := &streams{Out: &out, Err: &errb}
	srv, err := stopServer(context.Background(), s, p, false)
	var ee *exitError
	if srv != nil || !errors.As(err, &ee) || ee.code != exitConflict || !strings.Contains(err.Error(), "nothing was removed") || !strings.Contains(err.Error(), "--yes") {
		t.Fatalf("without --yes: %v %v", srv, err)
	}

	srv, err = stopServer(context.Background(), s, p, true)
	if srv != nil || err != nil {
		t.Fatalf("with --yes: %v %v", srv, err)
	}
	srv.Release() // nothing held: a no-op
	if !strings.Contains(errb.String(), "warning: the server running for this project could not be stopped") {
		t.Errorf("no warning: %q", errb.String())
	}
}

// Without a server, the project lock is taken and nothing is printed.
func TestUninstallStopServerNoneRunning(t *testing.T) {
	p, err := project.At(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	srv, err := stopServer(context.Background(), &streams{Out: &out, Err: &errb}, p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Release()
	if out.Len()+errb.Len() != 0 {
		t.Errorf("printed %q %q", out.String(), errb.String())
	}
	if ok, _ := flock.New(p.Lock()).TryLock(); ok {
		t.Error("the lock is not held")
	}
}
