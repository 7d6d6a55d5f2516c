package gates

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goModule returns a project holding a Go module with the given test file.
func goModule(t *testing.T, test string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	return project(t, map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"m.go":      "package m\n\nfunc Two() int { return 2 }\n",
		"m_test.go": test,
	})
}

const goTestCmd = "go test -json -coverprofile=cover.out ./..."

func TestGoTestJSONFailingTestFailsWhateverTheExitStatus(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	tests := []struct {
		name, test string
		wantMsg    []string
	}{
		{"TestMain exits 0 after a failure", "package m\n\nimport (\"os\"; \"testing\")\n\nfunc TestMain(m *testing.M) { m.Run(); os.Exit(0) }\n\nfunc TestTwo(t *testing.T) { t.Fatal(\"wrong\") }\n\nfunc TestOK(t *testing.T) {}\n",
			[]string{"1 test failed (exit status 0)", "example.com/m.TestTwo"}},
		{"build failure", "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) { undefined() }\n",
			[]string{"failed", "build failed"}},
		{"panic", "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) { var p *int; _ = *p }\n",
			[]string{"example.com/m.TestTwo"}},
		{"TestMain runs nothing", "package m\n\nimport (\"os\"; \"testing\")\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n\nfunc TestTwo(t *testing.T) { t.Fatal(\"wrong\") }\n",
			[]string{"no test ran"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := goModule(t, tt.test)
			run := &TestRun{}
			r := runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, Env{Root: root, Tests: run})
			if r.Passed {
				t.Fatalf("passed: %+v\n%s", r, r.Output)
			}
			contains(t, "message", r.Message, tt.wantMsg...)
		})
	}
}

func TestGoTestJSONRecordsTheTestsThatRan(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	root := goModule(t, "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\nfunc TestSkip(t *testing.T) { t.Skip(\"later\") }\n")
	run := &TestRun{}
	c := Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON, Produces: []string{"cover.out"}}
	r := runCheck(t, c, Env{Root: root, Tests: run})
	if !r.Passed {
		t.Fatalf("failed: %+v\n%s", r, r.Output)
	}
	contains(t, "message", r.Message, "1 test passed, 1 skipped", "go-test-json report")
	if strings.Contains(r.Output, "=== RUN") || strings.Contains(r.Output, `"Action"`) {
		t.Errorf("output holds events or RUN lines: %q", r.Output)
	}
	kind, tests := run.Results()
	if kind != ReportGoJSON || len(tests) != 2 || tests[0] != (TestCase{Package: "example.com/m", Name: "TestTwo", Status: TestPassed}) || tests[1].Status != TestSkipped {
		t.Errorf("recorded %s %+v", kind, tests)
	}
}

func TestGoTestJSONNoEvents(t *testing.T) {
	skipWindows(t)
	root := project(t, nil)
	r := runCheck(t, Check{Type: TypeCommand, Command: "echo all tests passed", Report: ReportGoJSON}, Env{Root: root})
	if r.Passed {
		t.Fatal("a command printing no events passed")
	}
	contains(t, "message", r.Message, "no go test -json events")
}

func TestGoTestJSONForgedEventsCannotUnfail(t *testing.T) {
	sink := newGoTestSink(&tailBuffer{max: 100})
	for _, l := range []string{
		`{"Action":"start","Package":"p"}`,
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"fail","Package":"p","Test":"TestA"}`,
		`{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"run","Package":"p","Test":"TestB"}`,
		`{"Action":"pass","Package":"p"}`,
	} {
		sink.Write([]byte(l + "\n"))
	}
	o := sink.outcome()
	if strings.Join(o.failed, ",") != "p.TestA,p.TestB" {
		t.Errorf("failed %v: want TestA (failed, then a forged pass) and TestB (never finished)", o.failed)
	}
}

// A failed test carries the first line the runner gave for it, so the
// evidence can say what it asserted; a test that passed carries none.
func TestFailedTestsCarryTheirFailureLine(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	root := goModule(t, "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tt.Log(\"chatter\")\n}\n\nfunc TestThree(t *testing.T) {\n\tif Two() != 3 {\n\t\tt.Fatalf(\"Two() = %d, want 3\", Two())\n\t}\n}\n")
	run := &TestRun{}
	runCheck(t, Check{Type: TypeCommand, Command: goTestCmd, Report: ReportGoJSON}, Env{Root: root, Tests: run})
	_, tests := run.Results()
	if len(tests) != 2 || tests[0].Failure != "" || tests[1].Failure != "m_test.go:11: Two() = 2, want 3" {
		t.Errorf("go test: %+v", tests)
	}
	o := junitOutcome(t, `<testsuite><testcase classname="t" name="test_bad"><failure message="AssertionError: assert 1 == 2&#10;+  where 1 = f()">trace</failure></testcase><testcase classname="t" name="test_err"><error/></testcase></testsuite>`)
	if len(o.tests) != 2 || o.tests[0].Failure != "AssertionError: assert 1 == 2" || o.tests[1].Failure != "" {
		t.Errorf("junit: %+v", o.tests)
	}
}

// junitOutcome reads report as a JUnit file.
func junitOutcome(t *testing.T, report string) testOutcome {
	t.Helper()
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := readJUnit(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestJUnitReport(t *testing.T) {
	skipWindows(t)
	t.Parallel()
	const failing = `<?xml version="1.0"?><testsuites><testsuite name="pytest" failures="1"><testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py"/><testcase classname="tests.test_a" name="test_bad"><failure message="assert 1 == 2"/></testcase><testcase classname="tests.test_a" name="test_later"><skipped/></testcase></testsuite></testsuites>`
	const passing = `<testsuite tests="1"><testcase classname="t" name="test_ok"/></testsuite>`
	write := func(xml string) string { return "cat > out/junit.xml <<'EOF'\n" + xml + "\nEOF" }
	tests := []struct {
		name, cmd string
		pass      bool
		msg       string
	}{
		{"a failure, exit 0", write(failing), false, "1 test failed (exit status 0): tests.test_a.test_bad"},
		{"stale report", "true", false, "out/junit.xml was not written by the command"},
		{"old date", write(passing) + "\ntouch -d 2001-01-01 out/junit.xml", false, "before the command started"},
		{"empty", write(`<testsuite/>`), false, "it lists no test"},
		{"passing", write(passing), true, "1 test passed in"},
		// pytest writes xfail as a skip; Vitest writes skip and todo so.
		{"skipped", write(`<testsuite><testcase classname="t" name="test_ok"/><testcase classname="t" name="test_x"><skipped type="pytest.xfail" message=""/></testcase><testcase classname="a.test.ts" name="g &gt; later"><skipped/></testcase></testsuite>`), true, "1 test passed, 2 skipped in"},
		{"all skipped", write(`<testsuite><testcase classname="t" name="test_x"><skipped type="pytest.skip"/></testcase></testsuite>`), false, "every test it lists was skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := project(t, map[string]string{"out/junit.xml": passing})
			run := &TestRun{}
			r := runCheck(t, Check{Type: TypeCommand, Command: tt.cmd, Report: "junit:{out}/junit.xml"}, Env{Root: root, Vars: map[string]string{"out": "out"}, Tests: run})
			if r.Passed != tt.pass {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			contains(t, "message", r.Message, tt.msg)
			if _, tests := run.Results(); tt.pass && len(tests) != 1+r.Details.(CommandDetails).Skipped {
				t.Errorf("recorded %+v", tests)
			}
		})
	}
}

func TestCommandProduces(t *testing.T) {
	skipWindows(t)
	root := project(t, map[string]string{"cover.out": "mode: set\n"})
	c := Check{Type: TypeCommand, Command: "true", Produces: []string{"cover.out"}}
	r := runCheck(t, c, Env{Root: root})
	if r.Passed {
		t.Fatal("a report left from before passed as this run's")
	}
	contains(t, "message", r.Message, "cover.out was not written by the command")
	if _, err := os.Stat(filepath.Join(root, "cover.out")); err == nil {
		t.Error("the old report was not removed before the run")
	}
	c.Command = "echo 'mode: set' > cover.out"
	if r := runCheck(t, c, Env{Root: root}); !r.Passed {
		t.Fatalf("a fresh report: %+v", r)
	}
}

func TestCommandExitStatusReportWarns(t *testing.T) {
	skipWindows(t)
	r := runCheck(t, Check{Type: TypeCommand, Command: "true", Report: ReportExitStatus}, Env{Root: project(t, nil)})
	if !r.Passed || len(r.Warnings) != 1 || !strings.Contains(r.Message, "only its exit status was read") {
		t.Fatalf("%+v", r)
	}
}

func TestReportSpecValidation(t *testing.T) {
	for _, bad := range []string{"gotest", "junit", "junit:", "go-test-json:x"} {
		if err := (Check{Type: TypeCommand, Command: "true", Report: bad}).Validate(); err == nil {
			t.Errorf("report %q accepted", bad)
		}
	}
}

// jest-junit writes a failure's message as the text of <failure>, with the
// stack after it; pytest and Vitest write it in the message attribute.
func TestJUnitFailureMessageFromText(t *testing.T) {
	t.Parallel()
	o := junitOutcome(t, `<testsuites><testsuite name="greet" failures="2">`+
		`<testcase classname="an empty name greets the world" name="an empty name greets the world" file="src/greet.empty.test.ts"><failure><![CDATA[Error: expect(received).toBe(expected) // Object.is equality

Expected: "hello, world"
Received: "hello, "
    at Object.<anonymous> (/tmp/p/src/greet.empty.test.ts:5:21)
    at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)]]></failure></testcase>`+
		`<testcase classname="t" name="attr"><failure message="assert 1 == 2">ignored text</failure></testcase>`+
		`<testcase classname="t" name="ok"/></testsuite></testsuites>`)
	if len(o.tests) != 3 {
		t.Fatalf("tests: %+v", o.tests)
	}
	if got, want := o.tests[0].Failure, `Error: expect(received).toBe(expected) // Object.is equality Expected: "hello, world" Received: "hello, "`; got != want {
		t.Errorf("jest's failure = %q, want %q", got, want)
	}
	if got := o.tests[1].Failure; got != "assert 1 == 2" {
		t.Errorf("the message attribute's failure = %q", got)
	}
	if o.tests[2].Failure != "" || o.tests[2].Status != TestPassed {
		t.Errorf("a passing test: %+v", o.tests[2])
	}
}
