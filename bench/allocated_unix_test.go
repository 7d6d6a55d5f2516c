//go:build unix

package bench

import (
	"io/fs"
	"syscall"
)

// allocated is the disk space the file system gave fi (512-byte blocks).
func allocated(fi fs.FileInfo) float64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return float64(st.Blocks) * 512
	}
	return float64(fi.Size())
}
