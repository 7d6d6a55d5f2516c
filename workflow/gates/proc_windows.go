//go:build windows

package gates

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// shellCommand runs command through cmd.exe. The command line is passed as
// written: /S /C "..." makes cmd strip only the outer quotes.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	shell := os.Getenv("ComSpec")
	if shell == "" {
		shell = "cmd.exe"
	}
	cmd := exec.CommandContext(ctx, shell)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `cmd /S /C "` + command + `"`}
	return cmd
}

// procGroup is the job object a command runs in, so that killing it kills
// every process the command started. The job kills its processes when its
// last handle closes: ours, so they die with the server however it ends.
type procGroup struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	job windows.Handle
}

// newProcGroup has the command start suspended, so that it is in the job
// before it can start anything (started resumes it).
func newProcGroup(cmd *exec.Cmd) (*procGroup, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED
	return &procGroup{cmd: cmd}, nil
}

// started puts the command into a job that kills its processes when closed,
// then lets it run. A command that cannot be resumed is killed, so that
// waiting for it ends.
func (g *procGroup) started() {
	if job, err := newKillOnCloseJob(); err == nil {
		if err := assign(job, g.cmd.Process.Pid); err != nil {
			windows.CloseHandle(job)
		} else {
			g.mu.Lock()
			g.job = job
			g.mu.Unlock()
		}
	}
	if err := resume(uint32(g.cmd.Process.Pid)); err != nil {
		g.cmd.Process.Kill()
	}
}

func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

func assign(job windows.Handle, pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(job, h)
}

// resume starts the main thread of a process created suspended: the only
// thread it has.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		defer windows.CloseHandle(th)
		_, err = windows.ResumeThread(th)
		return err
	}
	return errors.New("the command's thread was not found")
}

// kill ends every process of the job, or the command alone if it has none.
func (g *procGroup) kill() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		if err := windows.TerminateJobObject(g.job, 1); err == nil {
			return nil
		}
	}
	if g.cmd.Process != nil {
		return g.cmd.Process.Kill()
	}
	return nil
}

// release closes the job, which kills whatever the command left running.
func (g *procGroup) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
}
