package workflow

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/workflow/baseline"
	"github.com/agentos-dev/agentos/workflow/gates"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// SpecState is what a check found of a finished spec.
type SpecState struct {
	Spec        string     `json:"spec"`
	State       string     `json:"state" jsonschema:"holding, drifted, touched, unchecked (not checked since it finished) or unverified (its evidence does not match agentos's signature)"`
	Session     string     `json:"session,omitempty"`
	CompletedAt time.Time  `json:"completed_at"`
	Commit      string     `json:"commit,omitempty"`
	CheckedAt   *time.Time `json:"checked_at,omitempty"`
	// Tree is the working tree the check judged, in the base store.
	Tree string `json:"tree,omitempty"`
	// Criteria are the criteria that do not hold (all of them with every
	// test in a full view).
	Criteria []CriterionState `json:"criteria,omitempty"`
	Note     string           `json:"note,omitempty"`
}

// CriterionState is one criterion as a check found it.
type CriterionState struct {
	ID    string      `json:"id"`
	Text  string      `json:"text"`
	State string      `json:"state"`
	Tests []TestState `json:"tests"`
}

// TestState is one traced test as a check found it.
type TestState struct {
	Test string `json:"test"` // "TestX (file.go:12)"
	// State: passed, failed, skipped, did not run, deleted, or changed.
	State   string  `json:"state"`
	Failure string  `json:"failure,omitempty"`
	Touched []Touch `json:"touched,omitempty"`
}

// Touch is a change since completion that reaches a test: the symbol it
// changed, the lines, and the commits that made it.
type Touch struct {
	Symbol string `json:"symbol,omitempty"`
	File   string `json:"file"`
	Lines  string `json:"lines,omitempty"`
	Change string `json:"change"` // "a1b2c3d subject", or "not committed"
}

// Test verdicts of a check.
const (
	testPassed   = "passed"
	testFailed   = "failed"
	testSkipped  = "skipped"
	testNotRun   = "did not run"
	testDeleted  = "deleted"
	testModified = "changed"
)

// maxTouches bounds the touches listed per test.
const maxTouches = 5

// Specs returns every finished spec's state as its last check found it,
// without running anything: unchecked ones hold as of completion.
func (e *Engine) Specs() ([]SpecState, error) {
	names, err := e.livingSpecs()
	if err != nil {
		return nil, err
	}
	out := []SpecState{}
	for _, spec := range names {
		rec, integrity, err := e.readLiving(spec)
		if err != nil {
			return nil, err
		}
		out = append(out, listed(rec, integrity))
	}
	return out, nil
}

func listed(rec *LivingRecord, integrity *Integrity) SpecState {
	if integrity != nil {
		return SpecState{Spec: rec.Spec, State: SpecUnverified, CompletedAt: rec.CompletedAt, Commit: rec.Commit,
			Note: integrity.Verdict + ": " + integrity.Detail + "; agentos does not trust it. Finish the spec again with spec_execution_v1 to record new evidence"}
	}
	if rec.LastCheck != nil {
		return *rec.LastCheck
	}
	note := "held when it completed; not checked since (agentos specs check)"
	if rec.Workflow == specsInitWorkflow {
		note = "drafted from code and approved; its tests have not run since (agentos specs check)"
	}
	return SpecState{Spec: rec.Spec, State: SpecUnchecked, Session: rec.Session, CompletedAt: rec.CompletedAt, Commit: rec.Commit, Note: note}
}

// SpecHistory returns a finished spec's dated changes (for the review
// page), and whether its record is agentos's own.
func (e *Engine) SpecHistory(spec string) ([]HistoryEntry, *Integrity, error) {
	if _, err := SpecDir(spec); err != nil {
		return nil, nil, err
	}
	rec, integrity, err := e.readLiving(spec)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, notFound("spec %s has not finished spec_execution_v1, quick_change_v1 or bugfix_v1; it has no evidence", spec)
	}
	if err != nil {
		return nil, nil, err
	}
	return rec.History, integrity, nil
}

// CheckSpecs runs the traced tests of the finished specs named (every one
// when none is) on the code as it is now, in the gate's sandbox with the
// gate's runner, and finds the changes since completion that reach their
// symbols. Each spec's result is recorded as its last check.
func (e *Engine) CheckSpecs(ctx context.Context, names []string) ([]SpecState, error) {
	all, err := e.livingSpecs()
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		names = all
	}
	type job struct {
		rec   *LivingRecord
		state SpecState
	}
	var jobs []*job
	out := []SpecState{}
	var ids []string
	for _, spec := range names {
		if _, err := SpecDir(spec); err != nil {
			return nil, err
		}
		rec, integrity, err := e.readLiving(spec)
		if errors.Is(err, os.ErrNotExist) {
			return nil, notFound("spec %s has not finished spec_execution_v1, quick_change_v1 or bugfix_v1, so it has no evidence to check; agentos specs lists the finished ones", spec)
		}
		if err != nil {
			return nil, err
		}
		if integrity != nil {
			out = append(out, listed(rec, integrity))
			continue
		}
		jobs = append(jobs, &job{rec: rec})
		for _, c := range rec.Criteria {
			ids = append(ids, c.ID)
		}
	}
	if len(jobs) == 0 {
		return out, nil
	}
	now, err := e.snapshot(ctx, "specs-check")
	if err != nil {
		return nil, fmt.Errorf("record the working tree to check against: %w", err)
	}
	traced, err := gates.TraceTests(ctx, e.set.Root, ids)
	if err != nil {
		return nil, fmt.Errorf("read the tests: %w", err)
	}
	var cases []gates.TestCase
	for _, j := range jobs {
		for _, c := range j.rec.Criteria {
			for _, t := range c.Tests {
				if found, ok := traced.Find(t.TracedTest); ok {
					cases = append(cases, found.Case())
				}
			}
		}
	}
	var results []gates.TestCase
	output := ""
	if len(cases) > 0 {
		if results, output, err = e.runTraced(ctx, cases); err != nil {
			return nil, err
		}
	}
	g, gerr := e.codeGraph(ctx)
	at := e.set.Now().UTC()
	for _, j := range jobs {
		st, err := e.judge(ctx, j.rec, now, traced, results, output, g, gerr)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", j.rec.Spec, err)
		}
		st.CheckedAt = &at
		j.rec.LastCheck = &st
		if err := e.writeLiving(j.rec); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b SpecState) int { return strings.Compare(a.Spec, b.Spec) })
	return out, nil
}

// checkCommandVar holds a check's narrowed test command.
const checkCommandVar = "living_check_command"

// runTraced runs the gate's test command, narrowed to cases where the
// runner allows, in a sandbox of its own on the project as it is, and
// returns the tests its report lists and the tail of its output.
func (e *Engine) runTraced(ctx context.Context, cases []gates.TestCase) ([]gates.TestCase, string, error) {
	r := e.rules.refresh()
	if r.err != nil {
		return nil, "", refused("%v", r.err)
	}
	def, ok := r.lib.Get("spec_execution_v1")
	if !ok || def.PhasesFromTasks == nil {
		return nil, "", refused("spec_execution_v1 is not defined, so its gate's test run is unknown")
	}
	i := slices.IndexFunc(def.PhasesFromTasks.Gate, func(c gates.Check) bool { return c.Type == gates.TypeCommand })
	if i < 0 {
		return nil, "", refused("spec_execution_v1's gate runs no test command")
	}
	run := def.PhasesFromTasks.Gate[i]
	vars := map[string]string{}
	if err := e.testVars(r, vars); err != nil {
		return nil, "", err
	}
	if vars["test_report"] == "exit-status" {
		return nil, "", refused("the test command %q writes no test report, so which traced test passed cannot be told; set workflow.test_report in .agentos/config/mcp.yaml", vars["test_command"])
	}
	if err := sandbox.Check(); err != nil {
		return nil, "", refused("the traced tests cannot run in a sandbox here: %v; %s", err, sandbox.Remedy)
	}
	if command, err := gates.Placeholders(run.Command, vars); err == nil {
		if narrowed, ok := testcmd.Narrow(command, cases); ok {
			vars = maps.Clone(vars)
			vars[checkCommandVar] = narrowed
			run.Command = "{" + checkCommandVar + "}"
		}
	}
	env := gates.Env{Root: e.set.Root, Vars: vars}
	tests, output, err := e.runTests(ctx, run, env, func(*sandbox.Sandbox) error { return nil })
	if err != nil {
		return nil, "", fmt.Errorf("run the traced tests: %w", err)
	}
	return tests, output, nil
}

// judge decides a spec's state from the run and the changes since its
// completion.
func (e *Engine) judge(ctx context.Context, rec *LivingRecord, now string, traced *gates.Traced, results []gates.TestCase, output string, g SymbolGraph, gerr error) (SpecState, error) {
	st := SpecState{Spec: rec.Spec, Session: rec.Session, CompletedAt: rec.CompletedAt, Commit: rec.Commit, Tree: now, State: SpecHolding}
	touches, note, err := e.touches(ctx, rec, now, g, gerr)
	if err != nil {
		return st, err
	}
	st.Note = note
	drifted, touched := false, false
	for _, c := range rec.Criteria {
		cs := CriterionState{ID: c.ID, Text: c.Text, State: SpecHolding, Tests: []TestState{}}
		if len(c.Tests) == 0 {
			cs.State = SpecDrifted
			cs.Tests = append(cs.Tests, TestState{Test: "(none)", State: testNotRun, Failure: "no test named it when the spec finished"})
		}
		for _, t := range c.Tests {
			ts := TestState{Test: t.Label(), State: testPassed}
			found, ok := traced.Find(t.TracedTest)
			switch {
			case !ok:
				ts.State, ts.Failure = testDeleted, fmt.Sprintf("no test %s in %s names %s any more", t.Name, t.File, c.ID)
			case found.SHA256 != t.SHA256:
				ts.State, ts.Failure = testModified, fmt.Sprintf("%s was rewritten since the spec finished: a changed test no longer proves what it proved", t.Name)
			default:
				tc := traced.Result(found, results)
				switch tc.Status {
				case gates.TestPassed:
				case gates.TestFailed:
					ts.State, ts.Failure = testFailed, tc.Failure
					if ts.Failure == "" {
						ts.Failure = gates.CauseLine(output)
					}
				case gates.TestSkipped:
					ts.State = testSkipped
				default:
					ts.State, ts.Failure = testNotRun, gates.CauseLine(output)
				}
			}
			if ts.State != testPassed {
				cs.State = SpecDrifted
			}
			ts.Touched = touchesOf(t, touches)
			if len(ts.Touched) > 0 && cs.State == SpecHolding {
				cs.State = SpecTouched
			}
			cs.Tests = append(cs.Tests, ts)
		}
		drifted = drifted || cs.State == SpecDrifted
		touched = touched || cs.State == SpecTouched
		st.Criteria = append(st.Criteria, cs)
	}
	switch {
	case drifted:
		st.State = SpecDrifted
	case touched:
		st.State = SpecTouched
	}
	return st, nil
}

// changedSym is a symbol a change since completion touched.
type changedSym struct {
	sym   LivingSymbol
	lines string
	tests map[string]bool // with no recorded reaches: the tests Impact finds (by Key)
}

type touchSet struct {
	syms   []changedSym
	files  map[string]string // file -> change, for a check without a graph
	change map[string]string // file -> the commits that changed it
	graph  bool
}

// touches finds the symbols that changed between the spec's tree and now.
func (e *Engine) touches(ctx context.Context, rec *LivingRecord, now string, g SymbolGraph, gerr error) (*touchSet, string, error) {
	ts := &touchSet{files: map[string]string{}, change: map[string]string{}, graph: g != nil}
	if rec.Tree == "" || rec.Tree == now {
		return ts, "", nil
	}
	changes, err := e.changesBetween(ctx, rec.Tree, now)
	if err != nil {
		return nil, "", fmt.Errorf("compare the tree the spec finished on with now: %w", err)
	}
	var code []string
	for _, c := range changes {
		if strings.HasPrefix(c.path, ".agentos/") || baseline.IsTestFile(c.path) {
			continue
		}
		code = append(code, c.path)
	}
	if len(code) == 0 {
		return ts, "", nil
	}
	ranges, err := e.changedLines(ctx, rec.Tree, now, code)
	if err != nil {
		return nil, "", err
	}
	for _, f := range code {
		ts.change[f] = e.commitsTouching(ctx, rec.Commit, f)
		ts.files[f] = ts.change[f]
	}
	note := ""
	if g == nil {
		note = "no call graph to tell which symbols changed (" + gerr.Error() + "): a test counts as touched when a file it reaches changed"
		return ts, note, nil
	}
	for _, f := range code {
		rs := ranges[f]
		var syms []codegraph.Symbol
		if len(rs) > 0 {
			syms = g.SymbolsIn(f, rs)
		}
		for _, s := range syms {
			cs := changedSym{sym: LivingSymbol{Path: s.Path, Name: s.Qualified()}, lines: lineLabel(s, rs)}
			im := g.Impact([]codegraph.Symbol{s}, codegraph.ImpactOptions{TestLimit: codegraph.MaxLimit})
			cs.tests = map[string]bool{}
			for _, t := range im.Tests {
				cs.tests[t.Symbol.Path+"\x00"+t.Symbol.Name] = true
			}
			ts.syms = append(ts.syms, cs)
		}
	}
	return ts, note, nil
}

// lineLabel names the changed lines within symbol s.
func lineLabel(s codegraph.Symbol, rs []codegraph.LineRange) string {
	var parts []string
	for _, r := range rs {
		if r.End < s.Line || (s.EndLine > 0 && r.Start > s.EndLine) {
			continue
		}
		if r.Start == r.End {
			parts = append(parts, strconv.Itoa(r.Start))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r.Start, r.End))
		}
	}
	return strings.Join(parts, ",")
}

// touchesOf lists the changes that reach test t: a changed symbol it
// reaches by the recorded graph walk, or, where none was recorded, one whose
// impact names it.
func touchesOf(t LivingTest, ts *touchSet) []Touch {
	var out []Touch
	if ts == nil {
		return nil
	}
	if !ts.graph {
		seen := map[string]bool{}
		for _, r := range t.Reaches {
			if ch, ok := ts.files[r.Path]; ok && !seen[r.Path] {
				seen[r.Path] = true
				out = append(out, Touch{File: r.Path, Change: ch})
			}
		}
		return capTouches(out)
	}
	root, _, _ := strings.Cut(t.Name, "/")
	for _, c := range ts.syms {
		hit := false
		if len(t.Reaches) > 0 {
			hit = slices.Contains(t.Reaches, c.sym)
		} else {
			hit = c.tests[t.File+"\x00"+root]
		}
		if hit {
			out = append(out, Touch{Symbol: c.sym.Name, File: c.sym.Path, Lines: c.lines, Change: ts.change[c.sym.Path]})
		}
	}
	return capTouches(out)
}

func capTouches(t []Touch) []Touch {
	if len(t) > maxTouches {
		return t[:maxTouches]
	}
	return t
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// changedLines returns, per file, the lines of now that differ from base
// (a deletion marks the line it was before).
func (e *Engine) changedLines(ctx context.Context, base, now string, files []string) (map[string][]codegraph.LineRange, error) {
	args := []string{"diff-tree", "-r", "-p", "--unified=0", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", base, now, "--"}
	out, err := e.git(ctx, "", append(args, files...)...)
	if err != nil {
		return nil, fmt.Errorf("diff the tree the spec finished on with now: %w", err)
	}
	ranges := map[string][]codegraph.LineRange{}
	file := ""
	for _, line := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(line, "+++ b/"); ok {
			file = p
			continue
		}
		if strings.HasPrefix(line, "+++ ") {
			file = ""
			continue
		}
		m := hunkHeader.FindStringSubmatch(line)
		if m == nil || file == "" {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		r := codegraph.LineRange{Start: max(start, 1), End: max(start+n-1, 1)}
		if n == 0 {
			r = codegraph.LineRange{Start: max(start, 1), End: max(start+1, 1)}
		}
		ranges[file] = append(ranges[file], r)
	}
	return ranges, nil
}

// commitsTouching names the commits since since that changed file, or
// says the change is not committed. The project's own repository is read
// with no hook, filter or pager run.
func (e *Engine) commitsTouching(ctx context.Context, since, file string) string {
	if since == "" {
		return "not committed"
	}
	cmd := exec.CommandContext(ctx, "git", "-c", "core.fsmonitor=false", "-c", "core.pager=cat", "log", "--no-textconv", "--no-ext-diff",
		"-n", "3", "--format=%h %s", since+"..HEAD", "--", file)
	cmd.Dir = e.set.Root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	lines := strings.Fields(strings.TrimSpace(string(out)))
	if err != nil || len(lines) == 0 {
		return "not committed"
	}
	return strings.ReplaceAll(strings.TrimSpace(string(out)), "\n", "; ")
}
