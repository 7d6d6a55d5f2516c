package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestStdioToolsAndCalls(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")

	tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"get_server_info", "current_date", "svc_filesystem"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s", want)
		}
	}

	si := getInfo(t, c)
	if si.Transport != "stdio" || si.URL != "" {
		t.Errorf("stdio server reports transport %q url %q", si.Transport, si.URL)
	}
	if si.ConnectedClients != 1 || si.Clients[0].Name != "stdio-test" || si.Clients[0].Transport != "stdio" {
		t.Errorf("clients = %+v", si.Clients)
	}
	if _, err := os.Stat(statePath(root)); !os.IsNotExist(err) {
		t.Errorf("a stdio-only server wrote a state file (err %v)", err)
	}

	var date struct {
		ISODate    string `json:"iso_date"`
		SpecPrefix string `json:"spec_prefix"`
		Unix       int64  `json:"unix"`
	}
	call(t, c, "current_date", map[string]any{"timezone": "UTC"}, &date)
	if want := time.Now().UTC().Format("2006-01-02"); date.ISODate != want || date.SpecPrefix != want+"-" {
		t.Errorf("current_date = %+v, want %s", date, want)
	}
	res := call(t, c, "current_date", map[string]any{"timezone": "Mars/Olympus"}, nil)
	if !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "VALIDATION_ERROR") {
		t.Errorf("bad time zone: %+v", res.Content)
	}

	res = call(t, c, "svc_filesystem", map[string]any{"action": "write", "path": "notes/a.txt", "content": "hello"}, nil)
	if res.IsError {
		t.Fatalf("write: %v", res.Content)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "notes", "a.txt")); string(data) != "hello" {
		t.Errorf("file content %q", data)
	}
	res = call(t, c, "svc_filesystem", map[string]any{"action": "read", "path": "../outside.txt"}, nil)
	if !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "FORBIDDEN") {
		t.Errorf("escape not refused: %+v", res.Content)
	}
}

func TestHTTPServerAndStateFile(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)

	if st.Version != 1 || st.Transport != "http" || st.Host != "127.0.0.1" || st.Path != "/mcp" ||
		st.URL != fmt.Sprintf("http://127.0.0.1:%d/mcp", st.Port) || st.Project.Root != root || st.ServerVersion == "" {
		t.Errorf("state file = %+v", st)
	}
	if _, err := time.Parse(time.RFC3339, st.StartedAt); err != nil || !strings.HasSuffix(st.StartedAt, "Z") {
		t.Errorf("started_at %q is not RFC 3339 UTC", st.StartedAt)
	}
	if fi, err := os.Stat(statePath(root)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode: %v %v", fi.Mode(), err)
	}

	c := httpClientWith(t, st.URL, modernProtocol, nil)
	si := getInfo(t, c)
	if si.Transport != "http" || si.URL != st.URL || si.Server.PID != st.PID {
		t.Errorf("get_server_info = %+v", si)
	}

	// Plain GET is a liveness check.
	resp, err := http.Get(st.URL)
	if err != nil {
		t.Fatal(err)
	}
	var live map[string]any
	json.NewDecoder(resp.Body).Decode(&live)
	resp.Body.Close()
	if resp.StatusCode != 200 || live["name"] != "agentos" || live["transport"] != "http" || live["version"] == nil {
		t.Errorf("GET /mcp = %d %v", resp.StatusCode, live)
	}

	// A GET asking for an event stream gets a stream at once, never a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, st.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET event stream: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 && resp.StatusCode != 405 {
		t.Errorf("GET event stream: %d", resp.StatusCode)
	}

	r := runAgentos(t, root, "status", "--dir", root)
	if r.code != 0 || !strings.Contains(r.stdout, st.URL) || !strings.Contains(r.stdout, "running") {
		t.Errorf("status: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = runAgentos(t, root, "status", "--dir", root, "--json")
	var probe struct {
		Running bool   `json:"running"`
		URL     string `json:"url"`
		PID     int    `json:"pid"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &probe); err != nil || !probe.Running || probe.URL != st.URL || probe.PID != st.PID {
		t.Errorf("status --json: %s (%v)", r.stdout, err)
	}
	// Logs go to the log file as well as stderr.
	if log, err := os.ReadFile(filepath.Join(root, ".agentos", ".cache", "logs", "server.log")); err != nil || !strings.Contains(string(log), st.URL) {
		t.Errorf("server.log lacks the listening line: %v\n%s", err, log)
	}

	p.signal(t, syscall.SIGTERM)
	if code := p.exitCode(t); code != 0 {
		t.Errorf("exit code after SIGTERM %d; stderr:\n%s", code, p.stderr)
	}
	waitGone(t, statePath(root))
	r = runAgentos(t, root, "status", "--dir", root)
	if r.code != 1 || !strings.Contains(r.stdout, "no state file") {
		t.Errorf("status after stop: %d %s", r.code, r.stdout)
	}
}

func TestDualModeSharesOneServer(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	// One client of each protocol era, so both paths are covered.
	stdio := stdioClientWith(t, root, modernProtocol, "--transport", "dual")
	st := waitState(t, root, 0)
	web := httpClientWith(t, st.URL, legacyProtocol, nil)

	a, b := getInfo(t, stdio), getInfo(t, web)
	if a.Server.InstanceID == "" || a.Server.InstanceID != b.Server.InstanceID {
		t.Errorf("stdio and HTTP reach different servers: %s vs %s", a.Server.InstanceID, b.Server.InstanceID)
	}
	if b.Transport != "dual" || b.ConnectedClients != 2 {
		t.Errorf("dual server reports %+v", b)
	}
	// A write through one transport is visible through the other.
	call(t, web, "svc_filesystem", map[string]any{"action": "write", "path": "shared.txt", "content": "x"}, nil)
	var ex struct {
		Exists bool `json:"exists"`
	}
	call(t, stdio, "svc_filesystem", map[string]any{"action": "exists", "path": "shared.txt"}, &ex)
	if !ex.Exists {
		t.Error("write over HTTP not visible over stdio")
	}
}

func TestStdinEOFEndsDualServerCleanly(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	cmd := startServe(t, root, "--transport", "dual")
	waitState(t, root, cmd.cmd.Process.Pid)
	// Closing stdin is what an IDE does when it quits.
	cmd.stdin.Close()
	if code := cmd.exitCode(t); code != 0 {
		t.Errorf("exit %d after stdin EOF; stderr:\n%s", code, cmd.stderr)
	}
	waitGone(t, statePath(root))
}

func TestSIGINTRemovesStateFile(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	p := startServe(t, root, "--transport", "dual")
	waitState(t, root, p.cmd.Process.Pid)
	p.signal(t, syscall.SIGINT)
	if code := p.exitCode(t); code != 0 {
		t.Errorf("exit %d after SIGINT", code)
	}
	waitGone(t, statePath(root))
}

func TestTwoProjectsTwoPortsAndTakenPortSkipped(t *testing.T) {
	t.Parallel()
	a, b := newProject(t), t.TempDir()
	runOK(t, b, "install", "--dir", b, "--scope", "project", "--yes")
	// Give b the same range as a, with a's first port taken by a stranger.
	cfg, _ := os.ReadFile(filepath.Join(a, ".agentos", "config", "mcp.yaml"))
	os.WriteFile(filepath.Join(b, ".agentos", "config", "mcp.yaml"), cfg, 0o644)
	var lo int
	fmt.Sscanf(string(cfg)[strings.Index(string(cfg), "port_range: \"")+len("port_range: \""):], "%d", &lo)
	occupy(t, lo)

	pa := startServe(t, a, "--transport", "http")
	sa := waitState(t, a, pa.cmd.Process.Pid)
	pb := startServe(t, b, "--transport", "http")
	sb := waitState(t, b, pb.cmd.Process.Pid)
	if sa.Port != lo+1 {
		t.Errorf("first server took port %d; want %d (the first free one)", sa.Port, lo+1)
	}
	if sb.Port != lo+2 {
		t.Errorf("second project took port %d; want %d", sb.Port, lo+2)
	}
	if getInfo(t, httpClient(t, sa.URL, nil)).Server.InstanceID == getInfo(t, httpClient(t, sb.URL, nil)).Server.InstanceID {
		t.Error("two projects share one server")
	}
}

func TestNoFreePort(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	lo, hi := portRange(t, 2)
	occupy(t, lo)
	occupy(t, hi)
	writeConfig(t, root, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n", lo, hi))
	r := runAgentos(t, root, "serve", "--transport", "http", "--project-root", root)
	if r.code != 4 || !strings.Contains(r.stderr, fmt.Sprintf("%d-%d", lo, hi)) || !strings.Contains(r.stderr, "close other") {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
}

func writeConfig(t *testing.T, root, cfg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSecondServerRefusedOrBridged(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	primary := startServe(t, root, "--transport", "dual")
	st := waitState(t, root, primary.cmd.Process.Pid)

	// HTTP only: a second server would be a diverging copy.
	r := runAgentos(t, root, "serve", "--transport", "http", "--project-root", root)
	if r.code != 4 || !strings.Contains(r.stderr, st.URL) || !strings.Contains(r.stderr, fmt.Sprint(st.PID)) {
		t.Errorf("second http serve: exit %d, stderr %s", r.code, r.stderr)
	}
	// Dual: it bridges to the primary (and ends with its empty stdin).
	r = runAgentos(t, root, "serve", "--transport", "dual", "--project-root", root)
	if r.code != 0 || !strings.Contains(r.stderr, "bridging stdio") {
		t.Errorf("second dual serve: exit %d, stderr %s", r.code, r.stderr)
	}

	// A stdio-only client bridges to the primary and shares its state.
	bridged := stdioClient(t, root, "--transport", "stdio")
	tools, err := bridged.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) < 3 {
		t.Fatalf("tools/list through the bridge: %v %v", err, tools)
	}
	direct := httpClient(t, st.URL, nil)
	a, b := getInfo(t, bridged), getInfo(t, direct)
	if a.Server.InstanceID != b.Server.InstanceID || a.Server.PID != st.PID {
		t.Errorf("bridge reaches %s (pid %d); primary is %s (pid %d)", a.Server.InstanceID, a.Server.PID, b.Server.InstanceID, st.PID)
	}
	call(t, bridged, "svc_filesystem", map[string]any{"action": "write", "path": "via-bridge.txt", "content": "b"}, nil)
	if data, _ := os.ReadFile(filepath.Join(root, "via-bridge.txt")); string(data) != "b" {
		t.Errorf("write through bridge: %q", data)
	}
	res := call(t, bridged, "svc_filesystem", map[string]any{"action": "read", "path": "/etc/passwd"}, nil)
	if !res.IsError {
		t.Error("tool errors do not come through the bridge")
	}
}

func TestSIGKILLLeavesStaleStateThatIsReplaced(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)
	p.signal(t, syscall.SIGKILL)
	p.exitCode(t)

	r := runAgentos(t, root, "status", "--dir", root)
	if r.code != 1 || !strings.Contains(r.stdout, "stale") {
		t.Errorf("status after SIGKILL: %d %s", r.code, r.stdout)
	}
	// The OS released the lock; a new server starts and replaces the file.
	p2 := startServe(t, root, "--transport", "http")
	st2 := waitState(t, root, p2.cmd.Process.Pid)
	if st2.PID == st.PID {
		t.Fatal("state file not replaced")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(p2.stderr.String(), "stale state file") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(p2.stderr.String(), "stale state file") {
		t.Errorf("replacing a stale state file is not logged:\n%s", p2.stderr)
	}
}

func TestNoProject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := runAgentos(t, dir, "serve", "--transport", "http")
	if r.code != 3 || !strings.Contains(r.stderr, "no .agentos/ found") || !strings.Contains(r.stderr, "agentos install") {
		t.Errorf("serve outside a project: %d %s", r.code, r.stderr)
	}
}

func TestInvalidConfigRefusesToStart(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeConfig(t, root, "code:\n  source_paths: [\".\"]\n  langauges: [go]\n")
	r := runAgentos(t, root, "serve", "--project-root", root, "--transport", "http")
	if r.code != 3 || !strings.Contains(r.stderr, "line 3") || !strings.Contains(r.stderr, "code.langauges") {
		t.Errorf("exit %d stderr %s", r.code, r.stderr)
	}
}
