package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/mark3labs/mcp-go/mcp"
)

// needBrowser skips (loudly) when no browser is installed, except in CI,
// where the browser tests must run.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := FindExecutable(""); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no browser: %v (run scripts/install-chromium.sh)", err)
		}
		t.Skipf("SKIPPING BROWSER TEST: %v", err)
	}
}

const page = `<!doctype html><html><head><title>Test page</title></head><body>
<h1 id="greeting">Hello</h1>
<button id="btn" onclick="document.getElementById('greeting').textContent='Clicked'; console.log('clicked', 42)">Go</button>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = this.name.value + '/' + this.color.value">
  <input name="name" id="name"><select name="color" id="color"><option value="r">Red</option><option value="g">Green</option></select>
  <button type="submit" id="submit">Send</button>
</form>
<p id="out"></p><div id="hidden" style="display:none">secret</div>
<script>console.warn('loaded'); localStorage.setItem('k', 'v');</script>
</body></html>`

func testServer(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, "http://example.com/", http.StatusFound)
			return
		}
		if r.URL.Path == "/link" {
			fmt.Fprint(w, `<a id="out" href="https://example.com/">out</a>`)
			return
		}
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(ts.Close)
	return ts
}

type harness struct {
	t    *testing.T
	m    *Manager
	tool func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
}

func newHarness(t *testing.T, opts Options) *harness {
	if opts.ProjectRoot == "" {
		opts.ProjectRoot = t.TempDir()
	}
	m := NewManager(opts)
	t.Cleanup(func() { m.Close() })
	return &harness{t: t, m: m, tool: New(m).Handler}
}

func (h *harness) call(args map[string]any) (Output, *mcp.CallToolResult) {
	h.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "svc_browser"
	req.Params.Arguments = args
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := h.tool(ctx, req)
	if err != nil {
		h.t.Fatal(err)
	}
	var out Output
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &out)
	return out, res
}

func (h *harness) ok(args map[string]any) Output {
	h.t.Helper()
	out, res := h.call(args)
	if res.IsError {
		h.t.Fatalf("%v: %s", args, text(res))
	}
	return out
}

func (h *harness) fails(args map[string]any, code string) string {
	h.t.Helper()
	_, res := h.call(args)
	if !res.IsError || !strings.Contains(text(res), code) {
		h.t.Fatalf("%v: want %s, got %s", args, code, text(res))
	}
	return text(res)
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestNoBrowser(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Path: filepath.Join(t.TempDir(), "no-such-chromium")})
	if state, detail := h.m.State(); state != "unavailable" || !strings.Contains(detail, "apt-get install chromium") {
		t.Errorf("state %q %q", state, detail)
	}
	msg := h.fails(map[string]any{"action": "navigate", "url": "http://localhost/"}, "BUSINESS_LOGIC_ERROR")
	if !strings.Contains(msg, "install") || !strings.Contains(msg, "browser.path") {
		t.Errorf("error does not say how to install a browser: %s", msg)
	}
}

func TestValidationWithoutBrowser(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Path: filepath.Join(t.TempDir(), "none")})
	h.fails(map[string]any{"action": "fly"}, "VALIDATION_ERROR")
	h.fails(map[string]any{"action": "click"}, "VALIDATION_ERROR")
	h.fails(map[string]any{"action": "wait"}, "VALIDATION_ERROR")
	h.fails(map[string]any{"action": "viewport", "width": 100}, "VALIDATION_ERROR")
	h.fails(map[string]any{"action": "tabs", "op": "explode"}, "VALIDATION_ERROR")
	if out := h.ok(map[string]any{"action": "close"}); out.Closed {
		t.Error("close without a session reports closed")
	}
}

// A URL the policy refuses is refused before a browser starts: with no
// browser on the machine the answer is FORBIDDEN, not "install a browser".
func TestRefusedURLStartsNoBrowser(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Path: filepath.Join(t.TempDir(), "no-such-chromium")})
	h.fails(map[string]any{"action": "navigate", "url": "https://evil.example/"}, "FORBIDDEN")
	h.fails(map[string]any{"action": "tabs", "op": "new", "url": "file:///etc/passwd"}, "FORBIDDEN")
	h.fails(map[string]any{"action": "navigate", "url": "http://localhost/"}, "BUSINESS_LOGIC_ERROR")
}

func TestPolicy(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.html"), []byte("x"), 0o644)
	p := newPolicy(root, []string{"example.com", "*.corp.test"})
	allowed := []string{
		"http://localhost:3000/", "http://127.0.0.1/", "http://[::1]:8080/x", "https://app.localhost/",
		"http://127.1.2.3/", "about:blank", "file://" + filepath.ToSlash(filepath.Join(root, "a.html")),
		"https://example.com/", "https://a.corp.test/",
	}
	for _, u := range allowed {
		if err := p.check(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	os.MkdirAll(filepath.Join(root, ".agentos", ".cache"), 0o755)
	os.WriteFile(filepath.Join(root, ".agentos", ".cache", "auth_token"), []byte("token"), 0o600)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("secret"), 0o644)
	os.Link(outside, filepath.Join(root, "hard.txt"))
	os.Symlink(".agentos/.cache/auth_token", filepath.Join(root, "token-link"))
	refused := map[string]string{
		"file://" + filepath.ToSlash(filepath.Join(root, ".agentos", ".cache", "auth_token")): "FORBIDDEN",
		"file://" + filepath.ToSlash(filepath.Join(root, "token-link")):                       "FORBIDDEN",
		"file://" + filepath.ToSlash(filepath.Join(root, "hard.txt")):                         "FORBIDDEN",
		"https://evil.com/":                        "FORBIDDEN",
		"https://example.com.evil.com/":            "FORBIDDEN",
		"https://corp.test.evil/":                  "FORBIDDEN",
		"file:///etc/passwd":                       "FORBIDDEN",
		"file://" + filepath.ToSlash(root) + "/..": "FORBIDDEN",
		"javascript:alert(1)":                      "FORBIDDEN",
		"chrome://settings":                        "FORBIDDEN",
		"localhost:3000":                           "FORBIDDEN",
		"/relative":                                "VALIDATION_ERROR",
	}
	for u, code := range refused {
		err := p.check(u)
		if err == nil || !strings.Contains(err.Error(), code) {
			t.Errorf("%s: want %s, got %v", u, code, err)
		}
	}
	if err := newPolicy(root, []string{"*"}).check("https://anything.org/"); err != nil {
		t.Errorf("* does not allow every host: %v", err)
	}
}

// Once the server listens, its own port is refused on every loopback name,
// and only that port.
func TestPolicyRefusesServersOwnPort(t *testing.T) {
	p := newPolicy(t.TempDir(), []string{"*"})
	if err := p.check("http://127.0.0.1:4242/review/"); err != nil {
		t.Fatalf("before the server listens: %v", err)
	}
	p.ownPort.Store(4242)
	for _, u := range []string{"http://127.0.0.1:4242/review/?t=x", "http://localhost:4242/mcp", "http://[::1]:4242/", "https://app.localhost:4242/", "http://127.0.0.2:4242/", "HTTP://LOCALHOST.:4242/"} {
		if err := p.check(u); err == nil || !strings.Contains(err.Error(), "FORBIDDEN") || !strings.Contains(err.Error(), "agentos server itself") {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"http://127.0.0.1:4243/", "http://localhost/", "http://example.com:4242/"} {
		if err := p.check(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	if got := p.ownOriginPatterns(); len(got) != 6 || got[0] != "http://127.0.0.1:4242/*" {
		t.Errorf("patterns: %v", got)
	}
}

func TestActions(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	ts := testServer(t)
	h := newHarness(t, Options{})

	out := h.ok(map[string]any{"action": "navigate", "url": ts.URL + "/"})
	if out.Title != "Test page" || out.Status != 200 || out.Tab != "tab-1" {
		t.Errorf("navigate: %+v", out)
	}
	out = h.ok(map[string]any{"action": "query", "selector": "#greeting"})
	if *out.Count != 1 || out.Elements[0].Text != "Hello" || out.Elements[0].Attributes["id"] != "greeting" {
		t.Errorf("query: %+v", out)
	}
	h.ok(map[string]any{"action": "click", "selector": "#btn"})
	out = h.ok(map[string]any{"action": "query", "selector": "#greeting"})
	if out.Elements[0].Text != "Clicked" {
		t.Errorf("after click: %+v", out.Elements)
	}
	h.ok(map[string]any{"action": "type", "selector": "#name", "text": "Ad"})
	h.ok(map[string]any{"action": "type", "selector": "#name", "text": "a"})
	h.ok(map[string]any{"action": "select", "selector": "#color", "value": "Green"})
	h.ok(map[string]any{"action": "click", "selector": "#submit"})
	h.ok(map[string]any{"action": "wait", "selector": "#out:not(:empty)"})
	if out = h.ok(map[string]any{"action": "query", "selector": "#out"}); out.Elements[0].Text != "Ada/g" {
		t.Errorf("form: %+v", out.Elements)
	}
	h.ok(map[string]any{"action": "fill", "selector": "#name", "value": "Bo"})
	if out = h.ok(map[string]any{"action": "evaluate", "script": "document.querySelector('#name').value + 1"}); fmt.Sprint(out.Result) != "Bo1" {
		t.Errorf("evaluate: %#v", out.Result)
	}
	out = h.ok(map[string]any{"action": "console"})
	var texts []string
	for _, m := range out.Messages {
		texts = append(texts, m.Type+":"+m.Text)
	}
	if got := strings.Join(texts, "|"); !strings.Contains(got, "warning:loaded") || !strings.Contains(got, "log:clicked 42") {
		t.Errorf("console: %s", got)
	}
	if out = h.ok(map[string]any{"action": "console"}); len(out.Messages) != 0 {
		t.Errorf("console repeats messages: %+v", out.Messages)
	}
	out = h.ok(map[string]any{"action": "network"})
	if len(out.Requests) == 0 || out.Requests[0].Status != 200 || out.Requests[0].Type != "Document" {
		t.Errorf("network: %+v", out.Requests)
	}

	out = h.ok(map[string]any{"action": "viewport", "width": 400, "height": 300})
	if out.Viewport.Width != 400 || out.Viewport.Height != 300 {
		t.Errorf("viewport: %+v", out.Viewport)
	}
	_, res := h.call(map[string]any{"action": "screenshot"})
	img, ok := res.Content[0].(mcp.ImageContent)
	if !ok {
		t.Fatalf("screenshot content: %+v", res.Content)
	}
	data, _ := base64.StdEncoding.DecodeString(img.Data)
	cfg, err := png.DecodeConfig(strings.NewReader(string(data)))
	if err != nil || cfg.Width != 400 || cfg.Height != 300 {
		t.Errorf("screenshot: %v %+v", err, cfg)
	}
	out = h.ok(map[string]any{"action": "screenshot", "selector": "#btn"})
	if out.Image == nil || out.Image.Width == 0 || out.Image.Width > 200 {
		t.Errorf("element screenshot: %+v", out.Image)
	}
	h.ok(map[string]any{"action": "emulate_media", "color_scheme": "dark"})
	if out = h.ok(map[string]any{"action": "evaluate", "script": "matchMedia('(prefers-color-scheme: dark)').matches"}); out.Result != true {
		t.Errorf("emulate_media: %v", out.Result)
	}
	out = h.ok(map[string]any{"action": "cookies", "op": "set", "cookies": []any{map[string]any{"name": "c", "value": "1"}}})
	if len(out.Cookies) != 1 || out.Cookies[0].Name != "c" {
		t.Errorf("cookies: %+v", out.Cookies)
	}
	if out = h.ok(map[string]any{"action": "local_storage"}); out.Storage["k"] != "v" {
		t.Errorf("local_storage: %+v", out.Storage)
	}

	// Bad input: clear errors, and the session stays usable.
	h.fails(map[string]any{"action": "click", "selector": "##bad"}, "VALIDATION_ERROR")
	h.fails(map[string]any{"action": "click", "selector": "#nope", "timeout_ms": 300}, "NOT_FOUND")
	h.fails(map[string]any{"action": "click", "selector": "#hidden", "timeout_ms": 300}, "none became visible")
	h.fails(map[string]any{"action": "wait", "selector": "#nope", "timeout_ms": 200}, "did not become visible")
	h.fails(map[string]any{"action": "evaluate", "script": "throw new Error('boom')"}, "boom")
	h.fails(map[string]any{"action": "navigate", "url": "https://example.com/"}, "FORBIDDEN")
	h.fails(map[string]any{"action": "tabs", "op": "switch", "tab": "tab-9"}, "NOT_FOUND")
	// Pages cannot take the tab where the agent may not go: a redirect, a link.
	h.fails(map[string]any{"action": "navigate", "url": ts.URL + "/away"}, "FORBIDDEN")
	h.ok(map[string]any{"action": "navigate", "url": ts.URL + "/link"})
	h.ok(map[string]any{"action": "console"})
	h.ok(map[string]any{"action": "click", "selector": "#out"})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out = h.ok(map[string]any{"action": "console"})
		if len(out.Messages) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(out.Messages) != 1 || !strings.Contains(out.Messages[0].Text, "agentos blocked the page https://example.com/") {
		t.Errorf("blocked link: console %+v", out.Messages)
	}
	h.ok(map[string]any{"action": "navigate", "url": ts.URL + "/"})
	if out = h.ok(map[string]any{"action": "query", "selector": "h1"}); *out.Count != 1 {
		t.Errorf("session unusable after errors: %+v", out)
	}

	// Tabs.
	out = h.ok(map[string]any{"action": "tabs", "op": "new", "url": ts.URL + "/missing"})
	if len(out.Tabs) != 2 || !out.Tabs[1].Active || out.Tab != "tab-2" {
		t.Errorf("tabs new: %+v", out)
	}
	// A tab closed behind the tool's back (by the page, or a person) is forgotten.
	s := h.m.existing("client:unknown/")
	if _, err := chromedp.CallBrowser(s.rootCtx, target.CloseTarget, target.CloseTargetParams{TargetID: target.ID(s.tabs[1].targetID)}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); s.tabs[1].alive() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	h.fails(map[string]any{"action": "query", "selector": "h1"}, "NOT_FOUND")
	h.ok(map[string]any{"action": "tabs", "op": "switch", "tab": "tab-1"})
	out = h.ok(map[string]any{"action": "tabs"})
	if len(out.Tabs) != 1 || out.Tabs[0].ID != "tab-1" {
		t.Errorf("tab closed by the page still listed: %+v", out.Tabs)
	}
	h.ok(map[string]any{"action": "tabs", "op": "close"})
	h.fails(map[string]any{"action": "query", "selector": "h1"}, "NOT_FOUND")
	if out = h.ok(map[string]any{"action": "navigate", "url": ts.URL + "/missing"}); out.Status != 404 {
		t.Errorf("navigate after closing every tab: %+v", out)
	}
	if out = h.ok(map[string]any{"action": "close"}); !out.Closed {
		t.Error("close")
	}
	if len(h.m.Sessions()) != 0 {
		t.Errorf("sessions after close: %v", h.m.Sessions())
	}
}

func TestIdleAndClose(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	ts := testServer(t)
	h := newHarness(t, Options{IdleTimeout: 500 * time.Millisecond})
	h.ok(map[string]any{"action": "navigate", "url": ts.URL})
	dir := h.m.sessions["client:unknown/"].dataDir
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(dir); len(h.m.Sessions()) == 0 && os.IsNotExist(err) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := len(h.m.Sessions()); n != 0 {
		t.Fatalf("idle session not closed: %d open", n)
	}
	if n := killUsing(dir); n != 0 {
		t.Errorf("%d browser processes left after idle close", n)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("profile %s left behind", dir)
	}
	// A new call starts a new browser.
	h.ok(map[string]any{"action": "navigate", "url": ts.URL})
	dir = h.m.sessions["client:unknown/"].dataDir
	h.m.Close()
	if n := killUsing(dir); n != 0 {
		t.Errorf("%d browser processes left after Close", n)
	}
	h.fails(map[string]any{"action": "navigate", "url": ts.URL}, "shutting down")
}
