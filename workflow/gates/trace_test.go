package gates

import (
	"strings"
	"testing"
)

// A criterion is traced only by a test that names it, ran and passed in this
// gate's run, and can fail.
func TestCriteriaTracedByTheRun(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	root := goModule(t, `package m

import "testing"

// AC-m-1.1.1: Two is two.
func TestTwo(t *testing.T) {
	if Two() != 2 {
		t.Fatal("wrong")
	}
}

// AC-m-1.1.2
func TestCallsOnly(t *testing.T) { Two() }

func TestAC_m_1_2_1(t *testing.T) {
	t.Run("sub", func(t *testing.T) { check(t, Two() == 3) })
}

func check(t *testing.T, ok bool) {
	if !ok {
		t.Error("wrong")
	}
}

// AC-other-1.3.1 belongs to another spec; AC-1.3.1 is its old form.
func TestOther(t *testing.T) { t.Log("AC-1.3.1") }
`)
	tasks := "## Phase 1: One\n\n- [x] 1.1 A\n  - w\n  - Estimate: 1h\n  - [x] AC-m-1.1.1: two\n  - [x] AC-m-1.1.2: called\n\n" +
		"- [x] 1.2 B\n  - w\n  - Estimate: 1h\n  - [x] AC-m-1.2.1: three\n\n- [x] 1.3 C\n  - w\n  - Estimate: 1h\n  - [x] AC-m-1.3.1: other\n  - [x] no ID\n"
	writeFiles(t, root, map[string]string{"specs/2026-01-01-m/tasks.md": tasks})
	run := &TestRun{}
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "specs/2026-01-01-m"}, Tests: run, TasksPhase: 1}
	if r := runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, env); r.Passed {
		t.Fatalf("a failing subtest passed: %+v", r)
	}
	r := runCheck(t, Check{Type: TypeAcceptanceCriteria, File: "{spec_dir}/tasks.md"}, env)
	if r.Passed {
		t.Fatalf("passed: %+v", r)
	}
	contains(t, "message", r.Message,
		"1 criterion has no ID",
		"2 criterion IDs no test that passed in this run names: AC-m-1.2.1 (line 12), AC-m-1.3.1 (line 17)",
		"1 criterion is named only by tests that check nothing (no t.Error, t.Fatal or helper given t): AC-m-1.1.2 (line 7) by TestCallsOnly (m_test.go:13)")
	if strings.Contains(r.Message, "AC-m-1.1.1") {
		t.Errorf("AC-m-1.1.1 is traced by TestTwo: %s", r.Message)
	}
}

func TestGoTestChecks(t *testing.T) {
	src := `package m
import ("testing"; "github.com/stretchr/testify/assert")
func TestA(t *testing.T) { // AC-a-1.1.1
	assert.Equal(t, 1, 1)
}
func TestB(t *testing.T) { // AC-a-1.1.2
	if 1 != 1 { panic("no") }
}
func TestC(tt *testing.T) { // AC-a-1.1.3
	tt.Run("x", func(t *testing.T) { t.Errorf("x") })
}
`
	got := map[string]bool{}
	for _, r := range goTestRefs([]byte(src), []string{"ac-a-1.1.1", "ac-a-1.1.2", "ac-a-1.1.3"}, "m", "m_test.go") {
		got[r.name] = r.checks
	}
	if !got["TestA"] || got["TestB"] || !got["TestC"] {
		t.Errorf("checks %v: want TestA and TestC to check, TestB not", got)
	}
}

func TestPythonTestRefs(t *testing.T) {
	src := "import pytest\n\n# AC-p-1.1.1\ndef test_one():\n    assert f() == 1\n\nclass TestX:\n    def test_two(self):\n        \"\"\"AC-p-1.1.2\"\"\"\n        assert True\n\ndef test_three():\n    pass\n"
	refs := pyTestRefs([]byte(src), []string{"ac-p-1.1.1", "ac-p-1.1.2"}, "tests.test_p", "tests/test_p.py")
	if len(refs) != 2 || refs[0].name != "test_one" || refs[1].name != "test_two" {
		t.Fatalf("refs %+v", refs)
	}
	tests := []TestCase{{Package: "tests.test_p", Name: "test_one", Status: TestPassed}, {Package: "tests.test_p.TestX", Name: "test_two", Status: TestFailed}}
	root := project(t, map[string]string{"tests/test_p.py": src})
	traces, _, err := traceByRun(t.Context(), root, []string{"ac-p-1.1.1", "ac-p-1.1.2"}, tests)
	if err != nil || !traces["ac-p-1.1.1"].passed || traces["ac-p-1.1.2"].passed {
		t.Errorf("traces %+v %v", traces, err)
	}
}
