package gates

import (
	"context"
	"testing"
)

// A criterion is proven only by a test that failed on the code before the
// change and passes now; one that passed before, or did not run, proves
// nothing, and the message says how each fared and why one did not run.
func TestFailBefore(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	root := goModule(t, `package m

import "testing"

// AC-m-1.1.1
func TestNew(t *testing.T) {
	if Two() != 2 {
		t.Fatal("wrong")
	}
}

// AC-m-1.1.2
func TestOld(t *testing.T) {
	if Two() != 2 {
		t.Fatal("wrong")
	}
}

// AC-m-1.1.3
func TestMissing(t *testing.T) {
	if Two() != 2 {
		t.Fatal("wrong")
	}
}
`)
	tasks := "## Phase 1: One\n\n- [x] 1.1 A\n  - w\n  - Estimate: 1h\n  - [x] AC-m-1.1.1: new\n  - [x] AC-m-1.1.2: old\n  - [x] AC-m-1.1.3: missing\n"
	writeFiles(t, root, map[string]string{"specs/2026-01-01-m/tasks.md": tasks})
	calls := 0
	before := func(ctx context.Context, tests []TestCase) (BeforeResult, error) {
		calls++
		if len(tests) != 3 || tests[0].Name != "TestNew" || tests[2].Name != "TestMissing" {
			t.Errorf("the before-run is asked for %+v, not the three tests that prove a criterion now", tests)
		}
		return BeforeResult{
			Tests: []TestCase{
				{Package: "example.com/m", Name: "TestNew", Status: TestFailed, Failure: "m_test.go:8: wrong"},
				{Package: "example.com/m", Name: "TestOld", Status: TestPassed},
			},
			Emptied: []string{"m.go: Two"},
			Output:  "m_test.go:21: undefined: Three\nFAIL",
		}, nil
	}
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "specs/2026-01-01-m"}, Tests: &TestRun{}, TasksPhase: 1, Before: before}
	if r := runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, env); !r.Passed {
		t.Fatalf("the tests: %+v", r)
	}
	r := runCheck(t, Check{Type: TypeAcceptanceCriteria, File: "{spec_dir}/tasks.md"}, env)
	if r.Passed || calls != 1 {
		t.Fatalf("passed, or the before-run ran %d times: %+v", calls, r)
	}
	contains(t, "message", r.Message,
		"2 criteria have no test that fails without this session's change",
		"AC-m-1.1.2: TestOld passed before the change",
		"AC-m-1.1.3: TestMissing did not run (it did not build, or was not collected) before the change (that run's output says: m_test.go:21: undefined: Three)")
	d := r.Details.(CriteriaDetails)
	if len(d.Proofs) != 3 || !d.Proofs[0].Proven || d.Proofs[0].Before != "failed" || d.Proofs[0].Failure != "m_test.go:8: wrong" || d.Emptied[0] != "m.go: Two" {
		t.Errorf("details: %+v", d)
	}
}
