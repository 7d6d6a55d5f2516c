package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/server/state"
)

// GrantLine is one line of the answer to a grant request (newline-delimited
// JSON): first the link, then, if the link dies before the command ends it,
// why.
type GrantLine struct {
	URL       string    `json:"url,omitempty"`
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	Ended     string    `json:"ended,omitempty"` // GrantExpired
	// OtherLinks counts the other review links open when this one was
	// made: a person who opened none has a program on this machine that
	// reads the server's auth token.
	OtherLinks int `json:"other_links,omitempty"`
}

// GrantExpired is GrantLine.Ended when the link's lifetime has passed.
const GrantExpired = "expired"

// serveGrant mints a review token for `agentos review` and keeps it alive
// exactly as long as this request: the command holds the response open, and
// when it ends (the person pressed Ctrl-C, the process died, the server is
// stopping) the token is revoked.
func (h *Handler) serveGrant(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, "a review link is asked for with POST")
		return
	}
	// Browsers send these; the command never does. A page, even one on
	// this machine, has no business asking for a link.
	if r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Mode") != "" {
		writeError(w, http.StatusForbidden, "review links are opened by the `agentos review` command, not by a web page")
		return
	}
	if !h.keyPresented(r) {
		h.log.Warn("a review link was asked for without the server's auth token", "remote", r.RemoteAddr)
		w.Header().Set("WWW-Authenticate", `Bearer realm="agentos-review"`)
		writeError(w, http.StatusUnauthorized, "run `agentos review` in a terminal: it presents the server's auth token from .agentos/.cache/auth_token")
		return
	}
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		writeError(w, http.StatusBadRequest, "the request names no port")
		return
	}
	token, expires, others, err := h.grants.mint(h.opts.LinkLifetime)
	if err != nil {
		writeError(w, http.StatusTooManyRequests, err.Error())
		return
	}
	defer h.grants.revoke(token)

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	rc := http.NewResponseController(w)
	url := fmt.Sprintf("http://%s:%s%s?t=%s", state.Host, port, Prefix, token)
	if enc.Encode(GrantLine{URL: url, ExpiresAt: expires, OtherLinks: others}) != nil || rc.Flush() != nil {
		return
	}
	h.log.Info("review link opened", "expires", expires.Format(time.RFC3339), "other_links", others)
	defer h.log.Info("review link closed")

	ctx, cancel := context.WithDeadline(r.Context(), expires)
	defer cancel()
	<-ctx.Done()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		enc.Encode(GrantLine{Ended: GrantExpired})
		rc.Flush()
	}
}

func (h *Handler) keyPresented(r *http.Request) bool {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	return ok && h.opts.Key != "" && strings.EqualFold(scheme, "Bearer") && constantEqual(strings.TrimSpace(key), h.opts.Key)
}
