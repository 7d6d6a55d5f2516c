package workflowtool

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/server/toolkit"
	"github.com/agentos-dev/agentos/workflow"
)

// A session whose state.json is not JSON, or not a session, is a
// BUSINESS_LOGIC_ERROR naming the file and what to do, never an internal
// error; list_sessions lists the others and marks it; delete_session removes
// it with force.
func TestUnreadableSession(t *testing.T) {
	for name, content := range map[string]string{
		"not json":    `{"id": "x", "phases": [`,
		"wrong type":  `{"id": "ID", "phases": "three"}`,
		"wrong shape": `{"id": "ID", "workflow": "spec_creation_v1", "status": "active", "current_phase": 0, "phases": [{"number": 1, "name": "One"}]}`,
		"null":        `null`,
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			c := clientAt(t, root, "agent-a")
			call := func(args map[string]any) (Output, *toolkit.Error) {
				t.Helper()
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = "svc_workflow", args
				res, err := c.CallTool(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				text := res.Content[len(res.Content)-1].(mcp.TextContent).Text
				if res.IsError {
					var te toolkit.Error
					json.Unmarshal([]byte(text), &te)
					return Output{}, &te
				}
				var out Output
				json.Unmarshal([]byte(text), &out)
				return out, nil
			}
			good, te := call(map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "good"}})
			if te != nil {
				t.Fatal(te)
			}
			bad, te := call(map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "bad"}})
			if te != nil {
				t.Fatal(te)
			}
			id := bad.Session.ID
			file := ".agentos/state/workflows/" + id + "/state.json"
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(file)), []byte(strings.ReplaceAll(content, "ID", id)), 0o644); err != nil {
				t.Fatal(err)
			}

			for _, action := range []string{"get_state", "get_session", "get_phase", "complete_task", "complete_phase", "pause"} {
				_, te := call(map[string]any{"action": action, "session_id": id, "task_number": "1.1"})
				if te == nil || te.Code != toolkit.CodeBusinessLogic || !strings.Contains(te.Message, file) ||
					!strings.Contains(te.Message, "agentos workflow reset "+id) || !strings.Contains(te.Message, "delete_session") {
					t.Fatalf("%s: %+v", action, te)
				}
				if d, _ := te.Details.(map[string]any); d["file"] != file || d["session_id"] != id {
					t.Errorf("%s: details %v", action, te.Details)
				}
			}

			list, te := call(map[string]any{"action": "list_sessions"})
			if te != nil {
				t.Fatal(te)
			}
			statuses := map[string]SessionSummary{}
			for _, s := range list.Sessions {
				statuses[s.ID] = s
			}
			if statuses[good.Session.ID].Status != workflow.StatusActive || statuses[id].Status != workflow.StatusUnreadable ||
				!strings.Contains(statuses[id].Error, file) || !strings.Contains(list.NextAction, "force") {
				t.Errorf("list_sessions: %+v", list)
			}

			if _, te := call(map[string]any{"action": "delete_session", "session_id": id}); te == nil || te.Code != toolkit.CodeBusinessLogic || !strings.Contains(te.Message, "force: true") {
				t.Errorf("delete without force: %+v", te)
			}
			if out, te := call(map[string]any{"action": "delete_session", "session_id": id, "force": true}); te != nil || out.Deleted != id {
				t.Fatalf("delete with force: %+v %+v", out, te)
			}
			if _, err := os.Stat(filepath.Join(root, ".agentos", "state", "workflows", id)); !os.IsNotExist(err) {
				t.Errorf("the session folder is still there: %v", err)
			}
			if list, _ := call(map[string]any{"action": "list_sessions"}); len(list.Sessions) != 1 || list.Sessions[0].ID != good.Session.ID {
				t.Errorf("after the delete: %+v", list.Sessions)
			}
		})
	}
}

// clientAt is an in-process client named name of svc_workflow over the
// project at root.
func clientAt(t *testing.T, root, name string) *client.Client {
	t.Helper()
	builtin, _ := assets.Sub(assets.Workflows)
	lib, err := workflow.LoadLibrary(builtin, nil)
	if err != nil {
		t.Fatal(err)
	}
	templates, _ := assets.Sub(assets.SpecTemplates)
	e := workflow.NewEngine(lib, workflow.Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state"), SpecTemplates: templates})
	tool := New(e, slog.New(slog.DiscardHandler))
	s := mcpserver.NewMCPServer("t", "1", mcpserver.WithOutputSchemaValidation())
	s.AddTool(tool.Def, tool.Handler)
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: name}
	if _, err := c.Initialize(context.Background(), init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
