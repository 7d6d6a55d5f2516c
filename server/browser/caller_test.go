package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

type fakeSession struct {
	id   string
	info mcp.Implementation
}

func (f *fakeSession) Initialize()                                         {}
func (f *fakeSession) Initialized() bool                                   { return true }
func (f *fakeSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (f *fakeSession) SessionID() string                                   { return f.id }
func (f *fakeSession) GetClientInfo() mcp.Implementation                   { return f.info }
func (f *fakeSession) SetClientInfo(i mcp.Implementation)                  { f.info = i }
func (f *fakeSession) GetClientCapabilities() mcp.ClientCapabilities       { return mcp.ClientCapabilities{} }
func (f *fakeSession) SetClientCapabilities(mcp.ClientCapabilities)        {}

func TestCallerKeys(t *testing.T) {
	srv := mcpserver.NewMCPServer("t", "1")
	legacy := func(id, name string) context.Context {
		return srv.WithContext(context.Background(), &fakeSession{id: id, info: mcp.Implementation{Name: name, Version: "1"}})
	}
	modern := func(name string) context.Context {
		ctx := srv.WithContext(context.Background(), &fakeSession{id: "ephemeral"})
		return mcpserver.WithRequestProtocolInfo(ctx, &mcpserver.RequestProtocolInfo{Modern: true, ClientInfo: &mcp.Implementation{Name: name, Version: "2"}})
	}
	cases := []struct {
		ctx         context.Context
		key, name   string
		description string
	}{
		{legacy("s1", "claude"), "session:s1", "claude", "an initialized session is its own browser session"},
		{legacy("s2", "claude"), "session:s2", "claude", "two sessions of one client are two browser sessions"},
		{legacy("stdio", "cursor"), "session:stdio", "cursor", "the stdio client"},
		{modern("codex"), "client:codex/2", "codex", "session-less requests are keyed by client"},
		{context.Background(), "client:unknown/", "unknown", "no session at all"},
	}
	for _, c := range cases {
		key, name := caller(c.ctx)
		if key != c.key || name != c.name {
			t.Errorf("%s: caller = %q, %q; want %q, %q", c.description, key, name, c.key, c.name)
		}
	}
}

func TestMaxSessions(t *testing.T) {
	t.Parallel()
	// Sessions start their browser on first use, so any executable will do here.
	m := NewManager(Options{Path: "go", MaxSessions: 1, ProjectRoot: t.TempDir()})
	defer m.Close()
	if _, err := m.session("session:a", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.session("session:a", "a"); err != nil {
		t.Fatalf("the same caller is refused its own session: %v", err)
	}
	_, err := m.session("session:b", "b")
	if err == nil || !strings.Contains(err.Error(), "browser.max_sessions") {
		t.Fatalf("second session: %v", err)
	}
	m.closeSession(m.existing("session:a"), "test")
	if _, err := m.session("session:b", "b"); err != nil {
		t.Fatalf("after a close: %v", err)
	}
	if state, detail := m.State(); state != "ready" || !strings.Contains(detail, "1 of 1 sessions") {
		t.Errorf("state %q %q", state, detail)
	}
}
