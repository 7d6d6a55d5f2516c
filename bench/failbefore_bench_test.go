//go:build linux

package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// What fail-before costs a gate (issue 30): one execution gate, the
// engine's whole CompletePhase, on the Go, Python and TypeScript projects of
// BenchmarkGateSandbox, for a session that added a function and a test of
// it. Two ways, alternating on the same session: with its base (the gate
// runs the tests, runs them again with the new function emptied, and holds
// the tests that passed at the start, which the first gate learned), and
// without (a session from before bases were recorded, judged as every gate
// was before fail-before: one sandboxed run). The gate fails on an untraced
// criterion after running everything, so it can be repeated.

// The change the session makes in each project: a function and its test,
// which fails on the function emptied.
var failBeforeChange = map[string]map[string]string{
	"go": {
		"cart/discount.go":      "package cart\n\n// Discount is a tenth of the total, rounded down.\nfunc Discount(xs []int) int { return Total(xs) / 10 }\n",
		"cart/discount_test.go": "package cart\n\nimport \"testing\"\n\n// AC-shop-1.1.1\nfunc TestDiscount(t *testing.T) {\n\tif got := Discount([]int{100}); got != 20 {\n\t\tt.Fatalf(\"Discount = %d, want 20\", got)\n\t}\n}\n",
	},
	"python": {
		"shop/discount.py":       "from shop import cart\n\n\ndef discount(xs):\n    \"\"\"A tenth of the total, rounded down.\"\"\"\n    return cart.sum0(xs) // 10\n",
		"tests/test_discount.py": "from shop import discount\n\n\n# AC-shop-1.1.1\ndef test_discount():\n    assert discount.discount([100]) == 10\n",
	},
	"typescript": {
		"src/discount.ts":      "import { sum0 } from \"./cart\";\n\n/** A tenth of the total, rounded down. */\nexport function discount(xs: number[]): number {\n  return Math.floor(sum0(xs) / 10);\n}\n",
		"src/discount.test.ts": "import { expect, it } from \"vitest\";\nimport { discount } from \"./discount\";\n\n// AC-shop-1.1.1\nit(\"discount is a tenth of the total\", () => {\n  expect(discount([100])).toBe(10);\n});\n",
	},
}

const failBeforeTasks = `# Tasks: shop

## Phase 1: Discount

- [x] 1.1 Add the discount
  - Add Discount to the cart
  - Estimate: 1h
  - Acceptance criteria:
    - [x] AC-shop-1.1.1: the discount is a tenth of the total
    - [x] AC-shop-1.1.2: no test names this one, so the gate fails after running everything
`

// BenchmarkGateFailBefore reports per project the median gate with the base
// (failbefore-ms) and without (today-ms), their ratio, and the first gate
// with the base (first-ms), which also learns the tests that passed on it.
func BenchmarkGateFailBefore(b *testing.B) {
	needSandbox(b)
	base := b.TempDir()
	for _, p := range []gateProject{{"go", goProject}, {"python", pythonProject}, {"typescript", typescriptProject}} {
		root := filepath.Join(base, p.name)
		var env []string
		var e *workflow.Engine
		var id, baseTree string
		b.Run(p.name, func(b *testing.B) {
			if e == nil {
				writeFiles(b, root, map[string]string{".agentos/.cache/.keep": ""})
				_, env = p.setup(b, root)
				for _, kv := range env {
					name, value, _ := strings.Cut(kv, "=")
					b.Setenv(name, value)
				}
				e, id = failBeforeSession(b, root)
				s, err := e.Get(id)
				if err != nil {
					b.Fatal(err)
				}
				baseTree = s.Vars["base_tree"]
			}
			for _, kv := range env {
				name, value, _ := strings.Cut(kv, "=")
				b.Setenv(name, value)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			withBase := func(on bool) {
				if _, err := e.Store().Update(id, func(s *workflow.Session) error {
					if on {
						s.Vars["base_tree"] = baseTree
					} else {
						delete(s.Vars, "base_tree")
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			gate := func(withBase bool) time.Duration {
				t0 := time.Now()
				_, rep, err := e.CompletePhase(ctx, id, nil, workflow.Actor{Client: "bench"}, false)
				took := time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				if failed := failedChecks(rep); failed != "acceptance_criteria: AC-shop-1.1.2" {
					b.Fatalf("the gate did not fail only on the untraced criterion: %s", failed)
				}
				if proven := provenBefore(rep); proven != withBase {
					b.Fatalf("with the base %v, the criterion was proven to fail before: %v\n%+v", withBase, proven, rep.Checks)
				}
				return took
			}
			withBase(true)
			if err := os.RemoveAll(filepath.Join(root, ".agentos", "state", "earlier")); err != nil {
				b.Fatal(err)
			}
			first := gate(true)
			var with, without []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k := 0; k < 2; k++ {
					on := (i+k)%2 == 0
					withBase(on)
					if on {
						with = append(with, gate(true))
					} else {
						without = append(without, gate(false))
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(first.Seconds()*1000, "first-ms")
			b.ReportMetric(median(with).Seconds()*1000, "failbefore-ms")
			b.ReportMetric(median(without).Seconds()*1000, "today-ms")
			b.ReportMetric(float64(median(with))/float64(median(without)), "ratio")
		})
	}
}

// failedChecks says which checks of rep failed, and for the criteria check
// which criteria it named.
func failedChecks(rep *workflow.GateReport) string {
	var out []string
	for _, c := range rep.Checks {
		if c.Passed {
			continue
		}
		what := c.Type
		if c.Type == "acceptance_criteria" {
			for _, id := range []string{"AC-shop-1.1.1", "AC-shop-1.1.2"} {
				if strings.Contains(c.Message, id) {
					what += ": " + id
				}
			}
		} else {
			what += ": " + c.Message
		}
		out = append(out, what)
	}
	return strings.Join(out, "; ")
}

// provenBefore reports whether rep's criteria check proved a criterion by
// a test that failed before the change.
func provenBefore(rep *workflow.GateReport) bool {
	for _, c := range rep.Checks {
		if d, ok := c.Details.(gates.CriteriaDetails); ok {
			for _, p := range d.Proofs {
				if p.Proven && p.Before == "failed" {
					return true
				}
			}
		}
	}
	return false
}

// benchEngine is the workflow engine of root with the built-in workflows
// and the test command detected there, at a 1% coverage threshold.
func benchEngine(b *testing.B, root string) *workflow.Engine {
	b.Helper()
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		b.Fatal(err)
	}
	lib, err := workflow.LoadLibrary(builtin, nil)
	if err != nil {
		b.Fatal(err)
	}
	d := testcmd.For(root)
	return workflow.NewEngine(lib, workflow.Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state"),
		TestCommand: d.Command, CoverageFile: d.Coverage, TestReport: d.Report, CoverageThreshold: 1})
}

// failBeforeSession approves the shop spec in root, starts its execution
// (recording the base), makes the session's change and completes its task.
func failBeforeSession(b *testing.B, root string) (*workflow.Engine, string) {
	b.Helper()
	e := benchEngine(b, root)
	spec := "2026-01-01-shop"
	writeFiles(b, root, map[string]string{
		".agentos/specs/" + spec + "/README.md": "# Shop\n\nCoverage threshold: 1%\n\n## Objectives\nA discount on the cart.\n",
		".agentos/specs/" + spec + "/tasks.md":  failBeforeTasks,
	})
	if _, err := e.ApproveSpec(spec, workflow.Approver{By: "bench", Via: workflow.ViaTerminal, Actor: workflow.CLIActor}, "", nil); err != nil {
		b.Fatal(err)
	}
	agent := workflow.Actor{Client: "bench"}
	s, err := e.Start(context.Background(), "spec_execution_v1", map[string]string{"spec": spec}, agent)
	if err != nil {
		b.Fatal(err)
	}
	if s.Vars["base_tree"] == "" {
		b.Fatal("the session recorded no base")
	}
	writeFiles(b, root, failBeforeChange[filepath.Base(root)])
	if _, err := e.CompleteTask(s.ID, "1.1", "", agent, false); err != nil {
		b.Fatal(err)
	}
	return e, s.ID
}
