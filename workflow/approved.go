package workflow

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/agentos-dev/agentos/internal/atomicfile"
)

// Approved versions: every approval keeps the bytes it bound, one file per
// SHA-256 under .agentos/state/approved/, so a person reviewing a spec again
// sees what changed since the last approval, not only that something did.
// The files are content-addressed: ApprovedFile checks the hash on reading,
// so a file edited there is ignored rather than shown as what was approved.

var hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (e *Engine) approvedPath(sum string) string {
	return filepath.Join(e.set.StateDir, "approved", sum)
}

// keepApproved stores the bound bytes of each file. Failing to keep a copy
// loses only the diff the next review shows, so it never stops the approval.
func (e *Engine) keepApproved(files map[string]SpecFile) {
	if len(files) == 0 {
		return
	}
	if err := os.MkdirAll(filepath.Join(e.set.StateDir, "approved"), 0o755); err != nil {
		return
	}
	for _, f := range files {
		e.keepBytes(f.Bound)
	}
}

// keepBytes stores data under its SHA-256, once.
func (e *Engine) keepBytes(data []byte) {
	path := e.approvedPath(sha256Hex(data))
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	if atomicfile.WriteFile(path, data, 0o644) == nil {
		// A gate's rules check must not take this write for tampering.
		e.store.own.note(path)
	}
}

// ApprovedFile returns the bytes an approval bound under sum (a SHA-256 of
// its Binding.Files); ok is false when no intact copy was kept.
func (e *Engine) ApprovedFile(sum string) (data []byte, ok bool, err error) {
	if !hexSHA256.MatchString(sum) {
		return nil, false, invalid("sum", "%q is not a SHA-256", sum)
	}
	data, err = os.ReadFile(e.approvedPath(sum))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read an approved version: %w", err)
	}
	if sha256Hex(data) != sum {
		return nil, false, nil
	}
	return data, true, nil
}
