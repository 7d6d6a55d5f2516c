package workflowtool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/workflow"
)

// A request for changes with comments on lines reaches the agent in the
// answer to its complete_phase and in whatever it polls next: each comment
// with its file, lines, their text and what the person said.
func TestChangeRequestCommentsReachTheAgent(t *testing.T) {
	c, e, root := engineClient(t)
	ctx := context.Background()
	sess, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "lines"}, workflow.Actor{Client: "unknown"})
	if err != nil {
		t.Fatal(err)
	}
	sess = forceToPhase(t, e, sess.ID, 4)
	readme := sess.Vars["spec_dir"] + "/README.md"
	os.MkdirAll(filepath.Join(root, sess.Vars["spec_dir"]), 0o755)
	os.WriteFile(filepath.Join(root, readme), []byte("# Lines\n\nGreet people.\n"), 0o644)
	if _, err := e.RequestChanges(sess.ID, workflow.Approver{By: "ann", Via: workflow.ViaReviewPage, Actor: workflow.ReviewActor}, "",
		[]workflow.LineComment{{File: readme, Line: 3, Text: "Which people?"}}, nil); err != nil {
		t.Fatal(err)
	}
	call := func(args map[string]any) Output {
		req := mcp.CallToolRequest{}
		req.Params.Name = "svc_workflow"
		req.Params.Arguments = args
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			t.Fatalf("%v: %v %+v", args, err, res)
		}
		var out Output
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		return out
	}
	for _, args := range []map[string]any{
		{"action": "complete_phase", "session_id": sess.ID},
		{"action": "get_phase", "session_id": sess.ID},
	} {
		out := call(args)
		if !strings.Contains(out.NextAction, "a comment on a line of the spec (change_request.comments") {
			t.Errorf("%s: next_action %q", args["action"], out.NextAction)
		}
		if cr := out.ChangeRequest; cr == nil || len(cr.Comments) != 1 || cr.Comments[0] != (workflow.LineComment{File: readme, Line: 3, EndLine: 3, Quote: "Greet people.", Text: "Which people?"}) {
			t.Errorf("%s: change_request %+v", args["action"], out.ChangeRequest)
		}
	}
	out := call(map[string]any{"action": "get_state", "session_id": sess.ID})
	if out.ChangeRequest != nil || out.Session.ChangeRequest == nil || len(out.Session.ChangeRequest.Comments) != 1 {
		t.Errorf("get_state carries the request once, in the session: %+v %+v", out.ChangeRequest, out.Session.ChangeRequest)
	}
}
