package workflow

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// symlink makes a link at link to target, or skips the test where this
// system does not let the test make one.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// greetSpec writes the greet spec of regular files under root and returns
// its folder.
func greetSpec(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, ".agentos", "specs", "greet")
	writeFile(t, filepath.Join(dir, "README.md"), "# Greet\n\nCoverage threshold: 90%\n")
	writeFile(t, filepath.Join(dir, "tasks.md"), approvalTasks)
	return dir
}

func wantAll(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: not refused", what)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %v; want %q", what, err, w)
		}
	}
}

// A spec folder holding a link, to a file or a folder, at any depth, or
// being one, is refused at approval, naming the link and what to do; no
// approval is recorded. A regular spec approves as before.
func TestApprovalRefusesALinkInTheSpecFolder(t *testing.T) {
	root := t.TempDir()
	dir := greetSpec(t, root)
	outside := filepath.Join(root, "elsewhere")
	writeFile(t, filepath.Join(outside, "notes.md"), "notes\n")
	e := engineAt(t, root, "go test ./...", nil)

	link := filepath.Join(dir, "notes.md")
	symlink(t, filepath.Join(outside, "notes.md"), link)
	_, err := e.ApproveSpec("greet", person, "", nil)
	wantAll(t, "a linked file", err, ".agentos/specs/greet/notes.md", "symbolic link to", "replace the link with the file itself")
	if KindOf(err) != KindRefused {
		t.Errorf("kind %v, want a refusal", KindOf(err))
	}
	if _, err := e.BindingFor(".agentos/specs/greet"); err == nil {
		t.Error("what the approval would bind was shown with a link in it")
	}
	if rec, _ := e.SpecApproval("greet"); rec != nil {
		t.Fatalf("an approval was recorded: %+v", rec)
	}
	os.Remove(link)

	symlink(t, outside, filepath.Join(dir, "design", "more"))
	_, err = e.ApproveSpec("greet", person, "", nil)
	wantAll(t, "a linked folder", err, ".agentos/specs/greet/design/more", "replace the link with the folder itself")
	os.RemoveAll(filepath.Join(dir, "design"))

	// A dangling link is refused too, not read as missing.
	symlink(t, filepath.Join(outside, "gone.md"), link)
	_, err = e.ApproveSpec("greet", person, "", nil)
	wantAll(t, "a dangling link", err, ".agentos/specs/greet/notes.md", "symbolic link")
	os.Remove(link)

	// The spec folder itself a link.
	other := filepath.Join(root, ".agentos", "specs", "other")
	symlink(t, dir, other)
	_, err = e.ApproveSpec("other", person, "", nil)
	wantAll(t, "a linked spec folder", err, "the spec folder .agentos/specs/other is a symbolic link", "replace the link with the folder itself")

	// Only regular files: approved, each file bound by its bytes.
	if _, err := e.ApproveSpec("greet", person, "", nil); err != nil {
		t.Fatal(err)
	}
	rec, _ := e.SpecApproval("greet")
	if got := rec.Binding.Files[".agentos/specs/greet/README.md"]; got != sha256Hex([]byte("# Greet\n\nCoverage threshold: 90%\n")) {
		t.Errorf("README.md bound as %s", got)
	}
}

// The refusal is made where the files an approval binds are collected, so
// a session's approval (terminal, review page, elicitation) meets it too.
func TestSessionApprovalRefusesALink(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "undo"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "elsewhere.md"), approvalTasks)
	symlink(t, filepath.Join(root, "elsewhere.md"), filepath.Join(root, s.Vars["spec_dir"], "tasks.md.link"))
	if _, err := e.Store().Update(s.ID, func(s *Session) error {
		s.Current = 4
		s.Phases[3].Status = Active
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	_, _, err = e.PendingApproval(s.ID)
	wantAll(t, "what a session's approval would bind", err, "tasks.md.link", "symbolic link")
	_, err = e.Approve(s.ID, person, "", nil)
	wantAll(t, "a session's approval", err, "tasks.md.link", "replace the link with the file itself")
	if s, _ := e.Get(s.ID); s.Approval != nil {
		t.Errorf("approved: %+v", s.Approval)
	}
}

// An approval given to regular files is void once a link appears in the
// spec folder, even a link to the very bytes approved, or once a file is
// rewritten through one: the check that it holds never says it does.
func TestALinkAfterApprovalVoidsIt(t *testing.T) {
	root := t.TempDir()
	dir := greetSpec(t, root)
	e := engineAt(t, root, "go test ./...", nil)
	ctx := context.Background()
	if _, err := e.ApproveSpec("greet", person, "", nil); err != nil {
		t.Fatal(err)
	}
	start := func() error {
		s, err := e.Start(ctx, "spec_execution_v1", map[string]string{"spec": "greet"}, agent)
		if err == nil {
			e.Delete(s.ID, CLIActor, true)
		}
		return err
	}
	if err := start(); err != nil {
		t.Fatalf("approved: %v", err)
	}

	// README.md replaced by a link to the same bytes, then to others.
	readme := filepath.Join(dir, "README.md")
	target := filepath.Join(root, "elsewhere", "README.md")
	writeFile(t, target, "# Greet\n\nCoverage threshold: 90%\n")
	os.Remove(readme)
	symlink(t, target, readme)
	wantAll(t, "start with a linked README.md", start(), "is void", ".agentos/specs/greet/README.md", "symbolic link", "replace the link with the file itself", "agentos workflow approve --spec greet")
	writeFile(t, target, "# Greet\n\nCoverage threshold: 5%\n")
	wantAll(t, "start after a rewrite through the link", start(), "is void", "README.md")
	if _, err := e.SpecThreshold(".agentos/specs/greet"); err == nil {
		t.Error("the threshold was read through a link")
	}

	// Back to the file itself: the approval holds again.
	os.Remove(readme)
	writeFile(t, readme, "# Greet\n\nCoverage threshold: 90%\n")
	if err := start(); err != nil {
		t.Fatalf("restored: %v", err)
	}

	// A link added beside the approved files.
	symlink(t, target, filepath.Join(dir, "extra.md"))
	wantAll(t, "start with a link added", start(), "is void", ".agentos/specs/greet/extra.md")
}

// A session's approval is void once a link appears in its spec folder:
// its gate refuses and its state says why.
func TestALinkVoidsASessionApproval(t *testing.T) {
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...", nil)
	s := approvedCreation(t, e, root)
	tasks := filepath.Join(root, s.Vars["spec_dir"], "tasks.md")
	target := filepath.Join(root, "elsewhere.md")
	writeFile(t, target, approvalTasks)
	os.Remove(tasks)
	symlink(t, target, tasks)
	_, _, err := e.CompletePhase(context.Background(), s.ID, nil, agent, false)
	wantAll(t, "the gate", err, "void", "tasks.md", "symbolic link", "agentos workflow approve "+s.ID)
	s, _ = e.Get(s.ID)
	rec, err := e.ApprovalState(s)
	if rec == nil {
		t.Fatal("the approval is not reported")
	}
	wantAll(t, "the approval's state", err, "void", "tasks.md", "symbolic link")
}
