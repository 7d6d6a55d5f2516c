package gates

import (
	"os"
	"os/exec"
	"slices"
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
	cmd := runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, env)
	if cmd.Passed {
		t.Fatalf("a failing subtest passed: %+v", cmd)
	}
	// Each failed test carries the runner's line for it.
	if d := cmd.Details.(CommandDetails); !strings.HasSuffix(d.Failures["example.com/m.TestAC_m_1_2_1/sub"], ": wrong") {
		t.Errorf("failures: %q", d.Failures)
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
	// Each criterion not traced says why: a criterion a failing test names
	// is not one that no test names.
	why := map[string]string{}
	for _, ref := range r.Details.(CriteriaDetails).Untraced {
		why[ref.ID] = ref.Why
	}
	if !strings.HasPrefix(why["AC-m-1.2.1"], "named only by tests that failed") || !strings.Contains(why["AC-m-1.2.1"], "TestAC_m_1_2_1") ||
		why["AC-m-1.3.1"] != WhyNoTest || !strings.HasPrefix(why["AC-m-1.1.2"], "named only by tests that check nothing: TestCallsOnly") {
		t.Errorf("why untraced: %q", why)
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
	if len(refs) != 3 || !slices.Equal(refs[0].ids, []string{"ac-p-1.1.1"}) || !slices.Equal(refs[1].ids, []string{"ac-p-1.1.2"}) || refs[2].ids != nil {
		t.Fatalf("refs %+v", refs)
	}
	tests := []TestCase{{Package: "tests.test_p", Name: "test_one", Status: TestPassed}, {Package: "tests.test_p.TestX", Name: "test_two", Status: TestFailed}}
	root := project(t, map[string]string{"tests/test_p.py": src})
	traces, _, err := traceByRun(t.Context(), root, ReportJUnit, []string{"ac-p-1.1.1", "ac-p-1.1.2"}, tests)
	if err != nil || !traces["ac-p-1.1.1"].passed || traces["ac-p-1.1.2"].passed {
		t.Errorf("traces %+v %v", traces, err)
	}
}

// traceTasks is a tasks.md whose one task has the given criterion IDs.
func traceTasks(ids ...string) string {
	s := "## Phase 1: One\n\n- [x] 1.1 A\n  - w\n  - Estimate: 1h\n"
	for _, id := range ids {
		s += "  - [x] " + id + ": holds\n"
	}
	return s
}

// goGate runs go test with its JSON report, then the acceptance_criteria
// check on specs/2026-01-01-m/tasks.md, in a Go module holding files.
func goGate(t *testing.T, files map[string]string, ids ...string) (command, criteria Result) {
	t.Helper()
	root := goModule(t, "package m\n")
	files["specs/2026-01-01-m/tasks.md"] = traceTasks(ids...)
	writeFiles(t, root, files)
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "specs/2026-01-01-m"}, Tests: &TestRun{}, TasksPhase: 1}
	command = runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, env)
	criteria = runCheck(t, Check{Type: TypeAcceptanceCriteria, File: "{spec_dir}/tasks.md"}, env)
	return command, criteria
}

// The cheats that once traced a Go criterion: an empty test named after it,
// an empty subtest named after it, a check in a file the go tool never
// compiles or that a build constraint leaves out, a skipped test.
func TestGoCriteriaTracedOnlyByATestThatRanAndCanFail(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	const check = "package m\n\nimport \"testing\"\n\n// AC-m-1.1.1\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n"
	const empty = "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"empty test named after the ID", map[string]string{"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestAC_m_1_1_1(t *testing.T) {}\n"},
			"named only by tests that check nothing (no t.Error, t.Fatal or helper given t): AC-m-1.1.1 (line 6) by TestAC_m_1_1_1 (a_test.go:5)"},
		{"empty subtest named after the ID", map[string]string{"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tt.Run(\"AC_m_1_1_1\", func(t *testing.T) {})\n\tt.Run(\"real\", func(t *testing.T) {\n\t\tif Two() != 2 {\n\t\t\tt.Fatal(\"wrong\")\n\t\t}\n\t})\n}\n"},
			"by TestTwo/AC_m_1_1_1 (a_test.go:6)"},
		{"a check in a file whose name starts with _", map[string]string{"a_test.go": empty, "_ghost_test.go": check},
			"no test that passed in this run names: AC-m-1.1.1"},
		{"a check in a file whose name starts with .", map[string]string{"a_test.go": empty, ".ghost_test.go": check},
			"no test that passed in this run names: AC-m-1.1.1"},
		{"a check in a file under testdata", map[string]string{"a_test.go": empty, "testdata/x_test.go": check},
			"no test that passed in this run names: AC-m-1.1.1"},
		{"a check in a file no build includes", map[string]string{"a_test.go": empty, "never_test.go": "//go:build never\n\n" + check},
			"no test that passed in this run names: AC-m-1.1.1"},
		{"a check in another system's file", map[string]string{"a_test.go": empty, "a_plan9_test.go": check},
			"no test that passed in this run names: AC-m-1.1.1"},
		{"a skipped test", map[string]string{"a_test.go": "package m\n\nimport \"testing\"\n\n// AC-m-1.1.1\nfunc TestTwo(t *testing.T) {\n\tt.Skip(\"later\")\n\tif Two() != 2 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\nfunc TestOK(t *testing.T) {}\n"},
			"named only by tests that were skipped (a skip, xfail, todo, or a test expected to fail such as it.fails): AC-m-1.1.1 (line 6) by TestTwo (a_test.go:6, skipped)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			command, r := goGate(t, tt.files, "AC-m-1.1.1")
			if !command.Passed {
				t.Fatalf("the tests failed: %+v\n%s", command, command.Output)
			}
			if r.Passed {
				t.Fatalf("traced: %+v", r)
			}
			contains(t, "message", r.Message, tt.want)
		})
	}
}

// The honest forms still trace: a comment, a test or a subtest named after
// the ID that checks, and a test in a file the test command's tags build.
func TestGoCriteriaTracedByHonestTests(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	const checks = "\tif Two() != 2 {\n\t\tt.Fatal(\"wrong\")\n\t}\n"
	command, r := goGate(t, map[string]string{
		"a_test.go": "package m\n\nimport \"testing\"\n\n// AC-m-1.1.1\nfunc TestTwo(t *testing.T) {\n" + checks + "}\n\n" +
			"func TestAC_m_1_1_2(t *testing.T) {\n" + checks + "}\n\n" +
			"func TestSubs(t *testing.T) {\n\tt.Run(\"AC_m_1_1_3\", func(t *testing.T) {\n" + checks + "\t})\n}\n",
		"b_test.go": "//go:build !never\n\npackage m\n\nimport \"testing\"\n\n// AC-m-1.1.4\nfunc TestBuilt(t *testing.T) {\n" + checks + "}\n",
	}, "AC-m-1.1.1", "AC-m-1.1.2", "AC-m-1.1.3", "AC-m-1.1.4")
	if !command.Passed || !r.Passed {
		t.Fatalf("honest tests refused: %+v / %+v\n%s", command, r, command.Output)
	}
	contains(t, "command message", command.Message, "5 tests passed")
}

// A file a build constraint leaves out counts for a test no built file
// declares: the report lists it only when the test command's tags built it.
func TestGoConstrainedFileTracesATestOnlyItDeclares(t *testing.T) {
	root := project(t, map[string]string{
		"go.mod":             "module example.com/m\n",
		"a_test.go":          "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
		"integ_test.go":      "//go:build integration\n\npackage m\n\nimport \"testing\"\n\n// AC-m-1.1.1\nfunc TestInteg(t *testing.T) { t.Fatal(\"x\") }\n",
		"shadow_test.go":     "//go:build integration\n\npackage m\n\nimport \"testing\"\n\n// AC-m-1.1.2\nfunc TestA(t *testing.T) { t.Fatal(\"x\") }\n",
		"_ghost_test.go":     "package m\n\nimport \"testing\"\n\n// AC-m-1.1.3\nfunc TestGhost(t *testing.T) { t.Fatal(\"x\") }\n",
		"testdata/x_test.go": "package m\n\nimport \"testing\"\n\n// AC-m-1.1.3\nfunc TestData(t *testing.T) { t.Fatal(\"x\") }\n",
	})
	tests := []TestCase{
		{Package: "example.com/m", Name: "TestA", Status: TestPassed},
		{Package: "example.com/m", Name: "TestInteg", Status: TestPassed},
		{Package: "example.com/m", Name: "TestGhost", Status: TestPassed},
		{Package: "example.com/m/testdata", Name: "TestData", Status: TestPassed},
	}
	traces, _, err := traceByRun(t.Context(), root, ReportGoJSON, []string{"ac-m-1.1.1", "ac-m-1.1.2", "ac-m-1.1.3"}, tests)
	if err != nil || !traces["ac-m-1.1.1"].passed || traces["ac-m-1.1.2"].passed || traces["ac-m-1.1.3"].passed {
		t.Errorf("traces %+v %v: want only AC-m-1.1.1 traced", traces, err)
	}
}

func TestGoSubtestRefs(t *testing.T) {
	src := "package m\n\nimport \"testing\"\n\n// AC-a-1.1.1\nfunc TestP(t *testing.T) {\n\tt.Run(\"AC-a-1.1.2 holds\", func(t *testing.T) {\n\t\tt.Run(\"in\", func(t *testing.T) { t.Error(\"x\") /* AC-a-1.1.3 */ })\n\t})\n}\n"
	got := map[string]string{}
	for _, r := range goTestRefs([]byte(src), []string{"ac-a-1.1.1", "ac-a-1.1.2", "ac-a-1.1.3"}, "m", "m_test.go") {
		got[r.name] = strings.Join(r.ids, ",")
		if !r.checks {
			t.Errorf("%s cannot fail, but its subtest can", r.name)
		}
	}
	want := map[string]string{"TestP": "ac-a-1.1.1", "TestP/AC-a-1.1.2_holds": "ac-a-1.1.2", "TestP/AC-a-1.1.2_holds/in": "ac-a-1.1.3"}
	if len(got) != len(want) {
		t.Fatalf("refs %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s names %q, want %q", k, got[k], v)
		}
	}
}

// traceJUnit traces ids through the test files of a project against the
// cases of a JUnit report.
func traceJUnit(t *testing.T, files map[string]string, ids []string, tests []TestCase) map[string]runTrace {
	t.Helper()
	traces, _, err := traceByRun(t.Context(), project(t, files), ReportJUnit, ids, tests)
	if err != nil {
		t.Fatal(err)
	}
	return traces
}

// wantTrace checks how each ID fared: "passed", "hollow", "skipped" or
// "untraced".
func wantTrace(t *testing.T, traces map[string]runTrace, want map[string]string) {
	t.Helper()
	for id, w := range want {
		tr := traces[id]
		got := "untraced"
		switch {
		case tr.passed:
			got = "passed"
		case len(tr.hollow) > 0:
			got = "hollow"
		case len(tr.skipped) > 0:
			got = "skipped"
		}
		if got != w {
			t.Errorf("%s is %s, want %s (%+v)", id, got, w, tr)
		}
	}
}

// Python tests that assert nothing, are skipped or expected to fail do not
// trace; a case's name alone does not trace a Python test.
func TestPythonCriteriaTracedOnlyByATestThatRanAndCanFail(t *testing.T) {
	src := `import pytest

# AC-p-1.1.1
def test_checks():
    assert f() == 1

def test_ac_p_1_1_2():
    f()  # assert later

def test_skips():
    """AC-p-1.1.3"""
    pytest.skip("later")
    assert f() == 1

# AC-p-1.1.4
@pytest.mark.xfail
def test_xpass():
    assert f() == 1

@pytest.mark.skip
class TestSkipped:
    def test_m(self):
        """AC-p-1.1.5: "assert" in a string is no check"""
        assert f() == 1

class TestRaises:
    def test_r(self):  # AC-p-1.1.6
        with pytest.raises(ValueError):
            f(-1)

def test_ac_p_1_1_7():
    self.assertEqual(f(), 1)
`
	tests := []TestCase{
		{Package: "tests.test_p", Name: "test_checks", Status: TestPassed},
		{Package: "tests.test_p", Name: "test_ac_p_1_1_2", Status: TestPassed},
		{Package: "tests.test_p", Name: "test_skips", Status: TestSkipped},
		{Package: "tests.test_p", Name: "test_xpass", Status: TestPassed},
		{Package: "tests.test_p.TestSkipped", Name: "test_m", Status: TestPassed},
		{Package: "tests.test_p.TestRaises", Name: "test_r", Status: TestPassed},
		{Package: "tests.test_p", Name: "test_ac_p_1_1_7[1]", Status: TestPassed},
		{Package: "tests.test_other", Name: "test_ac_p_1_1_8", Status: TestPassed}, // a Python file with no test_ name
	}
	traces := traceJUnit(t, map[string]string{"tests/test_p.py": src, "tests/test_other.py": "x = 1\n"},
		[]string{"ac-p-1.1.1", "ac-p-1.1.2", "ac-p-1.1.3", "ac-p-1.1.4", "ac-p-1.1.5", "ac-p-1.1.6", "ac-p-1.1.7", "ac-p-1.1.8"}, tests)
	wantTrace(t, traces, map[string]string{"ac-p-1.1.1": "passed", "ac-p-1.1.2": "hollow", "ac-p-1.1.3": "skipped", "ac-p-1.1.4": "skipped",
		"ac-p-1.1.5": "skipped", "ac-p-1.1.6": "passed", "ac-p-1.1.7": "passed", "ac-p-1.1.8": "untraced"})
}

// JS/TS tests trace by a comment in or above them, or by their title, when
// Vitest's or jest-junit's report has them as passed; tests that assert
// nothing, are skipped, todo or expected to fail do not.
func TestJSCriteriaTracedOnlyByATestThatRanAndCanFail(t *testing.T) {
	src := "import { describe, it, test, expect } from 'vitest'\n" +
		"describe('greet', () => {\n" +
		"  // AC-j-1.1.1\n" +
		"  it('names the person', () => {\n    expect(greet('ann')).toBe('hello, ann') // a ) in a comment\n  })\n" +
		"  it('is empty', () => {\n    greet('') // AC-j-1.1.2, expect nothing\n    const s = \"expect(\"\n  })\n" +
		"  it.skip('is skipped AC-j-1.1.3', () => { expect(1).toBe(2) })\n" +
		"  it.todo('AC-j-1.1.4 later')\n" +
		"  it.fails('fails AC-j-1.1.5', () => { expect(1).toBe(2) })\n" +
		"  test.each([[1], [2]])('each %i', (n) => {\n    /* AC-j-1.1.6 */ expect(n).toBeGreaterThan(0)\n  })\n" +
		"})\n" +
		"xit('old AC-j-1.1.7', () => { expect(/[)]/.test(')')).toBe(true) })\n" +
		"test(`AC-j-1.1.8 top`, () => { expect(greet('')).toBe('hello, world') })\n"
	jest := "describe('sum', () => {\n  test('adds', () => {\n    // AC-j-1.2.1\n    expect(1 + 1).toBe(2)\n  })\n  test.failing('AC-j-1.2.2 fails', () => { expect(1).toBe(2) })\n})\n"
	tests := []TestCase{
		{Package: "src/greet.test.ts", Name: "greet > names the person", Status: TestPassed},
		{Package: "src/greet.test.ts", Name: "greet > is empty", Status: TestPassed},
		{Package: "src/greet.test.ts", Name: "greet > is skipped AC-j-1.1.3", Status: TestSkipped},
		{Package: "src/greet.test.ts", Name: "greet > AC-j-1.1.4 later", Status: TestSkipped},
		{Package: "src/greet.test.ts", Name: "greet > fails AC-j-1.1.5", Status: TestPassed},
		{Package: "src/greet.test.ts", Name: "greet > each 1", Status: TestPassed},
		{Package: "src/greet.test.ts", Name: "old AC-j-1.1.7", Status: TestSkipped},
		{Package: "src/greet.test.ts", Name: "AC-j-1.1.8 top", Status: TestPassed},
		{Package: "sum adds", Name: "sum adds", Status: TestPassed},                         // jest-junit: no file
		{Package: "sum AC-j-1.2.2 fails", Name: "sum AC-j-1.2.2 fails", Status: TestPassed}, // test.failing passes
	}
	traces := traceJUnit(t, map[string]string{"web/src/greet.test.ts": src, "__tests__/sum.js": jest},
		[]string{"ac-j-1.1.1", "ac-j-1.1.2", "ac-j-1.1.3", "ac-j-1.1.4", "ac-j-1.1.5", "ac-j-1.1.6", "ac-j-1.1.7", "ac-j-1.1.8", "ac-j-1.2.1", "ac-j-1.2.2"}, tests)
	// each %i is a title no case carries as written: it does not trace.
	wantTrace(t, traces, map[string]string{"ac-j-1.1.1": "passed", "ac-j-1.1.2": "hollow", "ac-j-1.1.3": "skipped", "ac-j-1.1.4": "skipped",
		"ac-j-1.1.5": "skipped", "ac-j-1.1.6": "untraced", "ac-j-1.1.7": "skipped", "ac-j-1.1.8": "passed", "ac-j-1.2.1": "passed", "ac-j-1.2.2": "skipped"})

	// The same title in a file the runner did not run traces nothing: the
	// case names its file.
	traces = traceJUnit(t, map[string]string{"src/a.test.ts": "it('works', () => {})\n", "src/ghost.test.ts": "// AC-j-1.3.1\nit('works', () => { expect(1).toBe(1) })\n"},
		[]string{"ac-j-1.3.1"}, []TestCase{{Package: "src/a.test.ts", Name: "works", Status: TestPassed}})
	wantTrace(t, traces, map[string]string{"ac-j-1.3.1": "untraced"})
}

// A JUnit case from a language whose sources are not read (Java) traces by
// its name.
func TestJUnitCaseOfAnotherLanguageTracesByName(t *testing.T) {
	traces := traceJUnit(t, map[string]string{"src/test/java/LoginTest.java": "class LoginTest {}\n"}, []string{"ac-l-1.1.1", "ac-l-1.1.2"}, []TestCase{
		{Package: "com.example.LoginTest", Name: "testAC_l_1_1_1", Status: TestPassed},
		{Package: "com.example.LoginTest", Name: "testAC_l_1_1_2", Status: TestSkipped},
	})
	wantTrace(t, traces, map[string]string{"ac-l-1.1.1": "passed", "ac-l-1.1.2": "untraced"})
}

// Through a real pytest run: its JUnit report, then the trace.
func TestPytestCriteriaTracedOnlyByATestThatRanAndCanFail(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	if _, err := exec.LookPath("pytest"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but pytest is not installed: %v (apt-get install python3-pytest)", err)
		}
		t.Skipf("needs pytest (apt-get install python3-pytest): %v", err)
	}
	src := "import pytest\n\n# AC-p-1.1.1\ndef test_checks():\n    assert 1 + 1 == 2\n\n# AC-p-1.1.2\ndef test_nothing():\n    1 + 1\n\n" +
		"# AC-p-1.1.3\ndef test_skipped():\n    pytest.skip(\"later\")\n\n# AC-p-1.1.4\n@pytest.mark.xfail\ndef test_xpass():\n    assert 1 + 1 == 2\n\n" +
		"# AC-p-1.1.5\n@pytest.mark.xfail\ndef test_xfail():\n    assert 1 + 1 == 3\n"
	root := project(t, map[string]string{"tests/test_p.py": src, "specs/2026-01-01-p/tasks.md": traceTasks("AC-p-1.1.1", "AC-p-1.1.2", "AC-p-1.1.3", "AC-p-1.1.4", "AC-p-1.1.5")})
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "specs/2026-01-01-p"}, Tests: &TestRun{}, TasksPhase: 1}
	command := runCheck(t, Check{Type: TypeCommand, Command: "pytest -q -p no:cacheprovider --junitxml=junit.xml tests", Report: "junit:junit.xml"}, env)
	if !command.Passed {
		t.Fatalf("pytest failed: %+v\n%s", command, command.Output)
	}
	contains(t, "command message", command.Message, "3 tests passed, 2 skipped")
	r := runCheck(t, Check{Type: TypeAcceptanceCriteria, File: "{spec_dir}/tasks.md"}, env)
	if r.Passed {
		t.Fatalf("traced: %+v", r)
	}
	contains(t, "message", r.Message, "AC-p-1.1.2 (line 7) by test_nothing (tests/test_p.py:8)",
		"3 criteria are named only by tests that were skipped", "AC-p-1.1.3 (line 8), AC-p-1.1.4 (line 9), AC-p-1.1.5 (line 10) by test_skipped (tests/test_p.py:12, skipped)")
	if strings.Contains(r.Message, "AC-p-1.1.1") {
		t.Errorf("AC-p-1.1.1 is traced by test_checks: %s", r.Message)
	}
}
