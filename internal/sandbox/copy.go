package sandbox

// Where there is no overlay (macOS, Windows) the command runs in a copy of
// the project in the sandbox's private folder. This file holds what that
// needs and is the same on every system: the copy, the layer put over it,
// the files removed from it, and the record that tells a file the run wrote
// from one it found there.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// copyTree copies the folder src into dst, an existing empty folder, leaving
// out the project-relative paths (with slashes) in skip. Links are copied
// as links, never followed; sockets, pipes and devices are left out. clone,
// when not nil, is tried first on every entry that holds nothing skipped: it
// copies a whole file or folder at once (an APFS clone) or fails, and then
// the entry is copied file by file.
func copyTree(src, dst string, skip []string, clone func(src, dst string) error) error {
	c := copier{src: src, dst: dst, clone: clone}
	for _, s := range skip {
		if s = cleanRel(s); s != "" {
			c.skip = append(c.skip, s)
		}
	}
	return c.dir("")
}

type copier struct {
	src, dst string
	skip     []string
	clone    func(src, dst string) error
}

func (c *copier) at(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

// holdsSkipped reports whether something skipped lies beneath rel.
func (c *copier) holdsSkipped(rel string) bool {
	for _, s := range c.skip {
		if strings.HasPrefix(s, rel+"/") {
			return true
		}
	}
	return false
}

func (c *copier) dir(rel string) error {
	entries, err := os.ReadDir(c.at(c.src, rel))
	if err != nil {
		return err
	}
	for _, e := range entries {
		r := path.Join(rel, e.Name())
		if slices.Contains(c.skip, r) {
			continue
		}
		if c.clone != nil && !c.holdsSkipped(r) {
			if err := c.clone(c.at(c.src, r), c.at(c.dst, r)); err == nil {
				continue
			}
			// A clone that failed may have left part of itself.
			if err := os.RemoveAll(c.at(c.dst, r)); err != nil {
				return err
			}
		}
		if err := c.entry(r); err != nil {
			return err
		}
	}
	return nil
}

// entry copies one file, link or folder; one that is gone by now is left
// out, as if it had not been there.
func (c *copier) entry(rel string) error {
	from, to := c.at(c.src, rel), c.at(c.dst, rel)
	fi, err := os.Lstat(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch fi.Mode().Type() {
	case fs.ModeDir:
		if err := os.Mkdir(to, 0o700); err != nil {
			return err
		}
		if err := c.dir(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return os.Chmod(to, fi.Mode().Perm())
	case 0:
		return copyFile(from, to, fi)
	case fs.ModeSymlink:
		target, err := os.Readlink(from)
		if err != nil {
			return nil
		}
		// Where links need a privilege (Windows without developer mode)
		// the link is left out.
		_ = os.Symlink(target, to)
		return nil
	default:
		return nil
	}
}

// copyFile copies the regular file from to a new file to, with from's
// permissions and modification time (fi), so that build tools see the copy
// as they saw the project.
func copyFile(from, to string, fi fs.FileInfo) error {
	in, err := os.Open(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", from, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	if err := os.Chmod(to, fi.Mode().Perm()); err != nil {
		return err
	}
	return os.Chtimes(to, fi.ModTime(), fi.ModTime())
}

// cleanRel returns rel (project-relative, slashes or not) clean and with
// slashes, or "" when it names the project itself or leaves it.
func cleanRel(rel string) string {
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) || filepath.IsAbs(filepath.FromSlash(rel)) {
		return ""
	}
	return rel
}

// within reports whether the clean relative path rel is one of dirs or lies
// beneath one of them.
func within(rel string, dirs []string) bool {
	for _, d := range dirs {
		if d = cleanRel(d); d != "" && (rel == d || strings.HasPrefix(rel, d+"/")) {
			return true
		}
	}
	return false
}

// applyLayer puts the files of layer over root, at the same relative paths,
// as the overlay does on Linux: a file of the layer replaces whatever root
// holds there, and a folder of the layer merges with root's. Nothing of
// root that is in the way is followed: a link where the layer has a folder
// is replaced by a folder.
func applyLayer(layer, root string) error {
	return filepath.WalkDir(layer, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(layer, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch d.Type() {
		case fs.ModeDir:
			return ensureDir(root, rel)
		case 0:
			if err := ensureDir(root, path.Dir(rel)); err != nil {
				return err
			}
			to := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.RemoveAll(to); err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return copyFile(p, to, fi)
		default:
			return nil // the layer holds files only
		}
	})
}

// ensureDir makes rel a folder beneath root, replacing anything on the way
// that is not a folder (a file or a link) by an empty folder.
func ensureDir(root, rel string) error {
	if rel == "." || rel == "" {
		return nil
	}
	cur := root
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		switch {
		case err == nil && fi.Mode().Type() == fs.ModeDir:
			continue
		case err == nil:
			if err := os.RemoveAll(cur); err != nil {
				return err
			}
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := os.Mkdir(cur, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// removeBeneathRoot removes the file or link at rel beneath root, following
// no link on the way; nothing there, or a link or a file on the way, is
// fine: there is then nothing to remove beneath root.
func removeBeneathRoot(root, rel string) error {
	rel = cleanRel(rel)
	if rel == "" {
		return nil
	}
	if _, ok := plainDirs(root, path.Dir(rel)); !ok {
		return nil
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return os.RemoveAll(p)
	}
	return os.Remove(p)
}

// plainDirs returns root joined with rel when every element of rel is a
// folder, none a link, a junction or anything else.
func plainDirs(root, rel string) (string, bool) {
	cur := root
	if rel == "." || rel == "" {
		return cur, true
	}
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode().Type() != fs.ModeDir {
			return "", false
		}
	}
	return cur, true
}

// plainFile returns the regular file at rel beneath root, and what it is,
// when nothing on the way is a link (or a junction) and the file itself is
// regular.
func plainFile(root, rel string) (string, fs.FileInfo, bool) {
	rel = cleanRel(rel)
	if rel == "" {
		return "", nil, false
	}
	dir, ok := plainDirs(root, path.Dir(rel))
	if !ok {
		return "", nil, false
	}
	p := filepath.Join(dir, path.Base(rel))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", nil, false
	}
	return p, fi, true
}

// mark is what a file of the copy was before the first command ran.
type mark struct {
	size  int64
	mtime time.Time
	mode  fs.FileMode
}

func markOf(fi fs.FileInfo) mark {
	return mark{size: fi.Size(), mtime: fi.ModTime(), mode: fi.Mode()}
}

// marks records the regular files of a copy by their relative paths with
// slashes: a file found later as it was is one the run did not write, which
// the overlay's upper layer says on Linux.
type marks map[string]mark

// recordMarks records every regular file beneath root.
func recordMarks(root string) (marks, error) {
	m := marks{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		m[filepath.ToSlash(rel)] = markOf(fi)
		return nil
	})
	return m, err
}

// written reports whether the file at rel, now fi, is one the run created
// or changed: it was not in the copy, or its size, time or mode differ.
// Writing a file, even with the same bytes, changes its time.
func (m marks) written(rel string, fi fs.FileInfo) bool {
	was, ok := m[rel]
	if !ok {
		return true
	}
	now := markOf(fi)
	return now.size != was.size || !now.mtime.Equal(was.mtime) || now.mode != was.mode
}
