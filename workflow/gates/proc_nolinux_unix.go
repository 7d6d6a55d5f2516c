//go:build !windows && !linux

package gates

import "syscall"

// dieWithParent does nothing where there is no parent-death signal (macOS,
// the BSDs): the watchdog alone kills the group when the server dies.
func dieWithParent(*syscall.SysProcAttr) {}
