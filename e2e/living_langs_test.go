package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Living specs in Python and TypeScript, as TestLivingSpecDriftTouchAndConverge
// runs them in Go: an honest pytest or Vitest run completes the greeting
// spec through spec_execution_v1; its check holds; a real regression drifts
// it, naming the criterion, the test and the runner's failure; converge
// repairs it through the verified gate, and the spec holds again.

// livingProject is the greeting project of one runner before the session:
// its code greets nobody yet (stub), and its tests name the spec's criteria.
type livingProject struct {
	files map[string]string
	setup func(t *testing.T, root string)
	// code is the code file; stub, done and broken it before the session,
	// after it, and after a regression of the empty name.
	code, stub, done, broken string
	// emptyTest is words of the label of AC-greeting-1.2.1's test, failure
	// words of its failure on the broken code.
	emptyTest, failure string
}

func pythonLiving(t *testing.T) livingProject {
	p := pythonLight(t)
	return livingProject{
		files: map[string]string{
			"pyproject.toml": pyProject,
			"pytest.ini":     pyIni,
			"test_greet.py": "from greet import greet\n\n\n# AC-greeting-1.1.1\ndef test_greets_by_name():\n    assert greet(\"ann\") == \"hello, ann\"\n\n\n" +
				"# AC-greeting-1.2.1\ndef test_greets_the_world():\n    assert greet(\"\") == \"hello, world\", \"an empty name greets the world\"\n",
		},
		code:      p.code,
		stub:      "def greet(name):\n    return \"\"\n",
		done:      pyGreet,
		broken:    "def greet(name):\n    return \"hello, \" + name\n",
		emptyTest: "test_greets_the_world (test_greet.py:",
		failure:   "an empty name greets the world",
	}
}

func vitestLiving(t *testing.T) livingProject {
	p := vitestLight(t)
	return livingProject{
		files: map[string]string{
			"package.json":  vitestPackage,
			"tsconfig.json": vitestTSConfig,
			"src/greet.test.ts": vitestImports + "import { greet } from \"./greet\";\n\ndescribe(\"greet\", () => {\n" +
				"  // AC-greeting-1.1.1\n  it(\"greets by name\", () => {\n    expect(greet(\"ann\")).toBe(\"hello, ann\");\n  });\n\n" +
				"  // AC-greeting-1.2.1\n  it(\"greets the world\", () => {\n    expect(greet(\"\")).toBe(\"hello, world\");\n  });\n});\n",
		},
		setup:     p.setup,
		code:      p.code,
		stub:      "export function greet(name: string): string {\n  return \"\";\n}\n",
		done:      greetTS,
		broken:    "export function greet(name: string): string {\n  return \"hello, \" + name;\n}\n",
		emptyTest: "greets the world (src/greet.test.ts:",
		failure:   "expected 'hello, ' to be 'hello, world'",
	}
}

func TestLivingSpecPython(t *testing.T) {
	long(t) // the fast run has spec drift and converge on Go (TestSpecsInitGo)
	livingRun(t, pythonLiving(t))
}

func TestLivingSpecVitest(t *testing.T) {
	long(t) // the fast run has spec drift and converge on Go (TestSpecsInitGo)
	t.Parallel()
	livingRun(t, vitestLiving(t))
}

func livingRun(t *testing.T, p livingProject) {
	t.Helper()
	root := newProject(t)
	if p.setup != nil {
		p.setup(t, root)
	}
	for rel, content := range p.files {
		write(t, root, rel, content)
	}
	write(t, root, p.code, p.stub)
	write(t, root, ".gitignore", "node_modules\n")
	spec := commitApprovedGreeting(t, root)

	// The honest run: the code greets, each criterion's test fails before
	// and passes after.
	c := stdioClient(t, root, "--transport", "stdio")
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}})
	id := out.Session.ID
	fsWrite(t, c, p.code, p.done)
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", goodTasks)
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest run did not complete: %+v", out.Gate)
	}
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "greeting done")

	var rec struct {
		Criteria []struct {
			ID    string
			Tests []struct {
				Name, File string
				Proven     bool
			}
		}
	}
	readJSON(t, filepath.Join(root, ".agentos", "state", "living", spec+".json"), &rec)
	if len(rec.Criteria) != 2 {
		t.Fatalf("evidence: %+v", rec)
	}
	for _, cr := range rec.Criteria {
		if len(cr.Tests) != 1 || !cr.Tests[0].Proven {
			t.Fatalf("criterion %s traced to %+v", cr.ID, cr.Tests)
		}
	}
	checkSpecs(t, root, "holding", "an untouched spec")

	// A real regression: drifted, naming the criterion, the test and the
	// runner's failure; the other criterion's test still passes.
	write(t, root, p.code, p.broken)
	gitIn(t, root, "commit", "-q", "-am", "simplify greet")
	specs := checkSpecs(t, root, "drifted", "a regression")
	st, test, failure := criterion(t, specs[0], "AC-greeting-1.2.1")
	if st != "drifted" || !strings.Contains(test, p.emptyTest) || !strings.Contains(test, "failed") || !strings.Contains(failure, p.failure) {
		t.Fatalf("AC-greeting-1.2.1: %s / %s / %s", st, test, failure)
	}
	if st, test, _ := criterion(t, specs[0], "AC-greeting-1.1.1"); st == "drifted" || !strings.Contains(test, "passed") {
		t.Fatalf("AC-greeting-1.1.1 still holds, but reads %s (%s)", st, test)
	}

	// Converge: the broken criterion is the session's task, proven again.
	out = mustWF(t, c, map[string]any{"action": "converge_spec", "options": map[string]any{"spec": spec}})
	id = out.SessionID
	if id == "" {
		t.Fatalf("converge: %+v", out)
	}
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", goodTasks)
	// Ticked without the fix, the gate refuses: the test still fails.
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); out.Gate == nil || out.Gate.Passed {
		t.Fatalf("the converge passed without the fix: %+v", out.Gate)
	}
	fsWrite(t, c, p.code, p.done)
	out = mustWF(t, c, map[string]any{"action": "retry_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the converge with the fix: %+v", out.Gate)
	}
	checkSpecs(t, root, "holding", "after converge")
	if changes := readFile(t, filepath.Join(root, ".agentos", "specs", spec, "changes.md")); !strings.Contains(changes, ": converged (session "+id) {
		t.Fatalf("changes.md after converge:\n%s", changes)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
