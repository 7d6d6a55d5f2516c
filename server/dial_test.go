package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/config"
)

// A command's probe (Dial, then Close) ends its session, with the token
// when the server asks for one, so get_server_info counts agents only.
func TestDialCloseEndsTheSession(t *testing.T) {
	t.Parallel()
	for _, auth := range []string{config.AuthUser, config.AuthToken, config.AuthNone} {
		t.Run(auth, func(t *testing.T) {
			t.Parallel()
			p, cfg := testProject(t)
			cfg.Server.Auth = auth
			r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
			token := ""
			if auth == config.AuthToken {
				var err error
				if token, err = ReadToken(p); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			agent, err := Dial(ctx, r.status.URL, token, "agent", "1", 0)
			if err != nil {
				t.Fatal(err)
			}
			defer agent.Close()
			probe, err := Dial(ctx, r.status.URL, token, "agentos-doctor", "1", 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := clientNames(t, ctx, probe); !slices.Contains(got, "agentos-doctor") {
				t.Fatalf("clients while the probe is open: %v", got)
			}
			if err := probe.Close(); err != nil {
				t.Fatal(err)
			}
			if got := clientNames(t, ctx, agent); !slices.Equal(got, []string{"agent"}) {
				t.Errorf("clients after the probe closed: %v, want the agent only", got)
			}
		})
	}
}

// CheckEndpoint, connect's check, leaves no session behind either.
func TestCheckEndpointEndsItsSession(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := CheckEndpoint(ctx, r.status.URL, ""); err != nil {
		t.Fatal(err)
	}
	agent, err := Dial(ctx, r.status.URL, "", "agent", "1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	if got := clientNames(t, ctx, agent); !slices.Equal(got, []string{"agent"}) {
		t.Errorf("clients after the check: %v, want the agent only", got)
	}
	if err := CheckEndpoint(ctx, "http://127.0.0.1:1/mcp", ""); err == nil {
		t.Error("a port nobody listens on passed the check")
	}
}

// The token goes only to the server's own host.
func TestBearerOnlyToTheServer(t *testing.T) {
	hc, err := probeHTTP("http://127.0.0.1:4242/mcp", "secret")
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	hc.Transport.(*bearer).next = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = append(seen, r.URL.Host+"="+r.Header.Get("Authorization"))
		return nil, errors.New("not sent")
	})
	for _, u := range []string{"http://127.0.0.1:4242/mcp", "http://example.com/mcp"} {
		req, err := http.NewRequest(http.MethodDelete, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		hc.Transport.RoundTrip(req)
		if req.Header.Get("Authorization") != "" {
			t.Error("the caller's request was changed")
		}
	}
	want := []string{"127.0.0.1:4242=Bearer secret", "example.com="}
	if !slices.Equal(seen, want) {
		t.Errorf("got %v, want %v", seen, want)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func clientNames(t *testing.T, ctx context.Context, c *client.Client) []string {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "get_server_info"
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Clients []struct {
			Name string `json:"name"`
		} `json:"clients"`
	}
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, cl := range out.Clients {
		names = append(names, cl.Name)
	}
	slices.Sort(names)
	return names
}

// A probe's session leaves no connection open once it is closed: one kept
// in a pool shared by the process outlived the server it went to, and a
// server started later on the same port met a request on it that failed
// with EOF. The kernel's table of TCP sockets says which are open.
func TestClosedSessionLeavesNoConnection(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp to count connections in (Linux has it)")
	}
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	u, err := url.Parse(r.status.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(u.Host)
	before := connectionsTo(t, port)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	probe, err := Dial(ctx, r.status.URL, "", "probe", "1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := clientNames(t, ctx, probe); !slices.Contains(got, "probe") {
		t.Fatalf("clients: %v", got)
	}
	if err := probe.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	n := connectionsTo(t, port)
	for ; n > before && time.Now().Before(deadline); n = connectionsTo(t, port) {
		time.Sleep(20 * time.Millisecond)
	}
	if n > before {
		t.Errorf("%d connections to the server still open after the session was closed (%d before it)", n, before)
	}
}

// connectionsTo counts the established IPv4 connections whose far end is
// the given port (/proc/net/tcp: addresses in hex, state 01 established).
func connectionsTo(t *testing.T, port string) int {
	t.Helper()
	data, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	suffix := fmt.Sprintf(":%04X", n)
	count := 0
	for _, line := range strings.Split(string(data), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 3 && strings.HasSuffix(f[2], suffix) && f[3] == "01" {
			count++
		}
	}
	return count
}
