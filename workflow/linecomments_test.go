package workflow

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// atApproval drives a spec_creation_v1 session of agent to its approval
// gate with a real tasks.md, unapproved.
func atApproval(t *testing.T, e *Engine, root string) *Session {
	t.Helper()
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "lines"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, s.Vars["spec_dir"], "tasks.md"), approvalTasks)
	s, err = e.Store().Update(s.ID, func(s *Session) error {
		for i := range s.Phases {
			s.Phases[i].Status = Done
			for j := range s.Phases[i].Tasks {
				s.Phases[i].Tasks[j].Status = Done
			}
		}
		s.Current = 4
		s.Phases[3].Status = Active
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A request for changes carries the person's comments on lines: each
// with its file, its lines and their text as they read when it was sent,
// which the engine quotes itself. A comment on a line that no longer
// reads as the person saw it, on a spec that changed while shown, or on
// lines the file does not have, sends nothing.
func TestRequestChangesCarriesCommentsOnLines(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	s := atApproval(t, e, root)
	tasks := s.Vars["spec_dir"] + "/tasks.md"
	shown, err := e.BindingFor(s.Vars["spec_dir"])
	if err != nil {
		t.Fatal(err)
	}

	for name, c := range map[string]struct {
		comments []LineComment
		want     string
	}{
		"nothing said":     {nil, "say what should change"},
		"empty comment":    {[]LineComment{{File: tasks, Line: 1, Text: "  "}}, "says nothing"},
		"no such file":     {[]LineComment{{File: "elsewhere.md", Line: 1, Text: "x"}}, "has no file elsewhere.md"},
		"past the end":     {[]LineComment{{File: tasks, Line: 9, EndLine: 12, Text: "x"}}, "has 9 lines; a comment is on lines 9–12"},
		"backwards":        {[]LineComment{{File: tasks, Line: 3, EndLine: 2, Text: "x"}}, "lines 3–2"},
		"line now differs": {[]LineComment{{File: tasks, Line: 3, Quote: "## Phase 2", Text: "x"}}, `line 3 changed since you commented on it (it read "## Phase 2", it reads "## Phase 1: Greeting" now)`},
	} {
		if _, err := e.RequestChanges(s.ID, person, "", c.comments, shown); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", name, err, c.want)
		}
	}
	if got, _ := e.Get(s.ID); got.Changes != nil {
		t.Fatalf("a refused request was recorded: %+v", got.Changes)
	}

	s, err = e.RequestChanges(s.ID, person, "", []LineComment{
		{File: tasks, Line: 5, Quote: "- [ ] 1.1 Write the greeting function", Text: " Split this task. "},
		{File: tasks, Line: 8, EndLine: 9, Text: "Name the file."},
	}, shown)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Changes.Comments
	if len(got) != 2 || got[0].Text != "Split this task." || got[0].EndLine != 5 || got[0].Quote != "- [ ] 1.1 Write the greeting function" ||
		got[1].Quote != "  - Acceptance criteria:\n    - [ ] AC-1.1.1: Greet returns \"hello, NAME\"" {
		t.Errorf("comments recorded: %+v", got)
	}
	audit, _ := e.Store().ReadAudit(s.ID)
	if last := audit[len(audit)-1]; last.Action != "reject" || last.Detail != "(2 comments on lines)" {
		t.Errorf("audit: %+v", last)
	}

	// The spec changed while shown: nothing is sent.
	writeFile(t, filepath.Join(root, tasks), approvalTasks+"\nmore\n")
	if _, err := e.RequestChanges(s.ID, person, "again", []LineComment{{File: tasks, Line: 1, Text: "x"}}, shown); err == nil || !strings.Contains(err.Error(), "tasks.md changed") {
		t.Errorf("a spec changed while shown: %v", err)
	}
	// Without comments the reason alone goes, as from the terminal.
	if s, err = e.Reject(s.ID, person, "shorter"); err != nil || s.Changes.Reason != "shorter" || s.Changes.Comments != nil {
		t.Errorf("reject: %v %+v", err, s.Changes)
	}
}

func TestSpecLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\r\nb\r\n": 2, "a\n\n": 2} {
		if got := SpecLines([]byte(in)); len(got) != want {
			t.Errorf("%q: %d lines %q", in, len(got), got)
		}
	}
}

// Every attempt at a gate is kept, the newest MaxEarlierGates before the
// last, so a person can compare them.
func TestGateAttemptsAreKept(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	ctx := context.Background()
	s, err := e.Start(ctx, "spec_creation_v1", map[string]string{"feature": "attempts"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Store().Update(s.ID, func(s *Session) error {
		for j := range s.Phases[0].Tasks {
			s.Phases[0].Tasks[j].Status = Done
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for range MaxEarlierGates + 2 {
		if _, r, err := e.CompletePhase(ctx, s.ID, nil, agent, false); err != nil || r.Passed {
			t.Fatalf("a phase without its files: %v %+v", err, r)
		}
	}
	s, _ = e.Get(s.ID)
	p, earlier := s.Phases[0], s.EarlierGates[1]
	if p.Attempts != MaxEarlierGates+2 || len(earlier) != MaxEarlierGates || p.LastGate == nil || earlier[len(earlier)-1].At.After(p.LastGate.At) {
		t.Errorf("attempts %d, earlier %d, last %v", p.Attempts, len(earlier), p.LastGate)
	}
}
