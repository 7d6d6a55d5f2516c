package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server/browser"
)

// needBrowser skips loudly when no Chromium or Chrome is installed; in CI
// (CI=true) a missing browser fails the test instead.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := browser.FindExecutable(""); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no browser is installed: %v (run scripts/install-chromium.sh)", err)
		}
		t.Skipf("SKIPPING BROWSER TEST — no browser: %v", err)
	}
}

const browserPage = `<!doctype html><html><head><title>Shop</title></head><body>
<h1 id="status">Ready</h1>
<button id="go" onclick="document.getElementById('status').textContent = 'Done'; console.log('status changed')">Go</button>
<form id="login" onsubmit="event.preventDefault(); document.getElementById('welcome').textContent = 'Welcome ' + this.user.value + ' (' + this.plan.value + ')'; console.error('submitted')">
  <input id="user" name="user"><select id="plan" name="plan"><option value="free">Free</option><option value="pro">Pro</option></select>
  <button id="send" type="submit">Log in</button>
</form>
<p id="welcome"></p>
<script>console.info('page loaded')</script>
</body></html>`

// browserServer starts `agentos serve --transport http` for a project whose
// config has the given browser section, with a private TMPDIR so the test
// can find every browser process the server starts (their profiles live there).
func browserServer(t *testing.T, browserConfig string) (url, tmp string, stop func() int) {
	t.Helper()
	url, tmp, stop, _ = browserServerProc(t, browserConfig)
	return url, tmp, stop
}

func browserServerProc(t *testing.T, browserConfig string) (url, tmp string, stop func() int, proc *os.Process) {
	t.Helper()
	root := newProject(t)
	cfgPath := filepath.Join(root, ".agentos", "config", "mcp.yaml")
	cfg, _ := os.ReadFile(cfgPath)
	if err := os.WriteFile(cfgPath, append(cfg, []byte("browser:\n"+browserConfig)...), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, root, "trust", "--yes")
	tmp = t.TempDir()
	cmd := exec.Command(binary, "serve", "--transport", "http", "--project-root", root, "--log-level", "DEBUG")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	exited := false
	stop = func() int {
		if !exited {
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Errorf("server did not stop on SIGTERM; stderr:\n%s", stderr)
				cmd.Process.Kill()
				<-done
			}
			exited = true
		}
		return cmd.ProcessState.ExitCode()
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	return waitState(t, root, cmd.Process.Pid).URL, tmp, stop, cmd.Process
}

// browserProcesses counts running processes whose command line names dir:
// the browsers (and their helpers) of a server whose TMPDIR is dir.
func browserProcesses(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("counting processes needs /proc")
	}
	n := 0
	for _, e := range entries {
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmdline, []byte("--user-data-dir="+dir)) {
			n++
		}
	}
	return n
}

func pageServer(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, browserPage)
	}))
	t.Cleanup(ts.Close)
	return ts
}

type browserOut struct {
	Tab      string `json:"tab"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Count    int    `json:"count"`
	Elements []struct {
		Text string `json:"text"`
	} `json:"elements"`
	Result   any `json:"result"`
	Messages []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"messages"`
	Cookies []struct {
		Name string `json:"name"`
	} `json:"cookies"`
	Image *struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	} `json:"image"`
	Closed bool `json:"closed"`
}

func browse(t *testing.T, c *client.Client, args map[string]any) (browserOut, *mcp.CallToolResult) {
	t.Helper()
	var out browserOut
	res := call(t, c, "svc_browser", args, &out)
	return out, res
}

func browseOK(t *testing.T, c *client.Client, args map[string]any) browserOut {
	t.Helper()
	out, res := browse(t, c, args)
	if res.IsError {
		t.Fatalf("svc_browser %v: %v", args, res.Content)
	}
	return out
}

func firstText(t *testing.T, c *client.Client, selector string) string {
	t.Helper()
	out := browseOK(t, c, map[string]any{"action": "query", "selector": selector})
	if len(out.Elements) == 0 {
		t.Fatalf("no element %s", selector)
	}
	return out.Elements[0].Text
}

func TestBrowserEndToEnd(t *testing.T) {
	needBrowser(t)
	if runtime.GOOS != "linux" {
		t.Skip("process accounting needs Linux")
	}
	t.Parallel()
	ts := pageServer(t)
	url, tmp, stop := browserServer(t, "  max_sessions: 3\n")
	if n := browserProcesses(t, tmp); n != 0 {
		t.Fatalf("%d browser processes before the first call", n)
	}
	a := httpClient(t, url, nil)
	b := httpClient(t, url, nil)

	out := browseOK(t, a, map[string]any{"action": "navigate", "url": ts.URL + "/shop"})
	if out.Title != "Shop" || out.Status != 200 {
		t.Errorf("navigate: %+v", out)
	}
	// A button that changes text.
	browseOK(t, a, map[string]any{"action": "click", "selector": "#go"})
	if got := firstText(t, a, "#status"); got != "Done" {
		t.Errorf("after click: %q", got)
	}
	// Fill and submit a form.
	browseOK(t, a, map[string]any{"action": "fill", "selector": "#user", "value": "ada"})
	browseOK(t, a, map[string]any{"action": "select", "selector": "#plan", "value": "pro"})
	browseOK(t, a, map[string]any{"action": "click", "selector": "#send"})
	browseOK(t, a, map[string]any{"action": "wait", "selector": "#welcome:not(:empty)"})
	if got := firstText(t, a, "#welcome"); got != "Welcome ada (pro)" {
		t.Errorf("after submit: %q", got)
	}
	// Console messages since the last call.
	out = browseOK(t, a, map[string]any{"action": "console"})
	var msgs []string
	for _, m := range out.Messages {
		msgs = append(msgs, m.Type+":"+m.Text)
	}
	if want := "info:page loaded|log:status changed|error:submitted"; strings.Join(msgs, "|") != want {
		t.Errorf("console = %v, want %s", msgs, want)
	}
	// A screenshot that decodes as a PNG of the viewport's size.
	browseOK(t, a, map[string]any{"action": "viewport", "width": 640, "height": 480})
	out, res := browse(t, a, map[string]any{"action": "screenshot"})
	img, ok := res.Content[0].(mcp.ImageContent)
	if res.IsError || !ok || img.MIMEType != "image/png" {
		t.Fatalf("screenshot: %+v", res.Content)
	}
	data, _ := base64.StdEncoding.DecodeString(img.Data)
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 640 || cfg.Height != 480 || out.Image.Width != 640 {
		t.Errorf("screenshot PNG: %v %dx%d, reported %+v", err, cfg.Width, cfg.Height, out.Image)
	}

	// Two clients are isolated: their own pages, cookies and storage.
	browseOK(t, a, map[string]any{"action": "cookies", "op": "set", "cookies": []any{map[string]any{"name": "who", "value": "a"}}})
	browseOK(t, a, map[string]any{"action": "evaluate", "script": "localStorage.setItem('who', 'a')"})
	out = browseOK(t, b, map[string]any{"action": "navigate", "url": ts.URL + "/shop"})
	if got := firstText(t, b, "#status"); got != "Ready" {
		t.Errorf("client b sees client a's page state: %q", got)
	}
	if out = browseOK(t, b, map[string]any{"action": "cookies"}); len(out.Cookies) != 0 {
		t.Errorf("client b sees cookies %+v", out.Cookies)
	}
	if out = browseOK(t, b, map[string]any{"action": "evaluate", "script": "localStorage.getItem('who')"}); out.Result != nil {
		t.Errorf("client b sees local storage %v", out.Result)
	}
	if out = browseOK(t, a, map[string]any{"action": "cookies"}); len(out.Cookies) != 1 {
		t.Errorf("client a lost its cookie: %+v", out.Cookies)
	}

	// A disallowed URL and a bad selector are clear errors; the session goes on.
	if _, res := browse(t, a, map[string]any{"action": "navigate", "url": "https://example.com/"}); !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "FORBIDDEN") {
		t.Errorf("example.com not refused: %v", res.Content)
	}
	if _, res := browse(t, a, map[string]any{"action": "tabs", "op": "new", "url": "file:///etc/passwd"}); !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "FORBIDDEN") {
		t.Errorf("a new tab on /etc/passwd not refused: %v", res.Content)
	}
	if _, res := browse(t, a, map[string]any{"action": "click", "selector": "#missing", "timeout_ms": 300}); !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "NOT_FOUND") {
		t.Errorf("missing element: %v", res.Content)
	}
	if got := firstText(t, a, "#status"); got != "Done" {
		t.Errorf("session a after errors: %q", got)
	}

	// get_server_info reports the subsystem.
	var si struct {
		Subsystems []struct{ Name, State, Detail string } `json:"subsystems"`
	}
	call(t, a, "get_server_info", nil, &si)
	found := false
	for _, s := range si.Subsystems {
		if s.Name == "browser" {
			found = true
			if s.State != "ready" || !strings.Contains(s.Detail, "2 of 3 sessions") {
				t.Errorf("browser subsystem: %+v", s)
			}
		}
	}
	if !found {
		t.Errorf("no browser subsystem in %+v", si.Subsystems)
	}

	// Shutdown leaves no browser process behind.
	if n := browserProcesses(t, tmp); n == 0 {
		t.Fatal("no browser processes found while two sessions are open; the count below would prove nothing")
	}
	if code := stop(); code != 0 {
		t.Errorf("server exit code %d", code)
	}
	time.Sleep(200 * time.Millisecond)
	if n := browserProcesses(t, tmp); n != 0 {
		t.Errorf("%d browser processes left after the server stopped", n)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "agentos-browser-*")); len(left) != 0 {
		t.Errorf("browser profiles left: %v", left)
	}
}

func TestBrowserIdleCleanup(t *testing.T) {
	long(t) // the fast run drives a browser end to end (TestBrowserEndToEnd); server/browser closes idle ones
	needBrowser(t)
	if runtime.GOOS != "linux" {
		t.Skip("process accounting needs Linux")
	}
	t.Parallel()
	ts := pageServer(t)
	url, tmp, _ := browserServer(t, "  idle_timeout: 1s\n")
	c := httpClient(t, url, nil)
	browseOK(t, c, map[string]any{"action": "navigate", "url": ts.URL})
	if n := browserProcesses(t, tmp); n == 0 {
		t.Fatal("no browser process while a session is open")
	}
	deadline := time.Now().Add(15 * time.Second)
	for browserProcesses(t, tmp) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := browserProcesses(t, tmp); n != 0 {
		t.Fatalf("%d browser processes left after the idle timeout", n)
	}
	// The client goes on with a fresh browser.
	if out := browseOK(t, c, map[string]any{"action": "navigate", "url": ts.URL}); out.Title != "Shop" {
		t.Errorf("after idle cleanup: %+v", out)
	}
}

// TestBrowserServerKilled: even a server killed with SIGKILL, which cannot
// clean up, leaves no browser process behind.
func TestBrowserServerKilled(t *testing.T) {
	needBrowser(t)
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal and process accounting are Linux features")
	}
	t.Parallel()
	ts := pageServer(t)
	url, tmp, _, proc := browserServerProc(t, "  max_sessions: 2\n")
	c := httpClient(t, url, nil)
	browseOK(t, c, map[string]any{"action": "navigate", "url": ts.URL})
	if n := browserProcesses(t, tmp); n == 0 {
		t.Fatal("no browser process while a session is open")
	}
	proc.Kill()
	deadline := time.Now().Add(15 * time.Second)
	for browserProcesses(t, tmp) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := browserProcesses(t, tmp); n != 0 {
		t.Errorf("%d browser processes outlived the killed server", n)
	}
}

// TestBrowserStdioShutdown: the IDE's way — the client closes stdin, the
// server exits, and its browsers go with it.
func TestBrowserStdioShutdown(t *testing.T) {
	needBrowser(t)
	if runtime.GOOS != "linux" {
		t.Skip("process accounting needs Linux")
	}
	t.Parallel()
	ts := pageServer(t)
	root := newProject(t)
	tmp := t.TempDir()
	c, err := client.NewStdioMCPClientWithOptions(binary, []string{"PROJECT_ROOT=" + root, "TMPDIR=" + tmp},
		[]string{"serve", "--transport", "stdio"},
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = append(os.Environ(), env...)
			cmd.Dir = root
			return cmd, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	initialize(t, c, "stdio-browser", legacyProtocol)
	if out := browseOK(t, c, map[string]any{"action": "navigate", "url": ts.URL}); out.Title != "Shop" {
		t.Errorf("navigate over stdio: %+v", out)
	}
	if n := browserProcesses(t, tmp); n == 0 {
		t.Fatal("no browser process while a session is open")
	}
	c.Close()
	deadline := time.Now().Add(15 * time.Second)
	for browserProcesses(t, tmp) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := browserProcesses(t, tmp); n != 0 {
		t.Errorf("%d browser processes left after the stdio client closed", n)
	}
}

func TestBrowserUnavailable(t *testing.T) {
	t.Parallel()
	url, _, _ := browserServer(t, "  path: /nonexistent/chromium\n")
	c := httpClient(t, url, nil)
	var si struct {
		Subsystems []struct{ Name, State, Detail string } `json:"subsystems"`
	}
	call(t, c, "get_server_info", nil, &si)
	ok := false
	for _, s := range si.Subsystems {
		ok = ok || (s.Name == "browser" && s.State == "unavailable" && strings.Contains(s.Detail, "install"))
	}
	if !ok {
		t.Errorf("browser not reported unavailable: %+v", si.Subsystems)
	}
	_, res := browse(t, c, map[string]any{"action": "navigate", "url": "http://localhost/"})
	if msg := fmt.Sprint(res.Content); !res.IsError || !strings.Contains(msg, "apt-get install chromium") || !strings.Contains(msg, "browser.path") {
		t.Errorf("no browser: %v", res.Content)
	}
}
