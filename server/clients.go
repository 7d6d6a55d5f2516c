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

// streamGrace is how long a session whose event stream closed still counts
// as connected: the time a live client takes to open the stream again.
const streamGrace = 3 * time.Second

// clients tracks the MCP sessions that have initialized, for get_server_info.
// A session stops counting when it ends: the stdio client's stdin closes, an
// HTTP client sends DELETE, or an HTTP client that held an event stream open
// (as the stdio bridge does) lets it close and says nothing more — it was
// killed, or quit without a goodbye. A client with an open stream counts
// however quiet it is; any other stops counting after clientIdle of silence.
type clients struct {
	mu       sync.Mutex
	sessions map[string]*info.Client
	streams  map[string]*stream // the sessions that have opened an event stream
	now      func() time.Time
}

// stream is the state of a session's event streams (GET /mcp).
type stream struct {
	open     int
	closedAt time.Time // when the last one closed
}

func newClients(now func() time.Time) *clients {
	return &clients{sessions: map[string]*info.Client{}, streams: map[string]*stream{}, now: now}
}

// streamOpened notes that session id opened an event stream; the returned
// function notes that it closed.
func (c *clients) streamOpened(id string) (closed func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, known := c.sessions[id]; !known {
		return func() {}
	}
	st := c.streams[id]
	if st == nil {
		st = &stream{}
		c.streams[id] = st
	}
	st.open++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		st.open--
		st.closedAt = c.now()
	}
}

// gone reports whether session id, with client s, has ended without a word
// (see clients); the caller holds c.mu.
func (c *clients) gone(id string, s *info.Client, now time.Time) bool {
	if s.Transport != "http" {
		return false
	}
	st := c.streams[id]
	switch {
	case st != nil && st.open > 0: // connected, however quiet
		return false
	case st != nil && !s.LastSeen.After(st.closedAt) && now.Sub(st.closedAt) > streamGrace:
		return true
	}
	return now.Sub(s.LastSeen) > clientIdle
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
	h.AddBeforeAny(func(ctx context.Context, _ any, method mcp.MCPMethod, _ any) {
		s := mcpserver.ClientSessionFromContext(ctx)
		// Since protocol 2026-07-28 there is no handshake and no session:
		// every request names its client in _meta, so that is what we track.
		if pi := mcpserver.RequestProtocolInfoFromContext(ctx); pi != nil && pi.Modern {
			c.seenModern(s, pi.ClientInfo)
			return
		}
		if s != nil && method != mcp.MethodInitialize { // AfterInitialize records a new one
			c.touch(s.SessionID())
			c.lendName(s)
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

// touch notes a request of session id. An HTTP session this server never
// saw initialize is one a former primary of the project issued (sessionIDs
// accepted its signature): it counts, under the name its id carries
// (resume), or with the name it gave that server unknown when the id carries
// none.
func (c *clients) touch(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sessions[id]; ok {
		s.LastSeen = c.now()
		return
	}
	if id != "" && id != stdioSessionID {
		c.sessions[id] = &info.Client{Name: resumedClient, Transport: "http", LastSeen: c.now()}
	}
}

// resumedClient names a client whose session began with a former primary
// and whose id does not name it.
const resumedClient = "unknown (its session began before the server restarted)"

// resume records that the HTTP session id, issued by a former primary of
// the project, belongs to client, as its signed id says (sessionIDs.Validate
// verified it). A session this server has seen initialize keeps its record.
func (c *clients) resume(id string, client mcp.Implementation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, known := c.sessions[id]; known {
		return
	}
	c.sessions[id] = &info.Client{Name: client.Name, Version: client.Version, Transport: "http", LastSeen: c.now()}
}

// lendName gives session s, when it does not know its client, the client
// recorded for its id. mcp-go sets a session's client info at initialize
// only, and serves each request of a session that began with a former
// primary with a new session object (or the one its event stream opened)
// that knows none: without the name, tools would take the caller for an
// unknown agent (svc_workflow would refuse it the sessions it owns).
func (c *clients) lendName(s mcpserver.ClientSession) {
	withInfo, ok := s.(mcpserver.SessionWithClientInfo)
	if !ok || withInfo.GetClientInfo().Name != "" {
		return
	}
	c.mu.Lock()
	rec, known := c.sessions[s.SessionID()]
	var client mcp.Implementation
	if known && rec.Name != resumedClient {
		client = mcp.Implementation{Name: rec.Name, Version: rec.Version}
	}
	c.mu.Unlock()
	if client.Name != "" {
		withInfo.SetClientInfo(client)
	}
}

func (c *clients) remove(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.sessions, id)
	delete(c.streams, id)
}

// list returns the connected clients, oldest first, forgetting the HTTP
// sessions that have gone.
func (c *clients) list() []info.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	out := make([]info.Client, 0, len(c.sessions))
	for id, s := range c.sessions {
		if c.gone(id, s, now) {
			delete(c.sessions, id)
			delete(c.streams, id)
			continue
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastSeen.Before(out[j].LastSeen) })
	return out
}
