package pathpolicy

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openFlags open for reading; Windows has no pipes in the file tree.
const openFlags = os.O_RDONLY

// links returns the number of links of the open file f: Windows reports it
// only for an open handle.
func links(f *os.File, _ fs.FileInfo) (uint64, error) {
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(syscall.Handle(f.Fd()), &d); err != nil {
		return 0, fmt.Errorf("%s: link count: %w", f.Name(), err)
	}
	return uint64(d.NumberOfLinks), nil
}
