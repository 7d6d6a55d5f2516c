package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

// initializing returns a request marked, as the endpoint marks it, with the
// client info of an initialize request.
func initializing(t *testing.T, name, version string) *http.Request {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":%q,"version":%q}}}`, name, version)
	r, _, err := withInitializingClient(httptestRequest(body), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func httptestRequest(body string) *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	return r
}

// An id names the client that initialized, signed with the project: it
// verifies at any server of the project, which learns the name from it, and
// at no other; an id edited to name another client verifies nowhere.
func TestSessionIDsNameTheirClient(t *testing.T) {
	key := machinekey.New([]byte("a machine's key"))
	m := &sessionIDs{key: key, project: "/src/a", clients: newClients(time.Now)}

	id := m.ResolveSessionIdManager(initializing(t, "opencode", "0.9.1")).Generate()
	if len(id) > 128 || strings.IndexFunc(id, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		t.Errorf("id %q is not short printable ASCII", id)
	}
	// The next primary of the project: a registry that never saw the
	// initialize.
	next := &sessionIDs{key: key, project: "/src/a", clients: newClients(time.Now)}
	if ended, err := next.Validate(id); err != nil || ended {
		t.Fatalf("the next primary refused %q: %v %v", id, ended, err)
	}
	if got := next.clients.list(); len(got) != 1 || got[0].Name != "opencode" || got[0].Version != "0.9.1" || got[0].Transport != "http" {
		t.Errorf("the next primary records %+v, want opencode 0.9.1 over http", got)
	}

	other := &sessionIDs{key: key, project: "/src/ab", clients: newClients(time.Now)}
	if _, err := other.Validate(id); err == nil {
		t.Errorf("another project's server accepted %q", id)
	}
	stranger := &sessionIDs{key: machinekey.New([]byte("another machine")), project: "/src/a", clients: newClients(time.Now)}
	if _, err := stranger.Validate(id); err == nil {
		t.Errorf("another machine's server accepted %q", id)
	}
	parts := strings.Split(id, ".")
	claim := func(name, version string) string {
		p := slices.Clone(parts)
		p[1], p[2] = ownerEncoding.EncodeToString([]byte(name)), ownerEncoding.EncodeToString([]byte(version))
		return strings.Join(p, ".")
	}
	intruder := m.ResolveSessionIdManager(initializing(t, "intruder", "1")).Generate()
	ip := strings.Split(intruder, ".")
	ip[1], ip[2] = parts[1], parts[2]
	for what, forged := range map[string]string{
		"another name":                    claim("intruder", "0.9.1"),
		"another version":                 claim("opencode", "1.0"),
		"another client's name, own MAC":  strings.Join(ip, "."),
		"no name, the owned id's MAC":     parts[0] + "." + parts[3],
		"a name added to an anonymous id": m.Generate() + "." + parts[1],
	} {
		if _, err := next.Validate(forged); err == nil {
			t.Errorf("%s: %q accepted", what, forged)
		}
	}
	if got := next.clients.list(); len(got) != 1 {
		t.Errorf("forged ids were recorded: %+v", got)
	}

	// No name, or one too long to carry: an id that names none, still good.
	for _, r := range []*http.Request{nil, httptestRequest(""), initializing(t, "", "1"), initializing(t, strings.Repeat("n", maxOwnerName+1), "1")} {
		anon := m.ResolveSessionIdManager(r).Generate()
		if strings.Count(anon, ".") != 1 {
			t.Errorf("%q names a client", anon)
		}
		if _, err := next.Validate(anon); err != nil {
			t.Errorf("an id naming no client: %v", err)
		}
	}
	// A version too long is left out: the name is what owns sessions.
	long := m.ResolveSessionIdManager(initializing(t, "editor", strings.Repeat("9", maxOwnerVersion+1))).Generate()
	if client, err := m.parse(long); err != nil || client.Name != "editor" || client.Version != "" {
		t.Errorf("a long version: %+v %v", client, err)
	}

	if _, err := next.Terminate(id); err != nil {
		t.Fatal(err)
	}
	if ended, err := next.Validate(id); err != nil || !ended {
		t.Errorf("a terminated id: %v %v", ended, err)
	}
}

// The endpoint marks initialize requests only, and passes every body on
// whole.
func TestWithInitializingClient(t *testing.T) {
	for _, tc := range []struct {
		body string
		want *mcp.Implementation
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"opencode","version":"1"}}}`, &mcp.Implementation{Name: "opencode", Version: "1"}},
		{`{"params":{"clientInfo":{"name":"late"}},"id":1,"method":"initialize","jsonrpc":"2.0"}`, &mcp.Implementation{Name: "late"}},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"svc_workflow","arguments":{"note":"initialize"}}}`, nil},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize"`, nil},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"big"},"pad":"` + strings.Repeat("x", maxInitializeBytes) + `"}}`, nil},
	} {
		r, body, err := withInitializingClient(httptestRequest(tc.body), bufio.NewReader(strings.NewReader(tc.body)))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := r.Context().Value(initializingKey{}).(mcp.Implementation)
		switch {
		case tc.want == nil && ok:
			t.Errorf("%.80s: marked as the initialize of %+v", tc.body, got)
		case tc.want != nil && (!ok || got.Name != tc.want.Name || got.Version != tc.want.Version):
			t.Errorf("%.80s: marked %+v (%v), want %+v", tc.body, got, ok, *tc.want)
		}
		if rest, _ := io.ReadAll(body); string(rest) != tc.body {
			t.Errorf("%.80s: the body passed on is %d bytes, not the %d sent", tc.body, len(rest), len(tc.body))
		}
	}
}

// rawClient speaks MCP over HTTP as opencode does: protocol 2025-06-18, its
// name given at initialize only, its session id kept for as long as a
// server accepts it.
type rawClient struct {
	t       *testing.T
	url     string
	http    *http.Client
	session string
	next    int
}

func newRawClient(t *testing.T, url string) *rawClient {
	// A connection per request: the client outlives the server it talks to
	// (failover), and a POST on a kept-alive connection the stopped server
	// closed is not retried by Go's transport when it is chosen before the
	// transport has read the close (EOF) — on a loaded machine, a window.
	own := &http.Transport{DisableKeepAlives: true}
	return &rawClient{t: t, url: url, http: &http.Client{Transport: own, Timeout: time.Minute}}
}

// post sends msg and returns the HTTP status and the JSON-RPC answer of a
// request (nil for a notification), as JSON or as an event stream.
func (c *rawClient) post(msg map[string]any) (int, map[string]any) {
	c.t.Helper()
	data, _ := json.Marshal(msg)
	req, _ := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s: %v", msg["method"], err)
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.session = id
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s: %v", msg["method"], err)
	}
	if _, isRequest := msg["id"]; !isRequest || resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(string(body)) {
			data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:")
			var m map[string]any
			if ok && json.Unmarshal([]byte(data), &m) == nil && fmt.Sprint(m["id"]) == fmt.Sprint(msg["id"]) {
				return resp.StatusCode, m
			}
		}
		c.t.Fatalf("%s: no answer in the event stream:\n%s", msg["method"], body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("%s: %v: %s", msg["method"], err, body)
	}
	return resp.StatusCode, m
}

// initialize begins a new session as name (dropping the one it had).
func (c *rawClient) initialize(name, version string) {
	c.t.Helper()
	c.session = ""
	c.next++
	status, m := c.post(map[string]any{"jsonrpc": "2.0", "id": c.next, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": name, "version": version},
	}})
	if status != http.StatusOK || m["result"] == nil || c.session == "" {
		c.t.Fatalf("initialize as %s: %d %v (session %q)", name, status, m, c.session)
	}
	if status, _ := c.post(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); status != http.StatusAccepted {
		c.t.Fatalf("notifications/initialized: %d", status)
	}
}

// call calls tool and returns its structured content, or the text of its
// error.
func (c *rawClient) call(tool string, args map[string]any) (map[string]any, string) {
	c.t.Helper()
	c.next++
	status, m := c.post(map[string]any{"jsonrpc": "2.0", "id": c.next, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	if status != http.StatusOK || m["result"] == nil {
		c.t.Fatalf("%s %v: %d %v", tool, args, status, m)
	}
	var res mcp.CallToolResult
	data, _ := json.Marshal(m["result"])
	if err := json.Unmarshal(data, &res); err != nil {
		c.t.Fatal(err)
	}
	if res.IsError {
		text := ""
		for _, content := range res.Content {
			if tc, ok := content.(mcp.TextContent); ok {
				text += tc.Text
			}
		}
		return nil, text
	}
	out, _ := res.StructuredContent.(map[string]any)
	return out, ""
}

// workflow calls svc_workflow and fails the test on an error.
func (c *rawClient) workflow(args map[string]any) map[string]any {
	c.t.Helper()
	out, errText := c.call("svc_workflow", args)
	if errText != "" {
		c.t.Fatalf("svc_workflow %v: %s", args, errText)
	}
	return out
}

// clientNames lists the clients get_server_info names, as name/version.
func (c *rawClient) clientNames() []string {
	c.t.Helper()
	out, errText := c.call("get_server_info", map[string]any{})
	if errText != "" {
		c.t.Fatal(errText)
	}
	var info struct {
		Clients []struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"clients"`
	}
	data, _ := json.Marshal(out)
	json.Unmarshal(data, &info)
	var names []string
	for _, cl := range info.Clients {
		names = append(names, cl.Name+"/"+cl.Version)
	}
	slices.Sort(names)
	return names
}

// failover stops the primary r and starts the project's next one, which
// must listen where r did.
func failover(t *testing.T, r *running, opts Options) *running {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	r.done <- nil
	next := start(t, opts)
	if next.status.URL != r.status.URL {
		t.Fatalf("the next primary listens at %s, not at %s", next.status.URL, r.status.URL)
	}
	return next
}

// An HTTP client that gave its name only at initialize is still itself at
// the server that takes over: with the session id it had, and no new
// handshake, it changes the workflow session it started before, and
// get_server_info names it. Another client is still refused that session,
// and cannot take the name by editing its own id.
func TestHTTPClientKeepsItsIdentityAcrossAFailover(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	cfg.Server.Port = 32766 // recorded, as install does; far above the ports other tests take
	opts := Options{Project: p, Config: cfg, Transport: TransportHTTP}
	first := start(t, opts)

	oc := newRawClient(t, first.status.URL)
	oc.initialize("opencode", "0.9.1")
	id := oc.session
	started := oc.workflow(map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "failover"}})
	session, _ := started["session"].(map[string]any)["id"].(string)
	if session == "" {
		t.Fatalf("start: %v", started)
	}

	next := failover(t, first, opts)
	oc.workflow(map[string]any{"action": "pause", "session_id": session})
	oc.workflow(map[string]any{"action": "resume", "session_id": session})
	if oc.session != id {
		t.Fatalf("the session id changed from %q to %q", id, oc.session)
	}
	if names := oc.clientNames(); !slices.Equal(names, []string{"opencode/0.9.1"}) {
		t.Errorf("get_server_info names %v, want opencode/0.9.1", names)
	}

	other := newRawClient(t, next.status.URL)
	other.initialize("intruder", "1")
	if _, errText := other.call("svc_workflow", map[string]any{"action": "pause", "session_id": session}); !strings.Contains(errText, "belongs to opencode") {
		t.Errorf("another client paused opencode's session: %q", errText)
	}
	parts, own := strings.Split(id, "."), strings.Split(other.session, ".")
	own[1], own[2] = parts[1], parts[2]
	other.session = strings.Join(own, ".")
	other.next++
	if status, _ := other.post(map[string]any{"jsonrpc": "2.0", "id": other.next, "method": "ping"}); status != http.StatusNotFound {
		t.Errorf("an id edited to name opencode: %d, want 404", status)
	}
}

// A client that initializes again (a new session id, the same name) still
// owns its workflow sessions, at the same server and at the next one.
func TestReinitializedClientKeepsItsWorkflowSessions(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	cfg.Server.Port = 32765
	opts := Options{Project: p, Config: cfg, Transport: TransportHTTP}
	first := start(t, opts)

	oc := newRawClient(t, first.status.URL)
	oc.initialize("opencode", "0.9.1")
	started := oc.workflow(map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "again"}})
	session, _ := started["session"].(map[string]any)["id"].(string)
	before := oc.session

	oc.initialize("opencode", "0.9.2")
	if oc.session == before {
		t.Fatalf("initialize kept the session id %q", before)
	}
	oc.workflow(map[string]any{"action": "pause", "session_id": session})

	failover(t, first, opts)
	oc.initialize("opencode", "0.9.3")
	oc.workflow(map[string]any{"action": "resume", "session_id": session})
}
