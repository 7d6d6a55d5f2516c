package workflow

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
		"pattern_v1/workflow.yaml": {Data: []byte("name: pattern_v1\nversion: 1.0.0\ninputs:\n  - name: x\n    pattern: \"^(a\"\n" +
			"phases:\n  - name: One\n    gate:\n      - type: files_exist\n        paths: [a]\n")},
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
	if p := inv[".agentos/workflows/pattern_v1/workflow.yaml"]; !strings.Contains(p, "pattern: error parsing regexp: missing closing )") {
		t.Errorf("pattern: %q", p)
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
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# X\n## Objectives\nUsers recover an interrupted session without losing the tasks they already finished.\n"+
		"## Deliverables\nA retry action for a failed phase, and a rollback action with its audit entry.\n"+
		"## Success metrics\nEvery recovery test passes and no session file is left half written.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "srd.md"), []byte("# X\n## Functional requirements\n- FR-1: a failed gate can be run again with retry_phase once the files are fixed, and the session moves on.\n"+
		"## Non-functional requirements\nA retry answers within one second on a project of a thousand files.\n"+
		"## Constraints\nNo new dependencies.\n"), 0o644)
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
		{"input longer than its pattern allows", func() error {
			_, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "a", "touches": strings.Repeat("x", 1001)}, agent)
			return err
		}, KindInvalid, "touches"},
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

func TestGuessTestReport(t *testing.T) {
	for cmd, want := range map[string]string{
		"go test -json -cover ./...":               "go-test-json",
		"go test -coverprofile=c.out ./...":        "exit-status",
		"pytest --junitxml=out/junit.xml --cov":    "junit:out/junit.xml",
		"python -m pytest --junit-xml \"r 1.xml\"": "junit:r 1.xml",
		"npm test":               "exit-status",
		"go test -jsonfoo ./...": "exit-status",
	} {
		if got := guessTestReport(cmd); got != want {
			t.Errorf("guessTestReport(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// TestGateRunCannotChangeTheRules: in the weaker mode (no sandbox) a gate
// whose run changes the rules fails, and the change is undone.
func TestGateRunCannotChangeTheRules(t *testing.T) {
	root := t.TempDir()
	agentos := filepath.Join(root, ".agentos")
	files := map[string]string{
		"config/mcp.yaml":                  "workflow:\n  coverage_threshold: 90\n",
		"workflows/own_v1/workflow.yaml":   "name: own_v1\n",
		"state/approvals/other-spec.json":  "{}\n",
		"state/workflows/keep/audit.jsonl": "",
	}
	for name, content := range files {
		p := filepath.Join(agentos, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	// The command stands for a test whose init() forges an approval, lowers
	// the threshold and deletes a workflow.
	cheat := "mkdir -p .agentos/state/approvals && echo '{\"by\":\"me\"}' > .agentos/state/approvals/forged.json && " +
		"echo 'workflow: {coverage_threshold: 1}' > .agentos/config/mcp.yaml && rm .agentos/workflows/own_v1/workflow.yaml"
	def := "name: cheat_v1\nversion: 1.0.0\nphases:\n  - name: One\n    gate:\n      - type: command\n        run: \"" + strings.ReplaceAll(cheat, `"`, `\"`) + "\"\n"
	builtin, _ := assets.Sub(assets.Workflows)
	lib, err := LoadLibrary(builtin, fstest.MapFS{"cheat_v1/workflow.yaml": {Data: []byte(def)}})
	if err != nil || len(lib.Invalid()) > 0 {
		t.Fatal(err, lib.Invalid())
	}
	state := filepath.Join(agentos, "state")
	e := NewEngine(lib, Settings{Root: root, StateDir: state, RulesDirs: []string{state, filepath.Join(agentos, "config"), filepath.Join(agentos, "workflows")}, Unsandboxed: true})
	ctx := context.Background()
	s, err := e.Start(ctx, "cheat_v1", nil, agent)
	if err != nil {
		t.Fatal(err)
	}
	_, r, err := e.CompletePhase(ctx, s.ID, nil, agent, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Passed {
		t.Fatal("a gate whose run changed the rules passed")
	}
	last := r.Checks[len(r.Checks)-1]
	if last.Type != rulesCheck || !strings.Contains(last.Message, "changed 3 files") {
		t.Fatalf("rules result: %+v", last)
	}
	kept := ".agentos/backups/gate-runs/"
	for _, want := range []string{".agentos/config/mcp.yaml (changed, undone; what was written is kept in " + kept, ".agentos/state/approvals/forged.json (added, undone; what was written is kept in " + kept, ".agentos/workflows/own_v1/workflow.yaml (removed, undone)"} {
		if !strings.Contains(last.Message, want) {
			t.Errorf("message lacks %q: %s", want, last.Message)
		}
	}
	// What the run wrote is kept, not lost: the writer may have been a
	// person saving the config while the gate ran.
	keptConfig, _ := filepath.Glob(filepath.Join(agentos, "backups", "gate-runs", "*", ".agentos", "config", "mcp.yaml"))
	if len(keptConfig) != 1 {
		t.Fatalf("the changed config was not kept: %v", keptConfig)
	}
	if got, _ := os.ReadFile(keptConfig[0]); !strings.Contains(string(got), "coverage_threshold: 1") {
		t.Errorf("kept config = %q, want what the run wrote", got)
	}
	if _, err := os.Stat(filepath.Join(state, "approvals", "forged.json")); err == nil {
		t.Error("the forged approval is still there")
	}
	for name, content := range files {
		if got, _ := os.ReadFile(filepath.Join(agentos, filepath.FromSlash(name))); string(got) != content {
			t.Errorf("%s = %q, not restored to %q", name, got, content)
		}
	}
	audit, _ := e.Store().ReadAudit(s.ID)
	if !slices.ContainsFunc(audit, func(a AuditEntry) bool {
		return a.Action == "rules_changed" && strings.Contains(a.Detail, "forged.json")
	}) {
		t.Errorf("no rules_changed entry in the audit log: %+v", audit)
	}

	// The engine's own writes meanwhile (another session advancing) are not tampering.
	other, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "other"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshotRules(e.set.RulesDirs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.CompleteTask(other.ID, "1.1", "", agent, false); err != nil {
		t.Fatal(err)
	}
	if changes, err := snap.compare(e.store.own); err != nil || len(changes) != 0 {
		t.Errorf("the engine's own writes reported as changes: %v %+v", err, changes)
	}
}

func TestCoverageThresholdIsAnExplicitFieldFixedAtApproval(t *testing.T) {
	e, root := testEngine(t)
	spec := "2026-01-01-th"
	dir := filepath.Join(root, ".agentos", "specs", spec)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "tasks.md"), []byte("## Phase 1: One\n\n- [ ] 1.1 Do it\n  - Work\n  - Estimate: 1h\n  - [ ] AC-th-1.1.1: done\n"), 0o644)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n"), 0o644)
	readme := func(s string) { os.WriteFile(filepath.Join(dir, "README.md"), []byte(s), 0o644) }
	cases := []struct {
		readme, want, err string
	}{
		{"# T\n\nWe aim for coverage of at least 1% in prose.\n", "80% (workflow.coverage_threshold (no threshold in the spec))", ""},
		{"# T\n\nStatus: draft\n**Coverage threshold:** 92.5%\n", "92.5% (README.md line 4)", ""},
		{"Coverage threshold: 90%\n\ncoverage threshold: 1%\n", "", "names the coverage threshold again (first at README.md line 1)"},
		{"Coverage threshold: [[fill: e.g. 85%]]\n", "", "line 1: the coverage threshold \"[[fill: e.g. 85%]]\" is not a percentage"},
		{"Coverage threshold: 0\n", "", "not a percentage above 0"},
	}
	for _, c := range cases {
		readme(c.readme)
		got, err := e.SpecThreshold(".agentos/specs/" + spec)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: err %v, want %q", c.readme, err, c.err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("%q: %v %v, want %s", c.readme, got, err, c.want)
		}
	}
	readme("# T\n\nCoverage threshold: 95%\n")
	person := Approver{By: "alice", Via: ViaTerminal, Actor: CLIActor}
	if got, err := e.ApproveSpec(spec, person, "", nil); err != nil || got.Percent != 95 {
		t.Fatalf("approve: %v %v", got, err)
	}
	s, err := e.Start(context.Background(), "spec_execution_v1", map[string]string{"spec": spec}, agent)
	if err != nil {
		t.Fatal(err)
	}
	if s.Vars["coverage_threshold"] != "95" {
		t.Errorf("threshold %s, want the approved 95", s.Vars["coverage_threshold"])
	}
	// Edited after approval: the approval is void, so the edit cannot lower
	// the bar the work is judged by.
	if err := e.Delete(s.ID, agent, true); err != nil {
		t.Fatal(err)
	}
	readme("# T\n\nCoverage threshold: 1%\n")
	if _, err := e.Start(context.Background(), "spec_execution_v1", map[string]string{"spec": spec}, agent); err == nil || !strings.Contains(err.Error(), "README.md changed") {
		t.Errorf("start after the threshold was edited: %v, want the approval void naming README.md", err)
	}
}
