//go:build unix && !linux

package browser

import (
	"os"
	"os/exec"
	"syscall"
)

// prepareCmd starts the browser in its own process group, so closing a
// session can kill it and every helper process it forked at once.
func prepareCmd(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup kills the process group led by p while its leader still runs.
func killGroup(p *os.Process) {
	if p == nil || p.Signal(syscall.Signal(0)) != nil {
		return
	}
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// killUsing is a no-op where there is no /proc to search.
func killUsing(string) int { return 0 }

// sweepProfiles needs /proc to tell a profile in use; elsewhere it does nothing.
func sweepProfiles(func(string)) {}
