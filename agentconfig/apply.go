package agentconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentos-dev/agentos/internal/atomicfile"
)

// Backups says where originals of user-owned files are saved: under Dir
// (the project's .agentos/backups/), once, before agentos first edits them.
type Backups struct {
	Dir  string // the backups folder
	Root string // the project root
	Home string // the user's home folder
}

// PathFor is where the original of file is kept: original/<path in the
// project>, original/_home/<path in the home folder>, or
// original/_abs/<absolute path>.
func (b Backups) PathFor(file string) string {
	if rel, ok := within(b.Root, file); ok {
		return filepath.Join(b.Dir, "original", rel)
	}
	if rel, ok := within(b.Home, file); ok && b.Home != "" {
		return filepath.Join(b.Dir, "original", "_home", rel)
	}
	clean := strings.TrimLeft(strings.ReplaceAll(filepath.ToSlash(file), ":", ""), "/")
	return filepath.Join(b.Dir, "original", "_abs", filepath.FromSlash(clean))
}

func within(dir, path string) (string, bool) {
	if dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Display names path for a person: relative to the project root, or with
// ~ for the home folder.
func Display(path, root, home string) string {
	if rel, ok := within(root, path); ok {
		return filepath.ToSlash(rel)
	}
	if rel, ok := within(home, path); ok {
		return "~/" + filepath.ToSlash(rel)
	}
	return path
}

// Apply carries out one planned change: it saves the original once when the
// file is the user's, then writes the new content atomically (or deletes the
// file). A file that is a symbolic link is written through it: the link
// stays and its target is replaced. It returns the backup it wrote, if any.
func Apply(ch Change, b Backups) (string, error) {
	if ch.Action == Unchanged {
		return "", nil
	}
	backup := ""
	if ch.UserOwned && ch.Existed && b.Dir != "" {
		path := b.PathFor(ch.Path)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			if err := write(path, ch.Before, ch.Perm); err != nil {
				return "", err
			}
			backup = path
		} else if err != nil {
			return "", fmt.Errorf("check backup %s: %w", path, err)
		}
	}
	if ch.Action == Removed {
		if err := os.Remove(ch.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return backup, fmt.Errorf("remove %s: %w", ch.Path, err)
		}
		if dir := filepath.Dir(ch.Path); filepath.Base(dir) == ServerName {
			os.Remove(dir) // a folder of agentos's own (.gemini/commands/agentos/), once empty
		}
		return backup, nil
	}
	perm := ch.Perm
	if perm == 0 {
		perm = 0o644
	}
	if err := os.MkdirAll(filepath.Dir(ch.Path), 0o755); err != nil {
		return backup, err
	}
	return backup, atomicfile.WriteThrough(ch.Path, ch.After, perm)
}

func write(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, perm)
}
