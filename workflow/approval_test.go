package workflow

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentos-dev/agentos/assets"
)

const approvalTasks = `# Tasks

## Phase 1: Greeting

- [ ] 1.1 Write the greeting function
  - Add Greet to greet.go
  - Estimate: 1h
  - Acceptance criteria:
    - [ ] AC-1.1.1: Greet returns "hello, NAME"
`

// engineAt returns an engine over root with the given test command and
// project workflow definitions.
func engineAt(t *testing.T, root, testCommand string, project fstest.MapFS) *Engine {
	t.Helper()
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := LoadLibrary(builtin, project)
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(lib, Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state"), TestCommand: testCommand, CoverageFile: "c.out"})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

var person = Approver{By: "alice", Via: ViaTerminal, Actor: CLIActor}

// An approval binds the spec's files, the judging workflow and the
// settings: a change to any voids it, naming what changed; ticking a
// checkbox does not.
func TestApprovalBindsSpecRulesAndSettings(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".agentos", "specs", "greet")
	writeFile(t, filepath.Join(dir, "README.md"), "# Greet\n\nCoverage threshold: 90%\n")
	writeFile(t, filepath.Join(dir, "tasks.md"), approvalTasks)
	e := engineAt(t, root, "go test ./...", nil)
	ctx := context.Background()
	start := func(e *Engine) error {
		s, err := e.Start(ctx, "spec_execution_v1", map[string]string{"spec": "greet"}, agent)
		if err == nil {
			e.Delete(s.ID, CLIActor, true)
		}
		return err
	}
	if err := start(e); err == nil || !strings.Contains(err.Error(), "not been approved") {
		t.Fatalf("unapproved: %v", err)
	}
	if _, err := e.ApproveSpec("greet", person, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := start(e); err != nil {
		t.Fatalf("approved: %v", err)
	}
	rec, _ := e.SpecApproval("greet")
	if rec.Via != ViaTerminal || rec.Binding.Files[".agentos/specs/greet/README.md"] == "" || rec.Binding.Workflows["spec_execution_v1"] == "" || rec.Binding.Settings["test_command"] != "go test ./..." {
		t.Errorf("record: %+v %+v", rec, rec.Binding)
	}

	var err error
	// Ticking criteria and tasks is progress.
	writeFile(t, filepath.Join(dir, "tasks.md"), strings.ReplaceAll(approvalTasks, "[ ]", "[x]"))
	if err := start(e); err != nil {
		t.Fatalf("after ticking the checkboxes: %v", err)
	}
	// Editing a file, adding one: void, named.
	writeFile(t, filepath.Join(dir, "README.md"), "# Greet\n\nCoverage threshold: 1%\n")
	writeFile(t, filepath.Join(dir, "notes.md"), "more\n")
	err = start(e)
	for _, want := range []string{"void", "README.md changed", "notes.md added", "agentos workflow approve --spec greet"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("edited spec: %v; want %q", err, want)
		}
	}
	// A shown binding that no longer matches approves nothing.
	shown, _ := e.BindingFor(".agentos/specs/greet")
	writeFile(t, filepath.Join(dir, "notes.md"), "changed while shown\n")
	if _, err := e.ApproveSpec("greet", person, "", shown); err == nil || !strings.Contains(err.Error(), "changed while it was shown") {
		t.Errorf("approved what was not shown: %v", err)
	}
	if _, err := e.ApproveSpec("greet", person, "", nil); err != nil {
		t.Fatal(err)
	}
	// Other settings, another judging workflow: void, named.
	if err := start(engineAt(t, root, "true", nil)); err == nil || !strings.Contains(err.Error(), `workflow.test_command changed from "go test ./..." to "true"`) {
		t.Errorf("weaker test command: %v", err)
	}
	builtin, _ := assets.Sub(assets.Workflows)
	def, err := fs.ReadFile(builtin, "spec_execution_v1/workflow.yaml")
	if err != nil {
		t.Fatal(err)
	}
	weaker := strings.Replace(string(def), "    - type: coverage\n      file: \"{coverage_file}\"\n      lines: changed\n", "", 1)
	project := fstest.MapFS{"spec_execution_v1/workflow.yaml": {Data: []byte(weaker)}, "spec_execution_v1/phases/phase.md": {Data: []byte("do it")}, "spec_execution_v1/overview.md": {Data: []byte("o")}}
	if err := start(engineAt(t, root, "go test ./...", project)); err == nil || !strings.Contains(err.Error(), "workflow spec_execution_v1 changed") {
		t.Errorf("weaker workflow: %v", err)
	}
	if err := start(e); err != nil {
		t.Errorf("unchanged: %v", err)
	}
}

// approvedCreation drives a spec_creation_v1 session of agent to its
// approval gate with real files, and a person approves it.
func approvedCreation(t *testing.T, e *Engine, root string) *Session {
	t.Helper()
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "undo"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, s.Vars["spec_dir"], "tasks.md"), approvalTasks)
	if _, err := e.Store().Update(s.ID, func(s *Session) error {
		for i := range s.Phases {
			s.Phases[i].Status = Done
			for j := range s.Phases[i].Tasks {
				s.Phases[i].Tasks[j].Status = Done
			}
		}
		s.Current = 4
		s.Phases[3].Status = Active
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s, err = e.Approve(s.ID, person, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An approved or completed session is undone only by a person; rolling back
// an approved spec withdraws its approval record, so execution cannot start.
func TestUndoOfApprovedWorkNeedsAPerson(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	ctx := context.Background()
	s := approvedCreation(t, e, root)
	spec := filepath.Base(s.Vars["spec_dir"])

	// An edit between approval and the gate voids the approval.
	tasks := filepath.Join(root, s.Vars["spec_dir"], "tasks.md")
	writeFile(t, tasks, approvalTasks+"\n- [ ] 1.2 Sneak in\n")
	if _, _, err := e.CompletePhase(ctx, s.ID, nil, agent, false); err == nil || !strings.Contains(err.Error(), "tasks.md changed") {
		t.Fatalf("gate after an edit: %v", err)
	}
	writeFile(t, tasks, approvalTasks)
	if _, _, err := e.CompletePhase(ctx, s.ID, nil, agent, false); err != nil {
		t.Fatal(err)
	}
	if rec, _ := e.SpecApproval(spec); rec == nil || rec.Session != s.ID {
		t.Fatalf("no approval record after completion: %+v", rec)
	}

	// Same client name, force: still refused, and the advice names the CLI.
	if _, err := e.Rollback(s.ID, 1, agent, true); err == nil || !strings.Contains(err.Error(), "agentos workflow rollback "+s.ID) {
		t.Errorf("agent rolled back a completed session: %v", err)
	}
	if err := e.Delete(s.ID, agent, true); err == nil || !strings.Contains(err.Error(), "agentos workflow delete "+s.ID) {
		t.Errorf("agent deleted a completed session: %v", err)
	}
	if _, err := e.Rollback(s.ID, 3, CLIActor, true); err != nil {
		t.Fatal(err)
	}
	if rec, _ := e.SpecApproval(spec); rec != nil {
		t.Errorf("the approval record outlived the rollback: %+v", rec)
	}
	if _, err := e.Start(ctx, "spec_execution_v1", map[string]string{"spec": spec}, agent); err == nil || !strings.Contains(err.Error(), "not been approved") {
		t.Errorf("execution started after the rollback: %v", err)
	}

	// The advice to a non-owner is something it can do.
	_, err := e.Pause(s.ID, Actor{Client: "other"}, false)
	if err == nil || !strings.Contains(err.Error(), "force: true") || strings.Contains(err.Error(), "or after transfer_owner") {
		t.Errorf("advice to a non-owner: %v", err)
	}
}

// What a person approves shows every byte of a name an agent chose: an
// escape sequence or a bidi override is quoted, never sent to the terminal.
func TestDescribeShowsHostileNamesQuoted(t *testing.T) {
	for name, want := range map[string]string{
		"notes.md":                     "notes.md",
		"zz\x1b[2K\x1b[1A\rnotes.md":   `"zz\x1b[2K\x1b[1A\rnotes.md"`,
		"conceal\x1b[8m.md":            `"conceal\x1b[8m.md"`,
		"evil\u202eeliftxt.md":         `"evil\u202eeliftxt.md"`,
		"tab\there.md":                 `"tab\there.md"`,
		"caf\u00e9.md":                 "caf\u00e9.md",
		string([]byte{'b', 0xff, 'd'}): `"b\xffd"`,
	} {
		if got := shown(name); got != want {
			t.Errorf("shown(%q) = %s, want %s", name, got, want)
		}
	}
}

// A spec folder the execution could not start on is not approved: the
// refusal names what is missing, before a person has signed anything.
func TestApproveSpecRefusesWhatCannotBeExecuted(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".agentos", "specs", "junk")
	writeFile(t, filepath.Join(dir, "README.md"), "# junk\n")
	e := engineAt(t, root, "go test ./...", nil)
	if _, err := e.ApproveSpec("junk", person, "", nil); err == nil || !strings.Contains(err.Error(), "the spec needs a tasks.md") || !strings.Contains(err.Error(), "nothing was approved") {
		t.Fatalf("a folder without tasks: %v", err)
	}
	writeFile(t, filepath.Join(dir, "tasks.md"), "# junk\n\nno tasks here\n")
	if _, err := e.ApproveSpec("junk", person, "", nil); err == nil || !strings.Contains(err.Error(), "tasks.md") {
		t.Fatalf("tasks that do not parse: %v", err)
	}
	if rec, _ := e.SpecApproval("junk"); rec != nil {
		t.Errorf("an approval was recorded: %+v", rec)
	}
	writeFile(t, filepath.Join(dir, "tasks.md"), approvalTasks)
	if _, err := e.ApproveSpec("junk", person, "", nil); err != nil {
		t.Errorf("a spec with tasks: %v", err)
	}
}
