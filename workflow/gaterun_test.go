package workflow

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// While a gate runs, approving, confirming rules and accepting are refused
// on every channel — in the engine that runs the gate and in another (the
// CLI's) — and each refusal is in the audit log under who tried.
func TestPersonOnlyActionsRefusedWhileAGateRuns(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	cli := engineAt(t, root, "go test ./...", nil) // another process, as far as the engine knows
	gated, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "other"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	// A creation session at its approval gate.
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "undo"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, s.Vars["spec_dir"], "tasks.md"), approvalTasks)
	if _, err := e.Store().Update(s.ID, func(s *Session) error {
		for i := range s.Phases[:3] {
			s.Phases[i].Status = Done
		}
		s.Current, s.Phases[3].Status = 4, Active
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	done := e.gateRunning(gated)
	if got := cli.RunningGates(); len(got) != 1 || got[0] != gated.ID {
		t.Fatalf("another process sees the gates %v", got)
	}
	review := Approver{By: "alice", Via: ViaReviewPage, Actor: ReviewActor}
	elicited := Approver{By: "the user of claude-code", Via: ViaElicitation("claude-code"), Actor: agent}
	refusals := map[string]error{}
	_, refusals["elicitation"] = e.Approve(s.ID, elicited, "", nil)
	_, refusals["review page"] = e.Approve(s.ID, review, "", nil)
	_, refusals["terminal"] = cli.Approve(s.ID, person, "", nil)
	_, refusals["spec"] = cli.ApproveSpec("undo", person, "", nil)
	_, refusals["confirm-rules"] = e.ConfirmRules(s.ID, review, nil)
	_, refusals["accept"] = cli.Accept(s.ID, CLIActor)
	_, refusals["reject"] = e.Reject(s.ID, review, "withdraw it")
	_, refusals["reset"] = e.Reset(s.ID, ReviewActor)
	for channel, err := range refusals {
		if KindOf(err) != KindForbidden || !strings.Contains(err.Error(), "the gate of session "+gated.ID+" is running") {
			t.Errorf("%s while a gate runs: %v", channel, err)
		}
	}
	if got, _ := e.Get(s.ID); got.Approval != nil {
		t.Fatal("an approval was recorded while a gate ran")
	}
	if rec, _ := e.SpecApproval("undo"); rec != nil {
		t.Fatal("a spec approval was recorded while a gate ran")
	}
	// The other process's attempts wait in the gate's spool: writing the
	// audit log of a session would change the state the gate is judged by.
	before, _ := e.Store().ReadAudit(s.ID)
	if len(before) != 1+5 {
		t.Errorf("while the gate runs, the audit log holds %d lines: %+v", len(before), before)
	}
	done()
	if got := cli.RunningGates(); len(got) != 0 {
		t.Fatalf("gates still running after the gate: %v", got)
	}
	audit, _ := e.Store().ReadAudit(s.ID)
	var lines []string
	for _, l := range audit {
		if l.Result == "refused" {
			lines = append(lines, l.Action+" "+l.Actor)
		}
	}
	want := []string{"approve " + agent.String(), "approve agentos-review", "confirm_rules agentos-review", "reject agentos-review", "reset agentos-review", "approve agentos-cli", "accept agentos-cli"}
	if strings.Join(lines, ", ") != strings.Join(want, ", ") {
		t.Errorf("refusals in the audit log: %v, want %v", lines, want)
	}
	// The gate's session records every attempt made during its gate, also
	// one that names no session.
	gatedAudit, _ := e.Store().ReadAudit(gated.ID)
	spec := 0
	for _, l := range gatedAudit {
		if l.Result == "refused" && strings.Contains(l.Detail, "approval of spec undo") {
			spec++
		}
	}
	if spec != 1 || len(gatedAudit) != 1+len(want)+1 {
		t.Errorf("the gate's session does not record the attempts: %+v", gatedAudit)
	}
	if got, err := e.Get(s.ID); err != nil || got.Integrity != nil {
		t.Fatalf("the audited refusals broke the session's seal: %v, %+v", err, got.Integrity)
	}

	if _, err := cli.Approve(s.ID, person, "", nil); err != nil {
		t.Fatalf("approving once the gate ended: %v", err)
	}
}

// A lock file left by a process that died is no running gate.
func TestLeftLockFileIsNoRunningGate(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	writeFile(t, filepath.Join(e.gatesDir(), "spec-execution-20260101-abcdef"), "")
	if got := e.RunningGates(); len(got) != 0 {
		t.Fatalf("running gates = %v", got)
	}
	if _, err := os.Stat(filepath.Join(e.gatesDir(), "spec-execution-20260101-abcdef")); err != nil {
		t.Fatalf("the check removed the file: %v", err)
	}
}
