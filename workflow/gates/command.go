package gates

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/internal/sandbox"
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
	// Report is the test report read: go-test-json, junit or exit-status;
	// empty when the check declares none.
	Report  string `json:"report,omitempty"`
	Tests   int    `json:"tests,omitempty"`   // tests the report lists
	Skipped int    `json:"skipped,omitempty"` // of them, skipped (skip, xfail, todo): none of these proves anything
	Failed  int    `json:"failed,omitempty"`  // failed tests, packages and builds
	// FailedTests names the first maxFailedListed of them.
	FailedTests []string `json:"failed_tests,omitempty"`
	// Failures is the runner's failure line of each failed test listed
	// that gave one, by its name in FailedTests: what it asserted.
	Failures map[string]string `json:"failures,omitempty"`
	// Earlier counts the tests that passed when the session started, each
	// of which must still hold; Regressions lists the first
	// maxFailedListed that do not.
	Earlier     int          `json:"earlier_tests,omitempty"`
	Regressions []Regression `json:"regressions,omitempty"`
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
	report, reportFile, produced, r, ok := c.prepareOutputs(env)
	if !ok {
		return r
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	d := CommandDetails{Command: command, Workdir: rel, ExitCode: -1, Report: report}
	tail := &tailBuffer{max: OutputTailBytes}
	var sink io.Writer = tail
	var goTests *goTestSink
	if report == ReportGoJSON {
		goTests = newGoTestSink(tail)
		sink = goTests
	}
	start := time.Now()
	total, exitCode, timedOut, runErr := runShell(ctx, env.Sandbox, dir, command, timeout, sink)
	if goTests != nil {
		goTests.flush()
	}
	d.DurationMS = time.Since(start).Milliseconds()
	d.ExitCode, d.TimedOut = exitCode, timedOut
	d.OutputBytes, d.OutputCut = total, total > int64(OutputTailBytes)
	shown := clip(command, 120)
	switch {
	case timedOut:
		r = failf(c.Type, fmt.Sprintf("Make the command finish sooner, or raise its timeout (now %s, at most %s).", timeout, MaxCommandTimeout),
			"The command timed out after %s and was stopped: %s.", timeout, shown)
	case ctx.Err() != nil:
		r = failf(c.Type, "Run the gate again.", "The command was cancelled before it finished: %s.", shown)
	case runErr != nil:
		r = failf(c.Type, "Check that the command and its shell exist, then run the gate again.", "The command could not be run: %s.", trimDot(runErr.Error()))
	default:
		r = c.judgeRun(ctx, env, &d, shown, start, goTests, reportFile, produced)
		if !r.Passed && d.ExitCode > 0 && d.Tests == 0 {
			// No test reached a verdict: the cause is in the output.
			r.Message = withCause(r.Message, tail.String())
		}
	}
	r.Details = d
	r.Output = tail.String()
	return r
}

// outputFile is a file a command must write, resolved.
type outputFile struct{ abs, rel string }

// prepareOutputs resolves the report and the files the command must write,
// and removes those files, so that what is there afterwards comes from this
// run.
func (c Check) prepareOutputs(env Env) (report string, reportFile outputFile, produced []outputFile, r Result, ok bool) {
	var paths []string
	if c.Report != "" {
		spec, err := Placeholders(c.Report, env.Vars)
		if err != nil {
			return "", reportFile, nil, failf(c.Type, "Fix the report's placeholders in the workflow definition.", "The command's test report cannot be prepared: %s.", trimDot(err.Error())), false
		}
		kind, path, err := parseReportSpec(spec)
		if err != nil {
			return "", reportFile, nil, failf(c.Type, "Fix the test report in the workflow definition or in workflow.test_report.", "The command's test report cannot be used: %s.", trimDot(err.Error())), false
		}
		report = kind
		if path != "" {
			paths = append(paths, path)
		}
	}
	paths = append(paths, c.Produces...)
	for i, p := range paths {
		abs, rel, err := resolve(env.Root, p, env.Vars)
		if err != nil {
			return "", reportFile, nil, failf(c.Type, "Point the command's outputs at files inside the project.", "The command's output %s cannot be used: %s.", p, trimDot(err.Error())), false
		}
		// In a sandbox the run starts with a layer of its own, so nothing
		// is there to remove, and the real project is not touched.
		if env.Sandbox == nil {
			if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", reportFile, nil, failf(c.Type, fmt.Sprintf("Make %s writable, then run the gate again.", rel), "The old %s cannot be removed before the run: %s.", rel, trimDot(err.Error())), false
			}
		}
		if i == 0 && report == ReportJUnit {
			reportFile = outputFile{abs, rel}
		} else {
			produced = append(produced, outputFile{abs, rel})
		}
	}
	return report, reportFile, produced, Result{}, true
}

// freshOutput returns where to read f and, when it cannot be trusted as this
// run's output, why.
func (env Env) freshOutput(f outputFile, start time.Time) (path, problem string) {
	path, ok := env.written(f.abs, f.rel)
	if !ok {
		return "", f.rel + " was not written by the command"
	}
	return path, freshFile(path, f.rel, start)
}

// judgeRun decides a command that ran to its end: its outputs must be fresh,
// its exit status 0, and its test report must list no failure.
func (c Check) judgeRun(ctx context.Context, env Env, d *CommandDetails, shown string, start time.Time, goTests *goTestSink, reportFile outputFile, produced []outputFile) Result {
	var o testOutcome
	switch d.Report {
	case ReportGoJSON:
		o = goTests.outcome()
	case ReportJUnit:
		path, problem := env.freshOutput(reportFile, start)
		if problem != "" && d.ExitCode != 0 {
			// A runner that refuses its command line, or is not installed,
			// writes no report: that is the cause, not the report's flag.
			return failf(c.Type, "Fix what stopped the command before its tests ran (its output below names it: a program, plugin or package that is not installed, or an option the installed runner does not accept; `agentos doctor` checks the default's), then run the gate again.",
				"The command exited with status %d without writing its test report %s: %s.", d.ExitCode, reportFile.rel, shown)
		}
		if problem != "" {
			return failf(c.Type, fmt.Sprintf("Make the test command write its JUnit report to %s (e.g. pytest --junitxml=%s), then run the gate again.", reportFile.rel, reportFile.rel),
				"The test report cannot be trusted: %s (exit status %d): %s.", problem, d.ExitCode, shown)
		}
		var err error
		if o, err = readJUnit(ctx, path); err != nil {
			return failf(c.Type, "Make the test command write a JUnit XML report, then run the gate again.", "The test report %s cannot be read: %s.", reportFile.rel, trimDot(err.Error()))
		}
	}
	d.Tests, d.Failed, d.Skipped = len(o.tests), len(o.failed), o.skipped()
	d.FailedTests = o.failed[:min(len(o.failed), maxFailedListed)]
	for _, tc := range o.tests {
		if tc.Status == TestFailed && tc.Failure != "" && slices.Contains(d.FailedTests, tc.label()) {
			if d.Failures == nil {
				d.Failures = map[string]string{}
			}
			d.Failures[tc.label()] = tc.Failure
		}
	}
	if d.Report != "" && d.Report != ReportExitStatus {
		env.Tests.record(d.Report, o.tests)
	}
	switch {
	case len(o.failed) > 0:
		return failf(c.Type, "Fix the failing tests (their output is below), then run the gate again.",
			"%s failed (exit status %d): %s.", plural(len(o.failed), "test", "tests"), d.ExitCode, listNames(o.failed, 5))
	case d.ExitCode != 0:
		return failf(c.Type, "Fix what the output shows, then run the gate again.", "The command exited with status %d: %s.", d.ExitCode, shown)
	case o.problem != "":
		return failf(c.Type, "Write tests for the work, and make the test command run them, then run the gate again.", "The test run cannot be trusted: %s: %s.", o.problem, shown)
	}
	for _, f := range produced {
		if _, problem := env.freshOutput(f, start); problem != "" {
			return failf(c.Type, fmt.Sprintf("Make the command write %s each time it runs, then run the gate again.", f.rel), "The command's output cannot be trusted: %s: %s.", problem, shown)
		}
	}
	if env.Earlier != nil && (d.Report == ReportGoJSON || d.Report == ReportJUnit) {
		if r, ok := c.checkEarlier(ctx, env, d, o.tests); !ok {
			return r
		}
	}
	took := time.Duration(d.DurationMS) * time.Millisecond
	switch d.Report {
	case "":
		return pass(c.Type, "The command succeeded in %s: %s.", took, shown)
	case ReportExitStatus:
		r := pass(c.Type, "The command succeeded in %s (only its exit status was read): %s.", took, shown)
		r.Warnings = []string{"Only the exit status was read, so a test runner that exits 0 after a failure would pass: set workflow.test_report to a machine-readable report (go-test-json, or junit:PATH for pytest, Maven, Gradle, Jest or Vitest)."}
		return r
	}
	ran := plural(len(o.tests)-d.Skipped, "test", "tests") + " passed"
	if d.Skipped > 0 {
		ran += fmt.Sprintf(", %d skipped", d.Skipped)
	}
	return pass(c.Type, "%s in %s (%s report): %s.", upperFirst(ran), took, d.Report, shown)
}

// runShell runs command through the platform shell in dir, bounded by ctx
// and timeout. On timeout or cancellation it kills the command's whole process
// tree; once the command exits it also kills whatever it left running, so no
// child outlives the check or holds its output open.
func runShell(ctx context.Context, sb *sandbox.Sandbox, dir, command string, timeout time.Duration, sink io.Writer) (total int64, exitCode int, timedOut bool, err error) {
	out := &countingWriter{w: sink}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The output goes through a pipe of our own rather than one exec manages,
	// so Wait returns when the command exits even if a child holds the pipe.
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, -1, false, err
	}
	defer pr.Close()
	var cmd *exec.Cmd
	var g processes = sandboxed{}
	if sb != nil {
		// The sandbox's first process takes every other one with it when it
		// is killed or dies with the server (the default Cancel kills it).
		if cmd, err = sb.Command(cctx, dir, command); err != nil {
			pw.Close()
			return 0, -1, false, err
		}
	} else {
		cmd = shellCommand(cctx, command)
		cmd.Dir = dir
		pg, err := newProcGroup(cmd)
		if err != nil {
			pw.Close()
			return 0, -1, false, err
		}
		cmd.Cancel, g = pg.kill, pg
	}
	cmd.Stdin = nil
	cmd.Stdout = pw
	cmd.Stderr = pw
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
		return 0, -1, false, err
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
		return out.n, 0, timedOut, nil
	case errors.As(err, &exitErr):
		return out.n, exitErr.ExitCode(), timedOut, nil
	default:
		return out.n, -1, timedOut, err
	}
}

// processes is what runShell does with the processes a command starts, so
// that none outlives it: a process group, or a sandbox whose first process
// takes every other one with it.
type processes interface {
	started() // the command started
	release() // the command ended: kill whatever it left
}

// sandboxed needs nothing done: the sandbox's PID namespace ends with its
// first process.
type sandboxed struct{}

func (sandboxed) started() {}
func (sandboxed) release() {}

// countingWriter counts what passes through it to w.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
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
