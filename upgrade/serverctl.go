package upgrade

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/serverctl"
	"github.com/agentos-dev/agentos/server"
)

// stoppedServer is the project's server lock, held while the upgrade
// changes files so that no server starts on a half-written project, and
// what was done to the server that was running (serverctl.Stop).
type stoppedServer struct {
	lock      *serverctl.Stopped
	pid       int    // the server stopped, 0 when none ran
	transport string // its transport
	note      string
}

// stopServer takes the project's server lock, stopping the server that
// holds it and awaiting it for up to timeout (serverctl.Stop). Another
// agent's bridge that takes the project over as that server exits is
// stopped too: it runs the binary the upgrade replaces, and the upgrade
// would otherwise wait for the lock it holds until the time runs out.
func stopServer(ctx context.Context, p project.Paths, timeout time.Duration) (*stoppedServer, error) {
	s, err := serverctl.Stop(ctx, p, serverctl.Options{Timeout: timeout, Again: "run the upgrade again", Successors: true})
	if err != nil {
		return nil, err
	}
	return &stoppedServer{lock: s, pid: s.PID, transport: s.Transport, note: s.Note}, nil
}

// release lets servers start again.
func (s *stoppedServer) release() {
	if s != nil {
		s.lock.Release()
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
