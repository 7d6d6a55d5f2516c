package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An approval keeps the bytes it bound, and a snapshot's files are those
// its binding hashes: the review page diffs against the one and shows the
// other. A kept copy edited afterwards is not passed off as approved.
func TestApprovalKeepsWhatItBound(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".agentos", "specs", "greet")
	writeFile(t, filepath.Join(dir, "README.md"), "# Greet\n\nCoverage threshold: 90%\n")
	ticked := strings.ReplaceAll(approvalTasks, "[ ]", "[x]")
	writeFile(t, filepath.Join(dir, "tasks.md"), ticked)
	e := engineAt(t, root, "go test ./...", nil)

	b, files, err := e.SpecSnapshot(".agentos/specs/greet")
	if err != nil {
		t.Fatal(err)
	}
	tasks := files[".agentos/specs/greet/tasks.md"]
	if string(tasks.Raw) != ticked || string(tasks.Bound) != approvalTasks || b.Files[".agentos/specs/greet/tasks.md"] != sha256Hex(tasks.Bound) {
		t.Fatalf("snapshot of tasks.md: raw %q bound %q", tasks.Raw, tasks.Bound)
	}
	sum := b.Files[".agentos/specs/greet/README.md"]
	if _, ok, _ := e.ApprovedFile(sum); ok {
		t.Fatal("a copy kept before any approval")
	}
	if _, err := e.ApproveSpec("greet", person, "", b); err != nil {
		t.Fatal(err)
	}
	data, ok, err := e.ApprovedFile(sum)
	if err != nil || !ok || string(data) != "# Greet\n\nCoverage threshold: 90%\n" {
		t.Fatalf("kept copy: %q %v %v", data, ok, err)
	}
	os.WriteFile(e.approvedPath(sum), []byte("forged"), 0o644)
	if _, ok, _ := e.ApprovedFile(sum); ok {
		t.Error("an edited copy was returned as approved")
	}
	if _, _, err := e.ApprovedFile("../../etc/passwd"); err == nil {
		t.Error("a path was accepted as a hash")
	}
}

func TestApprovalIf(t *testing.T) {
	for cond, ok := range map[string]bool{
		"bugfix_approval=fix": true, "bugfix_approval=reproduction": true,
		"bugfix_approval=never": false, "approval=terminal": false, "bugfix_approval": false,
	} {
		if err := checkApprovalIf(cond); (err == nil) != ok {
			t.Errorf("checkApprovalIf(%q) = %v", cond, err)
		}
	}
}
