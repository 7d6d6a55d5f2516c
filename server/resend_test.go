package server

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/agentos-dev/agentos/server/state"
)

// The bridge sends a message the ended primary may have run to the next one
// only when it changes nothing: what it knows of that comes from the
// server's own tool list.
func TestRepeatableAsksTheServerWhichToolsOnlyRead(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	primary := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	st, err := state.Read(p.StateFile())
	if err != nil {
		t.Fatal(err)
	}
	b := &bridge{project: p, config: cfg, url: primary.status.URL, out: io.Discard,
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if st.Auth == "token" {
		if b.token, err = ReadToken(p); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if err := b.initializeSession(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`), false); err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`:                                                                     true,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_server_info","arguments":{}}}`:                  true,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"svc_search_project","arguments":{"query":"x"}}}`:    true,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"svc_workflow","arguments":{"action":"get_state"}}}`: false,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"svc_filesystem","arguments":{"action":"write"}}}`:   false,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"svc_browser","arguments":{"action":"open"}}}`:       false,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`:                     false,
		`not json`: false,
	} {
		if got := b.repeatable(ctx, []byte(msg)); got != want {
			t.Errorf("repeatable(%s) = %v, want %v", msg, got, want)
		}
	}
}

// After a handover the primary the bridge found may end before it lists its
// tools (it was the one still shutting down): the bridge asks the next one
// rather than refusing a read-only call it could have sent again.
func TestRepeatableAsksTheNextPrimaryWhenThisOneIsGone(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	st, err := state.Read(p.StateFile())
	if err != nil {
		t.Fatal(err)
	}
	gone, err := net.Listen("tcp", Host+":0")
	if err != nil {
		t.Fatal(err)
	}
	gone.Close()
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	b := &bridge{project: p, config: cfg, url: "http://" + gone.Addr().String() + "/mcp", initialize: init, out: io.Discard,
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if st.Auth == "token" {
		if b.token, err = ReadToken(p); err != nil {
			t.Fatal(err)
		}
	}
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_server_info","arguments":{}}}`
	if !b.repeatable(context.Background(), []byte(call)) {
		t.Errorf("get_server_info was not sent again though the next primary (%s) says it only reads", st.URL)
	}
	if b.repeatable(context.Background(), []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"svc_workflow","arguments":{"action":"complete_phase"}}}`)) {
		t.Error("svc_workflow would be sent again, though it changes things")
	}
}
