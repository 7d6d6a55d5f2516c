package serverctl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/project"
)

// The tests run this binary again as a stand-in server: a process that takes
// the project lock (waiting for it, as a bridge standing by does), records
// its pid beside it as a stdio server does, says so on stdout and holds the
// lock until it is signalled.
const (
	holderEnv = "SERVERCTL_TEST_HOLD"       // the project root
	ignoreEnv = "SERVERCTL_TEST_IGNORETERM" // set: SIGTERM does not stop it
)

func TestMain(m *testing.M) {
	if root := os.Getenv(holderEnv); root != "" {
		os.Exit(hold(root))
	}
	os.Exit(m.Run())
}

func hold(root string) int {
	if os.Getenv(ignoreEnv) != "" {
		signal.Ignore(syscall.SIGTERM)
	}
	p, err := project.At(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fl := flock.New(p.Lock())
	fmt.Println("waiting")
	if err := fl.Lock(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(p.Lock()+".owner", fmt.Appendf(nil, "%d stdio\n", os.Getpid()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("holding")
	time.Sleep(time.Minute)
	return 0
}

func testProject(t *testing.T) project.Paths {
	t.Helper()
	root := t.TempDir()
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// startHolder starts a stand-in server; with wait, it returns before the
// process has the lock (it waits for it).
func startHolder(t *testing.T, p project.Paths, wait bool, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), holderEnv+"="+p.Root), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line := make([]byte, len("waiting\n"))
	if _, err := io.ReadFull(out, line); err != nil || string(line) != "waiting\n" {
		t.Fatalf("the stand-in server did not start: %q %v", line, err)
	}
	if !wait {
		buf := make([]byte, len("holding"))
		if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "holding" {
			t.Fatalf("the stand-in server did not take the lock: %q %v", buf, err)
		}
	}
	return cmd
}

func TestStopWithoutServerTakesTheLock(t *testing.T) {
	t.Parallel()
	p := testProject(t)
	os.RemoveAll(p.Cache())
	s, err := Stop(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	if s.PID != 0 || s.Note != "no server was running" {
		t.Errorf("got pid %d, note %q", s.PID, s.Note)
	}
	if ok, _ := flock.New(p.Lock()).TryLock(); ok {
		t.Error("the lock is not held after Stop")
	}
}

func TestStopSignalsTheHolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in server reads SIGTERM")
	}
	t.Parallel()
	p := testProject(t)
	h := startHolder(t, p, false)
	s, err := Stop(context.Background(), p, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	if s.PID != h.Process.Pid || !strings.Contains(s.Note, fmt.Sprintf("stopped the running server (pid %d", h.Process.Pid)) {
		t.Errorf("got pid %d, note %q; the holder was %d", s.PID, s.Note, h.Process.Pid)
	}
}

// A process waiting for the lock (a bridge standing by) takes it when the
// stopped server exits; with Successors it is stopped too.
func TestStopSuccessors(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel names the holder of a lock on Linux only; elsewhere the state file does")
	}
	t.Parallel()
	p := testProject(t)
	first := startHolder(t, p, false)
	startHolder(t, p, true)
	startHolder(t, p, true)
	waitBlocked(t, p.Lock(), 2)
	s, err := Stop(context.Background(), p, Options{Timeout: 10 * time.Second, Successors: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	// Which of the waiting servers takes the lock over before Stop does
	// (and is stopped in turn) is the kernel's choice, so the number in the
	// note is not fixed; what is, is that Stop returns holding the lock.
	if s.PID != first.Process.Pid || !strings.HasPrefix(s.Note, fmt.Sprintf("stopped the running server (pid %d", s.PID)) {
		t.Errorf("got pid %d, note %q; the first holder was %d", s.PID, s.Note, first.Process.Pid)
	}
	if locked, err := flock.New(p.Lock()).TryLock(); err != nil || locked {
		t.Errorf("Stop returned, and the lock was free to take (%v)", err)
	}
}

func TestStopTimesOut(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in server reads SIGTERM")
	}
	t.Parallel()
	p := testProject(t)
	h := startHolder(t, p, false, ignoreEnv+"=1")
	_, err := Stop(context.Background(), p, Options{Timeout: 300 * time.Millisecond, Again: "run the test again"})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", h.Process.Pid)) || !strings.HasSuffix(err.Error(), "run the test again") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.Cache(), "server.lock")); err != nil {
		t.Error(err)
	}
}

func TestStopEndsWithItsContext(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in server reads SIGTERM")
	}
	t.Parallel()
	p := testProject(t)
	startHolder(t, p, false, ignoreEnv+"=1")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Stop(ctx, p, Options{Timeout: time.Minute}); err != context.DeadlineExceeded {
		t.Fatalf("got %v, want the context's error", err)
	}
}

func TestReleaseOfNothing(t *testing.T) {
	var s *Stopped
	s.Release()
}
