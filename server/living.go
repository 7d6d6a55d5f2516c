package server

import (
	"context"

	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/workflow"
)

// Living specs join the workflow engine and the code index: the engine
// records and checks the symbols a finished spec's tests reach on the
// index's call graph, and an impact answer names the finished specs whose
// tests a change reaches from the engine's records.

// specGraph lets the engine ask the search service's call graph.
func specGraph(search *searchtool.Service) workflow.GraphSource {
	return func(ctx context.Context) (workflow.SymbolGraph, error) {
		g, err := search.CodeGraph(ctx)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

// SpecCriteria is the impact hook over the engine's finished specs: the
// criteria whose traced tests are among an impact's tests.
func SpecCriteria(engine *workflow.Engine) searchtool.CriteriaTracer {
	return func(_ context.Context, tests []searchtool.ImpactNode) ([]searchtool.AffectedCriterion, error) {
		reached := make([]workflow.ReachedTest, len(tests))
		for i, t := range tests {
			reached[i] = workflow.ReachedTest{Path: t.Path, Name: t.Symbol}
		}
		covered, err := engine.CriteriaReached(reached)
		if err != nil {
			return nil, err
		}
		out := make([]searchtool.AffectedCriterion, len(covered))
		for i, c := range covered {
			out[i] = searchtool.AffectedCriterion{Spec: c.Spec, Criterion: c.Criterion, Tests: c.Tests}
		}
		return out, nil
	}
}
