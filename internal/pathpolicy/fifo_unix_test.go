//go:build unix

package pathpolicy

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenFileDoesNotBlockOnAPipe(t *testing.T) {
	root, r := project(t, map[string]string{"project/x": "x"})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, _, err := OpenFile(r, "fifo")
	refusal(t, err, NotRegular)
}
