package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The agent edits the test harness (package.json's test script, a new
// conftest.py) during execution: its next complete_phase is refused before
// any test runs, naming the parts and the command a person runs;
// confirm-rules shows the diff; once confirmed, the session goes on. An
// honest edit of package.json (a dependency added) stops nothing.
func TestHarnessChangeDuringExecutionWaitsForConfirmation(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	write(t, root, "package.json", "{\n  \"name\": \"greet\",\n  \"scripts\": {\"test\": \"go test ./...\"},\n  \"dependencies\": {}\n}\n")
	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", strings.ReplaceAll(goodTasks, "[x]", "[ ]"))
	c := stdioClient(t, root, "--transport", "stdio")
	approved := runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	if !strings.Contains(approved.stdout, "Test harness") || !strings.Contains(approved.stdout, "package.json scripts") {
		t.Fatalf("the approval does not show the harness it binds:\n%s", approved.stdout)
	}
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	fsWrite(t, c, "greet.go", greetGo)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	fsWrite(t, c, "greet_test.go", fullGreetTest)
	fsWrite(t, c, ".agentos/specs/"+spec+"/tasks.md", goodTasks)

	// The agent's test script now prints a report of its own, and a
	// conftest.py hook would rewrite every outcome.
	fsWrite(t, c, "package.json", "{\n  \"name\": \"greet\",\n  \"scripts\": {\"test\": \"echo '<testsuite tests=\\\"1\\\"/>' > junit.xml\"},\n  \"dependencies\": {}\n}\n")
	fsWrite(t, c, "tests/conftest.py", "def pytest_runtest_makereport(item, call):\n    pass\n")
	_, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	wantRefused(t, "completing a phase under a changed harness", errText,
		"test harness package.json scripts changed", "test harness tests/conftest.py added", "agentos workflow confirm-rules "+id)
	if out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); !strings.Contains(out.NextAction, "confirm-rules "+id) {
		t.Errorf("get_state does not carry the notice: %q", out.NextAction)
	}

	r := runAgentos(t, root, "workflow", "confirm-rules", id, "--dir", root)
	if r.code != 2 || !strings.Contains(r.stderr, "no terminal") {
		t.Fatalf("confirm-rules without a terminal: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"test harness package.json scripts changed",
		"Test harness package.json scripts:",
		`-   "test": "go test ./..."`,
		`+   "test": "echo`,
		"Test harness tests/conftest.py:",
		"+ def pytest_runtest_makereport(item, call):",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("confirm-rules does not show %q:\n%s", want, r.stdout)
		}
	}
	runOK(t, root, "workflow", "confirm-rules", id, "--dir", root, "--yes")

	// An honest edit elsewhere in package.json: the gate runs.
	fsWrite(t, c, "package.json", "{\n  \"name\": \"greet\",\n  \"scripts\": {\"test\": \"echo '<testsuite tests=\\\"1\\\"/>' > junit.xml\"},\n  \"dependencies\": {\"left-pad\": \"1.3.0\"}\n}\n")
	out, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if errText != "" || out.Gate == nil || !out.Gate.Passed {
		t.Fatalf("adding a dependency stopped the session: %s %+v", errText, out.Gate)
	}
}

// While a gate runs (its test command sleeps), a spec approval from the
// terminal is refused, saying why; the attempt is in the gate's session's
// audit log once the gate ends; afterwards the same approval goes through.
func TestApprovalRefusedWhileAGateRuns(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	cfgPath := filepath.Join(root, ".agentos", "config", "mcp.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, ".agentos/config/mcp.yaml", string(cfg)+"workflow:\n  test_command: \"sleep 3 && go test -json -coverprofile=.agentos/.cache/coverage.out ./...\"\n  coverage_file: .agentos/.cache/coverage.out\n")
	runOK(t, root, "trust", "--yes")
	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", strings.ReplaceAll(goodTasks, "[x]", "[ ]"))
	other := "2026-01-02-farewell"
	write(t, root, ".agentos/specs/"+other+"/README.md", "# Farewell\n\n## Objectives\nSay goodbye.\n")
	write(t, root, ".agentos/specs/"+other+"/tasks.md", strings.ReplaceAll(goodTasks, "[x]", "[ ]"))
	c := stdioClient(t, root, "--transport", "stdio")
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	fsWrite(t, c, "greet.go", greetGo)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	fsWrite(t, c, "greet_test.go", fullGreetTest)
	fsWrite(t, c, ".agentos/specs/"+spec+"/tasks.md", goodTasks)

	type gateResult struct {
		out     wfOut
		errText string
	}
	gateDone := make(chan gateResult, 1)
	go func() {
		out, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
		gateDone <- gateResult{out, errText}
	}()
	lock := filepath.Join(root, ".agentos", ".cache", "gates", id)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(lock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the gate never started")
		}
	}
	r := runAgentos(t, root, "workflow", "approve", "--spec", other, "--dir", root, "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "the gate of session "+id+" is running") {
		t.Fatalf("an approval while a gate ran: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "state", "approvals", other+".json")); err == nil {
		t.Fatal("the approval was recorded while the gate ran")
	}
	select {
	case g := <-gateDone:
		// The refused attempt changed nothing the gate is judged by.
		if g.errText != "" || g.out.Gate == nil || !g.out.Gate.Passed {
			t.Fatalf("the gate: %s %+v", g.errText, g.out.Gate)
		}
	case <-time.After(callDeadline):
		t.Fatal("the gate did not end")
	}

	show := runOK(t, root, "workflow", "show", id, "--dir", root, "--json")
	var state struct {
		Audit []struct {
			Actor, Action, Result, Detail string
		} `json:"audit"`
	}
	if err := json.Unmarshal([]byte(show.stdout), &state); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range state.Audit {
		found = found || (a.Action == "approve" && a.Result == "refused" && a.Actor == "agentos-cli" && strings.Contains(a.Detail, "approval of spec "+other))
	}
	if !found {
		t.Errorf("the refused approval is not in the gate's audit log: %+v", state.Audit)
	}
	runOK(t, root, "workflow", "approve", "--spec", other, "--dir", root, "--yes")
}
