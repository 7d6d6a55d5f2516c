package e2e

import (
	"strings"
	"testing"
)

// TestTraceCheatsAreRefused plays an agent that traces the criteria of an
// approved spec with tests that prove nothing: empty tests and subtests
// named after the IDs, and checks in files the go tool never compiles. Each
// is refused, naming the criteria; the honest tests then pass.
func TestTraceCheatsAreRefused(t *testing.T) {
	long(t) // workflow/gates traces criteria only to tests that ran (TestCriteriaTracedByTheRun)
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	fsWrite(t, c, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 90%\n\n## Objectives\nGreet users by name.\n")
	fsWrite(t, c, dir+"/tasks.md", goodTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}})
	id := out.Session.ID
	// The work the session does: written after it started, so the
	// honest tests fail on the code before it.
	fsWrite(t, c, "greet.go", greetGo)
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	gate := func() wfOut {
		t.Helper()
		return mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	}
	const head = "package greet\n\nimport \"testing\"\n\n"
	// Every cheat runs the code, so coverage is met and only tracing is judged.
	const calls = "\tGreet(\"\")\n\tGreet(\"x\")\n"
	const checks = "\tif Greet(\"ann\") != \"hello, ann\" || Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n"

	// Empty tests named after the criteria.
	fsWrite(t, c, "greet_test.go", head+"func TestAC_greeting_1_1_1(t *testing.T) {\n"+calls+"}\n\nfunc TestAC_greeting_1_2_1(t *testing.T) {}\n")
	msg, _ := failedCheck(t, gate(), "acceptance_criteria")
	if !strings.Contains(msg, "named only by tests that check nothing") || !strings.Contains(msg, "TestAC_greeting_1_1_1 (greet_test.go:5)") {
		t.Errorf("empty tests named after the criteria traced them: %s", msg)
	}

	// Empty subtests named after the criteria, beside one that checks.
	fsWrite(t, c, "greet_test.go", head+"func TestGreet(t *testing.T) {\n\tt.Run(\"AC_greeting_1_1_1\", func(t *testing.T) {\n"+calls+"\t})\n"+
		"\tt.Run(\"AC-greeting-1.2.1\", func(t *testing.T) {})\n\tt.Run(\"works\", func(t *testing.T) {\n\t\tif Greet(\"x\") == \"\" {\n\t\t\tt.Fatal(\"empty\")\n\t\t}\n\t})\n}\n")
	msg, _ = failedCheck(t, gate(), "acceptance_criteria")
	if !strings.Contains(msg, "named only by tests that check nothing") || !strings.Contains(msg, "TestGreet/AC_greeting_1_1_1 (greet_test.go:6)") {
		t.Errorf("empty subtests named after the criteria traced them: %s", msg)
	}

	// The check and the IDs in a file the go tool never compiles; the test
	// of the same name that runs checks nothing.
	fsWrite(t, c, "greet_test.go", head+"func TestGreet(t *testing.T) {\n"+calls+"}\n")
	fsWrite(t, c, "_ghost_test.go", head+"// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n"+checks+"}\n")
	msg, _ = failedCheck(t, gate(), "acceptance_criteria")
	if !strings.Contains(msg, "2 criterion IDs no test that passed in this run names: AC-greeting-1.1.1") {
		t.Errorf("a file the go tool never compiles traced the criteria: %s", msg)
	}
	fsWrite(t, c, "_ghost_test.go", "package greet\n")

	// The same in a file a build constraint leaves out.
	fsWrite(t, c, "never_test.go", "//go:build never\n\n"+head+"// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n"+checks+"}\n")
	msg, _ = failedCheck(t, gate(), "acceptance_criteria")
	if !strings.Contains(msg, "2 criterion IDs no test that passed in this run names: AC-greeting-1.1.1") {
		t.Errorf("a file no build includes traced the criteria: %s", msg)
	}

	// A skipped test.
	fsWrite(t, c, "greet_test.go", head+"func TestGreet(t *testing.T) {\n"+calls+"}\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestLater(t *testing.T) {\n\tt.Skip(\"later\")\n"+checks+"}\n")
	o := gate()
	msg, _ = failedCheck(t, o, "acceptance_criteria")
	if !strings.Contains(msg, "named only by tests that were skipped") || !strings.Contains(msg, "TestLater (greet_test.go:11, skipped)") {
		t.Errorf("a skipped test traced the criteria: %s", msg)
	}
	if !strings.Contains(strings.Join(o.Gate.Checks, "\n"), "1 test passed, 1 skipped") {
		t.Errorf("the command's message does not count the skipped test: %q", o.Gate.Checks)
	}

	// The honest tests pass.
	fsWrite(t, c, "greet_test.go", head+"// AC-greeting-1.1.1: Greet names the person.\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\n"+
		"func TestEmpty(t *testing.T) {\n\tt.Run(\"AC_greeting_1_2_1\", func(t *testing.T) {\n\t\tif Greet(\"\") != \"hello, world\" {\n\t\t\tt.Fatal(\"wrong\")\n\t\t}\n\t})\n}\n")
	if out = gate(); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest work did not pass: %+v", out.Gate)
	}
}
