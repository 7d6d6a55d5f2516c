package server

import (
	"context"
	"sort"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server/info"
)

// clientIdle is how long an HTTP session may stay silent and still count as
// connected. Streamable HTTP has no connection to watch, and clients often
// leave without saying goodbye.
const clientIdle = 30 * time.Minute

// clients tracks the MCP sessions that have initialized, for get_server_info.
type clients struct {
	mu       sync.Mutex
	sessions map[string]*info.Client
	now      func() time.Time
}

func newClients(now func() time.Time) *clients {
	return &clients{sessions: map[string]*info.Client{}, now: now}
}

// hooks wires the tracker into the MCP server's lifecycle.
func (c *clients) hooks() *mcpserver.Hooks {
	h := &mcpserver.Hooks{}
	h.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, _ *mcp.InitializeResult) {
		s := mcpserver.ClientSessionFromContext(ctx)
		if s == nil || s.SessionID() == "" {
			return
		}
		transport := "http"
		if s.SessionID() == stdioSessionID {
			transport = "stdio"
		}
		c.mu.Lock()
		c.sessions[s.SessionID()] = &info.Client{
			Name:      req.Params.ClientInfo.Name,
			Version:   req.Params.ClientInfo.Version,
			Transport: transport,
			LastSeen:  c.now(),
		}
		c.mu.Unlock()
	})
	h.AddBeforeAny(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any) {
		s := mcpserver.ClientSessionFromContext(ctx)
		// Since protocol 2026-07-28 there is no handshake and no session:
		// every request names its client in _meta, so that is what we track.
		if pi := mcpserver.RequestProtocolInfoFromContext(ctx); pi != nil && pi.Modern {
			c.seenModern(s, pi.ClientInfo)
			return
		}
		if s != nil {
			c.touch(s.SessionID())
		}
	})
	h.AddOnUnregisterSession(func(_ context.Context, s mcpserver.ClientSession) {
		// Only the stdio session's end is a real disconnect; HTTP sessions
		// are registered per request.
		if s.SessionID() == stdioSessionID {
			c.remove(stdioSessionID)
		}
	})
	return h
}

// stdioSessionID is the id mcp-go gives the single stdio session.
const stdioSessionID = "stdio"

// seenModern records a request of a session-less client, keyed by transport
// and client identity.
func (c *clients) seenModern(s mcpserver.ClientSession, client *mcp.Implementation) {
	name, version := "unknown", ""
	if client != nil {
		name, version = client.Name, client.Version
	}
	key, transport := "http:"+name+"/"+version, "http"
	if s != nil && s.SessionID() == stdioSessionID {
		key, transport = stdioSessionID, "stdio"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions[key] = &info.Client{Name: name, Version: version, Transport: transport, LastSeen: c.now()}
}

func (c *clients) touch(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sessions[id]; ok {
		s.LastSeen = c.now()
	}
}

func (c *clients) remove(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.sessions, id)
}

// list returns the connected clients, oldest first, forgetting idle HTTP sessions.
func (c *clients) list() []info.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	out := make([]info.Client, 0, len(c.sessions))
	for id, s := range c.sessions {
		if s.Transport == "http" && now.Sub(s.LastSeen) > clientIdle {
			delete(c.sessions, id)
			continue
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastSeen.Before(out[j].LastSeen) })
	return out
}

// sessionIDs is a stateful session-id manager that also forgets a client
// when it ends its session with DELETE.
type sessionIDs struct {
	mcpserver.InsecureStatefulSessionIdManager
	clients *clients
}

func (m *sessionIDs) Terminate(id string) (bool, error) {
	m.clients.remove(id)
	return m.InsecureStatefulSessionIdManager.Terminate(id)
}
