//go:build !windows

package gates

import (
	"context"
	"os/exec"
	"syscall"
)

// shellCommand runs command through /bin/sh.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	return exec.CommandContext(ctx, "/bin/sh", "-c", command)
}

// procGroup is the process group a command runs in, so that killing it kills
// every process the command started.
type procGroup struct{ cmd *exec.Cmd }

func newProcGroup(cmd *exec.Cmd) *procGroup {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &procGroup{cmd: cmd}
}

func (g *procGroup) started() {}

// kill kills the whole group. exec calls it when the context is done.
func (g *procGroup) kill() error {
	if g.cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}

// release kills whatever the command left running in its group once it has
// exited.
func (g *procGroup) release() { _ = g.kill() }
