//go:build unix

package filesum

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// identity returns the cache key of the file at path as it is now: its
// absolute path, device, inode, size, and modification and change times in
// nanoseconds; and its size. ok is false when the file cannot be looked at.
func identity(path string) (id string, size int64, ok bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", 0, false
	}
	var st unix.Stat_t
	if err := unix.Stat(abs, &st); err != nil {
		return "", 0, false
	}
	return key(fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d\x00%d", abs, st.Dev, st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano())), st.Size, true
}
