package upgrade

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
)

// stoppedServer is the project's server lock, held while the upgrade
// changes files so that no server starts on a half-written project, and
// what was done to the server that was running.
type stoppedServer struct {
	fl        *flock.Flock
	pid       int    // the server stopped, 0 when none ran
	transport string // its transport
	note      string
}

// stopServer takes the project's server lock. When a server holds it, the
// server is asked to stop (SIGTERM: it finishes its requests, saves its
// indexes and removes its state file; workflow sessions are on disk and stay
// as they are) and awaited for up to timeout.
func stopServer(ctx context.Context, p project.Paths, timeout time.Duration) (*stoppedServer, error) {
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		return nil, err
	}
	s := &stoppedServer{fl: flock.New(p.Lock()), note: "no server was running"}
	ok, err := s.fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("server lock: %w", err)
	}
	if ok {
		return s, nil
	}
	pr := server.ProbeProject(ctx, p)
	if pr.PID <= 0 || pr.PID == os.Getpid() {
		return nil, fmt.Errorf("a server holds %s but does not say its pid (%s); stop it and run the upgrade again", p.Rel(p.Lock()), pr.Reason)
	}
	s.pid, s.transport = pr.PID, pr.Transport
	if pr.Transport == "" && pr.State != nil {
		s.transport = pr.State.Transport
	}
	if process, err := os.FindProcess(pr.PID); err == nil {
		if err := process.Signal(syscall.SIGTERM); err != nil {
			process.Kill() // Windows has no SIGTERM
		}
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		if ok, err := s.fl.TryLock(); err == nil && ok {
			s.note = fmt.Sprintf("stopped the running server (pid %d, %s)", s.pid, s.transport)
			return s, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, fmt.Errorf("the running server (pid %d) did not stop within %s; stop it (close its agent) and run the upgrade again", pr.PID, timeout)
		case <-tick.C:
		}
	}
}

// release lets servers start again.
func (s *stoppedServer) release() {
	if s != nil && s.fl != nil {
		s.fl.Unlock()
	}
}

// restart starts again a server that served HTTP only (a service nobody's
// agent relaunches), and says what happens to any other: an agent launches
// its server over stdio and starts the upgraded one when it next needs it.
func (s *stoppedServer) restart(p project.Paths) string {
	if s == nil || s.pid == 0 {
		return ""
	}
	s.release()
	if s.transport != string(server.TransportHTTP) {
		return s.note + "; its agent starts the upgraded server when it next calls a tool (if it shows the server as disconnected, reload its MCP servers); workflow sessions are kept on disk"
	}
	cmd := exec.Command(installer.PinnedBinary(p), "serve", "--transport", "http", "--project-root", p.Root)
	cmd.Dir = p.Root
	if err := cmd.Start(); err != nil {
		return s.note + fmt.Sprintf("; restarting it failed (%v): run `%s serve --transport http`", err, installer.PinnedBinary(p))
	}
	pid := cmd.Process.Pid
	cmd.Process.Release() // it outlives this command, as the server it replaces did
	return s.note + fmt.Sprintf("; restarted it over HTTP with the upgraded binary (pid %d); workflow sessions are kept on disk", pid)
}
