package standards

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ErrExists is returned by New when the standard's file already exists.
var ErrExists = errors.New("already exists")

// New scaffolds the standard name (see CheckName) as dir/name.md, dated on,
// and returns its path. It never replaces a file: when one exists it returns
// an error wrapping ErrExists and writes nothing.
func New(dir, name string, on time.Time) (string, error) {
	data, err := Scaffold(name, on)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".md")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := createNew(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// createNew writes data to path, which must not exist. The content is
// written to a temporary file first and then linked into place, so that a
// reader never sees a partial file and an existing file is never replaced,
// even by a concurrent writer. Where hard links are not available it falls
// back to an exclusive create.
func createNew(path string, data []byte, perm fs.FileMode) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s %w", path, ErrExists)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	err = os.Link(tmp.Name(), path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s %w", path, ErrExists)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s %w", path, ErrExists)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
