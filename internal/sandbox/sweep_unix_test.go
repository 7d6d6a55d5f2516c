//go:build unix

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sweepHelperEnv makes the test binary a process that owns a sandbox's
// private folder until it is killed.
const sweepHelperEnv = "AGENTOS_SWEEP_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(sweepHelperEnv); dir != "" {
		if err := os.Mkdir(dir, 0o700); err != nil {
			os.Exit(2)
		}
		if _, err := own(dir); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("owned\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A private folder whose owner was killed (SIGKILL) is removed; one whose
// owner lives, a young one with no owner yet, a link and another name are
// kept.
func TestSweepRemovesOnlyWhatAKilledServerLeft(t *testing.T) {
	tmp := t.TempDir()
	start := func(name string) *exec.Cmd {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), sweepHelperEnv+"="+filepath.Join(tmp, name))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil || !strings.HasPrefix(string(buf), "owned") {
			t.Fatalf("the helper did not take its folder: %v %q", err, buf)
		}
		return cmd
	}
	killed := start("agentos-gate-killed")
	alive := start("agentos-gate-alive")
	t.Cleanup(func() { alive.Process.Kill(); alive.Wait() })
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	for _, d := range []string{"agentos-gate-young", "agentos-gate-old", "agentos-other"} {
		if err := os.MkdirAll(filepath.Join(tmp, d, "upper", "work"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// An overlay's work folder its owner may not enter, as a killed gate leaves it.
	os.Chmod(filepath.Join(tmp, "agentos-gate-killed"), 0o700)
	old := time.Now().Add(-2 * unownedAge)
	os.Chtimes(filepath.Join(tmp, "agentos-gate-old"), old, old)
	victim := t.TempDir()
	os.WriteFile(filepath.Join(victim, "keep"), nil, 0o600)
	os.Symlink(victim, filepath.Join(tmp, "agentos-gate-link"))

	sweepDir(tmp)
	for name, kept := range map[string]bool{"agentos-gate-killed": false, "agentos-gate-old": false, "agentos-gate-alive": true,
		"agentos-gate-young": true, "agentos-other": true, "agentos-gate-link": true} {
		if _, err := os.Lstat(filepath.Join(tmp, name)); (err == nil) != kept {
			t.Errorf("%s: kept = %v, want %v", name, err == nil, kept)
		}
	}
	if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
		t.Errorf("the sweep went through a link: %v", err)
	}
}

// Sandboxes made while others sweep are never swept: the owner file is
// locked before it can be seen.
func TestSweepSparesSandboxesBeingMade(t *testing.T) {
	tmp := t.TempDir()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 300; i++ {
			sweepDir(tmp)
		}
	}()
	for i := 0; i < 300; i++ {
		dir, err := os.MkdirTemp(tmp, "agentos-gate-")
		if err != nil {
			t.Fatal(err)
		}
		f, err := own(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, "upper"), 0o700); err != nil {
			t.Fatalf("sandbox %d was swept while it was being made: %v", i, err)
		}
		f.Close()
	}
	<-done
}
