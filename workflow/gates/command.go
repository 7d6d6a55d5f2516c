package gates

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// CommandDetails is the Details of a command result.
type CommandDetails struct {
	Command     string `json:"command"` // as run, placeholders expanded
	Workdir     string `json:"workdir"` // relative to the project root
	ExitCode    int    `json:"exit_code"`
	DurationMS  int64  `json:"duration_ms"`
	TimedOut    bool   `json:"timed_out,omitempty"`
	OutputBytes int64  `json:"output_bytes"`         // all the output, of which Result.Output is the tail
	OutputCut   bool   `json:"output_cut,omitempty"` // Result.Output is only the tail
}

// waitDelay bounds how long the output of a finished or stopped command may
// stay open, held by a child that escaped the kill.
const waitDelay = 2 * time.Second

func (c Check) runCommand(ctx context.Context, env Env) Result {
	command, err := Placeholders(c.Command, env.Vars)
	if err != nil {
		return failf(c.Type, "Fix the command's placeholders in the workflow definition.", "The command cannot be prepared: %s.", trimDot(err.Error()))
	}
	dir, rel := env.Root, "."
	if c.Workdir != "" {
		dir, rel, err = resolve(env.Root, c.Workdir, env.Vars)
		if err != nil {
			return failf(c.Type, "Point workdir at a folder inside the project.", "The command's workdir cannot be used: %s.", trimDot(err.Error()))
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return failf(c.Type, fmt.Sprintf("Create the folder %s or fix workdir.", rel), "The command's workdir %s is not an existing folder.", rel)
		}
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	d := CommandDetails{Command: command, Workdir: rel, ExitCode: -1}
	start := time.Now()
	out, exitCode, timedOut, runErr := runShell(ctx, dir, command, timeout)
	d.DurationMS = time.Since(start).Milliseconds()
	d.ExitCode, d.TimedOut = exitCode, timedOut
	d.OutputBytes, d.OutputCut = out.total, out.total > int64(OutputTailBytes)
	shown := clip(command, 120)
	var r Result
	switch {
	case timedOut:
		r = failf(c.Type, fmt.Sprintf("Make the command finish sooner, or raise its timeout (now %s, at most %s).", timeout, MaxCommandTimeout),
			"The command timed out after %s and was stopped: %s.", timeout, shown)
	case ctx.Err() != nil:
		r = failf(c.Type, "Run the gate again.", "The command was cancelled before it finished: %s.", shown)
	case runErr != nil:
		r = failf(c.Type, "Check that the command and its shell exist, then run the gate again.", "The command could not be run: %s.", trimDot(runErr.Error()))
	case exitCode != 0:
		r = failf(c.Type, "Fix what the output shows, then run the gate again.", "The command exited with status %d: %s.", exitCode, shown)
	default:
		r = pass(c.Type, "The command succeeded in %s: %s.", time.Duration(d.DurationMS)*time.Millisecond, shown)
	}
	r.Details = d
	r.Output = out.String()
	return r
}

// runShell runs command through the platform shell in dir, bounded by ctx
// and timeout. On timeout or cancellation it kills the command's whole process
// tree; once the command exits it also kills whatever it left running, so no
// child outlives the check or holds its output open.
func runShell(ctx context.Context, dir, command string, timeout time.Duration) (out *tailBuffer, exitCode int, timedOut bool, err error) {
	out = &tailBuffer{max: OutputTailBytes}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The output goes through a pipe of our own rather than one exec manages,
	// so Wait returns when the command exits even if a child holds the pipe.
	pr, pw, err := os.Pipe()
	if err != nil {
		return out, -1, false, err
	}
	defer pr.Close()
	cmd := shellCommand(cctx, command)
	cmd.Dir = dir
	cmd.Stdin = nil
	cmd.Stdout = pw
	cmd.Stderr = pw
	g, err := newProcGroup(cmd)
	if err != nil {
		pw.Close()
		return out, -1, false, err
	}
	cmd.Cancel = g.kill
	// On Linux the kernel kills the shell when the thread that started it
	// ends (Pdeathsig), not only with the process. Go ends a thread when a
	// goroutine locked to it exits, and any goroutine may run on a thread
	// nobody holds; so this goroutine holds its thread until the shell has
	// been waited for, and the signal comes only when the server dies.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		g.release()
		return out, -1, false, err
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(out, pr)
	}()
	g.started()
	err = cmd.Wait()
	timedOut = errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	g.release()
	select {
	case <-copied:
	case <-time.After(waitDelay):
		// A child that escaped the kill still holds the pipe: stop reading.
		pr.Close()
		<-copied
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return out, 0, timedOut, nil
	case errors.As(err, &exitErr):
		return out, exitErr.ExitCode(), timedOut, nil
	default:
		return out, -1, timedOut, err
	}
}

// tailBuffer keeps the last max bytes written to it and counts them all.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// String returns the kept tail, starting on a rune boundary.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	for i := 0; t.total > int64(len(b)) && i < 3 && len(b) > 0 && b[0]&0xC0 == 0x80; i++ {
		b = b[1:]
	}
	return string(b)
}
