//go:build unix

package workflow

import (
	"os"
	"syscall"
)

// specOpenFlags open a spec file for reading without following a link and
// without blocking on a pipe swapped in after it was looked at.
const specOpenFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
