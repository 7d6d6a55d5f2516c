package workflow

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agentos-dev/agentos/assets"
)

func testEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	root := t.TempDir()
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := LoadLibrary(builtin, nil)
	if err != nil {
		t.Fatal(err)
	}
	templates, _ := assets.Sub(assets.SpecTemplates)
	e := NewEngine(lib, Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state"), SpecTemplates: templates})
	return e, root
}

var agent = Actor{Client: "agent"}

func TestBuiltinDefinitionsLoad(t *testing.T) {
	e, _ := testEngine(t)
	for _, name := range []string{"spec_creation_v1", "spec_execution_v1", "agentos_upgrade_v1"} {
		if _, ok := e.Library().Get(name); !ok {
			t.Errorf("%s missing", name)
		}
	}
}

func TestInvalidDefinitionNamesFileAndLine(t *testing.T) {
	project := fstest.MapFS{
		"broken_v1/workflow.yaml": {Data: []byte("name: broken_v1\nversion: 1.0.0\nphases:\n  - name: One\n    gate:\n      - type: files_exist\n        pathz: [a]\n")},
		"nogate_v1/workflow.yaml": {Data: []byte("name: nogate_v1\nversion: 1.0.0\nphases:\n  - name: One\n")},
	}
	builtin, _ := assets.Sub(assets.Workflows)
	lib, err := LoadLibrary(builtin, project)
	if err != nil {
		t.Fatal(err)
	}
	inv := lib.Invalid()
	broken := inv[".agentos/workflows/broken_v1/workflow.yaml"]
	if !strings.Contains(broken, "line 7") || !strings.Contains(broken, "pathz") {
		t.Errorf("broken: %q", broken)
	}
	if !strings.Contains(inv[".agentos/workflows/nogate_v1/workflow.yaml"], "no gate") {
		t.Errorf("nogate: %v", inv)
	}
	if _, ok := lib.Get("spec_creation_v1"); !ok {
		t.Error("an invalid project definition took the built-ins down")
	}
}

func TestRecoveryActions(t *testing.T) {
	e, root := testEngine(t)
	ctx := context.Background()
	s, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "recover"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, s.Vars["spec_dir"])
	for _, task := range []string{"1.1", "1.2", "1.3"} {
		if _, err := e.CompleteTask(s.ID, task, "", agent, false); err != nil {
			t.Fatal(err)
		}
	}
	// retry_phase needs an attempt first.
	if _, _, err := e.RetryPhase(ctx, s.ID, agent, false); KindOf(err) != KindRefused {
		t.Errorf("retry before any attempt: %v", err)
	}
	if _, r, _ := e.CompletePhase(ctx, s.ID, nil, agent, false); r.Passed {
		t.Fatal("templates passed the gate")
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# X\n## Objectives\nA.\n## Deliverables\nB.\n## Success metrics\nC.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "srd.md"), []byte("# X\n## Functional requirements\nA.\n## Non-functional requirements\nB.\n## Constraints\nC.\n"), 0o644)
	sess, r, err := e.RetryPhase(ctx, s.ID, agent, false)
	if err != nil || !r.Passed || sess.Current != 2 {
		t.Fatalf("retry after the fix: %v %+v", err, r)
	}

	// Pause blocks progress; resume restores it.
	if _, err := e.Pause(s.ID, agent, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.CompleteTask(s.ID, "2.1", "", agent, false); KindOf(err) != KindRefused || !strings.Contains(err.Error(), "paused") {
		t.Errorf("task on a paused session: %v", err)
	}
	if _, err := e.Resume(s.ID, agent, false); err != nil {
		t.Fatal(err)
	}
	// Rollback to phase 1 resets it and what follows; it is recorded.
	if _, err := e.Rollback(s.ID, 2, agent, false); KindOf(err) != KindInvalid {
		t.Errorf("rollback to the current phase: %v", err)
	}
	sess, err = e.Rollback(s.ID, 1, agent, false)
	if err != nil || sess.Current != 1 || sess.Phases[0].Tasks[0].Status != Pending || sess.Phases[0].Status != Active {
		t.Fatalf("rollback: %v %+v", err, sess)
	}
	// Another agent needs force; the owner can hand over.
	other := Actor{Client: "other"}
	if _, err := e.Pause(s.ID, other, false); KindOf(err) != KindRefused {
		t.Errorf("another agent paused: %v", err)
	}
	if _, err := e.TransferOwner(s.ID, other, agent, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Pause(s.ID, other, false); err != nil {
		t.Errorf("new owner: %v", err)
	}
	// Approval outside an approval phase is refused.
	if _, err := e.Approve(s.ID, Approver{By: "alice", Via: ViaTerminal, Actor: CLIActor}, "", nil); KindOf(err) != KindRefused {
		t.Errorf("approve in phase 1: %v", err)
	}
	audit, _ := e.Store().ReadAudit(s.ID)
	var actions []string
	for _, a := range audit {
		actions = append(actions, a.Action)
	}
	if got := strings.Join(actions, " "); got != "start complete_task complete_task complete_task complete_phase retry_phase pause resume rollback transfer_owner pause" {
		t.Errorf("audit = %s", got)
	}
	if err := e.Delete(s.ID, agent, false); KindOf(err) != KindRefused {
		t.Errorf("delete by a former owner: %v", err)
	}
	if err := e.Delete(s.ID, other, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Get(s.ID); KindOf(err) != KindNotFound {
		t.Errorf("after delete: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	e, _ := testEngine(t)
	ctx := context.Background()
	cases := []struct {
		name   string
		run    func() error
		kind   Kind
		inText string
	}{
		{"unknown workflow", func() error { _, err := e.Start(ctx, "nope_v1", nil, agent); return err }, KindInvalid, "spec_creation_v1"},
		{"missing input", func() error { _, err := e.Start(ctx, "spec_creation_v1", nil, agent); return err }, KindInvalid, "feature"},
		{"unknown input", func() error {
			_, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "a", "color": "red"}, agent)
			return err
		}, KindInvalid, "color"},
		{"path in input", func() error {
			_, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "../../etc"}, agent)
			return err
		}, KindInvalid, "feature"},
		{"session id with a path", func() error { _, err := e.Get("../x"); return err }, KindInvalid, "session_id"},
		{"unknown session", func() error { _, err := e.Get("nope-1"); return err }, KindNotFound, "list_sessions"},
		{"spec that does not exist", func() error {
			_, err := e.Start(ctx, "spec_execution_v1", map[string]string{"spec": "missing"}, agent)
			return err
		}, KindRefused, "test command"},
	}
	for _, tc := range cases {
		err := tc.run()
		if KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.inText) {
			t.Errorf("%s: %v (kind %d), want kind %d mentioning %q", tc.name, err, KindOf(err), tc.kind, tc.inText)
		}
	}
}

// The upgrade workflow's gates read the report `agentos upgrade` writes;
// these fixture reports stand in for it.
func TestUpgradeWorkflowReadsReports(t *testing.T) {
	e, root := testEngine(t)
	ctx := context.Background()
	s, err := e.Start(ctx, "agentos_upgrade_v1", nil, agent)
	if err != nil {
		t.Fatal(err)
	}
	if _, r, _ := e.CompletePhase(ctx, s.ID, nil, agent, false); r.Passed || !strings.Contains(r.Checks[0].Message, "no upgrade has run") {
		t.Fatalf("without a report: %+v", r)
	}
	report := func(id, status string, steps ...UpgradeStep) {
		dir := filepath.Join(root, filepath.FromSlash(UpgradeReportDir))
		os.MkdirAll(dir, 0o755)
		data, _ := json.Marshal(UpgradeReport{ID: id, Status: status, Steps: steps, StartedAt: time.Now()})
		os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644)
	}
	ok := func(name string) UpgradeStep { return UpgradeStep{Name: name, Status: "ok"} }
	report("20260101T000000Z", "running", ok("preflight"))
	sess, r, _ := e.CompletePhase(ctx, s.ID, nil, agent, false)
	if !r.Passed || sess.Current != 2 {
		t.Fatalf("preflight recorded: %+v", r)
	}
	if _, r, _ = e.CompletePhase(ctx, s.ID, nil, agent, false); r.Passed {
		t.Fatal("backup passed before the report recorded it")
	}
	// A newer report that rolled back fails the gate with the reason.
	report("20260102T000000Z", "rolled_back", ok("preflight"), ok("backup"), UpgradeStep{Name: "update", Status: "failed", Message: "disk full"})
	if _, r, _ = e.CompletePhase(ctx, s.ID, nil, agent, false); r.Passed || !strings.Contains(r.Checks[0].Message, "disk full") {
		t.Fatalf("rolled back: %+v", r)
	}
	report("20260103T000000Z", "succeeded", ok("preflight"), ok("backup"), ok("update"), ok("validate"), ok("finalize"))
	for i := 0; i < 4; i++ {
		if _, r, _ = e.CompletePhase(ctx, s.ID, nil, agent, false); !r.Passed {
			t.Fatalf("step %d: %+v", i+2, r)
		}
	}
	if sess, _ := e.Get(s.ID); sess.Status != StatusCompleted {
		t.Errorf("status %s", sess.Status)
	}
}
