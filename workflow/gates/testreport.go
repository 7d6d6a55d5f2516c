package gates

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// Test reports a command check can read (its `report:` key). A failing test
// fails the check whatever the command's exit status: a TestMain that calls
// os.Exit(0) after m.Run() cannot hide one.
const (
	// ReportGoJSON reads `go test -json` events from the command's output.
	ReportGoJSON = "go-test-json"
	// ReportJUnit reads a JUnit XML file, written `junit:PATH` (pytest
	// --junitxml, Maven Surefire, Gradle, jest-junit, vitest's junit reporter).
	ReportJUnit = "junit"
	// ReportExitStatus reads nothing but the exit status, and says so.
	ReportExitStatus = "exit-status"
)

// maxTests caps the tests a TestRun keeps; maxFailedListed the failed tests a
// result names.
const (
	maxTests        = 100000
	maxFailedListed = 10
)

// Test statuses.
const (
	TestPassed  = "pass"
	TestFailed  = "fail"
	TestSkipped = "skip"
)

// TestCase is one test a report says ran.
type TestCase struct {
	Package string `json:"package,omitempty"` // Go import path; JUnit classname
	Name    string `json:"name"`              // Go: TestX or TestX/sub
	File    string `json:"file,omitempty"`    // JUnit's file attribute, when given
	Status  string `json:"status"`            // pass, fail or skip
	// Failure is the first line the runner gave for a failed test: the
	// assertion's message (`go test`'s first output line of the test, a
	// JUnit <failure>'s message), clipped; "" when it gave none.
	Failure string `json:"failure,omitempty"`
}

func (tc TestCase) label() string {
	if tc.Package == "" {
		return tc.Name
	}
	return tc.Package + "." + tc.Name
}

// TestRun is what a command check with a report learned about the tests it
// ran. The engine gives every gate evaluation a fresh one in Env.Tests; the
// acceptance_criteria check after the command reads it, so a criterion is
// traced only by a test that ran and passed in this gate's run.
type TestRun struct {
	mu     sync.Mutex
	report string
	tests  []TestCase
}

func (r *TestRun) record(report string, tests []TestCase) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.report, r.tests = report, tests
}

// Results returns the report kind read ("" if no command with a report ran)
// and the tests it listed.
func (r *TestRun) Results() (string, []TestCase) {
	if r == nil {
		return "", nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.report, r.tests
}

// parseReportSpec splits a report value: "go-test-json", "exit-status" or
// "junit:PATH".
func parseReportSpec(s string) (kind, path string, err error) {
	kind, path, _ = strings.Cut(strings.TrimSpace(s), ":")
	switch kind {
	case ReportGoJSON, ReportExitStatus:
		if path != "" {
			return "", "", fmt.Errorf("report %q takes no path", kind)
		}
	case ReportJUnit:
		if strings.TrimSpace(path) == "" {
			return "", "", errors.New("a junit report needs its file: junit:PATH")
		}
	default:
		return "", "", fmt.Errorf("unknown test report %q (known: %s, %s:PATH, %s)", s, ReportGoJSON, ReportJUnit, ReportExitStatus)
	}
	return kind, path, nil
}

// goTestSink reads `go test -json` output as it streams: it records the
// events and passes the human-readable text on to out. Lines that are not
// events (stderr, a shell's messages) go to out as they are.
type goTestSink struct {
	out     io.Writer
	partial []byte
	events  int
	tests   map[string]*TestCase // package + "\x00" + test
	order   []string
	pkgs    map[string]string // package -> start, pass, fail or skip
	builds  []string          // build-fail import paths
}

func newGoTestSink(out io.Writer) *goTestSink {
	return &goTestSink{out: out, tests: map[string]*TestCase{}, pkgs: map[string]string{}}
}

func (s *goTestSink) Write(p []byte) (int, error) {
	n := len(p)
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		s.line(s.partial[:i+1])
		s.partial = s.partial[i+1:]
	}
	if len(s.partial) > 1<<20 { // a line this long is not an event
		s.out.Write(s.partial)
		s.partial = s.partial[:0]
	}
	return n, nil
}

// flush handles a last line without a newline.
func (s *goTestSink) flush() {
	if len(s.partial) > 0 {
		s.line(s.partial)
		s.partial = nil
	}
}

type goTestEvent struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

func (s *goTestSink) line(l []byte) {
	var ev goTestEvent
	if len(bytes.TrimSpace(l)) == 0 || l[0] != '{' || json.Unmarshal(l, &ev) != nil || ev.Action == "" {
		s.out.Write(l)
		return
	}
	s.events++
	switch ev.Action {
	case "output", "build-output":
		// The "=== RUN" lines of every test drown the failures in the tail.
		if !strings.HasPrefix(ev.Output, "=== ") {
			io.WriteString(s.out, ev.Output)
		}
		if tc := s.tests[ev.Package+"\x00"+ev.Test]; ev.Test != "" && tc != nil && tc.Failure == "" {
			tc.Failure = failureLine(ev.Output)
		}
	case "build-fail":
		s.builds = append(s.builds, ev.ImportPath)
	case "start":
		if _, ok := s.pkgs[ev.Package]; !ok {
			s.pkgs[ev.Package] = "start"
		}
	case "run", TestPassed, TestFailed, TestSkipped:
		if ev.Test == "" {
			if ev.Action != "run" && s.pkgs[ev.Package] != TestFailed {
				s.pkgs[ev.Package] = ev.Action
			}
			return
		}
		key := ev.Package + "\x00" + ev.Test
		tc := s.tests[key]
		if tc == nil {
			if len(s.order) >= maxTests {
				return
			}
			tc = &TestCase{Package: ev.Package, Name: ev.Test, Status: "run"}
			s.tests[key] = tc
			s.order = append(s.order, key)
		}
		// A failure sticks: nothing printed later can turn it into a pass.
		if ev.Action != "run" && tc.Status != TestFailed {
			tc.Status = ev.Action
		}
	}
}

// failureLine returns the first line of a test's output that says
// something of its own (not go test's "--- FAIL" or "=== RUN" markers), with
// no terminal escapes, clipped; "" when there is none.
func failureLine(output string) string {
	for _, line := range strings.Split(ansiRE.ReplaceAllString(output, ""), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "--- ") && !strings.HasPrefix(line, "=== ") {
			return clip(line, 240)
		}
	}
	return ""
}

// failureText is a failure message given as text: its lines up to the
// stack trace, joined, with no terminal escapes, clipped. Jest's reads
// `Error: expect(received).toBe(expected) // Object.is equality Expected:
// "hello, world" Received: "hello, "`.
func failureText(text string) string {
	var kept []string
	for _, line := range strings.Split(ansiRE.ReplaceAllString(text, ""), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "at ") {
			break
		}
		if line != "" {
			kept = append(kept, line)
		}
	}
	return clip(strings.Join(kept, " "), 240)
}

// testOutcome is what a report says about a run, for the command check.
type testOutcome struct {
	tests   []TestCase
	failed  []string // labels of failed tests, packages and builds
	problem string   // why the report cannot be trusted or says nothing; "" if usable
}

func (s *goTestSink) outcome() testOutcome {
	var o testOutcome
	for _, key := range s.order {
		tc := *s.tests[key]
		if tc.Status == "run" {
			tc.Status = TestFailed // started and never finished: the binary died under it
		}
		if tc.Status != TestFailed {
			tc.Failure = "" // what a test that did not fail printed is no failure
		}
		if tc.Status == TestFailed {
			o.failed = append(o.failed, tc.label())
		}
		o.tests = append(o.tests, tc)
	}
	for _, b := range s.builds {
		o.failed = append(o.failed, b+" (build failed)")
	}
	pkgs := make([]string, 0, len(s.pkgs))
	for p := range s.pkgs {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		switch st := s.pkgs[p]; {
		case st == TestFailed && !hasFailedTestIn(o.tests, p) && len(s.builds) == 0:
			o.failed = append(o.failed, p+" (package failed)")
		case st == "start":
			o.failed = append(o.failed, p+" (package did not finish)")
		}
	}
	switch {
	case s.events == 0:
		o.problem = "it printed no go test -json events"
	case len(o.tests) == 0 && len(o.failed) == 0:
		o.problem = "no test ran"
	case len(o.failed) == 0 && o.skipped() == len(o.tests):
		o.problem = "every test it lists was skipped"
	}
	return o
}

// skipped counts the tests the report lists as skipped.
func (o testOutcome) skipped() int {
	n := 0
	for _, tc := range o.tests {
		if tc.Status == TestSkipped {
			n++
		}
	}
	return n
}

func hasFailedTestIn(tests []TestCase, pkg string) bool {
	for _, tc := range tests {
		if tc.Package == pkg && tc.Status == TestFailed {
			return true
		}
	}
	return false
}

// readJUnit reads a JUnit XML report: every <testcase>, failed when it holds
// a <failure> or <error>, skipped when it holds <skipped>.
func readJUnit(ctx context.Context, path string) (testOutcome, error) {
	var o testOutcome
	f, err := os.Open(path)
	if err != nil {
		return o, err
	}
	defer f.Close()
	suiteFailures := int64(0)
	// A <failure> without a message attribute holds its message as text
	// (jest-junit): read until the stack trace.
	var pending *TestCase
	var body strings.Builder
	text := func(data []byte, stack []string) {
		if pending != nil && len(stack) > 0 && (stack[len(stack)-1] == "failure" || stack[len(stack)-1] == "error") && body.Len() < 64<<10 {
			body.Write(data)
		}
	}
	flush := func() {
		if pending != nil && pending.Failure == "" {
			pending.Failure = failureText(body.String())
		}
		pending = nil
		body.Reset()
	}
	err = walkXMLText(ctx, io.LimitReader(f, 256<<20), "JUnit", func(t xml.StartElement, stack []string) {
		flush()
		parent := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		switch name := t.Name.Local; {
		case name == "testsuite":
			for _, a := range []string{"failures", "errors"} {
				if n, ok := xmlInt(t, a); ok {
					suiteFailures += n
				}
			}
		case name == "testcase":
			if len(o.tests) >= maxTests {
				return
			}
			tc := TestCase{Status: TestPassed}
			tc.Name, _ = xmlAttr(t, "name")
			tc.Package, _ = xmlAttr(t, "classname")
			tc.File, _ = xmlAttr(t, "file")
			o.tests = append(o.tests, tc)
		case parent == "testcase" && len(o.tests) > 0:
			last := &o.tests[len(o.tests)-1]
			switch name {
			case "failure", "error":
				last.Status = TestFailed
				if last.Failure == "" {
					msg, _ := xmlAttr(t, "message")
					last.Failure = failureLine(msg)
					if last.Failure == "" {
						pending = last
					}
				}
			case "skipped":
				if last.Status != TestFailed {
					last.Status = TestSkipped
				}
			}
		}
	}, text)
	flush()
	if err != nil {
		return o, err
	}
	for _, tc := range o.tests {
		if tc.Status == TestFailed {
			o.failed = append(o.failed, tc.label())
		}
	}
	switch {
	case len(o.failed) == 0 && suiteFailures > 0:
		o.failed = append(o.failed, fmt.Sprintf("%d failures or errors counted by the report's test suites", suiteFailures))
	case len(o.tests) == 0:
		o.problem = "it lists no test"
	case len(o.failed) == 0 && o.skipped() == len(o.tests):
		o.problem = "every test it lists was skipped"
	}
	return o, nil
}

// freshFile reports why path is not a file written since start ("" if it is).
// The file was removed before the command ran, so one that exists now was
// written by the run; the time guards against a copy with an old date.
func freshFile(path, rel string, start time.Time) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return rel + " was not written by the command"
	case err != nil:
		return rel + " cannot be read"
	case !fi.Mode().IsRegular():
		return rel + " is not a regular file"
	case fi.ModTime().Before(start.Add(-2 * time.Second)): // coarse file system clocks
		return fmt.Sprintf("%s is dated %s, before the command started", rel, fi.ModTime().Format(time.RFC3339))
	}
	return ""
}
