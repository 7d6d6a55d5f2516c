//go:build unix

package workflow

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A pipe in a spec folder is refused, not read: reading it would wait for
// a writer forever.
func TestApprovalRefusesAPipe(t *testing.T) {
	root := t.TempDir()
	dir := greetSpec(t, root)
	if err := syscall.Mkfifo(filepath.Join(dir, "notes.md"), 0o644); err != nil {
		t.Skipf("no pipes here: %v", err)
	}
	e := engineAt(t, root, "go test ./...", nil)
	_, err := e.ApproveSpec("greet", person, "", nil)
	wantAll(t, "a pipe", err, ".agentos/specs/greet/notes.md", "not a regular file", "remove it")
}
