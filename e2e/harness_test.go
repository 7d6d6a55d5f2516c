// Package e2e tests the built agentos binary end to end: real processes, real
// MCP clients over stdio and HTTP, real files in temporary projects.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/longtest"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/testbin"
	"github.com/agentos-dev/agentos/internal/testmain"
	"github.com/gofrs/flock"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

var binary string // the agentos binary under test

// TestMain takes the release-built binary from internal/testbin, built once
// for every package that runs it and again only when its sources change.
// The tests spend most of their time waiting for the processes they start,
// so unless -parallel says otherwise eight run at once (go test's default
// is one per core).
func TestMain(m *testing.M) {
	if url := os.Getenv(asClientEnv); url != "" { // this binary, run as another user by a test
		os.Exit(postAsClient(url))
	}
	testmain.WaitingParallel("8")
	os.Exit(testbin.Main(m, func(bin string) { binary = bin }))
}

// long skips a long test unless the long tests were asked for
// (internal/longtest decides); the comment at each call says what covers it
// in the fast run.
func long(t *testing.T) {
	t.Helper()
	longtest.Skip(t)
}

// Ports: each portRange call takes a block of its own, so that tests, in
// this process or in another test run on the machine, never meet on a
// port. Blocks lie below the ephemeral range (32768 and up on Linux, 49152
// and up on macOS and Windows), where the kernel picks the local ports of
// outgoing connections, and away from a real agentos on 4242-5242. A block
// is reserved by a lock on a file named after it, which the kernel drops
// when the process ends, and is taken only when every port in it is free.
const (
	portFirst = 10000
	portLast  = 32000
	portBlock = 16
)

var (
	portMu    sync.Mutex
	portNext  = rand.IntN((portLast - portFirst) / portBlock)
	portLocks []*flock.Flock // held until the process exits
)

func portRange(t testing.TB, n int) (lo, hi int) {
	t.Helper()
	if n < 1 || n > portBlock {
		t.Fatalf("portRange(%d): between 1 and %d ports", n, portBlock)
	}
	dir := filepath.Join(os.TempDir(), "agentos-test-ports")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	portMu.Lock()
	defer portMu.Unlock()
	blocks := (portLast - portFirst) / portBlock
	for range blocks {
		b := portNext % blocks
		portNext++
		lock := flock.New(filepath.Join(dir, strconv.Itoa(b)))
		if ok, err := lock.TryLock(); err != nil || !ok {
			continue
		}
		lo = portFirst + b*portBlock
		if !portsFree(lo, lo+portBlock-1) {
			lock.Unlock()
			continue
		}
		portLocks = append(portLocks, lock)
		return lo, lo + n - 1
	}
	t.Fatalf("no free block of %d ports in %d-%d", portBlock, portFirst, portLast)
	return 0, 0
}

// portsFree reports whether nothing listens on 127.0.0.1 at lo..hi, and
// none of them is a port browsers refuse (the review page's test opens one
// in Chromium).
func portsFree(lo, hi int) bool {
	for p := lo; p <= hi; p++ {
		if ports.BrowserBlocked(p) {
			return false
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return false
		}
		ln.Close()
	}
	return true
}

// newProject makes an installed project in a temp dir with a config using
// its own port range; extra lines are appended to the config.
func newProject(t testing.TB, extraServerConfig ...string) string {
	t.Helper()
	root := t.TempDir()
	// --scope project: the tests launch the server from .mcp.json, and
	// Claude Code's default, its local scope, would edit this machine's ~/.claude.json.
	runOK(t, root, "install", "--dir", root, "--scope", "project", "--yes")
	lo, hi := portRange(t, 8)
	cfg := fmt.Sprintf("code:\n  source_paths: [\".\"]\n  languages: []\nast:\n  source_paths: [\".\"]\n  languages: []\nserver:\n  port_range: \"%d-%d\"\n", lo, hi)
	for _, l := range extraServerConfig {
		cfg += "  " + l + "\n"
	}
	if err := os.WriteFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

type result struct {
	stdout, stderr string
	code           int
}

func runAgentos(t testing.TB, dir string, args ...string) result {
	t.Helper()
	return runEnv(t, dir, nil, args...)
}

// runEnv runs the built binary in dir with extra environment variables and
// no terminal on stdin, and returns what it printed and its exit code.
func runEnv(t testing.TB, dir string, env []string, args ...string) result {
	t.Helper()
	return runBinary(t, binary, dir, env, args...)
}

// runBinary is runEnv with another agentos binary: a copy of the built one
// somewhere else.
func runBinary(t testing.TB, bin, dir string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader("") // not a terminal
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

func runOK(t testing.TB, dir string, args ...string) result {
	t.Helper()
	r := runAgentos(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("agentos %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// serverProc is a `agentos serve` started by the test (not by an MCP client).
type serverProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	done   chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe starts `agentos serve` for root with the given args and stdin
// held open; it is killed at the end of the test.
func startServe(t *testing.T, root string, args ...string) *serverProc {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--project-root", root}, args...)...)
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProc{cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		<-p.done
	})
	return p
}

// exitCode waits for the process to end and returns its exit code.
func (p *serverProc) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // let Cleanup's receive succeed
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		t.Fatalf("server did not exit; stderr:\n%s", p.stderr)
		return -1
	}
}

// logged waits up to 10 s for want in the server's stderr: a line the
// server logs as a state changes can reach the pipe after a client has
// already seen the new state.
func (p *serverProc) logged(want string) bool {
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.stderr.String(), want) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func (p *serverProc) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

type stateFile struct {
	Version   int    `json:"version"`
	Transport string `json:"transport"`
	Port      int    `json:"port"`
	Host      string `json:"host"`
	Path      string `json:"path"`
	URL       string `json:"url"`
	PID       int    `json:"pid"`
	StartedAt string `json:"started_at"`
	Project   struct {
		Name string `json:"name"`
		Root string `json:"root"`
	} `json:"project"`
	ServerVersion string `json:"server_version"`
}

func statePath(root string) string { return filepath.Join(root, ".agentos", ".mcp_server_state.json") }

// waitState waits for a state file written by a live server with pid (0: any).
func waitState(t *testing.T, root string, pid int) stateFile {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(statePath(root))
		if err == nil {
			var st stateFile
			if json.Unmarshal(data, &st) == nil && st.URL != "" && (pid == 0 || st.PID == pid) {
				return st
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no state file in %s", root)
	return stateFile{}
}

func waitGone(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s still exists", path)
}

// Protocol eras: before 2026-07-28 a client initializes a session; from it on,
// every request carries its own protocol version and client identity.
const (
	legacyProtocol = "2025-06-18"
	modernProtocol = mcp.LATEST_PROTOCOL_VERSION
)

func initialize(t testing.TB, c *client.Client, name, protocol string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = protocol
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1.0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

// stdioClient launches `agentos serve` the way an IDE does and initializes.
func stdioClient(t *testing.T, root string, args ...string) *client.Client {
	return stdioClientWith(t, root, legacyProtocol, args...)
}

func stdioClientWith(t *testing.T, root, protocol string, args ...string) *client.Client {
	t.Helper()
	return stdioClientEnv(t, root, protocol, nil, args...)
}

// stdioClientEnv is stdioClientWith with env added to the server's
// environment (a later variable wins over the test's own).
func stdioClientEnv(t *testing.T, root, protocol string, env []string, args ...string) *client.Client {
	t.Helper()
	c, err := client.NewStdioMCPClientWithOptions(binary, append([]string{"PROJECT_ROOT=" + root}, env...),
		append([]string{"serve", "--log-level", "DEBUG"}, args...),
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = append(os.Environ(), env...)
			cmd.Dir = root
			return cmd, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, "stdio-test", protocol)
	return c
}

// ownTransport gives an MCP client an HTTP transport of its own: parallel
// tests start servers on ports that others just freed, and a kept-alive
// connection of the shared default transport would reach a server that is
// gone (EOF).
func ownTransport(t *testing.T) transport.StreamableHTTPCOption {
	own := &http.Transport{}
	t.Cleanup(own.CloseIdleConnections)
	return transport.WithHTTPBasicClient(&http.Client{Transport: own})
}

func httpClient(t *testing.T, url string, headers map[string]string) *client.Client {
	return httpClientWith(t, url, legacyProtocol, headers)
}

func httpClientWith(t *testing.T, url, protocol string, headers map[string]string) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(headers), ownTransport(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, "http-test", protocol)
	return c
}

// call invokes a tool and decodes its structured content.
// callDeadline bounds one tool call: a deadline for a hung server, not a
// measure of speed. A gate runs the project's tests up to three times
// (before, earlier tests, now); with empty build caches on a loaded 2-core
// machine that took over 2 minutes.
const callDeadline = 8 * time.Minute

func call(t *testing.T, c *client.Client, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	if out != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("decode %s result %s: %v", tool, data, err)
		}
	}
	return res
}

type serverInfo struct {
	Server struct {
		InstanceID string `json:"instance_id"`
		PID        int    `json:"pid"`
	} `json:"server"`
	Transport        string `json:"transport"`
	URL              string `json:"url"`
	ConnectedClients int    `json:"connected_clients"`
	Clients          []struct {
		Name      string `json:"name"`
		Transport string `json:"transport"`
	} `json:"clients"`
}

func getInfo(t *testing.T, c *client.Client) serverInfo {
	t.Helper()
	var si serverInfo
	res := call(t, c, "get_server_info", nil, &si)
	if res.IsError {
		t.Fatalf("get_server_info failed: %v", res.Content)
	}
	return si
}

// occupy listens on port so the server must skip it.
func occupy(t *testing.T, port int) {
	t.Helper()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
}
