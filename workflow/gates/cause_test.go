package gates

import (
	"strings"
	"testing"
)

func TestCauseLine(t *testing.T) {
	for out, want := range map[string]string{
		"ERROR: usage: __main__.py [options] [file_or_dir]\n__main__.py: error: argument --cov-report: invalid choice: \"json:c.json\"\n\n": `__main__.py: error: argument --cov-report: invalid choice: "json:c.json"`,
		"sh: 1: node_modules/.bin/vitest: not found\n":                                       "sh: 1: node_modules/.bin/vitest: not found",
		"\x1b[31mMISSING DEPENDENCY\x1b[39m  Cannot find dependency '@vitest/coverage-v8'\n": "MISSING DEPENDENCY Cannot find dependency '@vitest/coverage-v8'",
		"collected 3 items\nall fine\n":                                                      "",
	} {
		if got := causeLine(out); got != want {
			t.Errorf("causeLine(%q) = %q, want %q", out, got, want)
		}
	}
}

// A runner that refuses its command line writes no report: the message
// says the command stopped and quotes why, and the fix no longer blames
// the report's flag.
func TestCommandThatStopsBeforeItsReportNamesTheCause(t *testing.T) {
	skipWindows(t)
	root := project(t, nil)
	cmd := `echo '__main__.py: error: argument --cov-report: invalid choice: "json:c.json"' >&2; exit 4`
	r := runCheck(t, Check{Type: TypeCommand, Command: cmd, Report: "junit:out/junit.xml"}, Env{Root: root, Tests: &TestRun{}})
	if r.Passed {
		t.Fatalf("passed: %+v", r)
	}
	contains(t, "message", r.Message, "The command exited with status 4 without writing its test report out/junit.xml")
	contains(t, "message", r.Message, `Its output says: __main__.py: error: argument --cov-report: invalid choice: "json:c.json"`)
	if strings.Contains(r.Remediation, "--junitxml") {
		t.Errorf("the fix blames the report's flag: %s", r.Remediation)
	}
}
