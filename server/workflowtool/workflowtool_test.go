package workflowtool

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/workflow"
)

func newClient(t *testing.T) *client.Client {
	t.Helper()
	root := t.TempDir()
	builtin, _ := assets.Sub(assets.Workflows)
	lib, err := workflow.LoadLibrary(builtin, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := workflow.NewEngine(lib, workflow.Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state")})
	tool := New(e, slog.New(slog.DiscardHandler))
	s := mcpserver.NewMCPServer("t", "1", mcpserver.WithOutputSchemaValidation())
	s.AddTool(tool.Def, tool.Handler)
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(context.Background(), mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBadInputNamesTheField(t *testing.T) {
	c := newClient(t)
	big := strings.Repeat("x", MaxEvidenceBytes)
	cases := []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"action": "fly"}, "action"},
		{map[string]any{"action": "get_state"}, "session_id"},
		{map[string]any{"action": "get_state", "session_id": "../../etc/passwd"}, "session_id"},
		{map[string]any{"action": "get_state", "session_id": `a\b`}, "session_id"},
		{map[string]any{"action": "start"}, "workflow_type"},
		{map[string]any{"action": "start", "workflow_type": "nope_v1"}, "workflow_type"},
		{map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "a/b"}}, "options.feature"},
		{map[string]any{"action": "complete_phase", "session_id": "s-1", "evidence": map[string]any{"log": big}}, "evidence"},
		{map[string]any{"action": "rollback", "session_id": "s-1", "phase": "two"}, "phase"},
		{map[string]any{"action": "complete_task", "session_id": "s-1"}, "task_number"},
	}
	for _, tc := range cases {
		req := mcp.CallToolRequest{}
		req.Params.Name = "svc_workflow"
		req.Params.Arguments = tc.args
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			// The input schema itself may refuse a malformed call.
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("%v: %v", tc.args["action"], err)
			}
			continue
		}
		var body struct {
			Code    string            `json:"error_code"`
			Details map[string]string `json:"details"`
		}
		json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &body)
		if !res.IsError || body.Code != "VALIDATION_ERROR" || body.Details["field"] != tc.field {
			t.Errorf("%v: %s", tc.args, res.Content[0].(mcp.TextContent).Text[:min(200, len(res.Content[0].(mcp.TextContent).Text))])
		}
	}
}

func TestListWorkflowsAndNextAction(t *testing.T) {
	c := newClient(t)
	req := mcp.CallToolRequest{}
	req.Params.Name = "svc_workflow"
	req.Params.Arguments = map[string]any{"action": "list_workflows"}
	res, err := c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		t.Fatalf("%v %v", err, res)
	}
	var out Output
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &out)
	if len(out.Workflows) != 3 || out.NextAction == "" {
		t.Errorf("list_workflows: %+v", out)
	}
}
