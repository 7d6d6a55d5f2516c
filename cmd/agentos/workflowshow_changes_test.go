package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
)

// `workflow show` prints a request for changes with its comments on
// lines, each by file and lines, with nothing able to reach the terminal
// as an escape.
func TestWorkflowShowChangeRequestComments(t *testing.T) {
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
	if _, err := e.Store().Update(s.ID, func(s *workflow.Session) error {
		s.Changes = &workflow.ChangeRequest{By: "ann", Reason: "see the lines", Comments: []workflow.LineComment{
			{File: "specs/x/README.md", Line: 3, EndLine: 3, Quote: "Greet.", Text: "Who?"},
			{File: "specs/x/tasks.md", Line: 5, EndLine: 7, Quote: "a\nb\nc", Text: "Split it\x1b[31m."},
		}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"workflow", "show", s.ID, "--dir", root}, &streams{In: strings.NewReader(""), Out: &out, Err: &errOut}); code != 0 {
		t.Fatalf("workflow show: %d %s", code, errOut.String())
	}
	want := "changes requested by ann: see the lines\n  specs/x/README.md:3: Who?\n  specs/x/tasks.md:5-7: Split it.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("workflow show lacks %q:\n%s", want, out.String())
	}
}
