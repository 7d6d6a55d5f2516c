package workflowtool

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/workflow"
)

// URIPrefix names a session resource: agentos://workflows/<id>.
const URIPrefix = "agentos://workflows/"

// Resources serves each workflow session as an MCP resource and tells
// subscribed clients when it changes, so a second agent sees progress as it
// happens instead of polling.
type Resources struct {
	engine *workflow.Engine
	log    *slog.Logger

	mu     sync.Mutex
	server *mcpserver.MCPServer
	subs   map[string]map[string]bool // uri → MCP session ids
}

// NewResources tracks subscriptions through hooks; call Register once the
// MCP server exists, and Notify (the engine's OnChange) on every change.
func NewResources(hooks *mcpserver.Hooks, log *slog.Logger) *Resources {
	r := &Resources{log: log, subs: map[string]map[string]bool{}}
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
			r.mu.Lock()
			if r.subs[req.Params.URI] == nil {
				r.subs[req.Params.URI] = map[string]bool{}
			}
			r.subs[req.Params.URI][s.SessionID()] = true
			r.mu.Unlock()
		}
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
			r.mu.Lock()
			delete(r.subs[req.Params.URI], s.SessionID())
			r.mu.Unlock()
		}
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, s mcpserver.ClientSession) {
		if s.SessionID() != "stdio" {
			return // HTTP sessions are registered per request; they leave by DELETE or idleness
		}
		r.mu.Lock()
		for _, ids := range r.subs {
			delete(ids, s.SessionID())
		}
		r.mu.Unlock()
	})
	return r
}

// Register adds the session resource template to the server.
func (r *Resources) Register(s *mcpserver.MCPServer, engine *workflow.Engine) {
	r.mu.Lock()
	r.server, r.engine = s, engine
	r.mu.Unlock()
	s.AddResourceTemplate(
		mcp.NewResourceTemplate(URIPrefix+"{id}", "workflow session",
			mcp.WithTemplateDescription("The state of a workflow session (JSON). Subscribe to be told when it changes."),
			mcp.WithTemplateMIMEType("application/json")),
		r.read,
	)
}

func (r *Resources) read(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	id := strings.TrimPrefix(req.Params.URI, URIPrefix)
	sess, err := r.engine.Get(id)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(sess, "", "  ")
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}, nil
}

// Notify sends notifications/resources/updated for session id to its subscribers.
func (r *Resources) Notify(id string) {
	uri := URIPrefix + id
	r.mu.Lock()
	server := r.server
	var targets []string
	for sid := range r.subs[uri] {
		targets = append(targets, sid)
	}
	r.mu.Unlock()
	if server == nil {
		return
	}
	for _, sid := range targets {
		if err := server.SendNotificationToSpecificClient(sid, "notifications/resources/updated", map[string]any{"uri": uri}); err != nil {
			r.log.Debug("resource update not delivered", "session", sid, "uri", uri, "err", err)
		}
	}
}
