package e2e

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// fsWrite writes a project file the way an agent can: through svc_filesystem.
func fsWrite(t *testing.T, c *client.Client, path, content string) {
	t.Helper()
	if res := call(t, c, "svc_filesystem", map[string]any{"action": "write", "path": path, "content": content}, nil); res.IsError {
		t.Fatalf("svc_filesystem write %s: %v", path, res.Content)
	}
}

// failedCheck returns the first failed check of a gate of the given type.
func failedCheck(t *testing.T, o wfOut, typ string) (msg, fix string) {
	t.Helper()
	if o.Gate == nil || o.Gate.Passed {
		t.Fatalf("the gate passed: %+v", o.Gate)
	}
	for _, c := range o.Gate.Failed {
		if c.Type == typ {
			return o.Gate.Checks[c.Check], c.Fix
		}
	}
	t.Fatalf("no failed %s check in %+v", typ, o.Gate.Checks)
	return "", ""
}

// TestGateCheatsAreRefused plays an agent that holds only agentos's MCP tools
// and tries each way a gate was once fooled; each is refused with a message
// saying what and how to fix it, and the honest work then passes.
func TestGateCheatsAreRefused(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	fsWrite(t, c, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 90%\n\n## Objectives\nGreet users by name.\n")
	fsWrite(t, c, dir+"/tasks.md", goodTasks) // every criterion ticked, no test written yet
	// A person approves the spec in a terminal; the threshold is fixed then.
	if r := runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes"); !strings.Contains(r.stdout, "Coverage threshold for its execution: 90% (README.md line 3)") {
		t.Errorf("approval does not show the threshold: %s", r.stdout)
	}
	// Editing the spec afterwards does not lower it: the edit voids the
	// approval, and the spec as approved is judged by the approved 90%.
	approved := "# Greeting\n\nCoverage threshold: 90%\n\n## Objectives\nGreet users by name.\n"
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 1%\n\n## Objectives\nGreet users by name; coverage of 1% is plenty.\n")
	if _, msg := wf(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}); !strings.Contains(msg, "is void") || !strings.Contains(msg, "README.md changed") {
		t.Errorf("execution started on a spec edited after approval: %s", msg)
	}
	fsWrite(t, c, dir+"/README.md", approved)
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}})
	id := out.Session.ID
	// The work the session does: written after it started, so the
	// tests fail on the code before it.
	fsWrite(t, c, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	if got := out.Session.Vars["coverage_threshold"]; got != "90" {
		t.Errorf("threshold %s, want the approved 90", got)
	}
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	gate := func() wfOut {
		t.Helper()
		return mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	}

	// Ticked criteria, and the only tests are another spec's: AC-1.1.1 as
	// the old template wrote it, and that spec's own AC-other-1.1.1.
	fsWrite(t, c, "other_test.go", "package greet\n\nimport \"testing\"\n\n// AC-1.1.1 AC-1.2.1 AC-other-1.1.1\nfunc TestOther(t *testing.T) {\n\tif Greet(\"\") == \"\" || Greet(\"x\") == \"\" {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n")
	msg, fix := failedCheck(t, gate(), "acceptance_criteria")
	if !strings.Contains(msg, "2 criterion IDs no test that passed in this run names: AC-greeting-1.1.1") || !strings.Contains(fix, "TestAC_greeting_1_1_1") {
		t.Errorf("another spec's tests traced this one's criteria: %s / %s", msg, fix)
	}

	// A test that names the criteria but checks nothing.
	fsWrite(t, c, "other_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestCalls(t *testing.T) {\n\tGreet(\"\")\n\tGreet(\"x\")\n}\n")
	msg, _ = failedCheck(t, gate(), "acceptance_criteria")
	if !strings.Contains(msg, "named only by tests that check nothing") || !strings.Contains(msg, "TestCalls (other_test.go:6)") {
		t.Errorf("a test that checks nothing traced the criteria: %s", msg)
	}

	// A failing test hidden by a TestMain that exits 0.
	fsWrite(t, c, "other_test.go", "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { m.Run(); os.Exit(0) }\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hi, ann\" || Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	msg, fix = failedCheck(t, gate(), "command")
	if !strings.Contains(msg, "1 test failed (exit status 0): example.com/greet.TestGreet") || !strings.Contains(fix, "failing tests") {
		t.Errorf("a failing test hidden by os.Exit(0): %s / %s", msg, fix)
	}

	// The honest work passes.
	fsWrite(t, c, "other_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1: Greet names the person.\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\nfunc TestAC_greeting_1_2_1(t *testing.T) {\n\tif Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	if out = gate(); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest work did not pass: %+v", out.Gate)
	}
}
