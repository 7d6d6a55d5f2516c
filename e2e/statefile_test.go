package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder stands in for whoever a forged state file points at: an HTTP
// listener on 127.0.0.1 that records every request and answers 404.
type recorder struct {
	port int
	mu   sync.Mutex
	reqs []string // "METHOD path auth=<Authorization> body=<body>"
}

// listenRecorder listens on port (0: any free one) until the test ends.
func listenRecorder(t *testing.T, port int) *recorder {
	t.Helper()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{port: ln.Addr().(*net.TCPAddr).Port}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, fmt.Sprintf("%s %s auth=%s body=%s", r.Method, r.URL, r.Header.Get("Authorization"), body))
		rec.mu.Unlock()
		http.NotFound(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return rec
}

func (r *recorder) url() string { return fmt.Sprintf("http://127.0.0.1:%d/mcp", r.port) }

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reqs...)
}

// runStdin runs the built binary in dir with stdin, and returns what it
// printed and its exit code.
func runStdin(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run agentos %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// forgeState writes the state file base with edits applied over it.
func forgeState(t *testing.T, root string, base map[string]any, edits map[string]any) {
	t.Helper()
	st := map[string]any{}
	for k, v := range base {
		st[k] = v
	}
	for k, v := range edits {
		st[k] = v
	}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(statePath(root), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readStateMap(t *testing.T, root string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(statePath(root))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// exitedPID is the pid of a process that has ended.
func exitedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(binary, "version")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

const bridgeSession = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"desktop","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"svc_filesystem","arguments":{"action":"read","path":"README.md"}}}
`

// forgedPrimary is a project whose primary serves with a token on a port
// range that ends at a recorder's port, and a second recorder outside it.
type forgedPrimary struct {
	root, home       string
	inRange, outside *recorder
	lo, hi           int
	real             stateFile
	base             map[string]any
}

func newForgedPrimary(t *testing.T) *forgedPrimary {
	t.Helper()
	f := &forgedPrimary{root: newProject(t), home: t.TempDir()}
	// The recorder takes a port the kernel says is free, and the project's
	// range ends there; the primary takes the first free port below it.
	f.inRange = listenRecorder(t, 0)
	f.lo, f.hi = f.inRange.port-7, f.inRange.port
	f.outside = listenRecorder(t, 0)
	for f.outside.port >= f.lo && f.outside.port <= f.hi {
		f.outside = listenRecorder(t, 0)
	}
	writeConfig(t, f.root, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n  auth: token\n", f.lo, f.hi))
	primary := startServe(t, f.root, "--transport", "http")
	f.real = waitState(t, f.root, primary.cmd.Process.Pid)
	f.base = readStateMap(t, f.root)
	return f
}

// A state file forged over the running primary's (the attack:
// an agent rewrote it through a tool) points at a listener of someone
// else's. status, the stdio bridge, connect and doctor each say the file is
// stale or forged, and the listener gets no token and no MCP message; at
// most, where the file passes every other check, the token-less liveness
// GET that finds out who listens. With the true file back, all find the
// primary again. Each forgery has a primary of its own, so that they run
// at once: the bridge waits five seconds for a file it can trust.
func TestStateFileForgedGetsNoTokenNorTraffic(t *testing.T) {
	long(t) // server/state refuses stale and forged state files (TestVerifyRefusesStaleAndForgedFiles)
	t.Parallel()
	cases := []struct {
		name     string
		forge    func(t *testing.T, f *forgedPrimary) (edits map[string]any, want string)
		liveness bool // the file passes every check but who answers
	}{
		{"port outside the range", func(t *testing.T, f *forgedPrimary) (map[string]any, string) {
			return map[string]any{"url": f.outside.url(), "port": f.outside.port},
				fmt.Sprintf("names port %d, outside this project's server.port_range %d-%d", f.outside.port, f.lo, f.hi)
		}, false},
		{"pid that does not hold the lock", func(t *testing.T, f *forgedPrimary) (map[string]any, string) {
			return map[string]any{"url": f.inRange.url(), "port": f.inRange.port, "pid": os.Getpid()},
				fmt.Sprintf("names pid %d, which does not hold the project lock (pid %d does)", os.Getpid(), f.real.PID)
		}, false},
		{"pid that ended", func(t *testing.T, f *forgedPrimary) (map[string]any, string) {
			return map[string]any{"url": f.inRange.url(), "port": f.inRange.port, "pid": exitedPID(t)}, "which is not running"
		}, false},
		{"not loopback", func(t *testing.T, f *forgedPrimary) (map[string]any, string) {
			return map[string]any{"url": "http://agentos-forged.invalid:80/mcp", "host": "agentos-forged.invalid", "port": 80},
				"names http://agentos-forged.invalid:80/mcp, which is not this machine's loopback address"
		}, false},
		{"the primary's pid at another port", func(t *testing.T, f *forgedPrimary) (map[string]any, string) {
			return map[string]any{"url": f.inRange.url(), "port": f.inRange.port},
				fmt.Sprintf("%s does not answer as an agentos server (HTTP 404", f.inRange.url())
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newForgedPrimary(t)
			root, home := f.root, f.home
			edits, want := c.forge(t, f)
			forgeState(t, root, f.base, edits)

			r := runAgentos(t, root, "status", "--dir", root)
			if r.code != 1 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "stale or forged, ignored") ||
				!strings.Contains(r.stdout, fmt.Sprintf("pid %d holds the project lock", f.real.PID)) {
				t.Errorf("status: exit %d\n%s", r.code, r.stdout)
			}
			r = runStdin(t, root, bridgeSession, "serve", "--transport", "stdio", "--project-root", root)
			if r.code != 4 || r.stdout != "" || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "nothing was sent to the URL it names") {
				t.Errorf("bridge: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			r = runIn(t, root, home, "connect", "--agent", "codex")
			if r.code != 1 || !strings.Contains(r.stdout, "not running") || !strings.Contains(r.stdout, want) {
				t.Errorf("connect: exit %d\n%s", r.code, r.stdout)
			}
			if _, err := os.Stat(filepath.Join(root, ".codex", "config.toml")); !os.IsNotExist(err) {
				t.Error("connect wrote an entry for the forged URL")
			}
			r = runIn(t, root, home, "doctor")
			if r.code != 1 || !strings.Contains(r.stdout, "✗ server: stale state file .agentos/.mcp_server_state.json: ") || !strings.Contains(r.stdout, want) {
				t.Errorf("doctor: exit %d\n%s", r.code, r.stdout)
			}

			for _, req := range append(f.inRange.requests(), f.outside.requests()...) {
				if !c.liveness || req != "GET /mcp auth= body=" {
					t.Errorf("the forged URL received %q", req)
				}
			}

			// The true file again: found as before, token and all.
			forgeState(t, root, f.base, nil)
			if r := runAgentos(t, root, "status", "--dir", root); r.code != 0 || !strings.Contains(r.stdout, f.real.URL) {
				t.Errorf("status with the true file: exit %d\n%s", r.code, r.stdout)
			}
			if getInfo(t, stdioClient(t, root, "--transport", "stdio")).Server.PID != f.real.PID {
				t.Error("the bridge does not reach the primary with the true file")
			}
		})
	}
}

// The honest case: a real primary, with a token, reached through a symlink
// to the project, is found by status, the bridge, connect and doctor.
func TestStateFileOfARealPrimaryIsTrusted(t *testing.T) {
	t.Parallel()
	root := newProject(t, "auth: token")
	home := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip(err)
	}
	primary := startServe(t, root, "--transport", "dual")
	st := waitState(t, root, primary.cmd.Process.Pid)

	if r := runAgentos(t, link, "status", "--dir", link); r.code != 0 || !strings.Contains(r.stdout, st.URL) {
		t.Errorf("status through a symlink: exit %d\n%s", r.code, r.stdout)
	}
	if getInfo(t, stdioClient(t, root, "--transport", "stdio")).Server.PID != st.PID {
		t.Error("the bridge does not reach the primary")
	}
	if r := runIn(t, root, home, "connect", "--agent", "codex"); r.code != 0 || !strings.Contains(r.stdout, "endpoint "+st.URL+" answers MCP") {
		t.Errorf("connect: exit %d\n%s", r.code, r.stdout)
	}
	if r := runIn(t, root, home, "doctor"); !strings.Contains(r.stdout, "✓ server: running in dual mode at "+st.URL) {
		t.Errorf("doctor:\n%s", r.stdout)
	}
}
