// Package review owns the review page: the person's seat beside the agents.
// The running primary serves it under Prefix on its loopback listener; it
// shows the workflow sessions, their specs (rendered, with a diff against the
// last approved version), the gates' evidence, the connected agents, the
// indexes and the standards, and lets a person approve a spec, request
// changes, confirm rules that changed under a session, and accept or reset a
// session changed outside agentos.
//
// Who may see it: only a holder of a review token, which the server mints in
// memory for a command (`agentos review`) that proves it can read the
// server's auth token — a secret no MCP tool can read — and which dies when
// that command's request ends, or after MaxGrantLifetime. Every change also
// needs the page's own CSRF token and a same-origin request. docs/review.md
// explains the design.
package review

import (
	"crypto/subtle"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/info"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/workflow"
)

// Prefix is the path under which the page and its API are served.
const Prefix = "/review/"

// Paths under Prefix.
const (
	GrantPath = Prefix + "grant" // POST by `agentos review` with the server's auth token
	apiPrefix = Prefix + "api/"
)

// Headers the page sends with every API call.
const (
	TokenHeader = "X-Review-Token" // the review token from the page's URL
	CSRFHeader  = "X-Review-CSRF"  // the page's CSRF token, on changes
)

// OwnsPath reports whether path is the review page's: such requests carry a
// review token instead of the MCP endpoint's bearer token, and this package
// checks it.
func OwnsPath(path string) bool {
	return path == strings.TrimSuffix(Prefix, "/") || strings.HasPrefix(path, Prefix)
}

// Options configure a Handler.
type Options struct {
	Project project.Paths
	Engine  *workflow.Engine
	// Agents lists the connected MCP clients; Indexes the search indexes.
	Agents  func() []info.Client
	Indexes func() []searchtool.IndexStatus
	// Key is the secret `agentos review` presents to open a link: the
	// server's auth token, kept where MCP tools cannot read it.
	Key string
	// LinkLifetime is how long a link works at most (0 or more than
	// MaxGrantLifetime: MaxGrantLifetime).
	LinkLifetime time.Duration
	Logger       *slog.Logger
	Now          func() time.Time // time.Now when nil
}

// Handler serves the review page and its API.
type Handler struct {
	opts      Options
	grants    *grants
	decisions *decisions
	drafts    *drafts
	log       *slog.Logger
}

// New returns the handler to mount at Prefix.
func New(opts Options) *Handler {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Agents == nil {
		opts.Agents = func() []info.Client { return nil }
	}
	if opts.Indexes == nil {
		opts.Indexes = func() []searchtool.IndexStatus { return nil }
	}
	return &Handler{opts: opts, grants: newGrants(opts.Now), decisions: newDecisions(opts.Project.Cache(), person()), drafts: newDrafts(opts.Project.Cache(), person()), log: opts.Logger}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	// Nothing here may be cached, framed, or leak its URL (which carries
	// the token) to another site.
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("X-Frame-Options", "DENY")
	hdr.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.URL.Path == GrantPath {
		h.serveGrant(w, r)
		return
	}
	if strings.HasPrefix(r.URL.Path, apiPrefix) {
		if !h.grants.valid(r.Header.Get(TokenHeader)) {
			unauthorized(w)
			return
		}
		h.serveAPI(w, r, strings.TrimPrefix(r.URL.Path, apiPrefix))
		return
	}
	token := r.URL.Query().Get("t")
	if !h.grants.valid(token) {
		unauthorized(w)
		return
	}
	if r.URL.Path != Prefix {
		writeError(w, http.StatusNotFound, "not found: the review page is "+Prefix)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "the review page answers GET only")
		return
	}
	h.servePage(w, token)
}

// unauthorized answers a request without a live review token; it says
// nothing about the project.
func unauthorized(w http.ResponseWriter) {
	writeError(w, http.StatusUnauthorized, "this review link is not valid: it expired, or the `agentos review` command that opened it ended; run `agentos review` again for a new one")
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func constantEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
