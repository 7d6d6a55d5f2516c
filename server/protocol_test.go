package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func httpSession(t *testing.T, url, name string) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, ownTransport(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: name}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	return c, res
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

// The server advertises its own capabilities only: tools, resources one
// may subscribe to, and prompts. Elicitation is a client's capability.
func TestOnlyServerCapabilitiesAdvertised(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	_, res := httpSession(t, r.status.URL, "caps")
	data, _ := json.Marshal(res.Capabilities)
	var caps map[string]json.RawMessage
	json.Unmarshal(data, &caps)
	for name := range caps {
		switch name {
		case "tools", "resources", "prompts":
		default:
			t.Errorf("capability %q advertised: %s", name, data)
		}
	}
	if res.Capabilities.Resources == nil || !res.Capabilities.Resources.Subscribe {
		t.Errorf("resources/subscribe is served but not advertised: %s", data)
	}
	if res.Capabilities.Prompts == nil {
		t.Errorf("prompts are served but not advertised: %s", data)
	}
}

// The workflows' commands are prompts: listed with their argument, and
// answered with the command's text and the argument in place; an unknown
// prompt, a missing argument and an over-long value are refused.
func TestPromptsOverHTTP(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	c, _ := httpSession(t, r.status.URL, "prompts")
	ctx := context.Background()
	list, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
		if p.Description == "" || len(p.Arguments) != 1 || !p.Arguments[0].Required {
			t.Errorf("%s: %+v", p.Name, p)
		}
	}
	if slices.Sort(names); !slices.Equal(names, []string{"bugfix", "implement", "quick", "search", "spec"}) { // mcp-go lists by name
		t.Fatalf("prompts/list = %v", names)
	}
	get := func(name string, args map[string]string) (*mcp.GetPromptResult, error) {
		req := mcp.GetPromptRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		return c.GetPrompt(ctx, req)
	}
	res, err := get("spec", map[string]string{"feature": "CSV export of invoices"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 || res.Messages[0].Role != mcp.RoleUser {
		t.Fatalf("messages = %+v", res.Messages)
	}
	text, _ := res.Messages[0].Content.(mcp.TextContent)
	if !strings.HasPrefix(text.Text, "Start the agentos spec workflow for this feature: CSV export of invoices\n\n1. Call svc_workflow") ||
		!strings.Contains(text.Text, "spec_creation_v1") || strings.Contains(text.Text, "$ARGUMENTS") {
		t.Errorf("prompts/get spec = %q", text.Text)
	}
	for _, tc := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"deploy", map[string]string{"feature": "x"}, "not found"},
		{"spec", nil, "needs the argument feature"},
		{"search", map[string]string{"query": strings.Repeat("q", 5000)}, "too long"},
		{strings.Repeat("n", 200), nil, "too long"},
	} {
		res, err := get(tc.name, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 400 {
			t.Errorf("prompts/get %.20s: %v, %+v; want an error with %q", tc.name, err, res, tc.want)
		}
	}
}

// connected_clients counts live sessions: a client that ends its session
// with DELETE is gone at once.
func TestConnectedClientsDropsEndedSessions(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	watcher, _ := httpSession(t, r.status.URL, "watcher")
	leaver, _ := httpSession(t, r.status.URL, "leaver")
	count := func() (int, []string) {
		req := mcp.CallToolRequest{}
		req.Params.Name = "get_server_info"
		res, err := watcher.CallTool(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			ConnectedClients int `json:"connected_clients"`
			Clients          []struct {
				Name string `json:"name"`
			} `json:"clients"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		var names []string
		for _, c := range out.Clients {
			names = append(names, c.Name)
		}
		return out.ConnectedClients, names
	}
	if n, names := count(); n != 2 {
		t.Fatalf("connected_clients = %d %v, want 2", n, names)
	}
	leaver.Close() // mcp-go's HTTP client ends its session with DELETE
	if n, names := count(); n != 1 || names[0] != "watcher" {
		t.Errorf("after the leaver's DELETE: connected_clients = %d %v, want only the watcher", n, names)
	}
}

// A session id is good at any primary of the project (so HTTP clients carry
// on across a failover) and at no other project's server.
func TestSessionIDsSignedPerProject(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	q, cfgQ := testProject(t)
	other := start(t, Options{Project: q, Config: cfgQ, Transport: TransportHTTP})

	c, _ := httpSession(t, r.status.URL, "mover")
	id := c.GetSessionId()
	ping := func(url, session string) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := testHTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := ping(r.status.URL, id); code != http.StatusOK {
		t.Fatalf("own session: %d", code)
	}
	if code := ping(other.status.URL, id); code != http.StatusNotFound {
		t.Errorf("another project's server accepted the session: %d", code)
	}
	forged := id[:len(id)-1] + map[bool]string{true: "1", false: "0"}[id[len(id)-1] == '0']
	if code := ping(r.status.URL, forged); code != http.StatusNotFound {
		t.Errorf("a forged session id was accepted: %d", code)
	}
	// The same project's next primary accepts it.
	r.cancel()
	<-r.done
	r.done <- nil
	next := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	if code := ping(next.status.URL, id); code != http.StatusOK {
		t.Errorf("the next primary refused the session: %d", code)
	}
}

// A client that held an event stream open (as the stdio bridge does) and
// vanished without DELETE stops counting once the stream has stayed closed
// a moment; one that keeps its stream open keeps counting.
func TestConnectedClientsDropsVanishedStreams(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	watcher, _ := httpSession(t, r.status.URL, "watcher")
	names := func() []string {
		req := mcp.CallToolRequest{}
		req.Params.Name = "get_server_info"
		res, err := watcher.CallTool(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Clients []struct {
				Name string `json:"name"`
			} `json:"clients"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		var ns []string
		for _, c := range out.Clients {
			ns = append(ns, c.Name)
		}
		return ns
	}
	listen := func(name string) context.CancelFunc {
		c, _ := httpSession(t, r.status.URL, name)
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.status.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.GetSessionId())
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		opened := make(chan struct{})
		go func() {
			resp, err := testHTTP.Do(req)
			close(opened)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		<-opened
		return cancel
	}
	stays := listen("stays")
	defer stays()
	vanish := listen("vanishes")
	if ns := names(); len(ns) != 3 {
		t.Fatalf("clients = %v, want watcher, stays, vanishes", ns)
	}
	vanish() // the process died: its connection closed, no DELETE
	deadline := time.Now().Add(10 * time.Second)
	for {
		ns := names()
		if len(ns) == 2 && !slices.Contains(ns, "vanishes") && slices.Contains(ns, "stays") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("clients = %v 10 s after one vanished, want watcher and stays", ns)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// listen takes the recorded port when free, else the next free one after
// it, wrapping round to the start of the range. The range is four ports
// found free just before (a fixed one may be held by another program on a
// shared machine); should another program take one of them meanwhile, the
// test tries another range.
func TestListenPrefersTheRecordedPort(t *testing.T) {
	t.Parallel()
	var problems []string
	for attempt := 0; attempt < 5; attempt++ {
		lo, ok := freePorts(4)
		if !ok {
			problems = []string{"found no four consecutive free ports"}
			continue
		}
		if problems = listenInRange(lo, lo+3); problems == nil {
			return
		}
	}
	t.Error(strings.Join(problems, "\n"))
}

// listen never takes a port browsers refuse (10080 here, recorded or not):
// the review page must open.
func TestListenSkipsPortsBrowsersRefuse(t *testing.T) {
	t.Parallel()
	for _, recorded := range []int{0, 10080} {
		ln, port, err := listen(context.Background(), t.TempDir(), recorded, 10080, 10081)
		if err != nil {
			t.Skipf("10081 is held by another program: %v", err)
		}
		ln.Close()
		if port != 10081 {
			t.Errorf("recorded %d: listened on %d, want 10081", recorded, port)
		}
	}
}

// listenInRange checks listen's choices in the free range lo..hi (four
// ports) and says what went wrong.
func listenInRange(lo, hi int) (problems []string) {
	var held []net.Listener
	defer func() {
		for _, ln := range held {
			ln.Close()
		}
	}()
	take := func(recorded int) int {
		ln, port, err := listen(context.Background(), "", recorded, lo, hi)
		if err != nil {
			return -1
		}
		held = append(held, ln)
		return port
	}
	if got := take(hi); got != hi {
		return []string{fmt.Sprintf("free recorded port %d: got %d", hi, got)}
	}
	if got := take(hi); got != lo { // hi is held now: wrap round
		problems = append(problems, fmt.Sprintf("recorded %d held: got %d, want %d", hi, got, lo))
	}
	if got := take(0); got != lo+1 { // none recorded: the first free one
		problems = append(problems, fmt.Sprintf("no recorded port: got %d, want %d", got, lo+1))
	}
	return problems
}

// freePorts returns the first of n consecutive loopback ports that are free
// now, starting at one the system hands out. Beside the run's other tests,
// whose connections take ports of the same range, a neighbour is often in
// use: it tries twenty starts before it gives up.
func freePorts(n int) (int, bool) {
	for range 20 {
		if lo, ok := freePortsFrom(n); ok {
			return lo, true
		}
	}
	return 0, false
}

func freePortsFrom(n int) (int, bool) {
	ln, err := net.Listen("tcp", Host+":0")
	if err != nil {
		return 0, false
	}
	lo := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if lo+n-1 > 65535 {
		return 0, false
	}
	for p := lo; p < lo+n; p++ {
		l, err := net.Listen("tcp", fmt.Sprintf("%s:%d", Host, p))
		if err != nil {
			return 0, false
		}
		l.Close()
	}
	return lo, true
}
