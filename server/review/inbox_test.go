package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/workflow"
)

// The inbox follows a spec through a person's decisions: it waits for them,
// then for the agent after a request for changes, for them again once the
// agent revised it, for nobody once approved, and for them again when the
// approval goes void; an execution gate failing again and again shows up
// too. Each item names the feature, not the session's id.
func TestInboxFollowsWhoseMoveItIs(t *testing.T) {
	f := newFixture(t, 0)
	id, dir := f.session.ID, f.session.Vars["spec_dir"]
	who := workflow.Approver{By: "ann", Via: workflow.ViaReviewPage, Actor: workflow.ReviewActor}
	look := func(what string) (*overview, sessionRow) {
		t.Helper()
		ov, err := f.handler.overview()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, r := range ov.Sessions {
			if r.ID == id {
				return ov, r
			}
		}
		t.Fatalf("%s: session %s not listed", what, id)
		return nil, sessionRow{}
	}
	wantInbox := func(what string, ov *overview, kind, asked string) {
		t.Helper()
		if kind == "" {
			if len(ov.Inbox) != 0 {
				t.Errorf("%s: the inbox holds %+v", what, ov.Inbox)
			}
			return
		}
		if len(ov.Inbox) != 1 || ov.Inbox[0].Kind != kind || ov.Inbox[0].Name != "greet" || !strings.Contains(ov.Inbox[0].Asked, asked) {
			t.Errorf("%s: the inbox holds %+v, want one %q item for greet asking %q", what, ov.Inbox, kind, asked)
		}
	}

	ov, row := look("at the approval gate")
	wantInbox("at the approval gate", ov, needsApproval, "Approve the spec "+dir)
	if row.Name != "greet" || row.Spec != filepath.Base(dir) || row.State != stateAwaitsYou || ov.Inbox[0].Href != "#/session/"+id+"/decide" {
		t.Errorf("at the approval gate: %+v %+v", row, ov.Inbox)
	}

	if _, err := f.engine.Reject(id, who, "Say hello in French too."); err != nil {
		t.Fatal(err)
	}
	ov, row = look("after a request for changes")
	wantInbox("after a request for changes", ov, "", "")
	if row.State != stateAgentActs {
		t.Errorf("after a request for changes the state is %q", row.State)
	}

	// The agent revises a file: the spec waits for the person again.
	readme := filepath.Join(f.root, dir, "README.md")
	write(t, readme, "# Greet\n\nBonjour too.\n\nCoverage threshold: 80%\n")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(readme, later, later); err != nil {
		t.Fatal(err)
	}
	ov, row = look("after the agent revised")
	wantInbox("after the agent revised", ov, needsApproval, "revised")
	if row.State != stateRevised {
		t.Errorf("after the agent revised the state is %q", row.State)
	}

	b, err := f.engine.BindingFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.engine.Approve(id, who, "", b); err != nil {
		t.Fatal(err)
	}
	ov, row = look("approved")
	wantInbox("approved", ov, "", "")
	if row.State != stateApproved {
		t.Errorf("approved: the state is %q", row.State)
	}

	write(t, readme, "# Greet\n\nEdited after the approval.\n")
	ov, row = look("edited after the approval")
	wantInbox("edited after the approval", ov, needsReapprove, "no longer holds")
	if row.State != stateNeedsPerson {
		t.Errorf("void: the state is %q", row.State)
	}

	// A gate failing for the third time in a row.
	x, err := f.engine.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "stuck"}, workflow.Actor{Client: "opencode"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.engine.Store().Update(x.ID, func(s *workflow.Session) error {
		s.Phases[0].Attempts = 3
		s.Phases[0].LastGate = &workflow.GateReport{Passed: false, At: time.Now()}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ov, _ = look("a gate failing")
	var stuck *inboxItem
	for i := range ov.Inbox {
		if ov.Inbox[i].Session == x.ID {
			stuck = &ov.Inbox[i]
		}
	}
	if stuck == nil || stuck.Kind != needsGateLook || stuck.Name != "stuck" || !strings.Contains(stuck.Asked, "failed 3 times") || stuck.Owner != "opencode" {
		t.Errorf("a gate failing three times: %+v", stuck)
	}
}

// A finished spec that drifted waits for the person; one holding or
// touched does not.
func TestInboxListsDriftedSpecs(t *testing.T) {
	items := inbox(nil, []specRow{{Name: "a", State: specApproved, Living: "drifted"}, {Name: "b", State: specApproved, Living: "touched"}, {Name: "c", State: specApproved, Living: "holding"}})
	if len(items) != 1 || items[0].Kind != needsDrifted || items[0].Href != "#/spec/a/decide" {
		t.Errorf("inbox: %+v", items)
	}
}
