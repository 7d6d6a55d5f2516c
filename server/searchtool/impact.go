package searchtool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/internal/gitrepo"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/codegraph"
)

// Defaults and limits of the impact action.
const (
	DefaultImpactDepth = codegraph.DefaultImpactDepth
	DefaultImpactNodes = 25 // callers, and tests, each
	// maxChangedShown bounds the changed symbols an answer lists; the
	// walk starts from all of them.
	maxChangedShown = 50
	// maxFilesShown bounds the changed files with no symbols an answer lists.
	maxFilesShown = 20
)

// ImpactAnswer is the answer of the impact action: what a change touches,
// who calls it, and which tests reach it.
type ImpactAnswer struct {
	DiffBase     string        `json:"diff_base,omitempty" jsonschema:"With diff_base: the revision the work tree was compared with"`
	Changed      []GraphSymbol `json:"changed" jsonschema:"The symbols the change touches (those named, or whose lines the diff changed)"`
	ChangedTotal int           `json:"changed_total" jsonschema:"How many symbols the change touches; changed lists at most 50"`
	// OtherFiles are changed files the graph holds no symbol of.
	OtherFiles []string     `json:"other_files,omitempty" jsonschema:"Changed files with no symbol in the call graph: deleted, not code, or not indexed (at most 20 listed)"`
	Depth      int          `json:"depth" jsonschema:"Callers are listed this many calls up"`
	TestDepth  int          `json:"test_depth" jsonschema:"Tests are looked for this many calls up"`
	Callers    []ImpactNode `json:"callers" jsonschema:"Symbols outside tests that call a changed one, nearest first"`
	Tests      []ImpactNode `json:"tests" jsonschema:"Tests (Go Test/Benchmark/Fuzz/Example functions, Python test functions, JavaScript/TypeScript test files' code) that reach a changed symbol, nearest first; a changed test at depth 0"`
	// SpecsTraced is the hook for the specs and criteria a change affects:
	// false (and Criteria absent) until specs trace their acceptance
	// criteria to tests (see CriteriaTracer).
	SpecsTraced bool                 `json:"specs_traced" jsonschema:"Whether the specs' criteria are traced to tests; while false no spec or criterion is named"`
	Criteria    *[]AffectedCriterion `json:"criteria,omitempty" jsonschema:"The specs' acceptance criteria whose tests the change reaches"`
}

// ImpactNode is a symbol a change reaches, with why.
type ImpactNode struct {
	Symbol     string   `json:"symbol" jsonschema:"Qualified name: package.Type.Name"`
	Kind       string   `json:"kind"`
	Path       string   `json:"path"`
	StartLine  int      `json:"start_line"`
	Depth      int      `json:"depth" jsonschema:"Calls between it and the changed symbol"`
	Why        []string `json:"why" jsonschema:"The chain of calls from this symbol to the changed one (last)"`
	CallLine   int      `json:"call_line,omitempty" jsonschema:"Line where this symbol calls the next of why"`
	Confidence string   `json:"confidence" jsonschema:"exact: every link of why is resolved; by_name: some link was matched by name only; inferred: some link is a call the standard library makes (fmt calling String) or one through a standard library interface"`
	Notes      []string `json:"notes,omitempty" jsonschema:"How the links of why that are not plain calls go: through an interface, or inferred"`
}

// AffectedCriterion is a spec's acceptance criterion a change may break:
// one of its tests is among the impact's.
type AffectedCriterion struct {
	Spec      string   `json:"spec"`
	Criterion string   `json:"criterion"`
	Tests     []string `json:"tests" jsonschema:"The impact's tests that check it"`
}

// CriteriaTracer names the specs' criteria checked by some of tests. It is
// the hook by which a change's impact reaches the specs; none is set until
// specs trace their criteria to tests, and then answers name none.
type CriteriaTracer func(ctx context.Context, tests []ImpactNode) ([]AffectedCriterion, error)

// impactQuery is one impact question: of a symbol, or of the work tree's
// diff against DiffBase.
type impactQuery struct {
	Symbol   string
	Diff     bool
	DiffBase string
	Depth    int
	Limit    int
}

// runImpact answers an impact question from ix's call graph. A diff is
// read from the git repository holding the index's root.
func runImpact(ctx context.Context, ix *search.Index, q impactQuery, criteria CriteriaTracer) (Output, error) {
	g := ix.Graph()
	out := Output{Action: "impact", Query: q.Symbol}
	ans := &ImpactAnswer{Changed: []GraphSymbol{}, Depth: q.Depth, TestDepth: max(q.Depth, codegraph.DefaultTestDepth)}
	var changed []codegraph.Symbol
	var notes []string
	if q.Diff {
		base := q.DiffBase
		if base == "" {
			base = "HEAD"
		}
		ans.DiffBase = base
		root := ix.Options().Root
		repo, err := gitrepo.Find(root)
		if errors.Is(err, gitrepo.ErrNotRepo) {
			return Output{}, &FieldError{"diff_base", fmt.Errorf("the project (%s) is not in a git work tree: name a symbol instead", root)}
		}
		if err != nil {
			return Output{}, fmt.Errorf("find the git repository: %w", err)
		}
		diff, err := repo.Diff(ctx, root, base)
		if err != nil {
			return Output{}, &FieldError{"diff_base", err}
		}
		var other []string
		for _, c := range diff {
			var syms []codegraph.Symbol
			switch {
			case c.Deleted:
			case c.Whole:
				syms = g.SymbolsOf(c.Path)
			default:
				rs := make([]codegraph.LineRange, len(c.Lines))
				for i, l := range c.Lines {
					rs[i] = codegraph.LineRange{Start: l.Start, End: l.End}
				}
				syms = g.SymbolsIn(c.Path, rs)
			}
			// agentos's own files (its indexes when not ignored, the
			// standards and config an install just wrote) are never the
			// project's code, and not worth naming.
			if len(syms) == 0 && !g.HasFile(c.Path) && !strings.HasPrefix(c.Path, project.Dir+"/") {
				other = append(other, c.Path)
			}
			changed = append(changed, syms...)
		}
		slices.Sort(other)
		if len(other) > maxFilesShown {
			notes = append(notes, fmt.Sprintf("%d changed files have no symbol in the graph; %d are listed in other_files.", len(other), maxFilesShown))
			other = other[:maxFilesShown]
		}
		ans.OtherFiles = other
		if len(diff) == 0 {
			notes = append(notes, fmt.Sprintf("The work tree has no change against %s.", base))
		} else if len(changed) == 0 {
			notes = append(notes, "No changed line lies in a symbol of the call graph.")
		}
	} else {
		s, err := g.Lookup(q.Symbol)
		if err != nil {
			return Output{}, &FieldError{"query", err}
		}
		if s.Kind == "package" {
			return Output{}, &FieldError{"query", fmt.Errorf("%s is a package; impact takes a function, method or type", s.Display())}
		}
		root := graphSymbol(s)
		out.Symbol = &root
		changed = []codegraph.Symbol{s}
	}
	im := g.Impact(changed, codegraph.ImpactOptions{Depth: q.Depth, Limit: q.Limit, TestLimit: q.Limit})
	ans.ChangedTotal = len(im.Changed)
	for i, s := range im.Changed {
		if i == maxChangedShown {
			notes = append(notes, fmt.Sprintf("%d symbols changed; the first %d are listed.", len(im.Changed), maxChangedShown))
			break
		}
		ans.Changed = append(ans.Changed, graphSymbol(s))
	}
	ans.Callers, ans.Tests = impactNodes(im.Callers), impactNodes(im.Tests)
	if im.CallersTruncated || im.TestsTruncated || im.Cut {
		out.Truncated = true
		var cut []string
		if im.CallersTruncated {
			cut = append(cut, "callers")
		}
		if im.TestsTruncated {
			cut = append(cut, "tests")
		}
		if len(cut) > 0 {
			notes = append(notes, fmt.Sprintf("Only the first %d %s are shown; raise n_results (up to %d) or lower max_depth.", q.Limit, strings.Join(cut, " and "), MaxResults))
		}
		if im.Cut {
			notes = append(notes, "The walk stopped at its bound on symbols visited: more callers and tests may be reached.")
		}
	}
	if len(changed) > 0 && len(ans.Tests) == 0 {
		notes = append(notes, fmt.Sprintf("No test reaches the change within %d calls. %s", ans.TestDepth, unseenCalls(changed[0].Language)))
	}
	if criteria != nil {
		cs, err := criteria(ctx, ans.Tests)
		if err != nil {
			return Output{}, fmt.Errorf("trace the specs' criteria: %w", err)
		}
		ans.SpecsTraced, ans.Criteria = true, &cs
	}
	out.Impact = ans
	out.Notice = strings.Join(notes, " ")
	return out, nil
}

func impactNodes(rs []codegraph.Reach) []ImpactNode {
	out := make([]ImpactNode, len(rs))
	for i, r := range rs {
		conf := "exact"
		switch {
		case r.Inferred:
			conf = "inferred"
		case r.Loose:
			conf = "by_name"
		}
		out[i] = ImpactNode{Symbol: r.Symbol.Display(), Kind: r.Symbol.Kind, Path: r.Symbol.Path, StartLine: r.Symbol.Line,
			Depth: r.Depth, Why: r.Why, CallLine: r.Line, Confidence: conf, Notes: r.Notes}
	}
	return out
}
