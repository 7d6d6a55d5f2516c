package pathpolicy

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// OpenFile opens rel (slash-separated, relative to the root r) for reading if
// the policy lets an agent read it, and returns the open file and what it is.
// svc_filesystem and the search indexes read project files through it only.
//
// The walk goes one folder at a time, each opened as a root of its own, and
// checks that every folder and the file opened are the very entries it
// looked at: a symbolic link is refused rather than followed, whenever it
// appears, and the file read is the one the checks were about. A path that
// names a symbolic link on purpose is the caller's to resolve first.
func OpenFile(r *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	rel = path.Clean(rel)
	switch {
	case rel == "..", strings.HasPrefix(rel, "../"), path.IsAbs(rel):
		return nil, nil, &Refusal{Kind: Outside, Path: rel}
	case rel == ".":
		return nil, nil, &Refusal{Kind: NotRegular, Path: rel}
	}
	if rule, ok := Match(rel); ok && rule.Access == Secret {
		return nil, nil, &Refusal{Kind: Hidden, Path: rel, Rule: rule}
	}
	secrets := secretFolders(r)
	parts := strings.Split(rel, "/")
	canon := ""
	dir := r
	defer func() {
		if dir != r {
			dir.Close()
		}
	}()
	for _, name := range parts[:len(parts)-1] {
		fi, err := dir.Lstat(name)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, nil, &Refusal{Kind: Symlink, Path: rel}
		case !fi.IsDir():
			return nil, nil, &fs.PathError{Op: "open", Path: rel, Err: syscall.ENOTDIR}
		}
		sub, err := dir.OpenRoot(name)
		if err != nil {
			return nil, nil, err
		}
		if dir != r {
			dir.Close()
		}
		dir = sub
		opened, err := sub.Stat(".")
		if err != nil {
			return nil, nil, err
		}
		if !os.SameFile(fi, opened) {
			return nil, nil, &Refusal{Kind: Changed, Path: rel}
		}
		canon = path.Join(canon, name)
		for p, s := range secrets {
			if os.SameFile(opened, s) {
				canon = p // the same folder under another name
			}
		}
	}
	base := parts[len(parts)-1]
	if rule, ok := Match(path.Join(canon, base)); ok && rule.Access == Secret {
		return nil, nil, &Refusal{Kind: Hidden, Path: rel, Rule: rule}
	}
	fi, err := dir.Lstat(base)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, nil, &Refusal{Kind: Symlink, Path: rel}
	case !fi.Mode().IsRegular():
		return nil, nil, &Refusal{Kind: NotRegular, Path: rel}
	}
	// openFlags never block: a pipe swapped in after the Lstat opens at
	// once and is refused below rather than hanging the caller.
	f, err := dir.OpenFile(base, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err == nil && (!os.SameFile(fi, opened) || !opened.Mode().IsRegular()) {
		err = &Refusal{Kind: Changed, Path: rel}
	}
	if err == nil {
		err = checkLinks(f, opened, rel)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, opened, nil
}

// checkLinks refuses a file with more than one link: the other name may be a
// file outside the project, reached through a link made inside it.
func checkLinks(f *os.File, fi fs.FileInfo, rel string) error {
	n, err := links(f, fi)
	if err != nil {
		return err
	}
	if n > 1 {
		return &Refusal{Kind: HardLink, Path: rel}
	}
	return nil
}

// CheckLinks refuses an open regular file that has more than one link; rel
// names it in the refusal. Writers use it on the file they are about to
// change.
func CheckLinks(f *os.File, rel string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	return checkLinks(f, fi, rel)
}

// secretFolders returns the folders of the secret rules (and the rules
// nested in them) that exist, by their rule path without the slash: a folder
// reached under another name is recognised by identity.
func secretFolders(r *os.Root) map[string]fs.FileInfo {
	out := map[string]fs.FileInfo{}
	for i, rule := range rules {
		pt := patterns[i]
		if pt.anyDepth || !pt.dir || !underSecret(rule.Path) {
			continue
		}
		p := strings.TrimSuffix(rule.Path, "/")
		if fi, err := r.Stat(p); err == nil && fi.IsDir() {
			out[p] = fi
		}
	}
	return out
}

// underSecret reports whether p is a secret rule's path or lies under one.
func underSecret(p string) bool {
	for _, rule := range rules {
		if rule.Access == Secret && strings.HasPrefix(p, rule.Path) {
			return true
		}
	}
	return false
}
