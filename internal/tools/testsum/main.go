// Command testsum runs `go test -json` with the arguments it is given and
// prints what a person reads of `go test`: a line per package, the output
// of every failing test and of every failing package (build errors,
// panics, timeouts; of a goroutine dump only the first goroutine, the one
// that panicked), then the skipped tests with the reason each gave (what
// would enable it; tests that gave the same reason share a line), and one
// closing line that names what failed:
//
//	N passed, N failed[ (pkg.TestA, pkg.TestB/sub, …)][, N skipped]
//
// It counts tests that run no subtests (a test with subtests is counted
// through them), so each case counts once. A failure that no test owns — a
// package that did not build, a panic or timeout outside any finished
// test, `go test` itself failing — counts as one failed each. It exits 1
// when anything failed.
//
// Arguments separated by --and are several `go test` runs, all at once,
// counted together: packages that need other flags (no -race) run beside
// the rest.
//
//	go build -o /tmp/testsum ./internal/tools/testsum
//	/tmp/testsum -race -count=1 ./server/... --and -count=1 ./e2e
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

func main() { os.Exit(run(splitRuns(os.Args[1:]), "", os.Stdout, os.Stderr)) }

// splitRuns cuts the arguments at each --and.
func splitRuns(args []string) [][]string {
	var runs [][]string
	for {
		i := slices.Index(args, "--and")
		if i < 0 {
			return append(runs, args)
		}
		runs = append(runs, args[:i])
		args = args[i+1:]
	}
}

// run runs `go test -json` with each set of arguments, at once, in dir
// (empty: here), prints the summary to stdout and returns the exit status.
func run(runs [][]string, dir string, stdout, stderr io.Writer) int {
	stderr = &lockedWriter{w: stderr} // the runs write to it at once
	s := newSummary(stdout)
	var (
		mu           sync.Mutex // s and goTestFailed
		goTestFailed bool
		wg           sync.WaitGroup
	)
	for _, args := range runs {
		cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
		cmd.Dir = dir
		cmd.Stderr = stderr
		out, err := cmd.StdoutPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			fmt.Fprintln(stderr, "testsum:", err)
			mu.Lock()
			goTestFailed = true
			mu.Unlock()
			continue
		}
		wg.Go(func() {
			err := s.read(out, &mu)
			if err != nil {
				// What was not read cannot be counted: that is a failure.
				fmt.Fprintln(stderr, "testsum: read go test's output:", err)
				io.Copy(io.Discard, out)
			}
			waitErr := cmd.Wait()
			var exit *exec.ExitError
			if waitErr != nil && !errors.As(waitErr, &exit) {
				fmt.Fprintln(stderr, "testsum:", waitErr)
			}
			mu.Lock()
			goTestFailed = goTestFailed || err != nil || waitErr != nil
			mu.Unlock()
		})
	}
	wg.Wait()
	return s.finish(goTestFailed)
}

// lockedWriter lets several writers share one io.Writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// event is one line of `go test -json` (cmd/test2json); build output has
// ImportPath instead of Package.
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// test is what testsum keeps of one test until it ends.
type test struct {
	output   []string
	action   string // pass, fail, skip; empty while it runs
	children bool   // it ran subtests
}

type pkg struct {
	output []string // package-level lines
	tests  map[string]*test
	order  []string // test names as they started
}

type summary struct {
	w                       io.Writer
	pkgs                    map[string]*pkg // packages that have not ended
	passed, failed, skipped int
	failedNames             []string            // pkg.Test, in the order they ended
	skippedBy               map[string][]string // the reason given → pkg.Test
}

func newSummary(w io.Writer) *summary { return &summary{w: w, pkgs: map[string]*pkg{}} }

func (s *summary) pkg(name string) *pkg {
	p := s.pkgs[name]
	if p == nil {
		p = &pkg{tests: map[string]*test{}}
		s.pkgs[name] = p
	}
	return p
}

// read consumes one run's stream, a line at a time under mu (runs share
// s); a line that is not JSON is printed as it is.
func (s *summary) read(r io.Reader, mu *sync.Mutex) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		mu.Lock()
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(s.w, sc.Text())
		} else {
			s.handle(e)
		}
		mu.Unlock()
	}
	return sc.Err()
}

func (s *summary) handle(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.w, e.Output)
		return
	case "build-fail":
		return
	}
	p := s.pkg(e.Package)
	if e.Test == "" {
		switch e.Action {
		case "output":
			p.output = append(p.output, e.Output)
		case "pass", "skip":
			s.printSummaryLine(p)
			s.count(e.Package, p, false)
			delete(s.pkgs, e.Package)
		case "fail":
			s.endFailedPackage(p)
			s.count(e.Package, p, true)
			delete(s.pkgs, e.Package)
		}
		return
	}
	t := p.tests[e.Test]
	if t == nil {
		t = &test{}
		p.tests[e.Test] = t
		p.order = append(p.order, e.Test)
		// A subtest makes its parents containers, not cases.
		for name := e.Test; strings.Contains(name, "/"); {
			name = name[:strings.LastIndex(name, "/")]
			if parent := p.tests[name]; parent != nil {
				parent.children = true
			}
		}
	}
	switch e.Action {
	case "output":
		t.output = append(t.output, e.Output)
	case "pass", "skip", "fail":
		t.action = e.Action
		if e.Action == "fail" {
			s.printTest(t)
		}
	}
}

// printTest prints a failed test's output without the run/pause markers.
func (s *summary) printTest(t *test) {
	s.printLines(t.output, func(line string) bool { return !strings.HasPrefix(line, "=== ") })
}

// printLines prints the lines keep accepts, but of a goroutine dump (a
// panic's or a timeout's) only the first goroutine: the one that panicked,
// or the alarm of a timeout, whose "running tests" list above it names
// what hung. The rest of a dump is hundreds of lines no one reads in a
// summary; `go test` run directly shows it.
func (s *summary) printLines(lines []string, keep func(string) bool) {
	dump, left := 0, 0 // dump: 0 before a dump, 1 in its first goroutine, 2 after
	for _, line := range lines {
		if strings.HasPrefix(line, "goroutine ") && strings.Contains(line, " [") {
			dump++
		}
		if dump >= 2 && !strings.HasPrefix(line, "FAIL") && !strings.HasPrefix(line, "exit status") {
			left++
			continue
		}
		if keep(line) {
			fmt.Fprint(s.w, line)
		}
	}
	if left > 0 {
		fmt.Fprintf(s.w, "(%d more lines of the goroutine dump left out; run `go test` on the package to see them)\n", left)
	}
}

// printSummaryLine prints the `ok`/`?` line of a package that passed.
func (s *summary) printSummaryLine(p *pkg) {
	for i := len(p.output) - 1; i >= 0; i-- {
		if line := p.output[i]; strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "? ") {
			fmt.Fprint(s.w, line)
			return
		}
	}
}

// endFailedPackage prints the output of tests that never ended (a panic or
// a timeout stopped them) and everything the package printed outside its
// tests (build errors, the panic, the FAIL line).
func (s *summary) endFailedPackage(p *pkg) {
	for _, name := range p.order {
		if t := p.tests[name]; t.action == "" {
			t.action = "fail"
			s.printTest(t)
		}
	}
	s.printLines(p.output, func(line string) bool { return line != "PASS\n" && !strings.HasPrefix(line, "=== ") })
}

// count adds an ended package's cases to the totals: tests without
// subtests by their result, a test with subtests only when it failed with
// none of them failing, and the package itself when it failed with no
// test to blame.
func (s *summary) count(pkgPath string, p *pkg, failed bool) {
	short := pkgPath[strings.LastIndex(pkgPath, "/")+1:]
	blamed := 0
	for _, name := range p.order {
		t := p.tests[name]
		if t.children {
			if t.action == "fail" && !failedUnder(p, name) {
				s.failed++
				s.failedNames = append(s.failedNames, short+"."+name)
				blamed++
			}
			continue
		}
		switch t.action {
		case "pass":
			s.passed++
		case "skip":
			s.skipped++
			if s.skippedBy == nil {
				s.skippedBy = map[string][]string{}
			}
			reason := skipReason(t)
			s.skippedBy[reason] = append(s.skippedBy[reason], short+"."+name)
		case "fail":
			s.failed++
			s.failedNames = append(s.failedNames, short+"."+name)
			blamed++
		}
	}
	if failed && blamed == 0 {
		s.failed++
		s.failedNames = append(s.failedNames, pkgPath+" (the package)")
	}
}

// skipReason is what a skipped test said when it skipped.
func skipReason(t *test) string {
	for _, line := range t.output {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "=== ") || strings.HasPrefix(line, "--- SKIP") {
			continue
		}
		if _, msg, ok := strings.Cut(line, ": "); ok && strings.Contains(line[:len(line)-len(msg)], ".go:") {
			return msg
		}
		return line
	}
	return "no reason given"
}

// printSkipped lists the skipped tests with the reason each gave; the tests
// that gave the same reason (the long tests: tens of them) share a line.
func printSkipped(w io.Writer, byReason map[string][]string) {
	if len(byReason) == 0 {
		return
	}
	var lines []string
	for reason, names := range byReason {
		slices.Sort(names)
		if len(names) == 1 {
			lines = append(lines, names[0]+": "+reason)
		} else {
			lines = append(lines, fmt.Sprintf("%s (%d): %s", reason, len(names), strings.Join(names, ", ")))
		}
	}
	slices.Sort(lines)
	fmt.Fprintln(w, "Skipped, and why:")
	for _, l := range lines {
		fmt.Fprintln(w, "  "+l)
	}
}

// failedUnder reports whether a subtest of the test named parent failed.
func failedUnder(p *pkg, parent string) bool {
	for name, t := range p.tests {
		if strings.HasPrefix(name, parent+"/") && t.action == "fail" {
			return true
		}
	}
	return false
}

// finish prints what is left of packages that never ended, the closing
// line, and returns the exit status.
func (s *summary) finish(goTestFailed bool) int {
	for name, p := range s.pkgs {
		s.endFailedPackage(p)
		s.count(name, p, true)
		fmt.Fprintf(s.w, "FAIL\t%s\t(no result)\n", name)
	}
	if goTestFailed && s.failed == 0 {
		fmt.Fprintln(s.w, "go test failed with no failing test to show for it (see above)")
		s.failed++
		s.failedNames = append(s.failedNames, "go test")
	}
	slices.Sort(s.failedNames) // packages end in any order
	printSkipped(s.w, s.skippedBy)
	line := fmt.Sprintf("%d passed, %d failed", s.passed, s.failed)
	if len(s.failedNames) > 0 {
		line += " (" + strings.Join(s.failedNames, ", ") + ")"
	}
	if s.skipped > 0 {
		line += fmt.Sprintf(", %d skipped", s.skipped)
	}
	fmt.Fprintln(s.w, line)
	if s.failed > 0 {
		return 1
	}
	return 0
}
