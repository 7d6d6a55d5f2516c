//go:build linux

package browser

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// prepareCmd starts the browser in its own process group, so closing a
// session can kill it and every helper process it forked at once, and asks
// the kernel to kill it should the server die without closing it. The
// kernel sends that signal when the thread that started the browser ends;
// the allocator starts it from a goroutine locked to its thread until the
// browser exits, so no other goroutine's thread ending can kill it.
func prepareCmd(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// killGroup kills the process group led by p while its leader still runs
// (so the group id cannot belong to anyone else).
func killGroup(p *os.Process) {
	if p == nil || p.Signal(syscall.Signal(0)) != nil {
		return
	}
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// killUsing kills every process whose command line names the user data
// directory dir: helpers that left the group or outlived their parent.
func killUsing(dir string) int {
	want := []byte("--user-data-dir=" + dir)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
			if bytes.Equal(arg, want) {
				syscall.Kill(pid, syscall.SIGKILL)
				n++
				break
			}
		}
	}
	return n
}

// inUse reports whether a running process names dir as its user data directory.
func inUse(dir string) bool {
	want := []byte("--user-data-dir=" + dir)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && bytes.Contains(cmdline, want) {
			return true
		}
	}
	return false
}

// sweepProfiles removes browser profiles that a killed server left in the
// temporary directory: older than an hour and used by no running process.
func sweepProfiles(log func(dir string)) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, dir := range dirs {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() || time.Since(fi.ModTime()) < time.Hour || inUse(dir) {
			continue
		}
		if os.RemoveAll(dir) == nil {
			log(dir)
		}
	}
}
