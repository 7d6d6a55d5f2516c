package server

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
)

// projectLock is the exclusive lock that makes one server the primary of a
// project. Beside the lock, an owner file records the holder's pid and
// transport so a second server can name it even when the primary has no HTTP
// transport (and so no state file).
type projectLock struct {
	fl *flock.Flock
}

// acquireLock takes the project's lock, or returns nil when another live
// process holds it. The operating system drops the lock when its holder dies,
// even by SIGKILL, so a crashed server never blocks the next one.
func acquireLock(p project.Paths, t Transport) (*projectLock, error) {
	return takeLock(p, t, func(fl *flock.Flock) (bool, error) { return fl.TryLock() })
}

// waitForLock takes the project's lock as soon as its holder lets go (or
// dies), polling every lockPoll; it returns ctx's error when ctx ends first.
func waitForLock(ctx context.Context, p project.Paths, t Transport) (*projectLock, error) {
	return takeLock(p, t, func(fl *flock.Flock) (bool, error) {
		ok, err := fl.TryLockContext(ctx, lockPoll)
		if err == nil && !ok {
			err = ctx.Err()
		}
		return ok, err
	})
}

// lockPoll is how often a bridge tries the lock of a primary it would take
// over from: the larger part of a failover's time.
const lockPoll = 50 * time.Millisecond

func takeLock(p project.Paths, t Transport, try func(*flock.Flock) (bool, error)) (*projectLock, error) {
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", p.Cache(), err)
	}
	fl := flock.New(p.Lock())
	ok, err := try(fl)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", p.Lock(), err)
	}
	if !ok {
		return nil, nil
	}
	// The owner record is informational; failing to write it does not matter
	// enough to refuse to serve.
	atomicfile.WriteFile(ownerFile(p), []byte(fmt.Sprintf("%d %s\n", os.Getpid(), t)), 0o644)
	return &projectLock{fl: fl}, nil
}

func (l *projectLock) release() {
	l.fl.Unlock()
}

// lockHolder reads the pid and transport recorded by the current primary
// (0 and "" when it has not written them yet).
func lockHolder(p project.Paths) (int, Transport) {
	data, err := os.ReadFile(ownerFile(p))
	if err != nil {
		return 0, ""
	}
	pidText, transport, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
	pid, _ := strconv.Atoi(pidText)
	return pid, Transport(transport)
}

func ownerFile(p project.Paths) string { return p.Lock() + ".owner" }
