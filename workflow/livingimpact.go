package workflow

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/search/codegraph"
)

// Impact before a change: the finished specs whose traced tests a change
// reaches are named before the change is written, from the same records a
// check reads.

// ReachedTest is a test a change reaches, as the graph's impact names it:
// its file and its name (a Go or Python test function; "<module>" or empty
// for a JavaScript or TypeScript test file, whose tests are its top-level
// code).
type ReachedTest struct {
	Path string
	Name string
}

// CoveredCriterion is a finished spec's criterion that a change may break:
// some of its traced tests reach the change.
type CoveredCriterion struct {
	Spec      string   `json:"spec"`
	Criterion string   `json:"criterion"`
	Text      string   `json:"text,omitempty"`
	Tests     []string `json:"tests"`
}

// CriteriaReached names the criteria of the finished specs (whose records
// agentos signed) that some of tests check.
func (e *Engine) CriteriaReached(tests []ReachedTest) ([]CoveredCriterion, error) {
	names, err := e.livingSpecs()
	if err != nil {
		return nil, err
	}
	byFile := map[string][]ReachedTest{}
	for _, t := range tests {
		byFile[t.Path] = append(byFile[t.Path], t)
	}
	out := []CoveredCriterion{}
	for _, spec := range names {
		rec, integrity, err := e.readLiving(spec)
		if err != nil || integrity != nil {
			continue // an unverified record names nothing
		}
		for _, c := range rec.Criteria {
			var hit []string
			for _, t := range c.Tests {
				for _, r := range byFile[t.File] {
					root, _, _ := strings.Cut(t.Name, "/")
					if r.Name == "" || r.Name == "<module>" || r.Name == root || strings.HasSuffix(r.Name, "."+root) || t.Lang == "js" {
						hit = append(hit, t.Label())
						break
					}
				}
			}
			if len(hit) > 0 {
				out = append(out, CoveredCriterion{Spec: spec, Criterion: c.ID, Text: c.Text, Tests: slices.Compact(hit)})
			}
		}
	}
	return out, nil
}

// maxTouchesNamed bounds what a start's touches may name.
const maxTouchesNamed = 50

// SpecsReaching names the finished specs' criteria whose tests a change to
// touches would reach: files (every symbol of each) or symbols, as the call
// graph resolves them. It is what a new spec's start shows.
func (e *Engine) SpecsReaching(ctx context.Context, touches []string) ([]CoveredCriterion, error) {
	if len(touches) == 0 {
		return nil, nil
	}
	if len(touches) > maxTouchesNamed {
		return nil, invalid("options.touches", "touches names %d files or symbols; at most %d", len(touches), maxTouchesNamed)
	}
	names, err := e.livingSpecs()
	if err != nil || len(names) == 0 {
		return nil, err
	}
	g, err := e.codeGraph(ctx)
	if err != nil {
		return nil, fmt.Errorf("the finished specs a change reaches cannot be named: %w", err)
	}
	var changed []codegraph.Symbol
	for _, t := range touches {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
		case g.HasFile(t):
			changed = append(changed, g.SymbolsOf(t)...)
		default:
			s, err := g.Lookup(t)
			if err != nil {
				return nil, invalid("options.touches", "%s is neither a file of the code index nor a symbol it knows: %v", t, err)
			}
			changed = append(changed, s)
		}
	}
	im := g.Impact(changed, codegraph.ImpactOptions{TestLimit: codegraph.MaxLimit})
	var reached []ReachedTest
	for _, t := range im.Tests {
		reached = append(reached, ReachedTest{Path: t.Symbol.Path, Name: t.Symbol.Qualified()})
	}
	return e.CriteriaReached(reached)
}
