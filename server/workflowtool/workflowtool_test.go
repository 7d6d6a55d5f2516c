package workflowtool

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
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
	c, _, _ := engineClient(t)
	return c
}

// engineClient returns an MCP client of svc_workflow over a new project's
// engine, the engine and the project's root.
func engineClient(t *testing.T) (*client.Client, *workflow.Engine, string) {
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
	return c, e, root
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
		json.Unmarshal([]byte(res.Content[len(res.Content)-1].(mcp.TextContent).Text), &body)
		if !res.IsError || body.Code != "VALIDATION_ERROR" || body.Details["field"] != tc.field {
			t.Errorf("%v: %s", tc.args, res.Content[len(res.Content)-1].(mcp.TextContent).Text[:min(200, len(res.Content[len(res.Content)-1].(mcp.TextContent).Text))])
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
	if len(out.Workflows) != 5 || out.NextAction == "" {
		t.Errorf("list_workflows: %+v", out)
	}
}

type answer struct {
	approve bool
	asked   int
	message string
}

func (a *answer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.asked++
	a.message = req.Params.Message
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action:  mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"approve": a.approve, "changes": "split task 3.1"},
	}}, nil
}

// A client that can ask its user gets the approval question at the approval
// gate, showing what the approval binds; the answer is the person's,
// recorded as an elicitation by that client (not as the terminal), and
// bound to the spec as it was shown.
func TestApprovalThroughElicitation(t *testing.T) {
	for _, terminalOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("terminal_only=%v", terminalOnly), func(t *testing.T) { testElicitation(t, terminalOnly) })
	}
}

func testElicitation(t *testing.T, terminalOnly bool) {
	root := t.TempDir()
	builtin, _ := assets.Sub(assets.Workflows)
	lib, _ := workflow.LoadLibrary(builtin, nil)
	e := workflow.NewEngine(lib, workflow.Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state"), TerminalApprovalOnly: terminalOnly})
	tool := New(e, slog.New(slog.DiscardHandler))
	// No server capability: elicitation is the client's, declared below.
	s := mcpserver.NewMCPServer("t", "1")
	s.AddTool(tool.Def, tool.Handler)
	user := &answer{}
	c, err := client.NewInProcessClientWithOptions(s, client.WithElicitationHandler(user))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "ide"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	// Drive a session straight to its approval phase.
	sess, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "ask"}, workflow.Actor{Client: "ide"})
	if err != nil {
		t.Fatal(err)
	}
	sess = forceToPhase(t, e, sess.ID, 4)
	readme := filepath.Join(root, sess.Vars["spec_dir"], "README.md")
	os.MkdirAll(filepath.Dir(readme), 0o755)
	os.WriteFile(readme, []byte("# Ask\n"), 0o644)

	callPhase := func() Output {
		req := mcp.CallToolRequest{}
		req.Params.Name = "svc_workflow"
		req.Params.Arguments = map[string]any{"action": "complete_phase", "session_id": sess.ID}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		var out Output
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		return out
	}
	out := callPhase()
	if terminalOnly {
		if user.asked != 0 || out.Gate.Passed || !strings.Contains(out.NextAction, "agentos workflow approve") {
			t.Fatalf("workflow.approval: terminal, yet the client was asked (%d) or the gate passed: %+v", user.asked, out)
		}
		return
	}
	if !strings.Contains(user.message, sess.Vars["spec_dir"]+"/README.md") || !strings.Contains(user.message, "Test command") {
		t.Errorf("the question does not show what is approved: %s", user.message)
	}
	if user.asked != 1 || out.Gate.Passed || !strings.Contains(out.NextAction, "the user asked for changes: split task 3.1") {
		t.Fatalf("declined approval: asked %d, %+v", user.asked, out)
	}
	if s, _ := e.Get(sess.ID); s.Changes == nil || s.Changes.Reason != "split task 3.1" {
		t.Fatalf("the change request is not recorded: %+v", s.Changes)
	}
	user.approve = true
	out = callPhase()
	if !out.Gate.Passed || out.Status != workflow.StatusCompleted {
		t.Fatalf("approved: %+v", out)
	}
	audit, _ := e.Store().ReadAudit(sess.ID)
	var approval workflow.AuditEntry
	for _, a := range audit {
		if a.Action == "approve" {
			approval = a
		}
	}
	if !strings.HasPrefix(approval.Actor, "ide") || !strings.Contains(approval.Detail, "elicitation by ide") {
		t.Errorf("the elicitation approval is recorded as %+v", approval)
	}
	rec, err := e.SpecApproval(filepath.Base(sess.Vars["spec_dir"]))
	if err != nil || rec == nil || rec.Via != "elicitation by ide" || rec.Binding == nil || len(rec.Binding.Files) != 1 {
		t.Errorf("approval record: %+v %v", rec, err)
	}
}

// forceToPhase completes tasks and marks phases done until the session is in phase n.
func forceToPhase(t *testing.T, e *workflow.Engine, id string, n int) *workflow.Session {
	t.Helper()
	s, err := e.Store().Update(id, func(s *workflow.Session) error {
		for i := 0; i < n-1; i++ {
			s.Phases[i].Status = workflow.Done
			for j := range s.Phases[i].Tasks {
				s.Phases[i].Tasks[j].Status = workflow.Done
			}
		}
		for j := range s.Phases[n-1].Tasks {
			s.Phases[n-1].Tasks[j].Status = workflow.Done
		}
		s.Current = n
		s.Phases[n-1].Status = workflow.Active
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
