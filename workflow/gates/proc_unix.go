//go:build !windows

package gates

import (
	"context"
	"os"
	"os/exec"
	"syscall"
)

// watchdog is what the shell runs first: a background subshell that waits
// on fd 3, the read end of a pipe whose only write end the server holds, and
// kills the command's whole process group when it reads end of file — when
// the server closes it after the command, or dies, even by SIGKILL. The shell
// then becomes (exec) the shell that runs the command, without fd 3.
const watchdog = `(read -r _ <&3; kill -KILL 0) >/dev/null 2>&1 & exec /bin/sh -c "$1" 3<&-`

// shellCommand runs command through /bin/sh, behind the watchdog.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	return exec.CommandContext(ctx, "/bin/sh", "-c", watchdog, "agentos-gate", command)
}

// procGroup is the process group a command runs in, so that killing it kills
// every process the command started, and the pipe that kills the group when
// the server dies.
type procGroup struct {
	cmd          *exec.Cmd
	alive, watch *os.File // the pipe's write end (ours) and read end (the watchdog's)
}

func newProcGroup(cmd *exec.Cmd) (*procGroup, error) {
	watch, alive, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{watch} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	return &procGroup{cmd: cmd, alive: alive, watch: watch}, nil
}

// started closes our copy of the watchdog's end, so that only the group
// holds it.
func (g *procGroup) started() { g.watch.Close() }

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
// exited (or could not start), and closes the pipe.
func (g *procGroup) release() {
	_ = g.kill()
	g.watch.Close()
	g.alive.Close()
}
