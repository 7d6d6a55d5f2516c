package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/agentos-dev/agentos/server/state"
)

// endpoint serves /mcp: MCP streamable HTTP, except that a plain GET (one that
// does not ask for an event stream) is a liveness check answered with a small
// JSON body (state.Liveness), so `curl http://127.0.0.1:PORT/mcp` tells a
// person the server is up, and a reader of the state file learns who
// listens before it sends the token.
type endpoint struct {
	mcp      http.Handler
	liveness func() any
	clients  *clients // told when a session's event stream opens and closes
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isLiveness(r) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(e.liveness())
		return
	}
	if r.Method == http.MethodPost {
		batch, body, err := peekBatch(r.Body)
		if err != nil {
			httpError(w, http.StatusBadRequest, "could not read the request body")
			return
		}
		if batch {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(batchRefusal)
			return
		}
		// An initialize request's session id names its client (sessionIDs).
		r, body, err = withInitializingClient(r, body)
		if err != nil {
			httpError(w, http.StatusBadRequest, "could not read the request body")
			return
		}
		r.Body = io.NopCloser(body)
	}
	if id := r.Header.Get("Mcp-Session-Id"); r.Method == http.MethodGet && id != "" && e.clients != nil {
		defer e.clients.streamOpened(id)()
	}
	e.mcp.ServeHTTP(w, r)
}

// isLiveness reports whether r is the liveness check: a GET of the endpoint
// that does not ask for an event stream.
func isLiveness(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == state.EndpointPath && !acceptsEventStream(r)
}

func acceptsEventStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			media, _, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(media), "text/event-stream") {
				return true
			}
		}
	}
	return false
}
