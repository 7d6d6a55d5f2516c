package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/server/review"
)

// The review page sits behind the guard: its paths carry the review token
// instead of the endpoint's bearer token, and the Host and Origin checks
// apply to them as to everything else. `agentos review`'s way in works
// whatever server.auth says, and only with the auth token.
func TestReviewBehindGuard(t *testing.T) {
	t.Parallel()
	for _, auth := range []string{config.AuthNone, config.AuthToken} {
		t.Run(auth, func(t *testing.T) {
			p, cfg := testProject(t)
			cfg.Server.Auth = auth
			var none *NoServerError
			if _, err := OpenReview(context.Background(), p, cfg); !errors.As(err, &none) || !strings.Contains(err.Error(), "agentos serve --transport dual") {
				t.Fatalf("no server: %v", err)
			}
			r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
			link, err := OpenReview(context.Background(), p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer link.Close()
			get := func(url string, header ...string) int {
				req, _ := http.NewRequest("GET", url, nil)
				for i := 0; i+1 < len(header); i += 2 {
					if header[i] == "Host" {
						req.Host = header[i+1]
					} else {
						req.Header.Set(header[i], header[i+1])
					}
				}
				resp, err := testHTTP.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			base := strings.TrimSuffix(r.status.URL, "/mcp")
			if code := get(link.URL); code != 200 {
				t.Errorf("the link: %d", code)
			}
			if code := get(base + review.Prefix); code != 401 {
				t.Errorf("no token: %d", code)
			}
			if code := get(link.URL, "Host", "evil.example:"+strings.Split(base, ":")[2]); code != 403 {
				t.Errorf("rebound Host: %d", code)
			}
			if code := get(link.URL, "Origin", "https://evil.example"); code != 403 {
				t.Errorf("foreign Origin: %d", code)
			}
			if auth == config.AuthToken {
				if code := get(r.status.URL, "Accept", "text/event-stream"); code != 401 {
					t.Errorf("the MCP endpoint without its bearer token: %d", code)
				}
			}
			link.Close()
		})
	}
}
