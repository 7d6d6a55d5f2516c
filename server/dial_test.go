package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
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
