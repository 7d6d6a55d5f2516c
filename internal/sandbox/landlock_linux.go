package sandbox

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// landlockABI returns the Landlock ABI version the kernel offers; 0 when it
// has none (not built in, or not enabled at boot).
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// File rights: the ones a rule on a single file may carry.
const (
	fsRead  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_EXECUTE
	fsWrite = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsFileOnly = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// handledFS is every file system right the ABI knows, so that each one is
// denied unless a rule allows it.
func handledFS(abi int) uint64 {
	h := uint64(fsRead | fsWrite)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return h
}

// landlockRule allows access beneath (or on) one path.
type landlockRule struct {
	path   string
	access uint64 // fsRead, fsWrite…; trimmed to what the ABI handles
}

// restrictSelf confines the calling thread, and whatever it executes, to
// rules: any file system access no rule allows is denied, and so are mounts
// and unmounts, so the sandbox's mounts cannot be undone. From ABI 6 it also
// keeps signals and abstract sockets inside the sandbox. The thread must
// have no_new_privs set. A rule whose path does not exist is skipped.
func restrictSelf(abi int, rules []landlockRule) error {
	if abi < 1 {
		return errors.New("the kernel offers no Landlock")
	}
	handled := handledFS(abi)
	attr := unix.LandlockRulesetAttr{Access_fs: handled}
	size := unsafe.Sizeof(attr)
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	} else {
		// Older kernels reject the fields they do not know.
		size = unsafe.Offsetof(attr.Access_net)
		if abi >= 4 {
			size = unsafe.Offsetof(attr.Scoped)
		}
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("creating the Landlock rule set: %w", errno)
	}
	defer unix.Close(int(fd))
	for _, r := range rules {
		if err := addRule(int(fd), r, handled); err != nil {
			return err
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("applying the Landlock rule set: %w", errno)
	}
	return nil
}

func addRule(ruleset int, r landlockRule, handled uint64) error {
	pfd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening %s for a Landlock rule: %w", r.path, err)
	}
	defer unix.Close(pfd)
	access := r.access
	if access&fsWrite != 0 {
		// Whoever may write may also truncate, move files across folders
		// and use a terminal's ioctls.
		access |= unix.LANDLOCK_ACCESS_FS_REFER | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return fmt.Errorf("reading %s for a Landlock rule: %w", r.path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fsFileOnly
	}
	pb := unix.LandlockPathBeneathAttr{Allowed_access: access & handled, Parent_fd: int32(pfd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&pb)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("adding a Landlock rule for %s: %w", r.path, errno)
	}
	return nil
}
