package searchtool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search"
)

// ErrIndexBusy says another process (a running server, or another
// `agentos index`) holds the project's indexes for writing.
var ErrIndexBusy = errors.New("another agentos process (the project's server, or another `agentos index`) is keeping this project's search index")

// indexLock is the lock a process takes before it writes a project's index
// snapshots. The server holds it for as long as it runs; the CLI takes it when
// it can and otherwise works on an in-memory copy it never saves.
type indexLock struct {
	fl *flock.Flock
	p  project.Paths
}

func lockPath(p project.Paths) string { return filepath.Join(p.Indexes(), "index.lock") }

func newIndexLock(p project.Paths) (*indexLock, error) {
	if err := os.MkdirAll(p.Indexes(), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", p.Indexes(), err)
	}
	return &indexLock{fl: flock.New(lockPath(p)), p: p}, nil
}

// try takes the lock if it is free.
func (l *indexLock) try() (bool, error) {
	ok, err := l.fl.TryLock()
	if err != nil {
		return false, fmt.Errorf("lock %s: %w", l.fl.Path(), err)
	}
	return ok, nil
}

// wait takes the lock, retrying until ctx ends.
func (l *indexLock) wait(ctx context.Context) error {
	ok, err := l.fl.TryLockContext(ctx, 250*time.Millisecond)
	if err != nil {
		return err
	}
	if !ok {
		return ctx.Err()
	}
	return nil
}

func (l *indexLock) release() { l.fl.Unlock() }

// removeInterruptedSaves removes the temporary files that snapshot saves cut
// short by a crash left in the index folders, and returns their paths; it
// also moves snapshots saved under their former name (search.MigrateSnapshot). Call
// it while holding the lock: only the holder saves, so no save is under way.
func (l *indexLock) removeInterruptedSaves() ([]string, error) {
	var removed []string
	var errs []error
	for _, name := range []string{Standards, Code} {
		r, err := atomicfile.RemoveLeftovers(filepath.Join(l.p.IndexDir(name), search.SnapshotFile))
		removed = append(removed, r...)
		// A snapshot an earlier agentos saved as index.snap is renamed
		// here, under the lock, rather than rebuilt.
		errs = append(errs, err, search.MigrateSnapshot(l.p.IndexDir(name)))
	}
	return removed, errors.Join(errs...)
}
