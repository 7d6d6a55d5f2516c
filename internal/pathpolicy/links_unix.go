//go:build unix

package pathpolicy

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openFlags open for reading without blocking on a pipe.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// links returns the number of links of the file fi describes.
func links(_ *os.File, fi fs.FileInfo) (uint64, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("%s: no link count", fi.Name())
	}
	return uint64(st.Nlink), nil
}
