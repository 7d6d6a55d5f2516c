package gates

import (
	"context"
	"fmt"
	"strings"
)

// BeforeRun runs the gate's tests once more, on the code as it was before
// the session's change: the project now, with the session's test files, but
// every function the session added or changed emptied (present, with the
// same signature, returning zero values). tests are the ones that matter,
// as this run's report lists them: the run may be narrowed to them. The
// engine, which knows the session's base, provides it; Env.Before is nil
// when there is none.
type BeforeRun func(ctx context.Context, tests []TestCase) (BeforeResult, error)

// BeforeResult is what a BeforeRun learned.
type BeforeResult struct {
	Tests   []TestCase // the before-run's report
	Emptied []string   // the functions emptied: "path: name"
	Output  string     // the tail of its output, where a test that did not run says why
}

// Proof is how one criterion's tests fared before the change and after it.
type Proof struct {
	ID     string `json:"id"`
	Test   string `json:"test"`   // "TestX (file.go:12)"
	Before string `json:"before"` // failed, passed, skipped, or did not run
	// Failure is the line the runner gave for the failure before the
	// change: what the test asserted that the old code did not do.
	Failure string `json:"failure,omitempty"`
	After   string `json:"after"` // passed
	Proven  bool   `json:"proven"`
}

// beforeVerdicts are the words a Proof's Before takes.
const (
	beforeFailed = "failed"
	beforePassed = "passed"
	beforeAbsent = "did not run (it did not build, or was not collected)"
)

type failBeforeResult struct {
	proofs    []Proof
	emptied   []string
	notProven []CriterionRef
	why       map[string]string // lower-case ID: why it is not proven
	warnings  []string
}

// failBefore decides which traced criteria are proven: a criterion is proven
// only when a test that traces it failed in the before-run and passed in
// this one (FAIL_TO_PASS). A test that passed before does not test the
// change; one that did not run before, even with the new functions present,
// failed by a build or import error, not by its assertions, and proves
// nothing either.
func failBefore(ctx context.Context, before BeforeRun, src *sourceTests, now []TestCase, withID []CriterionRef, ids []string, traces map[string]runTrace) (failBeforeResult, error) {
	out := failBeforeResult{why: map[string]string{}}
	// The tests the before-run must run: every one that proves a criterion
	// now.
	var proving []TestCase
	for i := range withID {
		if tr := traces[ids[i]]; tr.passed {
			for _, t := range tr.proving {
				if tc := src.result(t, now); tc.Name != "" {
					proving = append(proving, tc)
				}
			}
		}
	}
	var run *BeforeResult
	for i, ref := range withID {
		tr := traces[ids[i]]
		if !tr.passed {
			continue
		}
		if len(tr.proving) == 0 {
			out.warnings = append(out.warnings, fmt.Sprintf("Criterion %s is traced by a test whose source agentos does not read, so it could not be run on the code before the change.", ref.ID))
			continue
		}
		if run == nil {
			r, err := before(ctx, proving)
			if err != nil {
				return out, err
			}
			run = &r
			out.emptied = r.Emptied
		}
		proven, absent := false, false
		var seen []string
		for _, t := range tr.proving {
			verdict := beforeAbsent
			before := src.result(t, run.Tests)
			switch before.Status {
			case TestFailed:
				verdict = beforeFailed
			case TestPassed:
				verdict = beforePassed
			case TestSkipped:
				verdict = "skipped"
			}
			ok := verdict == beforeFailed
			proven, absent = proven || ok, absent || verdict == beforeAbsent
			p := Proof{ID: ref.ID, Test: t.label(), Before: verdict, After: TestPassed, Proven: ok}
			if ok {
				p.Failure = before.Failure
			}
			out.proofs = append(out.proofs, p)
			seen = append(seen, t.name+" "+verdict+" before the change")
		}
		if !proven {
			out.notProven = append(out.notProven, ref)
			why := strings.Join(seen, ", ")
			if line := causeLine(run.Output); absent && line != "" {
				why += " (that run's output says: " + line + ")"
			}
			out.why[ids[i]] = why
		}
	}
	return out, nil
}
