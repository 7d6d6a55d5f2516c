package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/machinekey"
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
// accepted its signature): it counts, with the name it gave that server
// unknown.
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

// resumedClient names a client whose session began with a former primary.
const resumedClient = "unknown (its session began before the server restarted)"

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

// sessionIDs issues the HTTP transport's session ids and forgets a client
// when it ends its session (DELETE, or mcp-go's sweep of idle sessions). An
// id is signed with this machine's key for this project, so a server that
// takes over as the project's primary accepts the sessions of the one before
// it: an HTTP client carries on across a failover without a new handshake,
// while an id from another project's server (or a made-up one) is refused.
type sessionIDs struct {
	key        *machinekey.Key
	project    string // the project root, signed into every id
	clients    *clients
	terminated sync.Map // ids ended by DELETE or expiry
}

const sessionPrefix = "mcp-session-"

func (m *sessionIDs) Generate() string {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	n := hex.EncodeToString(nonce)
	return sessionPrefix + n + "." + m.mac(n)
}

func (m *sessionIDs) mac(nonce string) string {
	return m.key.MAC([]byte("mcp session"), []byte(m.project), []byte(nonce))[:32]
}

func (m *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	nonce, mac, ok := strings.Cut(strings.TrimPrefix(id, sessionPrefix), ".")
	if !strings.HasPrefix(id, sessionPrefix) || !ok || len(nonce) != 32 || !hmac.Equal([]byte(mac), []byte(m.mac(nonce))) {
		return false, fmt.Errorf("unknown session id %q", id)
	}
	if _, ended := m.terminated.Load(id); ended {
		return true, nil
	}
	return false, nil
}

func (m *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	m.terminated.Store(id, true)
	m.clients.remove(id)
	return false, nil
}
