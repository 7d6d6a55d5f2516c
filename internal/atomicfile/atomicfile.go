// Package atomicfile owns crash-safe file replacement: every file agentos writes
// that a person or another process reads goes through WriteFile, so a reader
// sees either the old content or the new, never a torn file.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile writes data to path atomically: it writes a temporary file in the
// same directory, syncs it, sets perm and renames it over path. The parent
// directory must exist.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return write(path, perm, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteThrough is WriteFile for a path that may be a symbolic link, as a
// dotfile manager (stow, chezmoi, home-manager) leaves one in place of a
// config: the file the links lead to is replaced, atomically in its own
// folder, and the link stays. A link whose target is missing is an error
// and nothing is written.
func WriteThrough(path string, data []byte, perm os.FileMode) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	return WriteFile(target, data, perm)
}

// maxLinks bounds a chain of links, as the kernel does, so a loop ends.
const maxLinks = 40

// DanglingLinkError says a path is a symbolic link to nothing.
type DanglingLinkError struct {
	Path, Target string
}

func (e *DanglingLinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %s, which does not exist; create the file there or remove the link", e.Path, e.Target)
}

// Resolve follows path through symbolic links to the file they lead to,
// and returns path itself when it is not a link (whether or not it exists).
// Only the last element is followed: linked folders above it are used as
// they are. A link to a missing file is a *DanglingLinkError.
func Resolve(path string) (string, error) {
	cur := path
	for range maxLinks {
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) && cur != path {
			return "", &DanglingLinkError{Path: path, Target: cur}
		}
		if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return cur, nil
		}
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		link, err := os.Readlink(cur)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(cur), link)
		}
		cur = link
	}
	return "", fmt.Errorf("resolve %s: more than %d symbolic links in a chain (a loop?)", path, maxLinks)
}

// Copy is WriteFile with the content read from src, which is streamed
// rather than held in memory (a file is copied by the kernel where it can).
func Copy(path string, src io.Reader, perm os.FileMode) error {
	return write(path, perm, func(f *os.File) error {
		_, err := io.Copy(f, src)
		return err
	})
}

// WriteFunc is WriteFile with the content written by fill into the
// temporary file, for content too large to hold in memory at once; fill may
// seek and write at offsets. When fill fails, path is left as it was.
func WriteFunc(path string, perm os.FileMode, fill func(*os.File) error) error {
	return write(path, perm, fill)
}

func write(path string, perm os.FileMode, fill func(*os.File) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, tempPrefix(base)+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// tempPrefix begins the name of a temporary file written for base;
// os.CreateTemp ends it with a random decimal number.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// RemoveLeftovers removes the temporary files that writes of path cut short
// by a crash (power loss, SIGKILL) left beside it, and returns their paths.
// It removes only regular files named as this package names them, never
// anything else. Only a process that alone writes path may call it: another
// process's write in progress would lose its temporary file.
func RemoveLeftovers(path string) ([]string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look for unfinished writes of %s: %w", path, err)
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), tempPrefix(base))
		if !ok || !e.Type().IsRegular() || rest == "" || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		leftover := filepath.Join(dir, e.Name())
		if err := os.Remove(leftover); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove the unfinished write %s: %w", leftover, err))
			continue
		}
		removed = append(removed, leftover)
	}
	return removed, errors.Join(errs...)
}

// syncDir makes the rename durable where the platform allows it; failure only
// weakens durability, never correctness, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
