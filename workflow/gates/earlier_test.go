package gates

import (
	"context"
	"slices"
	"testing"
)

func TestChangedTests(t *testing.T) {
	tasks := []byte("# Tasks\n\n- Changes tests: `TestGreet`, test_total\n**Changes tests:** TestA/sub; `greet > says hi`\nNo changes tests here: X\n")
	got := ChangedTests(tasks)
	want := []string{"TestGreet", "test_total", "TestA/sub", "greet > says hi"}
	if !slices.Equal(got, want) {
		t.Errorf("ChangedTests = %q, want %q", got, want)
	}
}

// Every test that passed when the session started must still hold: not
// deleted, skipped or failing, and not passing only because the session
// rewrote it; a test the approved spec names may change.
func TestRegressions(t *testing.T) {
	pass := func(name string) TestCase { return TestCase{Package: "p", Name: name, Status: TestPassed} }
	earlier := EarlierResult{
		Passed:         []TestCase{pass("TestKept"), pass("TestGone"), pass("TestBroken"), pass("TestSkipped"), pass("TestWeakened"), pass("TestUnbuilt"), pass("TestRetired"), pass("TestSuite/case")},
		Restored:       []TestCase{pass("TestKept"), {Package: "p", Name: "TestWeakened", Status: TestFailed, Failure: "w_test.go:9: got 1, want 2"}, pass("TestSuite/case")},
		RestoredOutput: "p/u_test.go:3:2: undefined: OldName\nFAIL",
		Allowed:        []string{"TestRetired"},
	}
	now := []TestCase{pass("TestKept"), {Package: "p", Name: "TestBroken", Status: TestFailed, Failure: "b_test.go:4: boom"},
		{Package: "p", Name: "TestSkipped", Status: TestSkipped}, pass("TestWeakened"), pass("TestUnbuilt"), pass("TestSuite/case"), pass("TestNew")}
	got := regressions(earlier, now)
	want := []Regression{
		{Test: "p.TestGone", Now: regressionMissing},
		{Test: "p.TestBroken", Now: regressionFailed, Failure: "b_test.go:4: boom"},
		{Test: "p.TestSkipped", Now: regressionSkipped},
		{Test: "p.TestWeakened", Now: regressionWeakened, Failure: "w_test.go:9: got 1, want 2"},
		{Test: "p.TestUnbuilt", Now: regressionNoBuild, Failure: "p/u_test.go:3:2: undefined: OldName"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("regressions:\n got %+v\nwant %+v", got, want)
	}
	// Without a restored run (no earlier test file changed) only the run
	// now is compared.
	earlier.Restored = nil
	if got := regressions(earlier, now); len(got) != 3 {
		t.Errorf("without a restored run: %+v", got)
	}
}

// The command check fails a run whose tests pass when an earlier test no
// longer runs, and names it; it passes when every earlier test holds.
func TestCommandCheckHoldsEarlierTests(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	root := goModule(t, "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	for _, tt := range []struct {
		earlier []TestCase
		pass    bool
		msg     string
	}{
		{[]TestCase{{Package: "example.com/m", Name: "TestTwo", Status: TestPassed}}, true, "1 test passed"},
		{[]TestCase{{Package: "example.com/m", Name: "TestTwo", Status: TestPassed}, {Package: "example.com/m", Name: "TestOld", Status: TestPassed}}, false,
			"1 test no longer holds that passed when the session started: example.com/m.TestOld no longer runs"},
	} {
		calls := 0
		env := Env{Root: root, Tests: &TestRun{}, Earlier: func(context.Context) (EarlierResult, error) {
			calls++
			return EarlierResult{Passed: tt.earlier}, nil
		}}
		r := runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, env)
		if r.Passed != tt.pass || calls != 1 {
			t.Fatalf("passed = %v after %d earlier runs: %+v", r.Passed, calls, r)
		}
		contains(t, "message", r.Message, tt.msg)
		if d := r.Details.(CommandDetails); d.Earlier != len(tt.earlier) || len(d.Regressions) != len(tt.earlier)-1 {
			t.Errorf("details: %+v", d)
		}
	}
}
