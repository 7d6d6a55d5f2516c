package fsys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// delete removes a file, symlink (never its target) or, with recursive, a
// directory tree.
func (o *op) delete() (Output, error) {
	t, err := o.resolve("path", o.in.Path, false)
	if err != nil {
		return Output{}, err
	}
	if t.link == "." || t.rel == "." {
		return Output{}, pathError(toolkit.CodeForbidden, "path", "deleting the project root is not allowed")
	}
	if err := o.guardProtected("path", t.rel, t.rel, t.link); err != nil {
		return Output{}, err
	}
	fi, err := o.r.Lstat(t.link)
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	if err := o.guardIgnored("path", t.rel, fi.IsDir(), t.rel, t.link); err != nil {
		return Output{}, err
	}
	if !fi.IsDir() {
		if err := o.r.Remove(t.link); err != nil {
			return Output{}, o.osError("path", t.rel, err)
		}
		return Output{Path: t.rel, Type: kind(fi.Mode())}, nil
	}
	if !o.in.Recursive {
		return Output{}, pathError(toolkit.CodeValidation, "recursive", "%q is a directory; set recursive to true to delete it and everything in it", t.rel)
	}
	if _, err := o.walkTree("path", t.rel, t.link, t.link); err != nil {
		return Output{}, err
	}
	if err := o.r.RemoveAll(t.link); err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	return Output{Path: t.rel, Type: "dir"}, nil
}

// move renames the entry at path (a symlink is moved, not its target) to
// destination, which is its full new name.
func (o *op) move() (Output, error) {
	src, dst, err := o.resolvePair()
	if err != nil {
		return Output{}, err
	}
	if err := o.guardProtected("path", src.rel, src.rel, src.link); err != nil {
		return Output{}, err
	}
	if err := o.guardProtected("destination", dst.rel, dst.rel, dst.link); err != nil {
		return Output{}, err
	}
	fi, err := o.r.Lstat(src.link)
	if err != nil {
		return Output{}, o.osError("path", src.rel, err)
	}
	if err := o.guardIgnored("path", src.rel, fi.IsDir(), src.rel, src.link); err != nil {
		return Output{}, err
	}
	if err := o.guardIgnored("destination", dst.rel, fi.IsDir(), dst.rel, dst.link); err != nil {
		return Output{}, err
	}
	if err := o.checkPair(src, dst, src.link, dst.link, fi.IsDir()); err != nil {
		return Output{}, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if err := o.guardLink("destination", dst.rel, dst.rel, dst.link); err != nil {
			return Output{}, err
		}
	}
	if fi.IsDir() {
		// Both ends of every entry moved must stay clear of protected paths.
		if _, err := o.walkTree("path", src.rel, src.link, dst.link); err != nil {
			return Output{}, err
		}
	}
	if err := o.ensureParent("destination", dst.rel, dst.link); err != nil {
		return Output{}, err
	}
	if err := o.r.Rename(src.link, dst.link); err != nil {
		return Output{}, o.osError("destination", dst.rel, err)
	}
	return Output{Path: src.rel, Destination: dst.rel, Type: kind(fi.Mode())}, nil
}

// copy copies a file, or with recursive a directory tree, to destination.
// Symlinks inside a copied tree are copied as links; a symlink named as the
// source is followed, as cp does.
func (o *op) copy() (Output, error) {
	src, dst, err := o.resolvePair()
	if err != nil {
		return Output{}, err
	}
	// A protected source is refused too: reading it stays allowed, but a
	// copy of agentos's binary or of a client's settings serves no coding
	// task.
	if err := o.guardProtected("path", src.rel, src.rel, src.real); err != nil {
		return Output{}, err
	}
	if err := o.guardProtected("destination", dst.rel, dst.rel, dst.real); err != nil {
		return Output{}, err
	}
	fi, err := o.r.Stat(src.real)
	if err != nil {
		return Output{}, o.osError("path", src.rel, err)
	}
	if fi.IsDir() && !o.in.Recursive {
		return Output{}, pathError(toolkit.CodeValidation, "recursive", "%q is a directory; set recursive to true to copy it and everything in it", src.rel)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return Output{}, pathError(toolkit.CodeValidation, "path", "%q is not a regular file or directory", src.rel)
	}
	if err := o.guardIgnored("destination", dst.rel, fi.IsDir(), dst.rel, dst.real); err != nil {
		return Output{}, err
	}
	if err := o.checkPair(src, dst, src.real, dst.real, fi.IsDir()); err != nil {
		return Output{}, err
	}
	if err := o.ensureParent("destination", dst.rel, dst.real); err != nil {
		return Output{}, err
	}
	if !fi.IsDir() {
		n, err := o.copyFile(src.real, dst.real, fi.Mode().Perm())
		if err != nil {
			return Output{}, err
		}
		return Output{Path: src.rel, Destination: dst.rel, Type: "file", BytesWritten: ptr(n), Count: ptr(1)}, nil
	}
	entries, err := o.walkTree("path", src.rel, src.real, dst.real)
	if err != nil {
		return Output{}, err
	}
	files, n, err := o.copyTree(src.real, dst.real, entries)
	if err != nil {
		return Output{}, err
	}
	return Output{Path: src.rel, Destination: dst.rel, Type: "dir", BytesWritten: ptr(n), Count: ptr(files)}, nil
}

// resolvePair resolves path and destination for move and copy.
func (o *op) resolvePair() (src, dst target, err error) {
	if o.in.Destination == "" {
		return src, dst, toolkit.Validation("destination", "destination is required for action %s", o.in.Action)
	}
	if src, err = o.resolve("path", o.in.Path, false); err != nil {
		return src, dst, err
	}
	if dst, err = o.resolve("destination", o.in.Destination, false); err != nil {
		return src, dst, err
	}
	if src.rel == "." || src.link == "." {
		return src, dst, pathError(toolkit.CodeForbidden, "path", "the project root cannot be moved or copied")
	}
	return src, dst, nil
}

// checkPair refuses destinations that would lose data or make no sense:
// the source itself, a place inside a source directory, an existing
// directory, or an existing file without overwrite. from and to are the
// forms of the two paths the action operates on.
func (o *op) checkPair(src, dst target, from, to string, srcIsDir bool) error {
	if from == to {
		return pathError(toolkit.CodeValidation, "destination", "destination %q is the same as path %q", dst.rel, src.rel)
	}
	if srcIsDir && (within(to, from) || within(dst.real, src.real)) {
		return pathError(toolkit.CodeValidation, "destination", "destination %q is inside the directory %q being %s", dst.rel, src.rel, pastTense(o.in.Action))
	}
	fi, err := o.lstatOrNil(to)
	if err != nil {
		return o.osError("destination", dst.rel, err)
	}
	switch {
	case fi == nil:
		return nil
	case fi.IsDir():
		return pathError(toolkit.CodeBusinessLogic, "destination", "destination %q is an existing directory; give the full new path, or delete it first", dst.rel)
	case srcIsDir || !o.in.Overwrite:
		return pathError(toolkit.CodeBusinessLogic, "destination", "destination %q already exists; set overwrite to true to replace it", dst.rel)
	}
	return nil
}

func pastTense(action string) string {
	switch action {
	case actMove:
		return "moved"
	case actDelete:
		return "deleted"
	}
	return "copied"
}

// treeEntry is one entry below a directory being deleted, moved or copied.
type treeEntry struct {
	rel  string // relative to the directory
	mode fs.FileMode
}

// walkTree lists the tree at from (not following symlinks) and refuses it if
// any entry, at from or at its counterpart under to, is protected: a nested
// .git or a client's settings must not be deleted, moved or created by a
// tree operation any more than by a direct one. A copy also refuses a tree
// holding a file that may not be read, before copying anything.
func (o *op) walkTree(field, shown, from, to string) ([]treeEntry, error) {
	var entries []treeEntry
	err := fs.WalkDir(o.r.FS(), from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := o.ctx.Err(); err != nil {
			return err
		}
		sub := relTo(p, from)
		for _, q := range []string{p, path.Join(to, sub)} {
			var ref *pathpolicy.Refusal
			if err := o.policy().CheckChange(q); errors.As(err, &ref) {
				return pathError(toolkit.CodeForbidden, field, "%q cannot be %s: it would change %q, which is protected (%s: %s); only a person changes it: %s",
					shown, pastTense(o.in.Action), q, ref.Rule.Path, ref.Rule.Why, ref.Rule.Change)
			}
		}
		if d.Type()&fs.ModeSymlink != 0 && o.in.Action != actDelete {
			if err := o.guardLink(field, shown, path.Join(to, sub)); err != nil {
				return err
			}
		}
		if o.in.Action == actCopy && d.Type().IsRegular() {
			f, _, err := pathpolicy.OpenFile(o.r, p)
			if err != nil {
				return o.refusal(field, p, err) // names the file in the tree
			}
			f.Close()
		}
		if sub != "." {
			entries = append(entries, treeEntry{rel: sub, mode: d.Type()})
		}
		return nil
	})
	var te *toolkit.Error
	switch {
	case errors.As(err, &te):
		return nil, err
	case err != nil:
		return nil, o.osError(field, shown, err)
	}
	return entries, nil
}

// guardLink refuses to place a symbolic link at any of paths when a
// protected path lies below it: the link would give that path a new target.
func (o *op) guardLink(field, shown string, paths ...string) error {
	for _, p := range paths {
		if rule, ok := pathpolicy.Within(p); ok {
			return pathError(toolkit.CodeForbidden, field,
				"a symbolic link cannot be placed at %q: %s would then lead wherever it points, and it is protected (%s)", shown, rule.Path, rule.Why)
		}
	}
	return nil
}

// relTo returns p relative to base, both as fs.WalkDir reports them.
func relTo(p, base string) string {
	if p == base {
		return "."
	}
	if base == "." {
		return p
	}
	return p[len(base)+1:]
}

// copyTree recreates entries (as walkTree listed them, parents first) from
// src under dst and returns the files copied and bytes written.
func (o *op) copyTree(src, dst string, entries []treeEntry) (int, int64, error) {
	if err := o.r.Mkdir(dst, newDirMode); err != nil {
		return 0, 0, o.osError("destination", dst, err)
	}
	files, total := 0, int64(0)
	for _, e := range entries {
		if err := o.ctx.Err(); err != nil {
			return files, total, err
		}
		from, to := path.Join(src, e.rel), path.Join(dst, e.rel)
		switch {
		case e.mode.IsDir():
			if err := o.r.Mkdir(to, newDirMode); err != nil {
				return files, total, fmt.Errorf("copy %s: %w", e.rel, err)
			}
		case e.mode&fs.ModeSymlink != 0:
			link, err := o.r.Readlink(from)
			if err != nil {
				return files, total, fmt.Errorf("copy %s: %w", e.rel, err)
			}
			if err := o.r.Symlink(link, to); err != nil {
				return files, total, fmt.Errorf("copy %s: %w", e.rel, err)
			}
		case e.mode.IsRegular():
			fi, err := o.r.Lstat(from)
			if err != nil {
				return files, total, fmt.Errorf("copy %s: %w", e.rel, err)
			}
			n, err := o.copyFile(from, to, fi.Mode().Perm())
			if err != nil {
				return files, total, err
			}
			files++
			total += n
		}
		// Other entry types (sockets, pipes, devices) have no content to copy.
	}
	return files, total, nil
}

// copyFile copies one regular file atomically, keeping its permissions; the
// source is opened as any read is, through the path policy.
func (o *op) copyFile(from, to string, perm fs.FileMode) (int64, error) {
	f, _, err := pathpolicy.OpenFile(o.r, from)
	if err != nil {
		return 0, o.osError("path", from, err)
	}
	defer f.Close()
	cr := &countingReader{r: f}
	if err := o.writeAtomic(to, cr, perm, true); err != nil {
		return 0, o.osError("destination", to, err)
	}
	return cr.n, nil
}

// countingReader counts the bytes a copy moved.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
