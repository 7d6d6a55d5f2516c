package e2e

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

	"github.com/mark3labs/mcp-go/mcp"
)

// A gate's command dies with the server: SIGKILL the server while the gate
// runs, and the process the command started is gone soon after.
func TestGateCommandDiesWithTheServer(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	// The command runs sandboxed and writes nothing the test can see: its
	// grandchild is found by the unique length of its sleep.
	marker := "300." + strconv.Itoa(int(time.Now().UnixNano()%1e9))
	write(t, root, ".agentos/workflows/hang_v1/workflow.yaml", `name: hang_v1
version: 1.0.0
phases:
  - name: Hang
    gate:
      - type: command
        run: "sh -c 'sleep `+marker+` & wait'"
`)
	runOK(t, root, "trust", "--yes") // the person's own definition
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)
	c := httpClient(t, st.URL, nil)
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "hang_v1"}).Session.ID

	ctx, cancel := context.WithCancel(context.Background())
	called := make(chan struct{})
	go func() {
		defer close(called)
		req := mcp.CallToolRequest{}
		req.Params.Name = "svc_workflow"
		req.Params.Arguments = map[string]any{"action": "complete_phase", "session_id": id}
		c.CallTool(ctx, req) // ends with the server
	}()
	defer func() { cancel(); <-called }()

	pid := waitProcess(t, "sleep\x00"+marker+"\x00")
	p.signal(t, syscall.SIGKILL)
	p.exitCode(t)
	for deadline := time.Now().Add(5 * time.Second); !processGone(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the gate's process %d outlived the server by 5 s", pid)
		}
	}
}

// waitProcess waits for a process whose command line (NUL-separated, as
// /proc shows it) is cmdline, and returns its id.
func waitProcess(t *testing.T, cmdline string) int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if pids := processes(cmdline); len(pids) > 0 {
			return pids[0]
		}
	}
	t.Fatalf("no process %q", cmdline)
	return 0
}

// processes lists the running processes whose command line is cmdline (a
// zombie's is empty).
func processes(cmdline string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, "cmdline")); err == nil && string(b) == cmdline {
			if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// processGone reports whether pid has ended: it no longer exists, or is a
// zombie its new parent has not reaped yet.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return os.IsNotExist(err)
	}
	// The state follows the command name, which is in parentheses.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	f := strings.Fields(rest)
	return len(f) > 0 && f[0] == "Z"
}

// A call the primary may have run is not run again by the server that takes
// over: an agent's complete_phase, whose gate is running in the primary when
// its process is killed, ends with an error saying so, its gate ran once,
// and the agent completes the phase by calling again. The gate's command
// runs sandboxed and writes nothing the test can see: it is found in /proc
// by the unique length of its sleep. (A read, such as
// get_server_info, is sent again: TestRequestsInFlightDuringAHandover.)
func TestBridgeDoesNotRepeatACallThatMayHaveRun(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	withRecordedPort(t, root)
	marker := "300." + strconv.Itoa(int(time.Now().UnixNano()%1e9))
	write(t, root, ".agentos/workflows/once_v1/workflow.yaml", `name: once_v1
version: 1.0.0
phases:
  - name: Count
    gate:
      - type: command
        run: "sh -c 'test -f quick || sleep `+marker+`'"
`)
	runOK(t, root, "trust", "--yes") // the person's own definition
	primary := launchAgent(t, root, "ide-primary")
	agent := launchAgent(t, root, "ide-bridged")
	if _, pid := instanceOf(t, agent.c); pid != primary.pid() {
		t.Fatalf("the second agent reaches pid %d, not the primary %d", pid, primary.pid())
	}
	id := mustWF(t, agent.c, map[string]any{"action": "start", "workflow_type": "once_v1"}).Session.ID

	completePhase := func() (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		req := mcp.CallToolRequest{}
		req.Params.Name = "svc_workflow"
		req.Params.Arguments = map[string]any{"action": "complete_phase", "session_id": id}
		return agent.c.CallTool(ctx, req)
	}
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := completePhase()
		done <- answer{res, err}
	}()
	sleep := "sleep\x00" + marker + "\x00"
	pid := waitProcess(t, sleep) // the gate runs
	primary.cmd.Process.Signal(syscall.SIGKILL)

	a := <-done
	if a.err == nil || !strings.Contains(a.err.Error(), "may have taken effect") {
		t.Errorf("complete_phase cut off by the primary's end: %v, %v; want an error saying it may have taken effect", a.res, a.err)
	}
	// The run the primary started ends with it, and none took its place:
	// the server that took over did not run the gate again.
	for deadline := time.Now().Add(5 * time.Second); !processGone(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the gate's process %d outlived the primary by 5 s", pid)
		}
	}
	if pids := processes(sleep); len(pids) > 0 {
		t.Errorf("the gate ran again after the primary's end: processes %v", pids)
	}

	// The honest agent calls again, on the server that took over; this
	// time the gate's command does not wait.
	write(t, root, "quick", "")
	var out wfOut
	res := call(t, agent.c, "svc_workflow", map[string]any{"action": "complete_phase", "session_id": id}, &out)
	if res.IsError || out.Gate == nil || !out.Gate.Passed {
		t.Fatalf("complete_phase called again: %v %+v", res, out.Gate)
	}
	if checks := strings.Join(out.Gate.Checks, " "); !strings.Contains(checks, "test -f quick") {
		t.Errorf("the gate called again did not run its command: %s", checks)
	}
}
