package review

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/workflow"
)

// The light paths wait for a person as the full one does: a quick change's
// document and a bug fix's reproduction are in the inbox, shown as what
// an approval binds, and approved from the page.
func TestLightPathsApprovedFromThePage(t *testing.T) {
	for _, c := range []struct {
		workflow, input, doc, text string
	}{
		{"quick_change_v1", "change", "change.md", "# Greet the world on an empty name\n\n## What\nGreet returns a greeting of the whole world when it is given an empty name.\n\n" +
			"## Why\nA visitor who has not told us their name still deserves a proper greeting.\n\n## Acceptance criteria\n- AC-greet-empty-1: Greet of an empty name returns hello, world.\n\n## Test command\n`go test ./...`\n"},
		{"bugfix_v1", "bug", "bug.md", "# An empty name is greeted with a dangling comma\n\n## What happens\nGreet given an empty name returns the greeting with nothing after the comma.\n\n" +
			"## Expected\nAn empty name greets the whole world instead.\n\n## Reproduction\n- AC-greet-empty-1: an empty name greets the world\n\nFails with: `want hello, world`\n\n" +
			"## Fix summary\nGreet checks for the empty name first and returns the greeting of the world in that case.\n\n## Test command\n`go test ./...`\n"},
	} {
		t.Run(c.workflow, func(t *testing.T) {
			root := t.TempDir()
			f := &fixture{root: root}
			f.serve(t, engineAt(t, root, "go test ./..."), 0)
			s, err := f.engine.Start(context.Background(), c.workflow, map[string]string{c.input: "greet-empty"}, workflow.Actor{Client: "claude-code"})
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(root, s.Vars["spec_dir"], c.doc), c.text)
			l := f.link(t)
			tok, csrf := token(l), f.page(t, l)
			get := func(path string, v any) {
				t.Helper()
				req, _ := http.NewRequest("GET", f.srv.URL+apiPrefix+path, nil)
				req.Header.Set(TokenHeader, tok)
				r, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Body.Close()
				if err := json.NewDecoder(r.Body).Decode(v); err != nil {
					t.Fatal(err)
				}
			}
			var state struct {
				Inbox []inboxItem `json:"inbox"`
			}
			get("state", &state)
			if len(state.Inbox) != 1 || state.Inbox[0].Kind != "awaits approval" || state.Inbox[0].Session != s.ID {
				t.Fatalf("the inbox: %+v", state.Inbox)
			}
			var sv sessionView
			get("session?id="+s.ID, &sv)
			if sv.Pending == nil || len(sv.Pending.Files) != 1 || !strings.HasSuffix(sv.Pending.Files[0].Path, "/"+c.doc) || !strings.Contains(sv.Pending.Files[0].Text, "AC-greet-empty-1") {
				t.Fatalf("what the approval binds: %+v", sv.Pending)
			}
			if d := sv.Pending.Describe; strings.Contains(d, "tasks.md") || !strings.Contains(d, c.doc+" with its checkboxes unticked") ||
				!strings.Contains(d, c.workflow+" (this session's next phase") || strings.Contains(d, "spec_execution_v1") {
				t.Errorf("the summary of what is approved does not say what this path binds and what judges it:\n%s", d)
			}
			if code, out := f.post(t, tok, csrf, "approve", actionInput{Session: s.ID, Shown: sv.Pending.Binding}); code != 200 {
				t.Fatalf("approve: %d %v", code, out)
			}
			if got, err := f.engine.Store().Get(s.ID); err != nil || got.Approval == nil || got.Approval.Via != workflow.ViaReviewPage {
				t.Errorf("not approved from the page: %v %+v", err, got.Approval)
			}
		})
	}
}
