package proc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// LockHolders lists the processes that hold a lock (flock, POSIX or open
// file description lock) on the file at path, as the kernel reports them in
// /proc/locks; none when the file does not exist. The answer comes from the
// kernel, not from any file a process wrote, so it cannot be forged.
func LockHolders(path string) ([]int, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock holders of %s: %w", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, fmt.Errorf("lock holders of %s: %w", path, errors.ErrUnsupported)
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return nil, fmt.Errorf("lock holders of %s: %w", path, err)
	}
	defer f.Close()
	return parseLocks(f, st.Ino)
}

// parseLocks reads /proc/locks lines such as
//
//	1: FLOCK  ADVISORY  WRITE 5165 fe:00:9977863 0 EOF
//	1: -> FLOCK  ADVISORY  WRITE 5170 fe:00:9977863 0 EOF   (a waiter)
//
// and returns the pids holding a lock on inode ino. Only the inode is
// compared, not the device: on overlayfs (containers) the kernel names the
// overlay's device while stat names the underlying one. A false match would
// need the same pid to lock another file with the same inode number.
func parseLocks(r io.Reader, ino uint64) ([]int, error) {
	var pids []int
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] == "->" {
			continue // malformed, or a process waiting for the lock
		}
		id := strings.Split(fields[5], ":")
		if len(id) != 3 {
			continue
		}
		if n, err := strconv.ParseUint(id[2], 10, 64); err != nil || n != ino {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read /proc/locks: %w", err)
	}
	return pids, nil
}
