package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// Limits on user-supplied paths; longer ones are refused before touching the
// file system so the error names the argument rather than an OS failure.
const (
	maxPathBytes      = 4096
	maxComponentBytes = 255
	maxSymlinkHops    = 40
)

// target is a user-supplied path checked and resolved inside the root. All
// three forms are slash-separated and relative to the root; "." is the root.
type target struct {
	field string // argument the path came from, for error details
	rel   string // the cleaned path as given: what results report
	real  string // every symlink resolved: used to act on what the path points at
	link  string // symlinks resolved in the parent only: used to act on the entry itself
}

// pathError is an error about a path argument, naming the argument.
func pathError(code, field, format string, args ...any) *toolkit.Error {
	return toolkit.Errorf(code, format, args...).WithDetails(map[string]string{"field": field})
}

// resolve checks raw and resolves it against the root. emptyIsRoot lets an
// empty path mean the root (list and glob); otherwise it is a validation error.
func (o *op) resolve(field, raw string, emptyIsRoot bool) (target, error) {
	rel, err := o.clean(field, raw, emptyIsRoot)
	if err != nil {
		return target{}, err
	}
	t := target{field: field, rel: rel, link: rel}
	if rel != "." {
		parent, err := o.follow(field, rel, path.Dir(rel))
		if err != nil {
			return target{}, err
		}
		t.link = path.Join(parent, path.Base(rel))
	}
	if t.real, err = o.follow(field, rel, t.link); err != nil {
		return target{}, err
	}
	return t, nil
}

// clean validates raw lexically and returns it relative to the root. It
// catches everything that can be judged without the file system, so those
// refusals have precise codes; the os.Root still enforces confinement.
func (o *op) clean(field, raw string, emptyIsRoot bool) (string, error) {
	switch {
	case raw == "" && emptyIsRoot:
		return ".", nil
	case raw == "":
		return "", pathError(toolkit.CodeValidation, field, "%s is required for this action", field)
	case strings.IndexByte(raw, 0) >= 0:
		return "", pathError(toolkit.CodeValidation, field, "%s contains a NUL byte", field)
	case len(raw) > maxPathBytes:
		return "", pathError(toolkit.CodeValidation, field, "%s is %d bytes long; the limit is %d", field, len(raw), maxPathBytes)
	case strings.Contains(raw, `\`):
		// Backslashes are separators on some systems and ordinary characters
		// on others; refusing them everywhere removes `..\` tricks.
		return "", pathError(toolkit.CodeForbidden, field, "%s contains a backslash; use forward slashes", field)
	}
	for _, c := range strings.Split(raw, "/") {
		if len(c) > maxComponentBytes {
			return "", pathError(toolkit.CodeValidation, field, "%s has a component of %d bytes; the limit is %d", field, len(c), maxComponentBytes)
		}
	}
	if isAbs(raw) {
		return o.relFromAbs(field, raw)
	}
	rel := path.Clean(raw)
	if escapes(rel) {
		return "", pathError(toolkit.CodeForbidden, field, "%s %q leads outside the project root", field, raw)
	}
	return rel, nil
}

func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != ""
}

func escapes(rel string) bool { return rel == ".." || strings.HasPrefix(rel, "../") }

// relFromAbs accepts an absolute path only inside the root, under either the
// root as configured or its symlink-free form.
func (o *op) relFromAbs(field, raw string) (string, error) {
	abs := filepath.Clean(filepath.FromSlash(raw))
	for _, root := range []string{o.root, o.realRoot} {
		rel, err := filepath.Rel(root, abs)
		if err == nil && !escapes(filepath.ToSlash(rel)) {
			return filepath.ToSlash(rel), nil
		}
	}
	return "", pathError(toolkit.CodeForbidden, field, "%s %q is outside the project root; use a path relative to the root", field, raw)
}

// follow resolves every symlink in rel (slash-separated, cleaned, inside the
// root) and returns the resulting path, still relative to the root. Missing
// components end the walk: the rest is taken literally, which is what a
// create would do. A link leading outside the root or a loop is FORBIDDEN.
// shown is the path as the caller gave it, for messages.
func (o *op) follow(field, shown, rel string) (string, error) {
	var done []string
	todo := split(rel)
	hops := 0
	missing := false
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", pathError(toolkit.CodeForbidden, field, "%s %q goes through a symbolic link that leads outside the project root", field, shown)
			}
			done = done[:len(done)-1]
			continue
		}
		cur := path.Join(append(done, c)...)
		if missing {
			done = append(done, c)
			continue
		}
		fi, err := o.r.Lstat(cur)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				missing = true
				done = append(done, c)
				continue
			}
			return "", o.osError(field, shown, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		if hops++; hops > maxSymlinkHops {
			return "", pathError(toolkit.CodeForbidden, field, "%s %q goes through a symbolic link loop", field, shown)
		}
		dest, err := o.r.Readlink(cur)
		if err != nil {
			return "", o.osError(field, shown, err)
		}
		dest = filepath.ToSlash(dest)
		if isAbs(dest) {
			inside, err := o.relFromAbs(field, dest)
			if err != nil {
				return "", pathError(toolkit.CodeForbidden, field, "%s %q goes through a symbolic link that leads outside the project root", field, shown)
			}
			done = nil
			dest = inside
		}
		todo = append(split(dest), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}

func split(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// within reports whether p is base or lies under it (both slash-separated,
// relative to the root).
func within(p, base string) bool {
	return base == "." || p == base || strings.HasPrefix(p, base+"/")
}

// osError turns a file-system error about a path into the envelope the
// client sees. Unknown errors stay internal: wrapped, logged, not shown.
func (o *op) osError(field, shown string, err error) error {
	var ref *pathpolicy.Refusal
	switch {
	case errors.As(err, &ref):
		return o.refusal(field, shown, err)
	case errors.Is(err, fs.ErrNotExist):
		return pathError(toolkit.CodeNotFound, field, "%s %q does not exist", field, shown)
	case errors.Is(err, syscall.ENOTDIR):
		return pathError(toolkit.CodeValidation, field, "a parent of %s %q is a file, not a directory", field, shown)
	case errors.Is(err, syscall.ELOOP):
		return pathError(toolkit.CodeForbidden, field, "%s %q goes through a symbolic link loop", field, shown)
	case isEscape(err):
		return pathError(toolkit.CodeForbidden, field, "%s %q resolves outside the project root", field, shown)
	case errors.Is(err, fs.ErrPermission):
		return pathError(toolkit.CodeForbidden, field, "the operating system denied access to %s %q", field, shown)
	case errors.Is(err, syscall.ENAMETOOLONG):
		return pathError(toolkit.CodeValidation, field, "%s %q is too long for the file system", field, shown)
	}
	return fmt.Errorf("%s %s %q: %w", o.in.Action, field, shown, err)
}

// isEscape recognises os.Root's refusal to leave the root; the error value
// is not exported, so its text is the only handle on it.
func isEscape(err error) bool {
	return strings.Contains(err.Error(), "path escapes from parent")
}

// kind names an entry's type the way results report it.
func kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	default:
		return "other"
	}
}

// entryOf describes fi, found at rel.
func entryOf(rel string, fi fs.FileInfo) Entry {
	e := Entry{Name: path.Base(rel), Path: rel, Type: kind(fi.Mode()), Modified: rfc3339(fi)}
	if fi.Mode().IsRegular() {
		e.Size = fi.Size()
	}
	return e
}

func rfc3339(fi fs.FileInfo) string { return fi.ModTime().UTC().Format(time.RFC3339) }

// lstatOrNil returns nil, nil when nothing is at name.
func (o *op) lstatOrNil(name string) (os.FileInfo, error) {
	fi, err := o.r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	return fi, err
}
