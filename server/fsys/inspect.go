package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// list returns the entries of a directory, or with recursive of its whole
// tree. Symlinked folders are reported, not entered, and .git is listed but
// never entered: its contents are noise to an agent and can be huge.
func (o *op) list() (Output, error) {
	limit, err := o.maxResults()
	if err != nil {
		return Output{}, err
	}
	t, err := o.resolve("path", o.in.Path, true)
	if err != nil {
		return Output{}, err
	}
	fi, err := o.r.Stat(t.real)
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	if !fi.IsDir() {
		return Output{}, pathError(toolkit.CodeValidation, "path", "%q is a file; use action stat or read", t.rel)
	}
	dir, err := fs.Sub(o.r.FS(), t.real)
	if err != nil {
		return Output{}, fmt.Errorf("list %s: %w", t.rel, err)
	}
	entries := []Entry{}
	truncated := false
	err = fs.WalkDir(dir, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && p == ".":
			return err
		case err != nil:
			return nil // an unreadable subfolder is listed but not entered
		case p == ".":
			return nil
		}
		if err := o.ctx.Err(); err != nil {
			return err
		}
		if len(entries) == limit {
			truncated = true
			return fs.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed while listing
		}
		entries = append(entries, entryOf(path.Join(t.rel, p), info))
		if d.IsDir() && (!o.in.Recursive || isGit(d.Name())) {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	return Output{Path: t.rel, Entries: entries, Count: ptr(len(entries)), Truncated: ptr(truncated)}, nil
}

func isGit(name string) bool { return strings.EqualFold(name, ".git") }

// hasGit reports whether any component of rel is .git.
func hasGit(rel string) bool { return slices.ContainsFunc(split(rel), isGit) }

func (o *op) maxResults() (int, error) {
	n := o.in.MaxResults
	switch {
	case n == 0:
		return defaultMaxResults, nil
	case n < 0 || n > maxMaxResults:
		return 0, toolkit.Validation("max_results", "max_results must be between 1 and %d", maxMaxResults)
	}
	return n, nil
}

// stat describes the entry at path; a symlink is described itself, with
// what it points at.
func (o *op) stat() (Output, error) {
	t, err := o.resolve("path", o.in.Path, false)
	if err != nil {
		return Output{}, err
	}
	fi, err := o.r.Lstat(t.link)
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	out := Output{
		Path:     t.rel,
		Type:     kind(fi.Mode()),
		Mode:     fmt.Sprintf("%04o", fi.Mode().Perm()),
		Modified: rfc3339(fi),
	}
	if fi.Mode().IsRegular() {
		out.Size = ptr(fi.Size())
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		out.Target, out.TargetType = t.real, "missing"
		if tfi, err := o.r.Stat(t.real); err == nil {
			out.TargetType = kind(tfi.Mode())
		}
	}
	return out, nil
}

// exists reports whether anything (a dangling symlink included) is at path.
// A path that may not be accessed is still an error, not false, so the
// answer never hides a refusal.
func (o *op) exists() (Output, error) {
	t, err := o.resolve("path", o.in.Path, false)
	if err != nil {
		return Output{}, err
	}
	fi, err := o.lstatOrNil(t.link)
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	if fi == nil {
		return Output{Path: t.rel, Exists: ptr(false)}, nil
	}
	return Output{Path: t.rel, Exists: ptr(true), Type: kind(fi.Mode())}, nil
}

// errEnough stops a glob walk once the result cap is passed.
var errEnough = errors.New("enough results")

// glob matches a doublestar pattern under path (default the root). The part
// of the pattern before any wildcard is resolved like any path, so it cannot
// lead through a symlink out of the root; wildcards never follow symlinks.
func (o *op) glob() (Output, error) {
	if err := checkPattern(o.in.Pattern); err != nil {
		return Output{}, err
	}
	limit, err := o.maxResults()
	if err != nil {
		return Output{}, err
	}
	base, err := o.resolve("path", o.in.Path, true)
	if err != nil {
		return Output{}, err
	}
	prefix, rest := doublestar.SplitPattern(o.in.Pattern)
	lit, err := o.resolve("pattern", path.Join(base.rel, prefix), true)
	if err != nil {
		return Output{}, err
	}
	out := Output{Path: base.rel, Entries: []Entry{}, Count: ptr(0), Truncated: ptr(false)}
	if fi, err := o.r.Stat(lit.real); err != nil || !fi.IsDir() {
		return out, nil // nothing can match under a missing folder or a file
	}
	dir, err := fs.Sub(o.r.FS(), lit.real)
	if err != nil {
		return Output{}, fmt.Errorf("glob %s: %w", o.in.Pattern, err)
	}
	err = doublestar.GlobWalk(noGitFS{dir}, rest, func(p string, d fs.DirEntry) error {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		rel := path.Join(lit.rel, p)
		if p == "." || hasGit(rel) {
			return nil // ** matches its own base folder, which the caller named
		}
		if len(out.Entries) == limit {
			*out.Truncated = true
			return errEnough
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed while matching
		}
		out.Entries = append(out.Entries, entryOf(rel, info))
		return nil
	}, doublestar.WithNoFollow())
	if err != nil && !errors.Is(err, errEnough) {
		return Output{}, fmt.Errorf("glob %s: %w", o.in.Pattern, err)
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	*out.Count = len(out.Entries)
	return out, nil
}

// checkPattern validates a glob pattern with the same rules as paths; `..`
// is refused wherever it could form a component, alternatives included.
func checkPattern(p string) error {
	const field = "pattern"
	switch {
	case p == "":
		return toolkit.Validation(field, "pattern is required for action glob")
	case strings.IndexByte(p, 0) >= 0:
		return toolkit.Validation(field, "pattern contains a NUL byte")
	case len(p) > maxPathBytes:
		return toolkit.Validation(field, "pattern is %d bytes long; the limit is %d", len(p), maxPathBytes)
	case strings.Contains(p, `\`):
		return pathError(toolkit.CodeForbidden, field, "pattern contains a backslash; use forward slashes")
	case isAbs(p):
		return toolkit.Validation(field, "pattern %q is absolute; make it relative to the project root", p)
	}
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '{' || r == '}' || r == ',' })
	if slices.Contains(parts, "..") {
		return pathError(toolkit.CodeForbidden, field, "pattern %q leads outside the project root", p)
	}
	if !doublestar.ValidatePattern(p) {
		return toolkit.Validation(field, "pattern %q is not a valid glob pattern", p)
	}
	return nil
}

// noGitFS hides .git entries from directory listings so that wildcards never
// descend into it.
type noGitFS struct{ fs.FS }

func (f noGitFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(f.FS, name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return isGit(e.Name()) }), err
}

func (f noGitFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.FS, name) }
