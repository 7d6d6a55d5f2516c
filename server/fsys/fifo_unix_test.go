//go:build unix

package fsys

import (
	"syscall"
	"testing"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// TestSpecialFiles checks that a FIFO is refused rather than opened, which
// would block the call forever.
func TestSpecialFiles(t *testing.T) {
	f := newFixture(t)
	must(t, syscall.Mkfifo(f.path("pipe"), 0o644))
	f.fail(t, map[string]any{"action": "read", "path": "pipe"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "append", "path": "pipe", "content": "x"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "write", "path": "pipe", "content": "x"}, toolkit.CodeValidation)
	f.fail(t, map[string]any{"action": "copy", "path": "pipe", "destination": "pipe2"}, toolkit.CodeValidation)
	out := f.ok(t, map[string]any{"action": "stat", "path": "pipe"})
	if out.Type != "other" {
		t.Errorf("stat: %+v", out)
	}
}
