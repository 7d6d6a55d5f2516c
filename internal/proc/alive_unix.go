//go:build !windows

package proc

import (
	"errors"
	"syscall"
)

// Alive reports whether a process with this id exists. A process owned by
// another user counts as alive: signal 0 is refused, but the pid is taken.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
