package server

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/loopback"
	"github.com/agentos-dev/agentos/server/review"
)

// MaxBodyBytes caps a request body. The largest legitimate request is a file
// write or workflow evidence of a few MiB; anything larger is refused before
// it is read into memory.
const MaxBodyBytes = 8 << 20

// DefaultBodyTimeout is how long a client may take to send a request body.
// The server's ReadHeaderTimeout bounds only the headers; without this a
// client trickling its body a byte at a time would hold a connection and a
// handler for as long as it liked. On the loopback interface even the
// largest body arrives in milliseconds.
const DefaultBodyTimeout = 30 * time.Second

// guard protects the HTTP endpoint of a local server from the browser and
// from other local users' mistakes:
//   - the Host header must be a loopback name with our port (DNS rebinding:
//     a web page that rebinds its domain to 127.0.0.1 still sends its own Host);
//   - a browser Origin, when present, must be a loopback origin;
//   - bodies are capped at MaxBodyBytes (413) and must arrive within
//     bodyTimeout (408);
//   - with server.auth: user, requests must come from a process of the OS
//     user the server runs as (401), which the kernel tells per connection;
//   - with a token configured, requests need "Authorization: Bearer <token>"
//     (401). Both except the liveness check: it tells only who listens (name,
//     version, pid, project), and readers of the state file must learn that
//     before they hand the token to whoever listens. The review page's
//     paths carry their own token instead, checked by package review.
type guard struct {
	port        int
	token       string // empty: no bearer token
	ownUserOnly bool   // server.auth: user where the system tells a connection's owner
	bodyTimeout time.Duration
	next        http.Handler
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Set before any refusal: net/http reads the body of a refused request
	// too (it discards it to reuse the connection), and with no deadline a
	// client trickling it would hold the connection as long as it liked.
	// Only a request with a body gets one (-1: chunked): net/http clears the
	// deadline when the body has been read to its end, before it watches the
	// connection for a client hanging up, so an answer that takes long (a
	// gate running the tests, an event stream) is not cut short.
	if r.ContentLength != 0 {
		if err := http.NewResponseController(w).SetReadDeadline(time.Now().Add(g.bodyTimeout)); err != nil {
			httpError(w, http.StatusInternalServerError, "could not read the request body")
			return
		}
	}
	if !g.hostAllowed(r.Host) {
		httpError(w, http.StatusForbidden, fmt.Sprintf("Host %q is not allowed: this server answers only 127.0.0.1:%d, localhost:%d or [::1]:%d", r.Host, g.port, g.port, g.port))
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin) {
		httpError(w, http.StatusForbidden, fmt.Sprintf("Origin %q is not allowed: only pages served from this machine's loopback address may call this server", origin))
		return
	}
	if g.ownUserOnly && !isLiveness(r) {
		if ok, why := sameUser(r.Context()); !ok {
			httpError(w, http.StatusUnauthorized, fmt.Sprintf("this server serves only the processes of the user it runs as (server.auth: user), and %s", why))
			return
		}
	}
	if g.token != "" && !isLiveness(r) && !review.OwnsPath(r.URL.Path) && !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="agentos"`)
		httpError(w, http.StatusUnauthorized, "a bearer token is required: send \"Authorization: Bearer <token>\" with the token from .agentos/.cache/auth_token")
		return
	}
	if r.Body != nil && r.Method == http.MethodPost {
		if r.ContentLength > MaxBodyBytes {
			tooLarge(w)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if errors.Is(err, os.ErrDeadlineExceeded) {
			httpError(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s: send the whole body at once", g.bodyTimeout))
			return
		}
		if err != nil {
			httpError(w, http.StatusBadRequest, "could not read the request body")
			return
		}
		if len(body) > MaxBodyBytes {
			tooLarge(w)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	g.next.ServeHTTP(w, r)
}

func tooLarge(w http.ResponseWriter) {
	httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than the %d MiB limit", MaxBodyBytes>>20))
}

func (g *guard) hostAllowed(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != strconv.Itoa(g.port) {
		return false
	}
	return loopback.Is(host)
}

func originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return loopback.Is(u.Hostname())
}

func (g *guard) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(g.token)) == 1
}

// httpError writes a small JSON error body; clients of a JSON API parse it,
// people read the message.
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
