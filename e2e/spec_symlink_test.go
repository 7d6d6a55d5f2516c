package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkAt replaces rel (under root) by a symbolic link to target, or skips
// the test where this system does not let it make one.
func linkAt(t *testing.T, root, rel, target string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// A spec file that is a symbolic link to a file elsewhere is refused at
// approval through the built binary, naming the link and what to do;
// nothing is recorded. With the file itself in its place, it approves.
func TestSpecSymlinkRefusedAtApproval(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	write(t, root, dir+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n")
	write(t, root, dir+"/tasks.md", untickedTasks)
	elsewhere := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(elsewhere, []byte("# Notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkAt(t, root, dir+"/notes.md", elsewhere)

	r := runAgentos(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	if r.code == 0 {
		t.Fatalf("a spec holding a link was approved:\n%s", r.stdout)
	}
	for _, want := range []string{dir + "/notes.md", "symbolic link", "replace the link with the file itself"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal lacks %q: %s", want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "state", "approvals", spec+".json")); !os.IsNotExist(err) {
		t.Errorf("an approval was recorded: %v", err)
	}

	os.Remove(filepath.Join(root, filepath.FromSlash(dir), "notes.md"))
	write(t, root, dir+"/notes.md", "# Notes\n")
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
}

// A spec approved with regular files: a file replaced by a link, to the
// same bytes and then rewritten through it, or a link added, voids the
// approval: `workflow show` no longer says it holds, and execution refuses.
func TestSpecSymlinkAfterApprovalVoidsIt(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	readme := "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n"
	write(t, root, dir+"/README.md", readme)
	write(t, root, dir+"/tasks.md", untickedTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	c := stdioClient(t, root, "--transport", "stdio")
	start := map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}
	id := mustWF(t, c, start).Session.ID
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	if r := runOK(t, root, "workflow", "show", id, "--dir", root); !strings.Contains(r.stdout, "it holds") {
		t.Fatalf("the approval does not hold before any link:\n%s", r.stdout)
	}

	wantVoid := func(what string, want ...string) {
		t.Helper()
		r := runOK(t, root, "workflow", "show", id, "--dir", root)
		if strings.Contains(r.stdout, "it holds") || !strings.Contains(r.stdout, "approval no longer holds") {
			t.Errorf("%s: workflow show:\n%s", what, r.stdout)
		}
		for _, w := range want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%s: workflow show lacks %q:\n%s", what, w, r.stdout)
			}
		}
		var shown struct {
			Void string `json:"approval_void"`
		}
		if err := json.Unmarshal([]byte(runOK(t, root, "workflow", "show", id, "--dir", root, "--json").stdout), &shown); err != nil || !strings.Contains(shown.Void, "void") {
			t.Errorf("%s: workflow show --json: approval_void %q (%v)", what, shown.Void, err)
		}
		_, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
		wantRefused(t, what+": completing the phase", errText, append([]string{"void"}, want...)...)
	}

	// README.md becomes a link to the very bytes approved, then the
	// threshold is lowered through it.
	target := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(target, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	linkAt(t, root, dir+"/README.md", target)
	wantVoid("README.md a link", dir+"/README.md", "symbolic link", "replace the link with the file itself")
	if err := os.WriteFile(target, []byte(strings.Replace(readme, "90%", "5%", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	wantVoid("rewritten through the link", dir+"/README.md", "symbolic link")
	if r := runOK(t, root, "workflow", "show", id, "--dir", root); strings.Contains(r.stdout, "Coverage threshold: 5%") {
		t.Errorf("workflow show reads the threshold through the link:\n%s", r.stdout)
	}

	// The file itself again: the approval holds; a link added voids it.
	os.Remove(filepath.Join(root, filepath.FromSlash(dir), "README.md"))
	write(t, root, dir+"/README.md", readme)
	if r := runOK(t, root, "workflow", "show", id, "--dir", root); !strings.Contains(r.stdout, "it holds") {
		t.Fatalf("the approval does not hold with the file restored:\n%s", r.stdout)
	}
	linkAt(t, root, dir+"/extra.md", target)
	wantVoid("a link added", dir+"/extra.md")

	// A new execution on the spec is refused too.
	mustWF(t, c, map[string]any{"action": "delete_session", "session_id": id})
	_, errText := wf(t, c, start)
	wantRefused(t, "starting with a link in the spec", errText, "void", dir+"/extra.md", "agentos workflow approve --spec "+spec)
}
