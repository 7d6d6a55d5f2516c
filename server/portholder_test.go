package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// portProjects gives the test a record of its own (ports.json in a fresh
// config folder; the test cannot run in parallel for it) and the folders of
// two projects.
func portProjects(t *testing.T) (a, b string) {
	t.Setenv(machinekey.EnvDir, t.TempDir())
	dir := t.TempDir()
	a, b = filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}

// hold listens on port at Host for the rest of the test, as a program that
// is not an agentos server would.
func hold(t *testing.T, port int) {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(port)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
}

// A server whose recorded port is busy falls back past the port another
// project records, and its log says the recorded port is busy, with what
// holds it and the fix.
func TestFallbackPortIsNotAnotherProjectsAndTheLogSaysWhy(t *testing.T) {
	a, b := portProjects(t)
	lo, ok := freePorts(4)
	if !ok {
		t.Skip("found no four consecutive free ports")
	}
	ctx := context.Background()
	if err := ports.Record(ctx, b, lo+1); err != nil {
		t.Fatal(err)
	}
	hold(t, lo)
	ln, port, err := listen(ctx, a, lo, lo, lo+3)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if port != lo+2 {
		t.Fatalf("recorded %d busy: listened on %d, want %d (%d is the record of %s)", lo, port, lo+2, lo+1, b)
	}

	var logged bytes.Buffer
	s := &server{opts: Options{Project: project.Paths{Root: a}}, log: slog.New(slog.NewTextHandler(&logged, nil))}
	s.logPort(ctx, lo, port)
	for _, want := range []string{"server.port is held by another program", "does not answer as an agentos server", "recorded=" + strconv.Itoa(lo), "port=" + strconv.Itoa(port), "stop the program listening on port " + strconv.Itoa(lo)} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, logged.String())
		}
	}

	// On its recorded port, which another project records too, it says so.
	logged.Reset()
	s.logPort(ctx, lo+1, lo+1)
	if !strings.Contains(logged.String(), "ports.json records port "+strconv.Itoa(lo+1)+" for the project at "+b) {
		t.Errorf("the log does not name the project recording the port:\n%s", logged.String())
	}
}

// When an agentos server of another project holds the recorded port, the
// conflict names that project (from its liveness answer) and, when the
// record gives it the port, says so; the fix is then to move this project.
func TestPortConflictNamesTheProjectThatHoldsThePort(t *testing.T) {
	a, b := portProjects(t)
	ctx := context.Background()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != state.EndpointPath {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(state.Liveness{Name: buildinfo.Name, Project: state.Project{Name: "b", Root: b}, PID: 4321})
	}))
	defer other.Close()
	port := other.Listener.Addr().(*net.TCPAddr).Port

	problem, fix := PortConflict(ctx, a, port, port+1)
	for _, want := range []string{"server.port " + strconv.Itoa(port) + " is busy", "agentos server (pid 4321) of the project at " + b, "fallback port " + strconv.Itoa(port+1), "reach whatever listens there"} {
		if !strings.Contains(problem, want) {
			t.Errorf("unrecorded: the problem does not say %q: %s", want, problem)
		}
	}
	if !strings.Contains(fix, "stop the agentos server (pid 4321)") || !strings.Contains(fix, "agentos upgrade") {
		t.Errorf("unrecorded: fix %q", fix)
	}

	if err := ports.Record(ctx, b, port); err != nil {
		t.Fatal(err)
	}
	problem, fix = PortConflict(ctx, a, port, 0)
	if !strings.Contains(problem, "of the project at "+b+", which ports.json records port "+strconv.Itoa(port)+" for") || !strings.Contains(problem, "a server started now takes a fallback port") {
		t.Errorf("recorded for b: problem %q", problem)
	}
	if !strings.Contains(fix, "the other project's") || !strings.Contains(fix, "agentos upgrade") {
		t.Errorf("recorded for b: fix %q", fix)
	}

	// b's own view: its server on its recorded port is no conflict.
	if problem, _ := PortConflict(ctx, b, port, port); problem != "" {
		t.Errorf("b on its own port: %q", problem)
	}
}

// A server on a fallback port whose recorded port is free again is told to
// restart; a free recorded port no one else records is no conflict.
func TestPortConflictWhenTheRecordedPortIsFreeAgain(t *testing.T) {
	a, _ := portProjects(t)
	lo, ok := freePorts(2)
	if !ok {
		t.Skip("found no two consecutive free ports")
	}
	problem, fix := PortConflict(context.Background(), a, lo, lo+1)
	if !strings.Contains(problem, "fallback port "+strconv.Itoa(lo+1)) || !strings.Contains(problem, "free now") || !strings.Contains(fix, "restart") {
		t.Errorf("problem %q, fix %q", problem, fix)
	}
	if problem, _ := PortConflict(context.Background(), a, lo, 0); problem != "" {
		t.Errorf("free, unrecorded port, no server: %q", problem)
	}
}
