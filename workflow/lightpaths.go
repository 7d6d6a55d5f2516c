package workflow

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// The light paths, quick_change_v1 and bugfix_v1, are workflows of listed
// phases that judge code as spec_execution_v1 does (runs_tests): one short
// document a person approves, then the same verified gate. What they need
// of the engine beyond a workflow of listed phases is here.

// runsTests reports whether the sessions of d judge code: an execution of a
// spec's tasks, or a light path.
func (d *Definition) runsTests() bool { return d.PhasesFromTasks != nil || d.RunsTests }

// approvalSettings are the workflow settings an approval_if may name, each
// with how to read it and its value when unset.
var approvalSettings = map[string]struct {
	read func(config.Workflow) string
	def  string
	vals []string
}{
	"bugfix_approval": {
		read: func(w config.Workflow) string { return w.BugfixApproval },
		def:  config.BugfixApproveReproduction,
		vals: []string{config.BugfixApproveReproduction, config.BugfixApproveFix},
	},
}

// checkApprovalIf validates an approval_if value: setting=value, a known
// setting and one of its values.
func checkApprovalIf(cond string) error {
	key, val, ok := strings.Cut(cond, "=")
	s, known := approvalSettings[strings.TrimSpace(key)]
	if !ok || !known {
		return fmt.Errorf("%q is not setting=value with a known setting (%s)", cond, strings.Join(slices.Sorted(maps.Keys(approvalSettings)), ", "))
	}
	if !slices.Contains(s.vals, strings.TrimSpace(val)) {
		return fmt.Errorf("%s takes %s, not %q", key, strings.Join(s.vals, " or "), val)
	}
	return nil
}

// approvalApplies reports whether a phase's approval checks apply under the
// settings wf.
func approvalApplies(p PhaseDef, wf config.Workflow) bool {
	if p.ApprovalIf == "" {
		return true
	}
	key, want, _ := strings.Cut(p.ApprovalIf, "=")
	s := approvalSettings[strings.TrimSpace(key)]
	got := s.read(wf)
	if got == "" {
		got = s.def
	}
	return got == strings.TrimSpace(want)
}

// phaseGate returns the checks of phase n (1-based) of a definition of
// listed phases as they apply under the settings now: a phase whose
// approval the person chose to give elsewhere has none.
func (e *Engine) phaseGate(def *Definition, n int) []gates.Check {
	if def == nil || def.PhasesFromTasks != nil || n < 1 || n > len(def.Phases) {
		return nil
	}
	p := def.Phases[n-1]
	if approvalApplies(p, e.rules.get().wf) {
		return p.Gate
	}
	return slices.DeleteFunc(slices.Clone(p.Gate), func(c gates.Check) bool { return c.Type == gates.TypeApproval })
}

// PhaseGate returns the checks that close phase n of session s, as they
// apply now; nil for a phase of a spec's tasks (its gate is the workflow's
// phases_from_tasks gate).
func (e *Engine) PhaseGate(s *Session, n int) []gates.Check {
	def, ok := e.rules.refresh().lib.Get(s.Workflow)
	if !ok {
		return nil
	}
	return e.phaseGate(def, n)
}

// PhaseAsksApproval reports whether the current phase of s closes with a
// person's approval.
func (e *Engine) PhaseAsksApproval(s *Session) bool { return e.phaseNeedsApproval(s) }

// recordVars keeps in s what the passed checks of a gate ask to keep for the
// later phases (gates.Recorder): what bugfix_v1's fix is held to, such as
// the reproduction test's bytes as they were seen to fail. Only the engine
// writes a session's vars, so an agent cannot change them after the fact.
func recordVars(s *Session, r *GateReport) {
	for _, c := range r.Checks {
		rec, ok := c.Details.(gates.Recorder)
		if !ok || !c.Passed {
			continue
		}
		for k, v := range rec.Recorded() {
			s.Vars[k] = v
		}
	}
}
