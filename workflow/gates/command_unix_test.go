//go:build !windows

package gates

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gone reports whether the process has ended (or is a zombie waiting for a
// reaper), waiting up to two seconds.
func gone(t *testing.T, pid int) bool {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func childPID(t *testing.T, root string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestCommandKillsProcessGroupOnTimeout(t *testing.T) {
	root := project(t, nil)
	c := Check{Type: TypeCommand, Command: "sleep 30 & echo $! > child.pid; wait", Timeout: 300 * time.Millisecond}
	start := time.Now()
	r := runCheck(t, c, Env{Root: root})
	if r.Passed || !r.Details.(CommandDetails).TimedOut {
		t.Fatalf("%+v", r)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %s", time.Since(start))
	}
	if pid := childPID(t, root); !gone(t, pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("child %d outlived the timed-out command", pid)
	}
}

func TestCommandKillsLeftoversOnExit(t *testing.T) {
	root := project(t, nil)
	// The background child keeps the output open; the check must not wait
	// for it, and must not leave it running.
	c := Check{Type: TypeCommand, Command: "(sleep 30; echo late) & echo $! > child.pid; echo quick"}
	start := time.Now()
	r := runCheck(t, c, Env{Root: root})
	if !r.Passed || r.Output != "quick\n" {
		t.Fatalf("%+v", r)
	}
	if time.Since(start) > 1500*time.Millisecond {
		t.Errorf("took %s", time.Since(start))
	}
	if pid := childPID(t, root); !gone(t, pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("child %d outlived the command", pid)
	}
}

// The watchdog kills the command's whole process group, grandchildren
// included, when the server's end of its pipe closes, as it does when the
// server dies; nothing else needs to happen on the server's side.
func TestWatchdogKillsGroupWhenServerEndCloses(t *testing.T) {
	root := project(t, nil)
	cmd := shellCommand(context.Background(), "sh -c 'sleep 30 & echo $! > child.pid; wait'")
	cmd.Dir = root
	g, err := newProcGroup(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.started()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	pid := waitPID(t, filepath.Join(root, "child.pid"))

	g.alive.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		g.kill()
		t.Fatal("the command outlived the server's end of the pipe")
	}
	if !gone(t, pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("grandchild %d outlived the server's end of the pipe", pid)
	}
	g.release()
}

// The command runs without the watchdog's pipe, and keeps its exit status.
func TestCommandDoesNotInheritTheWatchdogPipe(t *testing.T) {
	root := project(t, nil)
	r := runCheck(t, Check{Type: TypeCommand, Command: "(: <&3) 2>/dev/null && echo open || echo closed; exit 3"}, Env{Root: root})
	if r.Output != "closed\n" || r.Details.(CommandDetails).ExitCode != 3 {
		t.Errorf("output %q, details %+v", r.Output, r.Details)
	}
}

// waitPID waits for a process id to be written whole to path.
func waitPID(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
	}
	t.Fatalf("no process id in %s", path)
	return 0
}
