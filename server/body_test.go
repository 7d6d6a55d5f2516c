package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentos-dev/agentos/internal/trust"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// A client that sends its body a byte at a time is cut off once the body
// deadline passes, long before it would have finished: with a 408 when the
// request is allowed, and also when it is refused before its body is read
// (net/http reads a refused request's body too).
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	const deadline = time.Second
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP, BodyTimeout: deadline})
	u, _ := url.Parse(r.status.URL)
	for _, tc := range []struct{ name, host, want string }{
		{"allowed", u.Host, "408 "},
		{"refused host", "rebound.example:" + u.Port(), "403 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, took, complete := trickle(t, u.Host, tc.host, u.Path)
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("answer to a trickled body: %s", got)
			}
			// The server's clock starts before the client's (at the
			// headers): it may cut a little before the client counts the
			// full deadline, never long before.
			if took < deadline/2 || took > 10*time.Second || complete {
				t.Errorf("cut off after %s (deadline %s), whole body sent: %v", took, deadline, complete)
			}
		})
	}
}

// trickle posts a 100-byte body to addr one byte every 200 ms (20 s in all)
// and returns the server's answer, how long it took, and whether the whole
// body had been sent by then.
func trickle(t *testing.T, addr, host, path string) (answer string, took time.Duration, complete bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const bodyLen = 100
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", path, host, bodyLen)
	started := time.Now()
	answered := make(chan string, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- "no response: " + err.Error()
			return
		}
		body, _ := io.ReadAll(resp.Body)
		answered <- fmt.Sprintf("%d %s", resp.StatusCode, body)
	}()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	giveUp := time.After(15 * time.Second)
	for sent := 0; ; {
		select {
		case got := <-answered:
			return got, time.Since(started), sent >= bodyLen
		case <-tick.C:
			if sent < bodyLen {
				conn.Write([]byte(" ")) // fails once the server has closed: fine
				sent++
			}
		case <-giveUp:
			t.Fatal("the server never cut off a client trickling its body")
		}
	}
}

// The body deadline ends with the body: a large write arrives well within
// it, and an answer that takes longer than the deadline (a gate running a
// command) is not cut short. The deadline is 2 s here: under the race
// detector on a loaded machine a 4 MiB body once took more than 500 ms.
func TestBodyDeadlineSparesLargeBodiesAndSlowAnswers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the slow gate runs sleep through /bin/sh")
	}
	t.Parallel()
	p, cfg := testProject(t)
	def := "name: slow_v1\nversion: 1.0.0\nphases:\n  - name: Wait\n    gate:\n      - type: command\n        run: sleep 5\n"
	if err := os.MkdirAll(filepath.Join(p.Workflows(), "slow_v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.Workflows(), "slow_v1", "workflow.yaml"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := trust.Record(context.Background(), p.Root, cfg); err != nil { // the person's own definition
		t.Fatal(err)
	}
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP, BodyTimeout: 2 * time.Second})
	c, err := client.NewStreamableHttpClient(r.status.URL, ownTransport(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Generous: under the race detector, on a loaded machine, decoding the
	// 4 MiB call took over 30 s (8 s at load 6, 0.4 s without it).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "body-test"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	callTool := func(name string, args map[string]any) map[string]any {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s: %v", name, res.Content)
		}
		var out map[string]any
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		return out
	}

	content := strings.Repeat("0123456789abcdef", 4<<20/16) // 4 MiB, the write limit
	callTool("svc_filesystem", map[string]any{"action": "write", "path": "big.txt", "content": content})
	if fi, err := os.Stat(filepath.Join(p.Root, "big.txt")); err != nil || fi.Size() != int64(len(content)) {
		t.Fatalf("the 4 MiB write did not arrive whole: %v", err)
	}

	out := callTool("svc_workflow", map[string]any{"action": "start", "workflow_type": "slow_v1"})
	id := out["session"].(map[string]any)["id"].(string)
	out = callTool("svc_workflow", map[string]any{"action": "complete_phase", "session_id": id})
	if gate, _ := out["gate"].(map[string]any); gate == nil || gate["passed"] != true {
		t.Fatalf("a gate answering after the body deadline was cut short: %v", out["gate"])
	}
}
