package gates

import "syscall"

// dieWithParent has the kernel kill the shell when the thread that started
// it ends: with the server, since runShell keeps that thread to itself until
// the shell has been waited for. The watchdog kills the rest of the group.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
