package fsys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

const (
	newFileMode = 0o666 // before umask, as editors create files
	newDirMode  = 0o777 // before umask
)

// write replaces the file's content atomically: readers see the old or the
// new content, never a torn file. A symlink is written through, keeping it.
func (o *op) write() (Output, error) {
	t, data, err := o.prepareWrite()
	if err != nil {
		return Output{}, err
	}
	existing, err := o.existingFile(t)
	if err != nil {
		return Output{}, err
	}
	perm := fs.FileMode(newFileMode)
	if existing != nil {
		perm = existing.Mode().Perm()
	}
	if err := o.writeAtomic(t.real, strings.NewReader(data), perm, existing != nil); err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	n := int64(len(data))
	return Output{Path: t.rel, BytesWritten: ptr(n), Size: ptr(n), Created: ptr(existing == nil)}, nil
}

// appendFile adds content at the end of the file, creating it if needed.
func (o *op) appendFile() (Output, error) {
	t, data, err := o.prepareWrite()
	if err != nil {
		return Output{}, err
	}
	existing, err := o.existingFile(t)
	if err != nil {
		return Output{}, err
	}
	f, err := o.r.OpenFile(t.real, os.O_WRONLY|os.O_APPEND|os.O_CREATE, newFileMode)
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	// Checked again on the file opened: appending changes it in place.
	if err := pathpolicy.CheckLinks(f, t.rel); err != nil {
		f.Close()
		return Output{}, o.osError("path", t.rel, err)
	}
	if _, err := io.WriteString(f, data); err != nil {
		f.Close()
		return Output{}, fmt.Errorf("append to %s: %w", t.rel, err)
	}
	fi, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Output{}, fmt.Errorf("append to %s: %w", t.rel, err)
	}
	return Output{Path: t.rel, BytesWritten: ptr(int64(len(data))), Size: ptr(fi.Size()), Created: ptr(existing == nil)}, nil
}

// prepareWrite does what write and append share: argument checks, path
// resolution, the write guards and the parent folder.
func (o *op) prepareWrite() (target, string, error) {
	if o.in.Content == nil {
		return target{}, "", toolkit.Validation("content", "content is required for action %s", o.in.Action)
	}
	data := *o.in.Content
	if int64(len(data)) > o.maxWrite {
		return target{}, "", toolkit.Validation("content", "content is %d bytes; the limit is %d bytes", len(data), o.maxWrite)
	}
	t, err := o.resolve("path", o.in.Path, false)
	if err != nil {
		return target{}, "", err
	}
	if err := o.guardWrite("path", t.rel, false, t.rel, t.real); err != nil {
		return target{}, "", err
	}
	if err := o.ensureParent("path", t.rel, t.real); err != nil {
		return target{}, "", err
	}
	return t, data, nil
}

// existingFile returns the file at t now, or nil; a directory or special
// file is an error (appending to a FIFO would block), and so is a file with
// a second hard link, which may be a file outside the project.
func (o *op) existingFile(t target) (fs.FileInfo, error) {
	fi, err := o.r.Stat(t.real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, o.osError("path", t.rel, err)
	case fi.IsDir():
		return nil, pathError(toolkit.CodeValidation, "path", "%q is a directory, not a file", t.rel)
	}
	f, fi, err := pathpolicy.OpenFile(o.r, t.real)
	if err != nil {
		return nil, o.osError("path", t.rel, err)
	}
	f.Close()
	return fi, nil
}

// ensureParent makes the folder name will live in, or, when create_parents
// is false, insists that it exists.
func (o *op) ensureParent(field, shown, name string) error {
	dir := path.Dir(name)
	if dir == "." {
		return nil
	}
	if o.in.createParents() {
		return o.mkdirAll(field, shown, dir)
	}
	fi, err := o.r.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pathError(toolkit.CodeNotFound, field, "the folder of %q does not exist; create it or set create_parents to true", shown)
	case err != nil:
		return o.osError(field, shown, err)
	case !fi.IsDir():
		return pathError(toolkit.CodeValidation, field, "a parent of %q is a file, not a directory", shown)
	}
	return nil
}

// writeAtomic writes src to a temporary file beside name and renames it over
// name. keepPerm sets perm exactly (bypassing the umask) to preserve the mode
// of the file being replaced.
func (o *op) writeAtomic(name string, src io.Reader, perm fs.FileMode, keepPerm bool) (err error) {
	tmp, f, err := o.createTemp(name, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			o.r.Remove(tmp)
		}
	}()
	if _, err = io.Copy(f, src); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if keepPerm {
		if err = f.Chmod(perm); err != nil {
			return fmt.Errorf("chmod %s: %w", tmp, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err = o.r.Rename(tmp, name); err != nil {
		return fmt.Errorf("replace %s: %w", name, err)
	}
	return nil
}

// createTemp creates a new, uniquely named file in name's folder. The name is
// shortened so the temporary name stays within the component limit.
func (o *op) createTemp(name string, perm fs.FileMode) (string, *os.File, error) {
	dir, base := path.Split(name)
	if len(base) > 200 {
		base = base[:200]
	}
	for range 10 {
		tmp := dir + "." + base + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
		f, err := o.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, fmt.Errorf("create temporary file for %s: too many collisions", name)
}

// mkdir creates the folder and its parents; an existing folder is success.
func (o *op) mkdir() (Output, error) {
	t, err := o.resolve("path", o.in.Path, false)
	if err != nil {
		return Output{}, err
	}
	if err := o.guardProtected("path", t.rel, t.rel, t.real); err != nil {
		return Output{}, err
	}
	fi, err := o.r.Stat(t.real)
	switch {
	case err == nil && fi.IsDir():
		return Output{Path: t.rel, Created: ptr(false)}, nil
	case err == nil:
		return Output{}, pathError(toolkit.CodeBusinessLogic, "path", "%q already exists and is not a directory", t.rel)
	case !errors.Is(err, fs.ErrNotExist):
		return Output{}, o.osError("path", t.rel, err)
	}
	if err := o.guardIgnored("path", t.rel, true, t.rel, t.real); err != nil {
		return Output{}, err
	}
	if err := o.mkdirAll("path", t.rel, t.real); err != nil {
		return Output{}, err
	}
	return Output{Path: t.rel, Created: ptr(true)}, nil
}

// mkdirAll creates dir and its parents. os.Root reports a file in the way
// as "exists" rather than "not a directory"; both mean the same to a caller.
func (o *op) mkdirAll(field, shown, dir string) error {
	err := o.r.MkdirAll(dir, newDirMode)
	if errors.Is(err, fs.ErrExist) {
		return pathError(toolkit.CodeValidation, field, "a parent of %s %q is a file, not a directory", field, shown)
	}
	if err != nil {
		return o.osError(field, shown, err)
	}
	return nil
}
