package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// These tests speak raw JSON-RPC to the built binary, to see exactly what it
// answers to messages a well-behaved client library never sends.

// rpcReply is one JSON-RPC answer.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

func (r *rpcReply) String() string {
	if r == nil {
		return "no answer"
	}
	return r.raw
}

// rpcConn sends one raw message and returns the answer (nil for none).
type rpcConn func(t *testing.T, msg string) *rpcReply

// stdioRPC starts `agentos serve --transport stdio` and initializes it.
func stdioRPC(t *testing.T, root string) rpcConn {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--transport", "stdio", "--project-root", root)
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	send := func(t *testing.T, msg string) *rpcReply {
		t.Helper()
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the server closed its output")
			}
			return decodeReply(t, line)
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to %.100s", msg)
			return nil
		}
	}
	send(t, initBody)
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return send
}

// httpRPC starts `agentos serve --transport http` and initializes a session.
func httpRPC(t *testing.T, root string) rpcConn {
	t.Helper()
	p := startServe(t, root, "--transport", "http")
	url := waitState(t, root, p.cmd.Process.Pid).URL
	session := ""
	send := func(t *testing.T, msg string) *rpcReply {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", legacyProtocol)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		if resp.StatusCode == http.StatusAccepted {
			return nil
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			for line := range strings.Lines(string(body)) {
				if data, ok := strings.CutPrefix(line, "data: "); ok {
					body = []byte(data)
				}
			}
		}
		r := decodeReply(t, string(body))
		r.raw = fmt.Sprintf("HTTP %d %s", resp.StatusCode, r.raw)
		return r
	}
	send(t, initBody)
	send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return send
}

func decodeReply(t *testing.T, s string) *rpcReply {
	t.Helper()
	var r rpcReply
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("an answer that is not a JSON-RPC message: %.300s", s)
	}
	r.raw = s
	return &r
}

// A tools/call naming a 100 KB tool is refused with an error that quotes
// only the start of the name; an unknown name of ordinary length still gets
// the protocol's unknown-tool error, and known tools still work.
func TestOverlongToolNameNotEchoed(t *testing.T) {
	t.Parallel()
	for name, open := range map[string]func(*testing.T, string) rpcConn{"stdio": stdioRPC, "http": httpRPC} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conn := open(t, newProject(t))
			long := strings.Repeat("a", 100<<10)
			r := conn(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+long+`","arguments":{}}}`)
			if r == nil || r.Error == nil || r.Error.Code != -32600 || string(r.ID) != "7" ||
				!strings.Contains(r.Error.Message, "(102400 bytes; at most 128)") || len(r.raw) > 512 || strings.Contains(r.raw, strings.Repeat("a", 65)) {
				t.Errorf("answer to a 100 KB tool name (%d bytes): %.600s", len(r.raw), r.raw)
			}
			r = conn(t, `{"jsonrpc":"2.0","id":8,"method":"`+long+`"}`)
			if r == nil || r.Error == nil || len(r.raw) > 512 || !strings.Contains(r.Error.Message, "(102400 bytes") {
				t.Errorf("answer to a 100 KB method: %.600s", r.raw)
			}
			r = conn(t, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"svc_nothing","arguments":{}}}`)
			if r == nil || r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, "svc_nothing") {
				t.Errorf("answer to an unknown tool: %.600s", r.raw)
			}
			r = conn(t, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"current_date","arguments":{}}}`)
			if r == nil || r.Error != nil || len(r.Result) == 0 {
				t.Errorf("a known tool after them: %.600s", r.raw)
			}
		})
	}
}

// A JSON-RPC batch gets -32600 Invalid Request with id null (over HTTP with
// status 400), not a parse error: MCP has had no batches since 2025-06-18.
// Bytes that are not JSON still get -32700, and the session goes on.
func TestBatchRefusedAsInvalidRequest(t *testing.T) {
	t.Parallel()
	for name, open := range map[string]func(*testing.T, string) rpcConn{"stdio": stdioRPC, "http": httpRPC} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conn := open(t, newProject(t))
			for _, batch := range []string{
				`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
				` [{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
				`[]`,
			} {
				r := conn(t, batch)
				if r == nil || r.Error == nil || r.Error.Code != -32600 || string(r.ID) != "null" || !strings.Contains(r.Error.Message, "batch") ||
					(name == "http" && !strings.HasPrefix(r.raw, "HTTP 400 ")) {
					t.Errorf("answer to %s: %+v", batch, r)
				}
			}
			if r := conn(t, `[{"jsonrpc":"2.0",`); r == nil || r.Error == nil || r.Error.Code != -32700 {
				t.Errorf("answer to a line that is not JSON: %+v", r)
			}
			if r := conn(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`); r == nil || r.Error != nil || string(r.ID) != "4" {
				t.Errorf("a ping after the batches: %+v", r)
			}
		})
	}
}
