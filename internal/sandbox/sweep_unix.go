//go:build unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A sandbox's private folder holds ownerFile, locked (flock) by the process
// that made it for as long as the sandbox lives. The kernel drops the lock
// when that process dies, even by SIGKILL, so a folder whose lock can be
// taken is one a killed server left behind: the first sandbox a process
// makes removes those (sweep).
const ownerFile = ".owner"

// unownedAge is how old a private folder with no owner file must be to be
// removed: one of an older agentos, or one whose maker died between making
// it and locking it. A folder that young is being set up right now.
const unownedAge = 24 * time.Hour

var sweepOnce sync.Once

// own locks the owner file of the private folder dir; the lock lasts as
// long as the file it returns stays open. The file is locked under another
// name and then renamed: a sweep in another process that found it unlocked
// would take it for a dead owner's.
func own(dir string) (*os.File, error) {
	locking := filepath.Join(dir, ownerFile+".new")
	f, err := os.OpenFile(locking, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Rename(locking, filepath.Join(dir, ownerFile)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// sweep removes, once per process, the private folders under tmp of
// sandboxes whose maker is gone.
func sweep(tmp string) { sweepOnce.Do(func() { sweepDir(tmp) }) }

func sweepDir(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, "agentos-gate-*"))
	for _, dir := range dirs {
		if abandoned(dir) {
			_ = removePrivate(dir)
		}
	}
}

// abandoned reports whether dir is a private folder of this user's that no
// living process owns. Anything else under the name (a link, a file,
// another user's folder) is left alone.
func abandoned(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Since(fi.ModTime()) > unownedAge
	}
	if err != nil {
		return false
	}
	defer f.Close()
	// Taking the lock means its owner is gone; it is released with f.
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
}
