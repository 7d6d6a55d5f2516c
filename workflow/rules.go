package workflow

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/internal/atomicfile"
)

// A gate runs the project's own commands, and so the project's code: a test
// whose init() writes an approval, edits the configuration or a workflow
// definition would change the rules it is judged by. The engine records the
// rules before a gate runs and compares after; a change fails the gate, is
// undone where the recorded bytes allow, and goes to the audit log.

// Limits of what a snapshot keeps to restore: larger files are only hashed,
// so a change to them is reported but not undone.
const (
	snapshotFileBytes  = 1 << 20
	snapshotTotalBytes = 64 << 20
)

type fileState struct {
	sum  [32]byte
	data []byte // nil when over the limits
	mode fs.FileMode
}

// rulesSnapshot is the content of every regular file under the rules folders.
type rulesSnapshot struct {
	dirs  []string
	files map[string]fileState
}

// snapshotRules records every regular file under dirs (absolute paths); a
// folder that does not exist is recorded as empty.
func snapshotRules(dirs []string) (*rulesSnapshot, error) {
	s := &rulesSnapshot{dirs: dirs, files: map[string]fileState{}}
	kept := 0
	err := walkRules(dirs, func(path string, info fs.FileInfo) error {
		if info == nil {
			return nil // not restorable, and any change to it is reported below
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		st := fileState{sum: sha256.Sum256(data), mode: info.Mode().Perm()}
		if len(data) <= snapshotFileBytes && kept+len(data) <= snapshotTotalBytes {
			st.data, kept = data, kept+len(data)
		}
		s.files[path] = st
		return nil
	})
	return s, err
}

// walkRules calls fn for every file under dirs, with a nil FileInfo for one
// that is not a regular file (a link or a device).
func walkRules(dirs []string, fn func(path string, info fs.FileInfo) error) error {
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				if (d.Name() == baseStoreName || d.Name() == earlierDir) && filepath.Dir(path) == dir {
					// The engine's own stores of session bases and of the
					// tests that passed on them, written around every
					// gate; no rule lives there.
					return filepath.SkipDir
				}
				return nil
			}
			info, err := d.Info()
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if !info.Mode().IsRegular() {
				// A link or a device planted among the rules is a change too.
				return fn(path, nil)
			}
			return fn(path, info)
		})
		if err != nil {
			return fmt.Errorf("read %s: %w", dir, err)
		}
	}
	return nil
}

// ruleChange is one file a gate's run changed.
type ruleChange struct {
	path     string
	what     string // "changed", "added" or "removed"
	restored bool
	kept     string // where the bytes the run wrote were kept; "" if nowhere
}

// keepCopy copies the regular file at path to the same place relative to
// root under keep, and returns the copy's path ("" when nothing was kept).
func keepCopy(path, root, keep string) string {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > snapshotFileBytes {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return ""
	}
	dst := filepath.Join(keep, rel)
	if os.MkdirAll(filepath.Dir(dst), 0o755) != nil || atomicfile.WriteFile(dst, data, 0o644) != nil {
		return ""
	}
	return dst
}

// compare returns the files that differ from the snapshot now, leaving out
// writes the engine made itself meanwhile (another session advancing).
func (s *rulesSnapshot) compare(own *ownWrites) ([]ruleChange, error) {
	var changes []ruleChange
	seen := map[string]bool{}
	err := walkRules(s.dirs, func(path string, info fs.FileInfo) error {
		seen[path] = true
		before, existed := s.files[path]
		if info == nil {
			changes = append(changes, ruleChange{path: path, what: "added"})
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		switch {
		case existed && sum == before.sum:
		case own.is(path, sum):
		case existed:
			changes = append(changes, ruleChange{path: path, what: "changed"})
		default:
			changes = append(changes, ruleChange{path: path, what: "added"})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for path := range s.files {
		if !seen[path] && !own.removed(path) {
			changes = append(changes, ruleChange{path: path, what: "removed"})
		}
	}
	slices.SortFunc(changes, func(a, b ruleChange) int { return strings.Compare(a.path, b.path) })
	return changes, nil
}

// restore undoes the changes it can: a file added is removed, a file changed
// or removed gets its recorded bytes back. What the run wrote is first kept
// under keep (at its path relative to root), because the writer may have
// been a person saving the config while the gate ran, and their edit must
// not be lost.
func (s *rulesSnapshot) restore(changes []ruleChange, root, keep string) {
	for i := range changes {
		c := &changes[i]
		if c.what != "removed" {
			c.kept = keepCopy(c.path, root, keep)
		}
		if c.what == "added" {
			c.restored = os.Remove(c.path) == nil
			continue
		}
		st := s.files[c.path]
		if st.data == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
			continue
		}
		// A link planted in place of the file is replaced, not followed.
		if fi, err := os.Lstat(c.path); err == nil && !fi.Mode().IsRegular() {
			os.Remove(c.path)
		}
		c.restored = atomicfile.WriteFile(c.path, st.data, st.mode) == nil
	}
}

// ownWrites remembers what this process last wrote to each file of the
// rules, so that a session advancing while another's gate runs is not taken
// for tampering.
type ownWrites struct {
	mu    sync.Mutex
	files map[string][32]byte // path -> hash; a zero hash: removed
}

func (o *ownWrites) note(path string) {
	data, err := os.ReadFile(path)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.files == nil {
		o.files = map[string][32]byte{}
	}
	if err != nil {
		o.files[path] = [32]byte{}
		return
	}
	o.files[path] = sha256.Sum256(data)
}

func (o *ownWrites) is(path string, sum [32]byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	got, ok := o.files[path]
	return ok && got == sum
}

func (o *ownWrites) removed(path string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	got, ok := o.files[path]
	return ok && got == [32]byte{}
}
