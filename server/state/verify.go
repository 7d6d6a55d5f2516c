package state

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/loopback"
	"github.com/agentos-dev/agentos/internal/proc"
	"github.com/agentos-dev/agentos/internal/project"
)

// Host is the only address a server binds, so the only one a state file may
// name. localhost and [::1] are refused too: localhost is whatever the
// resolver says, and [::1]:port is another socket that any process may hold
// while the server holds 127.0.0.1:port.
const Host = "127.0.0.1"

// Liveness is the answer to a plain GET of the endpoint (one that does not
// ask for an event stream): who serves this port. The server answers it
// without a token, so a reader can check who listens before it sends one.
type Liveness struct {
	Name       string  `json:"name"`
	Version    string  `json:"version"`
	Transport  string  `json:"transport"`
	Project    Project `json:"project"`
	InstanceID string  `json:"instance_id"`
	PID        int     `json:"pid"`
}

// StaleError says why a state file is not trusted: it was left by a server
// that stopped, written by another version, copied from another project, or
// forged. A reader that gets one sends nothing to the URL the file names.
type StaleError struct{ Reason string }

func (e *StaleError) Error() string { return e.Reason + ": stale or forged, ignored" }

func stale(format string, args ...any) error {
	return &StaleError{Reason: fmt.Sprintf(format, args...)}
}

// livenessTimeout bounds the one request Verify makes.
const livenessTimeout = 3 * time.Second

// Verify decides whether f, read from project p's state file, may be
// trusted: the one check every reader (the bridge, status, connect, doctor,
// install's secondary entries) makes before it sends a token or MCP traffic
// to the URL f names. It holds when, in this order:
//   - f has this version's layout;
//   - its URL is exactly http://127.0.0.1:<port>/mcp, with port in the
//     project's server.port_range (cfg);
//   - its pid is alive;
//   - it is for this project;
//   - its pid, where the kernel lists a lock's holders (Linux), holds the
//     project lock;
//   - a plain GET of the URL, sent without the token, answers as agentos
//     serving this project with that pid. Where the lock's holders cannot be
//     listed this is what ties the pid to the project.
//
// It returns nil, a *StaleError, or another error when the server named is
// alive but not answering (starting, or hung); only nil means trusted.
func Verify(ctx context.Context, f File, p project.Paths, cfg config.Config) error {
	if f.Version != SchemaVersion {
		return stale("the state file has layout version %d; this agentos writes version %d", f.Version, SchemaVersion)
	}
	if err := checkURL(f, cfg); err != nil {
		return err
	}
	if !proc.Alive(f.PID) {
		return stale("the state file names pid %d, which is not running (its server stopped without removing the file; the next start replaces it)", f.PID)
	}
	if !project.SameFolder(f.Project.Root, p.Root) {
		return stale("the state file is for the project at %q, not this one (%s)", f.Project.Root, p.Root)
	}
	if err := checkLock(f.PID, p.Lock()); err != nil {
		return err
	}
	return checkLiveness(ctx, f, p)
}

// ReadVerified reads project p's state file and returns it when Verify
// trusts it; ErrMissing when there is none.
func ReadVerified(ctx context.Context, p project.Paths, cfg config.Config) (File, error) {
	f, err := Read(p.StateFile())
	if err != nil {
		return File{}, err
	}
	if err := Verify(ctx, f, p, cfg); err != nil {
		return File{}, err
	}
	return f, nil
}

func checkURL(f File, cfg config.Config) error {
	lo, hi, err := cfg.Ports()
	if err != nil {
		return err
	}
	if f.URL != fmt.Sprintf("http://%s:%d%s", Host, f.Port, EndpointPath) || f.Host != Host || f.Path != EndpointPath {
		u, err := url.Parse(f.URL)
		if err != nil || u.Hostname() == "" {
			return stale("the state file names %q, which is not a URL", f.URL)
		}
		if !loopback.Is(u.Hostname()) {
			return stale("the state file names %s, which is not this machine's loopback address", f.URL)
		}
		return stale("the state file names %s (port %d), but a server of this project listens only at http://%s:<port>%s", f.URL, f.Port, Host, EndpointPath)
	}
	if f.Port < lo || f.Port > hi {
		return stale("the state file names port %d, outside this project's server.port_range %d-%d", f.Port, lo, hi)
	}
	return nil
}

// checkLock checks that pid holds the project lock. Where the holders cannot
// be listed (not Linux, or /proc unreadable) it passes, and the liveness
// answer decides.
func checkLock(pid int, lock string) error {
	holders, err := proc.LockHolders(lock)
	switch {
	case err != nil, slices.Contains(holders, pid):
		return nil
	case len(holders) == 0:
		return stale("the state file names pid %d, which does not hold the project lock (no process does, so no server runs)", pid)
	default:
		return stale("the state file names pid %d, which does not hold the project lock (pid %d does)", pid, holders[0])
	}
}

// liveClient sends the liveness request: no token, no redirects followed.
var liveClient = &http.Client{
	Timeout:       livenessTimeout,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func checkLiveness(ctx context.Context, f File, p project.Paths) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return stale("the state file names %q, which is not a URL", f.URL)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := liveClient.Do(req)
	if err != nil {
		return fmt.Errorf("pid %d is running but %s is not answering: %w", f.PID, f.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		// Servers before this check answered the liveness request only with the token.
		return stale("%s wants a token before it says who it is (an agentos older than this one would: restart it with this version)", f.URL)
	}
	var live Liveness
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&live) != nil || live.Name != buildinfo.Name {
		return stale("%s does not answer as an agentos server (HTTP %s)", f.URL, resp.Status)
	}
	if live.PID != f.PID || !project.SameFolder(live.Project.Root, p.Root) {
		return stale("%s answers as pid %d serving %q, not pid %d serving this project", f.URL, live.PID, live.Project.Root, f.PID)
	}
	return nil
}
