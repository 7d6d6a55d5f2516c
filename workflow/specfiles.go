package workflow

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// A spec folder holds its files themselves. An approval binds the bytes a
// person read, and a symbolic link lets those bytes change while the spec
// folder does not: the link's target is rewritten, or the link is pointed
// elsewhere. So a link in a spec folder, a file or a folder at any depth,
// and anything else that is not a regular file (a pipe, a device, a
// Windows junction), is refused when an approval is given and voids an
// approval when it is checked, instead of being hashed by its target's name
// or followed to bytes outside the folder.

// notBindableError is an entry of a spec folder an approval cannot bind by
// its bytes. It unwraps to a refusal, so callers map it as any other.
type notBindableError struct {
	dir  string // the spec folder, slash path from the project root
	path string // the entry, slash path from the project root
	what string // what it is: "a symbolic link to \"../x.md\""
	why  string // why an approval cannot bind it
	fix  string // what a person does about it
}

func (n *notBindableError) Error() string {
	if n.path == n.dir {
		return fmt.Sprintf("the spec folder %s is %s: %s; %s", shown(n.dir), n.what, n.why, n.fix)
	}
	return fmt.Sprintf("%s holds %s, which is %s: %s; %s", shown(n.dir), shown(n.path), n.what, n.why, n.fix)
}

func (n *notBindableError) Unwrap() error { return &Error{Kind: KindRefused, Msg: n.Error()} }

// notBindable returns the refusal for the entry at path (rel from the
// project root) of the spec folder specDir, or nil when it is a regular
// file or a folder. It looks at the entry itself, never through it.
func notBindable(specDir, path, rel string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil // gone: the read that follows says so
	}
	m := fi.Mode()
	switch {
	case m.IsRegular() || m.IsDir():
		return nil
	case m&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		what := "a symbolic link"
		if err == nil {
			what += " to " + strconv.QuoteToASCII(target)
		}
		fix := "replace the link with the file itself (a copy of what it points to)"
		if t, err := os.Stat(path); err == nil && t.IsDir() {
			fix = "replace the link with the folder itself (a copy of what it points to)"
		}
		return &notBindableError{dir: specDir, path: rel, what: what, fix: fix,
			why: "an approval binds the bytes a person read, and through a link they can change while the spec folder does not"}
	default:
		return &notBindableError{dir: specDir, path: rel, what: "not a regular file (" + m.Type().String() + ")",
			why: "an approval binds the bytes of files", fix: "a spec folder holds files and folders only: remove it"}
	}
}

// readSpecFile reads the regular file at path without following a link: a
// link or a pipe put in its place after it was looked at is refused, not
// read through (where the system can say so when opening; elsewhere the
// file opened must still be the one looked at).
func readSpecFile(specDir, path, rel string) ([]byte, error) {
	if err := notBindable(specDir, path, rel); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, specOpenFlags, 0)
	if err != nil {
		if nb := notBindable(specDir, path, rel); nb != nil {
			return nil, nb
		}
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !opened.Mode().IsRegular() || !os.SameFile(fi, opened) {
		if nb := notBindable(specDir, path, rel); nb != nil {
			return nil, nb
		}
		return nil, fmt.Errorf("%s was replaced while it was read", filepath.ToSlash(rel))
	}
	return io.ReadAll(f)
}
