package agentconfig

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
)

// PinnedBinary is the project's pinned agentos binary.
func PinnedBinary(p project.Paths) string {
	name := "agentos"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(p.Bin(), name)
}

// LaunchBinary is the agentos that entries run: the project's pinned copy,
// or, in a project installed without one (install --no-pin), this agentos
// where it is, unless it is a temporary build of `go run` (TransientBinary),
// which no entry may name.
func LaunchBinary(p project.Paths) (string, error) {
	pinned := PinnedBinary(p)
	if _, err := os.Stat(pinned); err == nil {
		return pinned, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("this project has no pinned agentos (installed with --no-pin), and the path of this agentos, which its agents would run, is unknown: %w", err)
	}
	if TransientBinary(exe) {
		return "", fmt.Errorf("this project has no pinned agentos (installed with --no-pin), and its agents would run %s, a temporary build of `go run` that Go deletes or replaces; run an installed agentos (`go install ./cmd/agentos`), or install again without --no-pin to pin a copy in .agentos/bin/", exe)
	}
	return exe, nil
}

// TransientBinary reports whether path is an executable `go run` built:
// in a go-build folder of the temporary directory, or in Go's build cache
// (which keeps `go run` executables since Go 1.24). Go removes or replaces
// it, so no agent's entry may name it.
func TransientBinary(path string) bool {
	dirs := []string{filepath.Join(os.TempDir(), "go-build")}
	if v := os.Getenv("GOTMPDIR"); v != "" {
		dirs = append(dirs, filepath.Join(v, "go-build"))
	}
	if v := os.Getenv("GOCACHE"); v != "" {
		dirs = append(dirs, v)
	} else if cache, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(cache, "go-build"))
	}
	for _, d := range dirs {
		// go-build folders of the temporary directory are go-build1234/.
		if rel, err := filepath.Rel(filepath.Dir(d), path); err == nil && strings.HasPrefix(rel, filepath.Base(d)) && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// NotRunningError says the primary server is not running, and how to start it.
type NotRunningError struct {
	Root   string
	Reason string
}

func (e *NotRunningError) Error() string {
	return fmt.Sprintf("the primary agentos server for %s is not running (%s); open the project in your primary agent, "+
		"which launches it, or run `%s serve --transport dual` in a terminal, then run `agentos connect` again",
		e.Root, e.Reason, filepath.Join(".agentos", "bin", "agentos"))
}

// Connected is what Connect did.
type Connected struct {
	Client Client
	Target Target
	Change Change
	Backup string // where the original was saved, if this run saved it
	URL    string // the endpoint the entry points at ("" for a bridge)
	Bridge bool   // the client got a bridging stdio entry
	Note   string
	// Took is set when the entry was a single user-level one that served
	// another project: its Note says which, for the person to read.
	Took *Takeover
}

// Connect gives c an entry that shares the project's running primary
// server: its HTTP URL, or for a stdio-only client a stdio command that
// bridges to it. It checks that the endpoint answers MCP first.
//
// A client's single user-level entry (Cline's) that serves another project
// which still exists is taken only when replace is set; otherwise Connect
// returns a *TakeoverError and writes nothing.
func Connect(ctx context.Context, p project.Paths, c Client, scope Scope, env Env, replace bool) (Connected, error) {
	pr := server.ProbeProject(ctx, p)
	if !pr.Running {
		return Connected{}, &NotRunningError{Root: p.Root, Reason: pr.Reason}
	}
	if pr.URL == "" {
		return Connected{}, fmt.Errorf("the primary server runs over stdio only, so other agents cannot reach it; make its client launch `agentos serve --transport dual` (run `agentos install` for it) and restart that client")
	}
	token := ""
	if pr.State != nil && pr.State.Auth == "token" {
		t, err := server.ReadToken(p)
		if err != nil {
			return Connected{}, err
		}
		token = t
	}
	if err := CheckEndpoint(ctx, pr.URL, token); err != nil {
		return Connected{}, fmt.Errorf("the server at %s does not answer MCP: %w", pr.URL, err)
	}
	t, err := c.TargetFor(p.Root, scope, env)
	if err != nil {
		return Connected{}, err
	}
	out := Connected{Client: c, Target: t, URL: pr.URL}
	entry := HTTPEntry(pr.URL)
	if !c.CanHTTP() {
		bin, err := LaunchBinary(p)
		if err != nil {
			return Connected{}, err
		}
		entry = Bridge(bin, p.Root)
		out.Bridge, out.URL = true, ""
		out.Note = c.Name + " speaks stdio only: its entry runs `agentos serve --transport stdio`, which bridges to the server at " + pr.URL + "."
	}
	if token != "" && !out.Bridge {
		out.Note = "The server requires a bearer token (server.auth: token): add the header `Authorization: Bearer <.agentos/.cache/auth_token>` to this entry in " + c.Name + "."
	}
	if from, ok := Displaced(t, p.Root); ok {
		k := Takeover{Target: t, From: from, Root: p.Root}
		if from.Gone == "" && !replace {
			return Connected{}, &TakeoverError{Takeovers: []Takeover{k}}
		}
		out.Took = &k
	}
	ch, err := PlanEntry(t, entry)
	if err != nil {
		return Connected{}, err
	}
	out.Change = ch
	backup, err := Apply(ch, Backups{Dir: p.Backups(), Root: p.Root, Home: env.Home})
	if err != nil {
		return Connected{}, err
	}
	out.Backup = backup
	if t.Single() {
		if err := RecordSingle(p, c, KindOf(entry)); err != nil {
			return out, fmt.Errorf("connect: %s's entry was written; %w", c.Name, err)
		}
	}
	return out, nil
}

// CheckEndpoint checks that the server at url answers an MCP handshake,
// and ends the session it opened (server.CheckEndpoint).
func CheckEndpoint(ctx context.Context, url, token string) error {
	return server.CheckEndpoint(ctx, url, token)
}
