package e2e

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func post(t *testing.T, url string, mutate func(*http.Request), body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if mutate != nil {
		mutate(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestHostOriginAndBodyCap(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)
	port := strings.TrimPrefix(strings.TrimSuffix(st.URL, "/mcp"), "http://127.0.0.1:")

	cases := []struct {
		name   string
		mutate func(*http.Request)
		body   []byte
		want   int
	}{
		{"plain", nil, []byte(initBody), 200},
		{"localhost host", func(r *http.Request) { r.Host = "localhost:" + port }, []byte(initBody), 200},
		{"ipv6 loopback host", func(r *http.Request) { r.Host = "[::1]:" + port }, []byte(initBody), 200},
		{"loopback origin", func(r *http.Request) { r.Header.Set("Origin", "http://localhost:3000") }, []byte(initBody), 200},
		{"rebound host", func(r *http.Request) { r.Host = "evil.example:" + port }, []byte(initBody), 403},
		{"host without port", func(r *http.Request) { r.Host = "127.0.0.1" }, []byte(initBody), 403},
		{"host with other port", func(r *http.Request) { r.Host = "127.0.0.1:1" }, []byte(initBody), 403},
		{"foreign origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, []byte(initBody), 403},
		{"null origin", func(r *http.Request) { r.Header.Set("Origin", "null") }, []byte(initBody), 403},
		{"huge body", nil, bytes.Repeat([]byte(" "), 9<<20), 413},
		{"huge body, chunked", func(r *http.Request) { r.ContentLength = -1 }, bytes.Repeat([]byte(" "), 9<<20), 413},
	}
	for _, tc := range cases {
		if got := post(t, st.URL, tc.mutate, tc.body).StatusCode; got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	// A rebound Host is refused for the liveness GET too.
	req, _ := http.NewRequest(http.MethodGet, st.URL, nil)
	req.Host = "attacker.example:" + port
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("GET with foreign Host: %d", resp.StatusCode)
	}
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	root := newProject(t, "auth: token")
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)

	tokenPath := filepath.Join(root, ".agentos", ".cache", "auth_token")
	fi, err := os.Stat(tokenPath)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}
	raw, _ := os.ReadFile(tokenPath)
	token := strings.TrimSpace(string(raw))

	if got := post(t, st.URL, nil, []byte(initBody)).StatusCode; got != 401 {
		t.Errorf("no token: %d", got)
	}
	if got := post(t, st.URL, func(r *http.Request) { r.Header.Set("Authorization", "Bearer wrong") }, []byte(initBody)).StatusCode; got != 401 {
		t.Errorf("wrong token: %d", got)
	}
	if got := post(t, st.URL, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }, []byte(initBody)).StatusCode; got != 200 {
		t.Errorf("right token: %d", got)
	}
	c := httpClient(t, st.URL, map[string]string{"Authorization": "Bearer " + token})
	if getInfo(t, c).Server.PID != st.PID {
		t.Error("client with token does not reach the server")
	}
	// status reads the token itself.
	if r := runAgentos(t, root, "status", "--dir", root); r.code != 0 {
		t.Errorf("status with token auth: %d %s", r.code, r.stdout)
	}
	// A stdio bridge reads it too.
	bridged := stdioClient(t, root, "--transport", "stdio")
	if getInfo(t, bridged).Server.PID != st.PID {
		t.Error("bridge does not pass the token")
	}
}
