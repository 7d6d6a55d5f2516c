// Package serverctl stops a project's running server for the commands that
// change the project's files under it: upgrade, rollback and uninstall.
package serverctl

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/proc"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
)

// DefaultTimeout is how long Stop waits for a server to exit when Options
// names no timeout.
const DefaultTimeout = 15 * time.Second

// Options configure Stop.
type Options struct {
	// Timeout bounds the wait for the server to exit (0: DefaultTimeout).
	Timeout time.Duration
	// Again ends the errors that ask the person to stop the server by
	// hand: what to do then ("run the upgrade again").
	Again string
	// Successors stops as well each server that takes the project over
	// while the stopped one exits (another agent's bridge, standing by),
	// so that none serves the project when Stop returns.
	Successors bool
}

// Stopped is the project's server lock, held until Release so that no
// server starts while the files change, and what was done to the server
// that was running.
type Stopped struct {
	fl        *flock.Flock
	PID       int    // the server stopped, 0 when none ran
	Transport string // its transport
	Note      string // what was done, for the person
}

// Stop takes the project's server lock. When a server holds it, the
// server is asked to stop (SIGTERM: it finishes its requests, saves its
// indexes and removes its state file; workflow sessions are on disk and stay
// as they are) and awaited for up to the timeout.
func Stop(ctx context.Context, p project.Paths, opts Options) (*Stopped, error) {
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	again := opts.Again
	if again == "" {
		again = "try again"
	}
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		return nil, fmt.Errorf("server lock: %w", err)
	}
	s := &Stopped{fl: flock.New(p.Lock()), Note: "no server was running"}
	ok, err := s.fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("server lock: %w", err)
	}
	if ok {
		return s, nil
	}
	pr := server.ProbeProject(ctx, p)
	if pr.PID <= 0 || pr.PID == os.Getpid() {
		return nil, fmt.Errorf("a server holds %s but does not say its pid (%s); stop it and %s", p.Rel(p.Lock()), pr.Reason, again)
	}
	s.PID, s.Transport = pr.PID, pr.Transport
	if pr.Transport == "" && pr.State != nil {
		s.Transport = pr.State.Transport
	}
	terminate(pr.PID)
	signalled := map[int]bool{pr.PID: true}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	var lastLook time.Time
	for {
		if ok, err := s.fl.TryLock(); err == nil && ok {
			s.Note = fmt.Sprintf("stopped the running server (pid %d, %s)", s.PID, s.Transport)
			if n := len(signalled) - 1; n > 0 {
				s.Note += fmt.Sprintf(" and %d that took over from it", n)
			}
			return s, nil
		}
		if opts.Successors && time.Since(lastLook) >= 200*time.Millisecond {
			lastLook = time.Now()
			if pid := holder(ctx, p); pid > 0 && pid != os.Getpid() && !signalled[pid] {
				signalled[pid] = true
				terminate(pid)
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, fmt.Errorf("the running server (pid %d) did not stop within %s; stop it (close its agent) and %s", pr.PID, timeout, again)
		case <-tick.C:
		}
	}
}

// terminate asks process pid to stop.
func terminate(pid int) {
	if process, err := os.FindProcess(pid); err == nil {
		if err := process.Signal(syscall.SIGTERM); err != nil {
			process.Kill() // Windows has no SIGTERM
		}
	}
}

// holder is the pid that holds the project lock now: the kernel's word
// where it lists a lock's holders, else the state file's, once the server
// that took over has written it; 0 when neither says.
func holder(ctx context.Context, p project.Paths) int {
	if holders, err := proc.LockHolders(p.Lock()); err == nil {
		if len(holders) > 0 {
			return holders[0]
		}
		return 0
	}
	return server.ProbeProject(ctx, p).PID
}

// Release lets servers start again.
func (s *Stopped) Release() {
	if s != nil && s.fl != nil {
		s.fl.Unlock()
	}
}
