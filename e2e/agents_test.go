package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	toml "github.com/pelletier/go-toml/v2"
)

// runIn runs agentos with HOME pointing at home, so user-scoped client
// configs stay inside the test.
func runIn(t *testing.T, dir, home string, args ...string) result {
	t.Helper()
	return runEnv(t, dir, []string{"HOME=" + home, "XDG_CONFIG_HOME=", "CODEX_HOME=", "CLINE_DATA_DIR=", "APPDATA="}, args...)
}

// launchFromConfig starts the server the way a client does: the command,
// args and env of the agentos entry in a written config file.
func launchFromConfig(t *testing.T, root, file string) *client.Client {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	e := doc.MCPServers["agentos"]
	if !filepath.IsAbs(e.Command) {
		t.Fatalf("%s: command %q is not absolute", file, e.Command)
	}
	var env []string
	for k, v := range e.Env {
		env = append(env, k+"="+v)
	}
	c, err := client.NewStdioMCPClient(e.Command, env, e.Args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, "launched-from-"+filepath.Base(file), legacyProtocol)
	return c
}

func TestInstallConnectDoctorUninstall(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	home := t.TempDir()
	r := runIn(t, root, home, "install", "--dir", root, "--agent", "cursor", "--secondary", "cline", "--yes")
	if r.code != 0 || !strings.Contains(r.stdout, "Restart Cursor") {
		t.Fatalf("install: %+v", r)
	}

	// Before the primary runs, connect says so and how to start it.
	r = runIn(t, root, home, "connect", "--agent", "codex")
	if r.code != 1 || !strings.Contains(r.stdout, "not running") || !strings.Contains(r.stdout, "serve --transport dual") {
		t.Fatalf("connect without a server: %+v", r)
	}

	// The primary, launched from the .mcp.json install wrote, like Claude Code does.
	primary := launchFromConfig(t, root, ".mcp.json")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tools, err := primary.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v", err)
	}
	st := waitState(t, root, 0)

	// Codex reads the project's config only in a trusted folder: connect
	// says so, and with --trust records it in Codex's own config.
	r = runIn(t, root, home, "connect", "--agent", "codex")
	if r.code != 0 || !strings.Contains(r.stdout, "answers MCP") || !strings.Contains(r.stdout, "agentos trust --agent codex") {
		t.Fatalf("connect codex: %+v", r)
	}
	r = runIn(t, root, home, "connect", "--agent", "codex", "--trust")
	if r.code != 0 || !strings.Contains(r.stdout, "already connected") || !strings.Contains(r.stdout, "Codex CLI now trusts this folder") {
		t.Fatalf("connect codex --trust: %+v", r)
	}
	if data, _ := os.ReadFile(filepath.Join(home, ".codex", "config.toml")); !strings.Contains(string(data), "trust_level = \"trusted\"") {
		t.Errorf("~/.codex/config.toml after --trust:\n%s", data)
	}
	var codex struct {
		MCPServers map[string]map[string]any `toml:"mcp_servers"`
	}
	data, _ := os.ReadFile(filepath.Join(root, ".codex", "config.toml"))
	if err := toml.Unmarshal(data, &codex); err != nil || codex.MCPServers["agentos"]["url"] != st.URL || codex.MCPServers["agentos"]["type"] != nil {
		t.Fatalf("codex config %v:\n%s", err, data)
	}

	// A stdio-only client gets a bridge that reaches the same server.
	r = runIn(t, root, home, "connect", "--agent", "junie")
	if r.code != 0 || !strings.Contains(r.stdout, "bridges") {
		t.Fatalf("connect junie: %+v", r)
	}
	bridge := launchFromConfig(t, root, filepath.Join(".junie", "mcp", "mcp.json"))
	if a, b := getInfo(t, primary), getInfo(t, bridge); a.Server.InstanceID == "" || a.Server.InstanceID != b.Server.InstanceID {
		t.Errorf("bridge reaches another server: %s vs %s", a.Server.InstanceID, b.Server.InstanceID)
	}

	// Cline's HTTP entry was written at install with the first port of the
	// range, which is where the server listens.
	r = runIn(t, root, home, "doctor")
	if r.code != 0 || !strings.Contains(r.stdout, "✓ server: running in dual mode") || strings.Contains(r.stdout, "✗") {
		t.Fatalf("doctor: %+v", r)
	}
	for _, want := range []string{"✓ indexes: standards ", "✓ Codex CLI (.codex/config.toml): HTTP entry", "✓ JetBrains Junie (.junie/mcp/mcp.json): bridging stdio entry", "✓ Cline (~/.cline", "✓ Cursor (.cursor/mcp.json): launch entry ${workspaceFolder}"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, r.stdout)
		}
	}
	// A wrong port is caught, with the fix.
	os.WriteFile(filepath.Join(root, ".codex", "config.toml"), []byte("[mcp_servers.agentos]\nurl = \"http://127.0.0.1:1/mcp\"\n"), 0o644)
	r = runIn(t, root, home, "doctor", "--json")
	if r.code != 1 || !strings.Contains(r.stdout, "but the server listens on") {
		t.Errorf("doctor with a wrong port: %+v", r)
	}

	r = runIn(t, root, home, "uninstall", "--yes", "--backup-dir", filepath.Join(home, "bak"))
	if r.code != 0 {
		t.Fatalf("uninstall: %+v", r)
	}
	for _, gone := range []string{".mcp.json", ".cursor/mcp.json", ".agentos/bin", "CLAUDE.md", ".claude/commands/agentos-spec.md", ".claude/skills/agentos", ".gemini/commands/agentos", ".cursor/commands/agentos-search.md"} {
		if _, err := os.Stat(filepath.Join(root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s survives uninstall", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "specs")); err != nil {
		t.Errorf("specs removed without --purge: %v", err)
	}
}
