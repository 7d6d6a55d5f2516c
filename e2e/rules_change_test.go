package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A person edits workflow.test_command in mcp.yaml under a running
// execution session: the agent's next complete_phase is refused, naming the
// change and the command a person runs; once the person confirms, the gate
// runs the new command — in the same server, without a restart.
func TestRulesChangedUnderSessionWaitForConfirmation(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", strings.ReplaceAll(goodTasks, "[x]", "[ ]"))
	c := stdioClient(t, root, "--transport", "stdio")
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	write(t, root, "greet.go", greetGo)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" || Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", goodTasks)

	// The person edits the configuration in an editor.
	cfgPath := filepath.Join(root, ".agentos", "config", "mcp.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	newCommand := "touch rules-marker && go test -json -coverprofile=.agentos/.cache/coverage.out ./..."
	write(t, root, ".agentos/config/mcp.yaml", string(cfg)+"workflow:\n  test_command: \""+newCommand+"\"\n  coverage_file: .agentos/.cache/coverage.out\n")
	runOK(t, root, "trust", "--yes") // theirs, so they trust it; the session still waits for them to confirm

	_, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	wantRefused(t, "completing a phase under changed rules", errText,
		// (errText is the JSON envelope: quotes and & are escaped in it)
		`setting workflow.test_command changed from \"go test -json -coverprofile=.agentos/.cache/coverage.out ./...\" to \"touch rules-marker`,
		"agentos workflow confirm-rules "+id)
	if _, err := os.Stat(filepath.Join(root, "rules-marker")); err == nil {
		t.Fatal("the new test command ran before the person confirmed it")
	}
	// Reads still answer, and say why nothing advances.
	if out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); !strings.Contains(out.NextAction, "confirm-rules "+id) {
		t.Errorf("get_state does not carry the notice: %q", out.NextAction)
	}

	r := runAgentos(t, root, "workflow", "confirm-rules", id, "--dir", root)
	if r.code != 2 || !strings.Contains(r.stderr, "no terminal") || !strings.Contains(r.stdout, "setting workflow.test_command changed") {
		t.Fatalf("confirm-rules without a terminal: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, root, "workflow", "confirm-rules", id, "--dir", root, "--yes")

	out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the phase under the confirmed rules: %+v", out.Gate)
	}
	// The run writes in its sandbox only: its result names the command.
	if !strings.Contains(strings.Join(out.Gate.Checks, " "), "touch rules-marker") {
		t.Fatalf("the gate did not run the new test command: %v", out.Gate.Checks)
	}
}
