package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInspectorReadsInstalledConfig is the check with a real client: the
// MCP Inspector CLI reads the .mcp.json install wrote, launches the server
// from it and lists its tools. It needs Node, so it is opt-in: set
// AGENTOS_INSPECTOR to the inspector's executable (node_modules/.bin/mcp-inspector
// of `npm install @modelcontextprotocol/inspector@2.12.0`).
func TestInspectorReadsInstalledConfig(t *testing.T) {
	inspector := os.Getenv("AGENTOS_INSPECTOR")
	if inspector == "" {
		t.Skip("set AGENTOS_INSPECTOR to the mcp-inspector executable to run this test")
	}
	t.Parallel()
	root := newProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, inspector, "--cli", "--config", filepath.Join(root, ".mcp.json"), "--server", "agentos", "--method", "tools/list")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("inspector: %v\n%s", err, out)
	}
	for _, tool := range []string{"get_server_info", "current_date", "svc_workflow", "svc_filesystem"} {
		if !strings.Contains(string(out), `"name": "`+tool+`"`) {
			t.Errorf("tools/list through the inspector lacks %s:\n%s", tool, out)
		}
	}
}
