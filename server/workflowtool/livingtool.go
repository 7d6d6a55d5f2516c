package workflowtool

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentos-dev/agentos/server/toolkit"
	"github.com/agentos-dev/agentos/workflow"
)

// The living-spec actions of svc_workflow: what a finished spec's state is,
// a check of it on request, and a converge session from a drifted one.

var livingActions = []string{"list_specs", "check_specs", "converge_spec", "draft_specs"}

func init() { actions = append(actions, livingActions...) }

func livingAction(a string) bool {
	for _, l := range livingActions {
		if a == l {
			return true
		}
	}
	return false
}

// living answers a living-spec action; ok is false for any other action.
func (t *tool) living(ctx context.Context, in input, actor workflow.Actor) (out Output, ok bool, err error) {
	if !livingAction(in.Action) {
		return Output{}, false, nil
	}
	e := t.engine
	if in.Action == "draft_specs" {
		return t.draftSpecs(ctx, in)
	}
	for k := range in.Options {
		if k != "spec" && !(k == "keep" && in.Action == "converge_spec") {
			return Output{}, true, toolkit.Validation("options."+k, "%s takes no option %q", in.Action, k)
		}
	}
	spec := in.Options["spec"]
	switch in.Action {
	case "list_specs":
		specs, err := e.Specs()
		if err != nil {
			return Output{}, true, err
		}
		out := Output{Specs: specs, NextAction: "check_specs runs their traced tests on the code as it is now"}
		if len(specs) == 0 {
			out.NextAction = "no spec has finished yet; for code that has no spec, draft_specs drafts specs from it for a person to approve"
		}
		return out, true, nil
	case "check_specs":
		var names []string
		if spec != "" {
			names = []string{spec}
		}
		specs, err := e.CheckSpecs(ctx, names)
		if err != nil {
			return Output{}, true, err
		}
		out := Output{Specs: notHolding(specs), NextAction: "every finished spec holds"}
		for _, s := range specs {
			if s.State == workflow.SpecDrifted {
				out.NextAction = fmt.Sprintf("converge_spec with options {\"spec\": %q} starts a session that repairs its broken criteria", s.Spec)
				break
			}
			if s.State == workflow.SpecTouched {
				out.NextAction = "the touched specs' tests pass; tell the person which criteria a change reached, and converge only those they keep"
			}
		}
		return out, true, nil
	case "converge_spec":
		if spec == "" {
			return Output{}, true, toolkit.Validation("options.spec", "converge_spec needs options.spec: the finished spec to repair")
		}
		var keep []string
		for _, k := range strings.Split(in.Options["keep"], ",") {
			if k = strings.TrimSpace(k); k != "" {
				keep = append(keep, k)
			}
		}
		res, err := e.Converge(ctx, spec, keep, actor)
		if err != nil {
			return Output{}, true, err
		}
		s := res.Session
		out := reading(e, s)
		out.Session, out.Phase = sessionView(s, false), phaseView(e, s, s.Current)
		out.Status, out.CurrentPhase, out.Converging = s.Status, s.Current, res.Criteria
		out.Changed = "started a spec_execution_v1 session that repairs " + strings.Join(res.Criteria, ", ")
		out.NextAction = fmt.Sprintf("make %s true again in phase %d's tasks (get_task), tick them in tasks.md, then complete_phase", strings.Join(res.Criteria, ", "), s.Current)
		return out, true, nil
	}
	return Output{}, true, toolkit.Validation("action", "unknown action %q", in.Action)
}

// draftSpecs drafts specs for existing modules from their code, tests and
// docs (agentos specs init): drafts a person approves, not specs.
func (t *tool) draftSpecs(ctx context.Context, in input) (Output, bool, error) {
	opts := workflow.DraftOptions{}
	for k, v := range in.Options {
		switch k {
		case "module":
			for _, m := range strings.Split(v, ",") {
				if m = strings.TrimSpace(m); m != "" {
					opts.Modules = append(opts.Modules, m)
				}
			}
		case "dry_run":
			opts.DryRun = v == "true"
		default:
			return Output{}, true, toolkit.Validation("options."+k, "draft_specs takes no option %q", k)
		}
	}
	drafts, err := t.engine.DraftSpecs(ctx, opts)
	if err != nil {
		return Output{}, true, err
	}
	var written []string
	for i := range drafts {
		if !opts.DryRun {
			drafts[i].Files = nil // written: read them from the spec folder
		}
		if drafts[i].Written {
			written = append(written, drafts[i].Spec)
		}
	}
	out := Output{Drafts: drafts, NextAction: "nothing was drafted"}
	switch {
	case opts.DryRun:
		out.NextAction = "a dry run wrote nothing; call draft_specs without dry_run to write these drafts"
	case len(written) > 0:
		out.Changed = "drafted " + strings.Join(written, ", ") + " from code"
		out.NextAction = fmt.Sprintf("tell the person the drafts are not specs until they read, correct and approve each one in a terminal (agentos workflow approve --spec %s); write what each draft's to_add names first", written[0])
	}
	return out, true, nil
}

// notHolding keeps, of each spec's check, only the criteria that do not hold:
// the holding ones are the bulk of the answer and say nothing new.
func notHolding(specs []workflow.SpecState) []workflow.SpecState {
	out := make([]workflow.SpecState, len(specs))
	for i, s := range specs {
		var kept []workflow.CriterionState
		for _, c := range s.Criteria {
			if c.State != workflow.SpecHolding {
				kept = append(kept, c)
			}
		}
		s.Criteria = kept
		out[i] = s
	}
	return out
}

// namesReached adds to a start's answer the finished specs and criteria
// whose tests reach the files or symbols the session said it touches.
func (t *tool) namesReached(ctx context.Context, in input, out *Output) {
	raw := in.Options["touches"]
	if raw == "" {
		return
	}
	reached, err := t.engine.SpecsReaching(ctx, strings.Split(raw, ","))
	if err != nil {
		out.NextAction = strings.TrimSpace(out.NextAction + "; the finished specs the change reaches are not known: " + err.Error())
		return
	}
	if reached == nil {
		reached = []workflow.CoveredCriterion{}
	}
	out.SpecsReached = &reached
	if len(reached) > 0 {
		var names []string
		for _, c := range reached {
			names = append(names, c.Spec+" "+c.Criterion)
		}
		out.NextAction = "the change reaches finished specs' criteria (" + strings.Join(names, ", ") + "): say so in the spec and keep them true; " + out.NextAction
	}
}
