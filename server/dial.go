package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/buildinfo"
)

// Dial opens an MCP session with the running server at url, as the client
// named name, sending the project's auth token when there is one. The
// commands that ask the running server (doctor, connect, search, graph) use
// it; url must come from a state file state.Verify trusts, since the token
// goes to it. handshake, when not zero, bounds the initialize exchange, so a
// server that hangs in it costs no more.
//
// The caller closes the client, which ends the session: an HTTP DELETE with
// its Mcp-Session-Id (and the token), after which the server no longer
// counts the command among its connected clients. The session is one of
// the protocol before 2026-07-28: from that revision on a client has no
// session to end, and the server counts it until it has been silent for
// half an hour.
func Dial(ctx context.Context, url, token, name, version string, handshake time.Duration) (*client.Client, error) {
	hc, err := probeHTTP(url, token)
	if err != nil {
		return nil, err
	}
	// What goes wrong is returned; the transport's own log (a DELETE that
	// finds the server gone) is not for the command's output.
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPBasicClient(hc),
		transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("cannot reach the server at %s: %w", url, err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: version}
	ictx := ctx
	if handshake > 0 {
		var cancel context.CancelFunc
		ictx, cancel = context.WithTimeout(ctx, handshake)
		defer cancel()
	}
	if _, err := c.Initialize(ictx, init); err != nil {
		c.Close()
		return nil, fmt.Errorf("the server at %s refused to start a session: %w", url, err)
	}
	return c, nil
}

// CheckEndpoint checks that the server at url answers an MCP handshake
// within five seconds, and ends the session the handshake opened: what
// `agentos connect` checks before it writes an entry for the server.
func CheckEndpoint(ctx context.Context, url, token string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, url, token, "agentos-connect", buildinfo.Get().Version, 0)
	if err != nil {
		return err
	}
	return c.Close()
}

// probeHTTP is the HTTP client of a probe's session. mcp-go sends the
// headers it is given with the protocol's messages but not with the DELETE
// that ends a session, so the token goes in here, to every request, and
// only to the server's own host; no redirect is followed.
func probeHTTP(endpoint, token string) (*http.Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("the server's URL %q: %w", endpoint, err)
	}
	// Connections of its own, each closed after its request: a session
	// makes a handful of requests, and a connection kept in the process's
	// shared pool outlives the server it went to — a server started later
	// on the same port (the next primary) met the POST on a connection
	// the old one had closed, which fails with EOF and is not retried.
	conns := &http.Transport{DisableKeepAlives: true}
	if def, ok := http.DefaultTransport.(*http.Transport); ok {
		conns = def.Clone()
		conns.DisableKeepAlives = true
	}
	return &http.Client{
		Transport:     &bearer{host: u.Host, token: token, next: conns},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, nil
}

// bearer adds the project's auth token to each request for host.
type bearer struct {
	host, token string
	next        http.RoundTripper
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token == "" || r.URL.Host != b.host {
		return b.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
