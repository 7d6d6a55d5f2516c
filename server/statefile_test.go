package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/server/state"
)

// recorder is a listener on 127.0.0.1 that records what reaches it.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD path auth=<Authorization>"
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.seen = append(rec.seen, fmt.Sprintf("%s %s auth=%s", r.Method, r.URL.Path, r.Header.Get("Authorization")))
		rec.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) port() int { return r.Listener.Addr().(*net.TCPAddr).Port }

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

// A forged state file, written over the running primary's, naming the
// primary's own pid (which holds the lock) but a listener of someone else's
// in the port range: the bridge checks who answers there, without the token,
// and refuses; the listener never sees the token or an MCP message.
func TestBridgeRefusesForgedStateFile(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	cfg.Server.Auth = config.AuthToken
	rec := newRecorder(t)
	lo := rec.port()
	if lo > 65535-10 {
		lo -= 10
	}
	cfg.Server.PortRange = fmt.Sprintf("%d-%d", lo, lo+10)
	// ProbeProject reads the config from disk.
	yaml := fmt.Sprintf("server:\n  port_range: %q\n  auth: token\n", cfg.Server.PortRange)
	if err := os.WriteFile(p.Config(), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	primary := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	real, err := state.Read(p.StateFile())
	if err != nil || real.URL != primary.status.URL {
		t.Fatalf("primary's state file: %+v %v", real, err)
	}
	forged := real
	forged.Port, forged.URL = rec.port(), fmt.Sprintf("http://127.0.0.1:%d/mcp", rec.port())
	if err := state.Write(p.StateFile(), forged); err != nil {
		t.Fatal(err)
	}

	in, w := io.Pipe()
	defer w.Close()
	go io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`+"\n")
	err = Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportStdio, Stdin: in, Stdout: io.Discard})
	var running *AlreadyRunningError
	if !errors.As(err, &running) || !strings.Contains(running.Untrusted, "does not answer as an agentos server") ||
		!strings.Contains(err.Error(), "stale or forged") || !strings.Contains(err.Error(), "nothing was sent") {
		t.Fatalf("bridge over a forged state file: %v", err)
	}
	// One liveness request without the token: the file did not change while
	// the bridge waited, so it was not checked again.
	if got := rec.requests(); len(got) != 1 || got[0] != "GET /mcp auth=" {
		t.Errorf("the forged URL received %q", got)
	}

	// status says so, names the real server by its lock, and sends nothing more.
	before := len(rec.requests())
	pr := ProbeProject(context.Background(), p)
	// Its pid is the kernel's word on who holds the lock, not the file's.
	if pr.Running || pr.URL != "" || pr.State != nil || pr.PID != os.Getpid() || !strings.Contains(pr.Reason, "stale or forged") ||
		!strings.Contains(pr.Reason, fmt.Sprintf("pid %d holds the project lock", os.Getpid())) {
		t.Errorf("probe over a forged state file: %+v", pr)
	}
	if got := rec.requests()[before:]; len(got) != 1 || got[0] != "GET /mcp auth=" {
		t.Errorf("the probe sent %q", got)
	}

	// The real file again: found, token and all.
	if err := state.Write(p.StateFile(), real); err != nil {
		t.Fatal(err)
	}
	if pr := ProbeProject(context.Background(), p); !pr.Running || pr.URL != real.URL {
		t.Errorf("probe of the real file: %+v", pr)
	}
}

// With server.auth: token, the liveness check answers without the token (so
// readers can check who listens before they send it); nothing else does.
func TestLivenessNeedsNoToken(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	cfg.Server.Auth = config.AuthToken
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	get := func(accept string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.status.URL, nil)
		req.Header.Set("Accept", accept)
		resp, err := testHTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("application/json"); code != 200 {
		t.Errorf("liveness without a token: %d", code)
	}
	if code := get("text/event-stream"); code != 401 {
		t.Errorf("event stream without a token: %d", code)
	}
	resp, err := testHTTP.Post(r.status.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("POST without a token: %d", resp.StatusCode)
	}
	if err := state.Verify(context.Background(), mustRead(t, p.StateFile()), p, cfg); err != nil {
		t.Errorf("the server's own state file: %v", err)
	}
}

func mustRead(t *testing.T, path string) state.File {
	t.Helper()
	f, err := state.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
