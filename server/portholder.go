package server

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentos-dev/agentos/internal/project"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/server/state"
)

// PortHolder is what can be told cheaply about a port a project records
// (server.port): whether something listens there, whom the machine's record
// (ports.json) gives it, and, when an agentos server listens there, which
// project it serves. A server that finds its port busy, doctor and status
// say from it whose the port is, since HTTP clients configured with that
// port reach whatever listens there and report "connected".
type PortHolder struct {
	Port  int
	Root  string      // the project asking
	Busy  bool        // something listens on Port now
	Owner ports.Owner // whom ports.json gives Port
	// Serving is the root of the project that the agentos server listening
	// on Port says it serves; "" when what listens does not answer as one.
	Serving string
	PID     int // that server's pid
}

// holderTimeout bounds the liveness request LookAtPort sends: a program
// that accepts connections but never answers HTTP costs no more than this.
const holderTimeout = time.Second

// LookAtPort finds out who holds port, which the project at root records.
// An error reading ports.json is returned beside what could still be told.
func LookAtPort(ctx context.Context, root string, port int) (PortHolder, error) {
	h := PortHolder{Port: port, Root: root}
	owner, err := ports.OwnerOf(ctx, root, port)
	h.Owner = owner
	if !ports.Free(port) {
		h.Busy = true
		if live, ok := askLiveness(ctx, port); ok {
			h.Serving, h.PID = live.Project.Root, live.PID
		}
	}
	return h, err
}

// askLiveness sends the plain GET every agentos server answers without a
// token (isLiveness): who serves this port.
func askLiveness(ctx context.Context, port int) (state.Liveness, bool) {
	ctx, cancel := context.WithTimeout(ctx, holderTimeout)
	defer cancel()
	url := "http://" + Host + ":" + strconv.Itoa(port) + state.EndpointPath
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return state.Liveness{}, false
	}
	req.Header.Set("Accept", "application/json")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return state.Liveness{}, false
	}
	defer resp.Body.Close()
	var live state.Liveness
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&live) != nil ||
		live.Name != buildinfo.Name || live.Project.Root == "" {
		return state.Liveness{}, false
	}
	return live, true
}

// ownServer reports whether what listens on the port is the asking
// project's own server.
func (h PortHolder) ownServer() bool { return h.Serving != "" && project.SameFolder(h.Serving, h.Root) }

// record says whom ports.json gives the port, when another project.
func (h PortHolder) record() string {
	if h.Owner.Proposed {
		return fmt.Sprintf("port %d is proposed to the install of the project at %s", h.Port, h.Owner.Other)
	}
	return fmt.Sprintf("ports.json records port %d for the project at %s", h.Port, h.Owner.Other)
}

// Whose says who holds the busy port, and whose the record says it is.
func (h PortHolder) Whose() string {
	other := h.Owner.Other
	switch {
	case h.Serving != "" && other != "" && project.SameFolder(h.Serving, other) && h.Owner.Proposed:
		return fmt.Sprintf("the agentos server (pid %d) of the project at %s, to whose install port %d is proposed", h.PID, h.Serving, h.Port)
	case h.Serving != "" && other != "" && project.SameFolder(h.Serving, other):
		return fmt.Sprintf("the agentos server (pid %d) of the project at %s, which ports.json records port %d for", h.PID, h.Serving, h.Port)
	case h.Serving != "" && other != "":
		return fmt.Sprintf("the agentos server (pid %d) of the project at %s; %s", h.PID, h.Serving, h.record())
	case h.Serving != "":
		return fmt.Sprintf("the agentos server (pid %d) of the project at %s", h.PID, h.Serving)
	case other != "":
		return "a process that does not answer as an agentos server; " + h.record()
	}
	return "a process that does not answer as an agentos server"
}

// Fix says how to get the project its port back, or give it another.
func (h PortHolder) Fix() string {
	move := "give this project a port of its own: remove the `port:` line under `server:` in .agentos/config/mcp.yaml and run `agentos upgrade`, " +
		"which records a free port no other project holds; then restart this project's server (the primary agent that launched it) " +
		"and run `agentos connect --agent NAME` for each HTTP client (`agentos doctor` names them)"
	var stop string
	switch {
	case h.Owner.Other != "":
		return fmt.Sprintf("port %d is the other project's, so %s", h.Port, move)
	case !h.Busy:
		return fmt.Sprintf("restart this project's server (the primary agent that launched it) so it takes port %d again", h.Port)
	case h.Serving != "":
		stop = fmt.Sprintf("stop the agentos server (pid %d) of the project at %s and restart this project's server", h.PID, h.Serving)
	default:
		stop = fmt.Sprintf("stop the program listening on port %d and restart this project's server", h.Port)
	}
	if h.Owner.Own {
		return stop + fmt.Sprintf(" (ports.json records port %d for this project)", h.Port)
	}
	return stop + "; or " + move
}

// PortConflict says what keeps the project at root from its recorded port
// (server.port), and how to fix it; "" when nothing does. listening is the
// port its running server listens on, 0 when none runs (or none is
// trusted). Doctor and status show it.
func PortConflict(ctx context.Context, root string, recorded, listening int) (problem, fix string) {
	if recorded == 0 {
		return "", "" // no recorded port: the server takes the first free one, and says so
	}
	h, err := LookAtPort(ctx, root, recorded)
	switch {
	case listening == recorded:
		if h.Owner.Other == "" {
			break
		}
		return fmt.Sprintf("this server listens on its server.port %d, but %s: while this server holds the port, that project's server runs on a fallback port "+
			"and its HTTP clients reach this project's server instead", recorded, h.record()), h.Fix()
	case listening != 0 && h.Busy && !h.ownServer():
		return fmt.Sprintf("server.port %d is busy, held by %s, so this server runs on the fallback port %d; "+
			"HTTP clients configured with port %d reach whatever listens there, not this project", recorded, h.Whose(), listening, recorded), h.Fix()
	case listening != 0 && !h.Busy:
		return fmt.Sprintf("this server runs on the fallback port %d: its server.port %d was busy when it started and is free now; "+
			"until the server restarts, HTTP clients configured with port %d fail to connect", listening, recorded, recorded), h.Fix()
	case listening == 0 && h.Busy && !h.ownServer():
		return fmt.Sprintf("server.port %d is busy, held by %s: a server started now takes a fallback port, "+
			"and HTTP clients configured with port %d reach whatever listens there, not this project", recorded, h.Whose(), recorded), h.Fix()
	case listening == 0 && !h.Busy && h.Owner.Other != "":
		return fmt.Sprintf("server.port %d is another project's: %s; whichever of the two servers starts second takes a fallback port, "+
			"and its HTTP clients reach the other's server", recorded, h.record()), h.Fix()
	}
	if err != nil {
		return fmt.Sprintf("cannot tell whether another project records server.port %d: %v", recorded, err),
			"make ports.json readable, or delete it (it only steers the choice of ports; the next install rewrites it)"
	}
	return "", ""
}

// logPort says in the log which port the server took and why, when it is
// not simply its recorded one: none is recorded, the recorded one is busy
// (and whose it is), or another project records it too.
func (s *server) logPort(ctx context.Context, recorded, port int) {
	if recorded == 0 {
		s.log.Info("no server.port is recorded in .agentos/config/mcp.yaml, so the port may change between starts and agents connected over HTTP lose the server; `agentos upgrade` records one", "port", port)
		return
	}
	if port == recorded {
		// Not LookAtPort: the port is busy with this server, which does
		// not answer yet.
		owner, err := ports.OwnerOf(ctx, s.opts.Project.Root, recorded)
		if err != nil {
			s.log.Warn("cannot tell whether another project records server.port", "err", err)
		}
		if owner.Other != "" {
			h := PortHolder{Port: recorded, Root: s.opts.Project.Root, Busy: true, Owner: owner}
			s.log.Warn("server.port is another project's too: "+h.record()+"; while this server holds it, that project's server runs on a fallback port and its HTTP clients reach this one",
				"recorded", recorded, "fix", h.Fix())
		}
		return
	}
	h, err := LookAtPort(ctx, s.opts.Project.Root, recorded)
	if err != nil {
		s.log.Warn("cannot tell whether another project records server.port", "err", err)
	}
	s.log.Warn("server.port is held by another program: "+h.Whose()+". So this server listens on the next free port that no other project records, "+
		"and HTTP clients configured with the recorded port reach whatever listens there, not this project, until that port is free and the server restarts (`agentos doctor` names them)",
		"recorded", recorded, "port", port, "fix", h.Fix())
}
