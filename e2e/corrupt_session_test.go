package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// A session whose state.json is damaged answers a clear error naming the
// file, is marked in list_sessions, and `agentos workflow reset` removes it
// while the server runs.
func TestCorruptSessionStateE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	start := func(feature string) string {
		return mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": feature}}).Session.ID
	}
	good, bad := start("good"), start("bad")
	file := ".agentos/state/workflows/" + bad + "/state.json"
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(file)), []byte(`{"id": "`+bad+`", "phases": [{`), 0o644); err != nil {
		t.Fatal(err)
	}

	res := call(t, c, "svc_workflow", map[string]any{"action": "get_state", "session_id": bad}, nil)
	var te toolErr
	json.Unmarshal([]byte(res.Content[len(res.Content)-1].(mcp.TextContent).Text), &te)
	if !res.IsError || te.Code != "BUSINESS_LOGIC_ERROR" || !strings.Contains(te.Message, file) || te.Details["file"] != file {
		t.Fatalf("get_state of a damaged session: %+v", te)
	}

	var list struct {
		Sessions []struct{ ID, Status, Error string } `json:"sessions"`
	}
	call(t, c, "svc_workflow", map[string]any{"action": "list_sessions"}, &list)
	statuses := map[string]string{}
	for _, s := range list.Sessions {
		statuses[s.ID] = s.Status
	}
	if statuses[good] != "active" || statuses[bad] != "unreadable" {
		t.Errorf("list_sessions: %+v", list.Sessions)
	}

	r := runAgentos(t, root, "workflow", "reset", bad)
	if r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Errorf("reset without a terminal or --yes: %d %s", r.code, r.stderr)
	}
	runOK(t, root, "workflow", "reset", bad, "--yes")
	call(t, c, "svc_workflow", map[string]any{"action": "list_sessions"}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != good {
		t.Errorf("after the reset: %+v", list.Sessions)
	}
}
