package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// These tests run the server in-process so the race detector sees its
// internals; e2e/ drives the built binary.

func testProject(t *testing.T) (project.Paths, config.Config) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".agentos", "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := project.At(root)
	cfg := config.Default()
	// Below Linux's ephemeral ports (32768 and up), where the kernel picks
	// the local ports of outgoing connections: a client that reconnects
	// while nothing listens on a port in that range can be given the port
	// itself and connect to itself. Above e2e's blocks (10000-31999).
	cfg.Server.PortRange = "32000-32767"
	return p, cfg
}

type running struct {
	status Status
	cancel context.CancelFunc
	done   chan error
}

func start(t *testing.T, opts Options) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Status, 1)
	opts.Ready = func(s Status) { ready <- s }
	r := &running{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- Run(ctx, opts) }()
	select {
	case r.status = <-ready:
	case err := <-r.done:
		t.Fatalf("Run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server not ready")
	}
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

func TestConcurrentClientsShareOneServer(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})

	const n = 8
	var wg sync.WaitGroup
	ids := make(chan string, n*5)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := client.NewStreamableHttpClient(r.status.URL, ownTransport(t))
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			ctx := context.Background()
			c.Start(ctx)
			init := mcp.InitializeRequest{}
			init.Params.ProtocolVersion = "2025-06-18"
			init.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprint("client-", i)}
			if _, err := c.Initialize(ctx, init); err != nil {
				t.Error(err)
				return
			}
			for range 5 {
				req := mcp.CallToolRequest{}
				req.Params.Name = "get_server_info"
				res, err := c.CallTool(ctx, req)
				if err != nil || res.IsError {
					t.Errorf("call: %v %v", err, res)
					return
				}
				var out struct {
					Server struct {
						InstanceID string `json:"instance_id"`
					} `json:"server"`
					ConnectedClients int `json:"connected_clients"`
				}
				data, _ := json.Marshal(res.StructuredContent)
				json.Unmarshal(data, &out)
				ids <- out.Server.InstanceID
			}
		}()
	}
	wg.Wait()
	close(ids)
	first := ""
	for id := range ids {
		if first == "" {
			first = id
		}
		if id != first {
			t.Fatalf("clients reached different servers: %s %s", first, id)
		}
	}

	r.cancel()
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	r.done <- nil
	if _, err := os.Stat(p.StateFile()); !os.IsNotExist(err) {
		t.Errorf("state file left after shutdown: %v", err)
	}
}

func TestBridgeRelaysAndTakesOverWhenThePrimaryExits(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	// Recorded, as install does, far above the ports the other tests of the
	// package take (the first free ones of the range).
	cfg.Server.Port = 32767
	primary := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	bridgeDone := make(chan error, 1)
	go func() {
		bridgeDone <- Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportStdio, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	reply := func(id any) map[string]any {
		t.Helper()
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("bridge wrote non-JSON: %s", lines.Bytes())
			}
			if fmt.Sprint(m["id"]) == fmt.Sprint(id) {
				return m
			}
		}
		t.Fatalf("no reply %d: %v", id, lines.Err())
		return nil
	}
	instance := func(m map[string]any) string {
		res, _ := m["result"].(map[string]any) // none when the call failed: the caller says what came instead
		sc, _ := res["structuredContent"].(map[string]any)
		srv, _ := sc["server"].(map[string]any)
		id, _ := srv["instance_id"].(string)
		return id
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"desktop","version":"1"}}}`)
	if m := reply(1); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_server_info","arguments":{}}}`)
	first := instance(reply(2))
	if first == "" {
		t.Fatal("no instance id through the bridge")
	}
	send(`not json`)
	if m := reply(nil); m["error"] == nil {
		t.Fatalf("a line that is not JSON: %v", m)
	}

	// The primary exits: the bridge's process takes over as the primary (a
	// new instance, on the same port), re-initializes its client's session
	// there and carries on.
	primary.cancel()
	<-primary.done
	primary.done <- nil
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_server_info","arguments":{}}}`)
	second := reply(3)
	if id := instance(second); id == "" || id == first {
		t.Fatalf("after the primary exited: instance %q (before %q): %v", id, first, second)
	}
	st, err := state.Read(p.StateFile())
	if err != nil || primary.status.Port != cfg.Server.Port || st.Port != cfg.Server.Port {
		t.Errorf("the primary listened on %d and the server that took over on %d, not the recorded %d (%v)", primary.status.Port, st.Port, cfg.Server.Port, err)
	}
	// A server started now finds it and, HTTP only, refuses.
	var running *AlreadyRunningError
	if err := Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportHTTP}); !errors.As(err, &running) {
		t.Errorf("an http server started after the takeover: %v", err)
	}

	inW.Close()
	select {
	case err := <-bridgeDone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("bridge did not end on stdin EOF")
	}
	// The server it became stopped with it: its state file is gone.
	if _, err := os.Stat(p.StateFile()); !os.IsNotExist(err) {
		t.Errorf("state file left after the bridge's process ended: %v", err)
	}
}

func TestSecondPrimaryRefused(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	first := start(t, Options{Project: p, Config: cfg, Transport: TransportDual, Stdin: blockingReader{}, Stdout: io.Discard})
	err := Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportHTTP})
	var running *AlreadyRunningError
	if !errors.As(err, &running) || running.URL != first.status.URL || running.PID != os.Getpid() {
		t.Fatalf("second primary: %v", err)
	}
	st, _ := state.Read(p.StateFile())
	if st.URL != first.status.URL {
		t.Error("second server touched the state file")
	}
}

// A process that holds the lock but never writes a state file is named as
// such, not as a stdio-only server.
func TestLockHolderWithoutStateFile(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	if err := os.MkdirAll(filepath.Dir(p.Lock()), 0o755); err != nil {
		t.Fatal(err)
	}
	lock := flock.New(p.Lock())
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	defer lock.Unlock()
	err := Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportHTTP})
	var running *AlreadyRunningError
	if !errors.As(err, &running) || !running.NoStateFile || !strings.Contains(err.Error(), "wrote no state file") {
		t.Fatalf("err = %v", err)
	}
}

// blockingReader is a stdin that never delivers anything.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

func TestLivenessAndNotFound(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	resp, err := testHTTP.Get(r.status.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"transport":"http"`) {
		t.Errorf("liveness: %d %s", resp.StatusCode, body)
	}
	resp, err = testHTTP.Get(strings.TrimSuffix(r.status.URL, "/mcp") + "/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("/other: %d", resp.StatusCode)
	}
}
