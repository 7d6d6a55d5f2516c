package gates

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// EarlierRun runs the tests as they were when the session started, for
// PASS_TO_PASS: a session may not delete, skip, break or weaken a test that
// passed before it. The engine, which knows the session's base, provides it;
// Env.Earlier is nil when there is none.
type EarlierRun func(ctx context.Context) (EarlierResult, error)

// EarlierResult is what an EarlierRun learned.
type EarlierResult struct {
	// Passed are the tests that passed on the code the session started from.
	Passed []TestCase
	// Restored is the report of a run on the code now with every earlier
	// test file the session changed or deleted put back as it was (nil when
	// it changed none), and RestoredOutput the tail of that run's output.
	Restored       []TestCase
	RestoredOutput string
	// Allowed names the earlier tests the approved spec says it changes
	// (ChangedTests): a person approved their change.
	Allowed []string
}

// Regression is a test that passed when the session started and does not
// hold now.
type Regression struct {
	Test string `json:"test"`
	// Now says how it fares: one of the regression* words.
	Now     string `json:"now"`
	Failure string `json:"failure,omitempty"` // the runner's line for it, or why it did not run
}

// The words a Regression's Now takes.
const (
	regressionFailed   = "fails now"
	regressionSkipped  = "is skipped now"
	regressionMissing  = "no longer runs (deleted, renamed, or no longer collected)"
	regressionWeakened = "passes now only as the session changed it: as written before, it fails on the code now"
	regressionNoBuild  = "passes now only as the session changed it: as written before, it does not run on the code now"
)

// changedTestsRE matches a spec's "Changes tests: A, B" line, in a list item
// or in bold or not.
var changedTestsRE = regexp.MustCompile(`(?im)^[ \t]*(?:[-*+][ \t]+)?\**changes tests\**:\**[ \t]*(.+)$`)

// ChangedTests returns the earlier tests a spec's tasks.md says its change
// changes ("Changes tests: `TestGreet`, test_total"): the PASS_TO_PASS check
// lets the session change or remove them, because a person approved a spec
// that says so.
func ChangedTests(tasks []byte) []string {
	var names []string
	for _, m := range changedTestsRE.FindAllSubmatch(tasks, -1) {
		for _, n := range strings.FieldsFunc(string(m[1]), func(r rune) bool { return r == ',' || r == ';' }) {
			if n = strings.Trim(strings.TrimSpace(n), "`*"); n != "" {
				names = append(names, n)
			}
		}
	}
	return names
}

// testKey identifies a test across runs of the same runner.
func testKey(tc TestCase) string { return tc.Package + "\x00" + tc.Name }

// allowedChange reports whether names hold tc's name, its full label, or a
// test it is a part of (a Go subtest's parent, a Vitest or Jest suite).
func allowedChange(tc TestCase, names []string) bool {
	for _, n := range names {
		if n == tc.Name || n == tc.label() || strings.HasPrefix(tc.Name, n+"/") || strings.HasPrefix(tc.Name, n+" > ") {
			return true
		}
	}
	return false
}

// regressions compares the tests that passed when the session started with
// this run's (now) and with the run of the earlier test files as they were.
func regressions(earlier EarlierResult, now []TestCase) []Regression {
	current := indexTests(now)
	restored := indexTests(earlier.Restored)
	var out []Regression
	for _, tc := range earlier.Passed {
		if allowedChange(tc, earlier.Allowed) {
			continue
		}
		r := Regression{Test: tc.label()}
		cur, ok := current[testKey(tc)]
		switch {
		case !ok:
			r.Now = regressionMissing
		case cur.Status == TestFailed:
			r.Now, r.Failure = regressionFailed, cur.Failure
		case cur.Status == TestSkipped:
			r.Now = regressionSkipped
		case earlier.Restored == nil:
			continue
		default:
			old, ok := restored[testKey(tc)]
			switch {
			case !ok:
				// Its file, or one it builds with, did not build or load.
				r.Now, r.Failure = regressionNoBuild, causeLine(earlier.RestoredOutput)
			case old.Status == TestPassed:
				continue
			default:
				r.Now, r.Failure = regressionWeakened, old.Failure
			}
		}
		out = append(out, r)
	}
	return out
}

func indexTests(tests []TestCase) map[string]TestCase {
	m := make(map[string]TestCase, len(tests))
	for _, tc := range tests {
		if old, ok := m[testKey(tc)]; ok && old.Status == TestFailed {
			continue // a failure sticks
		}
		m[testKey(tc)] = tc
	}
	return m
}

// checkEarlier fails a run that passed when a test that passed before the
// session no longer does.
func (c Check) checkEarlier(ctx context.Context, env Env, d *CommandDetails, now []TestCase) (Result, bool) {
	earlier, err := env.Earlier(ctx)
	if err != nil {
		return failf(c.Type, "Fix what stops the tests from running on the code the session started from, then run the gate again.",
			"The tests as they were when the session started could not be run: %s.", trimDot(err.Error())), false
	}
	d.Earlier = len(earlier.Passed)
	regs := regressions(earlier, now)
	if len(regs) == 0 {
		return Result{}, true
	}
	d.Regressions = regs[:min(len(regs), maxFailedListed)]
	lines := make([]string, 0, min(len(regs), 5))
	for _, r := range regs[:min(len(regs), 5)] {
		line := r.Test + " " + r.Now
		if r.Failure != "" {
			line += " (" + r.Failure + ")"
		}
		lines = append(lines, line)
	}
	more := ""
	if len(regs) > len(lines) {
		more = fmt.Sprintf("; and %d more", len(regs)-len(lines))
	}
	return failf(c.Type, "Put the earlier tests back as they were and make the code pass them. If the approved spec changes what they check, say so in its tasks.md with a line \"Changes tests: NAME, …\" naming them; the spec then needs a person's approval again.",
		"%s that passed when the session started: %s%s.", plural(len(regs), "test no longer holds", "tests no longer hold"), strings.Join(lines, "; "), more), false
}
