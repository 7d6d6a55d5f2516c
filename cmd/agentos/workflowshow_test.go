package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// `workflow show` prints under each phase's last gate what it proved: per
// criterion, its test before the change and now, the functions emptied,
// and the earlier tests that no longer hold, or how many still do; with
// nothing an agent wrote able to send the terminal an escape or a control
// character.
func TestWorkflowShowGateEvidence(t *testing.T) {
	at := time.Date(2026, 1, 2, 15, 4, 0, 0, time.Local)
	passed := &workflow.GateReport{Passed: true, At: at, Checks: []gates.Result{
		{Type: "command", Passed: true, Message: "go test ./... passed.", Details: gates.CommandDetails{Command: "go test ./...", Earlier: 3}},
		{Type: "acceptance_criteria", Passed: true, Message: "1 criterion proven.", Details: gates.CriteriaDetails{
			File: ".agentos/specs/greet/tasks.md", Criteria: 1, Checked: 1,
			Proofs: []gates.Proof{{ID: "AC-greet-1.1.1", Test: "TestGreet (greet_test.go:6)", Before: "failed",
				Failure: "greet_test.go:8: \x1b[31mGreet(\"\") = \"\", want \"hello, world\"\x1b[0m <script>", After: gates.TestPassed, Proven: true}},
			Emptied: []string{"greet.go: Greet", "greet.go: \x1b]0;pwned\x07name"},
		}},
	}}
	failed := &workflow.GateReport{At: at, Checks: []gates.Result{
		{Type: "command", Message: "2 earlier tests no longer hold.", Details: gates.CommandDetails{Command: "go test ./...", Earlier: 4, Regressions: []gates.Regression{
			{Test: "TestOld", Now: "no longer runs (deleted, renamed, or no longer collected)"},
			{Test: "TestTotal\u202e", Now: "passes now only as the session changed it: as written before, it fails on the code now", Failure: "total_test.go:9: got 3,\r\nwant 4\x07"},
		}}},
		{Type: "acceptance_criteria", Message: "AC-greet-2.1.1 is not proven.", Details: gates.CriteriaDetails{
			Proofs: []gates.Proof{{ID: "AC-greet-2.1.1", Test: "TestEmpty (greet_test.go:12)", Before: "passed", After: gates.TestPassed}},
		}},
	}}
	got := showSession(t, func(s *workflow.Session) {
		s.Phases[0].Status, s.Phases[0].LastGate = workflow.Done, passed
		s.Phases[1].Status, s.Phases[1].LastGate = workflow.Active, failed
		s.Current = 2
	})
	for _, want := range []string{
		"     last gate passed at 2026-01-02 15:04\n",
		"       AC-greet-1.1.1  TestGreet (greet_test.go:6)  failed before: greet_test.go:8: Greet(\"\") = \"\", want \"hello, world\" <script>  → passes now  proven\n",
		"       emptied for the run before the change: greet.go: Greet, greet.go: name\n",
		"       3 earlier tests still hold\n",
		"     ✗ command: 2 earlier tests no longer hold.\n",
		"       earlier tests that no longer hold (2 of 4):\n",
		"         TestOld  no longer runs (deleted, renamed, or no longer collected)\n",
		"         TestTotal  passes now only as the session changed it: as written before, it fails on the code now  total_test.go:9: got 3,  want 4\n",
		"       AC-greet-2.1.1  TestEmpty (greet_test.go:12)  passed before too  → passes now  NOT PROVEN\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("workflow show lacks %q:\n%s", want, got)
		}
	}
	if i, j := strings.Index(got, "3 earlier tests"), strings.Index(got, "earlier tests that no longer hold"); i < 0 || j < i {
		t.Errorf("the evidence is not under its phase:\n%s", got)
	}
	if strings.ContainsAny(got, "\x1b\x07\r\u202e") || strings.Contains(got, "pwned") {
		t.Errorf("workflow show passes an escape or control character to the terminal: %q", got)
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain <b>text</b>":                          "plain <b>text</b>",
		"\x1b[1;31mred\x1b[0m":                       "red",
		"a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b": "alinkb",
		"tab\there\nnew\rline":                       "tab here new line",
		"bell\x07 del\x7f c1\u0085 \u009b2J":         "bell del c1 ",
		"rtl \u202eevil\u2066":                       "rtl evil",
		"bad \xff byte":                              "bad \uFFFD byte",
		"\x1bcreset":                                 "reset",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// `workflow show` prints a request for changes with its comments on
// lines, each by file and lines, with nothing able to reach the terminal
// as an escape.
func TestWorkflowShowChangeRequestComments(t *testing.T) {
	got := showSession(t, func(s *workflow.Session) {
		s.Changes = &workflow.ChangeRequest{By: "ann", Reason: "see the lines", Comments: []workflow.LineComment{
			{File: "specs/x/README.md", Line: 3, EndLine: 3, Quote: "Greet.", Text: "Who?"},
			{File: "specs/x/tasks.md", Line: 5, EndLine: 7, Quote: "a\nb\nc", Text: "Split it\x1b[31m."},
		}}
	})
	want := "changes requested by ann: see the lines\n  specs/x/README.md:3: Who?\n  specs/x/tasks.md:5-7: Split it.\n"
	if !strings.Contains(got, want) {
		t.Errorf("workflow show lacks %q:\n%s", want, got)
	}
}

// showSession starts a spec_creation_v1 session in a new project, lets
// edit set what the test shows, and returns what `workflow show` prints.
func showSession(t *testing.T, edit func(*workflow.Session)) string {
	t.Helper()
	t.Setenv(machinekey.EnvDir, t.TempDir())
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".agentos"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	e, err := workflow.ForProject(p, config.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "greet"}, workflow.Actor{Client: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Store().Update(s.ID, func(s *workflow.Session) error { edit(s); return nil }); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"workflow", "show", s.ID, "--dir", root}, &streams{In: strings.NewReader(""), Out: &out, Err: &errOut}); code != 0 {
		t.Fatalf("workflow show: %d %s", code, errOut.String())
	}
	return out.String()
}
