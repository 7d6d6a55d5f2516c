package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// The light paths, quick_change_v1 and bugfix_v1, end to end: the built
// binary, an MCP client over stdio, real projects and real test runners.
// Each honest run passes every gate the first time it is asked after the
// person's one approval; each cheat is refused, naming what it did.

// lightProject is a project of one ecosystem before the session: its files,
// the buggy or missing behaviour in its code, and the runner's setup.
type lightProject struct {
	name  string
	files map[string]string
	setup func(t *testing.T, root string)
	// path of the code and of the test the session writes, the fixed code,
	// and the test proving the criterion: criterion ID → test source.
	code, fixed, testPath string
	test                  func(id string) string
	// reason is words of the runner's failure message of test on the
	// code as it was.
	reason string
}

func goLight() lightProject {
	return lightProject{
		name: "go",
		files: map[string]string{
			"go.mod":        "module example.com/greet\n\ngo 1.22\n",
			"shout.go":      "package greet\n\nimport \"strings\"\n\n// Shout shouts s.\nfunc Shout(s string) string { return strings.ToUpper(s) }\n",
			"shout_test.go": "package greet\n\nimport \"testing\"\n\nfunc TestShout(t *testing.T) {\n\tif Shout(\"a\") != \"A\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
			"greet.go":      "package greet\n\n// Greet greets name.\nfunc Greet(name string) string {\n\treturn \"hello, \" + name\n}\n",
			"greet_test.go": "package greet\n\nimport \"testing\"\n\nfunc TestGreetName(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
		},
		code:     "greet.go",
		fixed:    greetGo,
		testPath: "empty_test.go",
		test: func(id string) string {
			return "package greet\n\nimport \"testing\"\n\n// " + id + ": an empty name greets the world.\nfunc TestGreetEmpty(t *testing.T) {\n\tif got := Greet(\"\"); got != \"hello, world\" {\n\t\tt.Fatalf(\"Greet(empty) = %q, want the world\", got)\n\t}\n}\n"
		},
		reason: `Greet(empty) = "hello, ", want the world`,
	}
}

func pythonLight(t *testing.T) lightProject {
	needTool(t, exec.Command("/usr/bin/python3", "-c", "import pytest, pytest_cov").Run() == nil, "Debian's python3 has no pytest and pytest-cov")
	t.Setenv("PATH", "/usr/bin:"+os.Getenv("PATH"))
	return lightProject{
		name: "pytest",
		files: map[string]string{
			"pyproject.toml":     pyProject,
			"pytest.ini":         pyIni,
			"greet.py":           "def greet(name):\n    return \"hello, \" + name\n",
			"test_greet_name.py": "from greet import greet\n\n\ndef test_name():\n    assert greet(\"ann\") == \"hello, ann\"\n",
		},
		code:     "greet.py",
		fixed:    pyGreet,
		testPath: "test_greet_empty.py",
		test: func(id string) string {
			return "from greet import greet\n\n\n# " + id + "\ndef test_empty_name():\n    assert greet(\"\") == \"hello, world\", \"an empty name greets the world\"\n"
		},
		reason: "an empty name greets the world",
	}
}

func vitestLight(t *testing.T) lightProject {
	modules := runnersCache(t, "vitest")
	return lightProject{
		name: "vitest",
		files: map[string]string{
			"package.json":           vitestPackage,
			"tsconfig.json":          vitestTSConfig,
			"src/greet.ts":           "export function greet(name: string): string {\n  return \"hello, \" + name;\n}\n",
			"src/greet.name.test.ts": vitestImports + "import { greet } from \"./greet\";\n\ntest(\"greets by name\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n});\n",
		},
		setup: func(t *testing.T, root string) {
			if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
				t.Fatal(err)
			}
		},
		code:     "src/greet.ts",
		fixed:    greetTS,
		testPath: "src/greet.empty.test.ts",
		test: func(id string) string {
			return vitestImports + "import { greet } from \"./greet\";\n\n// " + id + "\ntest(\"an empty name greets the world\", () => {\n  expect(greet(\"\")).toBe(\"hello, world\");\n});\n"
		},
		reason: "expected 'hello, ' to be 'hello, world'",
	}
}

// jestLight is vitestLight's project with Jest (ts-jest) as its runner.
func jestLight(t *testing.T) lightProject {
	modules := runnersCache(t, "jest")
	return lightProject{
		name: "jest",
		files: map[string]string{
			"package.json":           jestPackage,
			"tsconfig.json":          jestTSConfig,
			"src/greet.ts":           "export function greet(name: string): string {\n  return \"hello, \" + name;\n}\n",
			"src/greet.name.test.ts": "import { greet } from \"./greet\";\n\ntest(\"greets by name\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n});\n",
		},
		setup: func(t *testing.T, root string) {
			if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
				t.Fatal(err)
			}
		},
		code:     "src/greet.ts",
		fixed:    greetTS,
		testPath: "src/greet.empty.test.ts",
		test: func(id string) string {
			return "import { greet } from \"./greet\";\n\n// " + id + "\ntest(\"an empty name greets the world\", () => {\n  expect(greet(\"\")).toBe(\"hello, world\");\n});\n"
		},
		reason: `Expected: "hello, world"`,
	}
}

// lightStart makes the project p before the session, through the agent's
// own file tool, and returns the client.
func lightStart(t *testing.T, p lightProject, config string) (string, *client.Client) {
	t.Helper()
	root := newProject(t)
	if config != "" {
		f, err := os.OpenFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(f, config)
		f.Close()
	}
	if p.setup != nil {
		p.setup(t, root)
	}
	for rel, content := range p.files {
		write(t, root, rel, content)
	}
	return root, stdioClient(t, root, "--transport", "stdio")
}

// changeDoc is an honest change.md for the quick change named name with the
// given criteria (their text) and test command.
func changeDoc(name, command string, criteria ...string) string {
	var b strings.Builder
	b.WriteString("# Greet the world on an empty name\n\n## What\nGreet returns a greeting of the whole world when it is given an empty name.\n\n")
	b.WriteString("## Why\nA visitor who has not told us their name still deserves a proper greeting.\n\n## Acceptance criteria\n")
	for i, c := range criteria {
		fmt.Fprintf(&b, "- AC-%s-%d: %s\n", name, i+1, c)
	}
	b.WriteString("\n## Test command\n`" + command + "`\n")
	return b.String()
}

// bugDoc is an honest bug.md for the bug named name whose test fails with reason.
func bugDoc(name, reason, command string) string {
	return "# An empty name is greeted with a dangling comma\n\n## What happens\nGreet given an empty name returns the greeting with nothing after the comma.\n\n" +
		"## Expected\nAn empty name greets the whole world instead.\n\n## Reproduction\n- AC-" + name + "-1: an empty name greets the world\n\nFails with: `" + reason + "`\n\n" +
		"## Fix summary\nGreet checks for the empty name first and returns the greeting of the world in that case.\n\n## Test command\n`" + command + "`\n"
}

// quickHonest plays the honest quick change on p: start, the document, the
// person's approval, the test and the code; every gate passes the first
// time. It returns the meter of svc_workflow's answers.
func quickHonest(t *testing.T, p lightProject) *byteMeter {
	t.Helper()
	root, c := lightStart(t, p, "")
	m := &byteMeter{t: t, c: c, bytes: map[string]int{}, calls: map[string]int{}}
	out := m.call(map[string]any{"action": "start", "workflow_type": "quick_change_v1", "options": map[string]any{"change": "greet-empty"}})
	id, dir, cmd := out.Session.ID, out.Session.Vars["spec_dir"], out.Session.Vars["test_command"]
	if !strings.Contains(out.NextAction, "get_phase") {
		t.Errorf("start's next_action: %s", out.NextAction)
	}
	m.call(map[string]any{"action": "get_phase", "session_id": id})
	fsWrite(t, c, dir+"/change.md", changeDoc("greet-empty", cmd, "Greet of an empty name returns hello, world."))
	runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	out = m.call(map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed {
		t.Fatalf("%s: the change document's gate did not pass first time: %+v", p.name, out.Gate)
	}
	m.call(map[string]any{"action": "get_phase", "session_id": id})
	fsWrite(t, c, p.testPath, p.test("AC-greet-empty-1"))
	fsWrite(t, c, p.code, p.fixed)
	out = m.call(map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("%s: the implementation's gate did not pass first time: %+v", p.name, out.Gate)
	}
	return m
}

// Budgets of the quick path's honest run, one criterion (issue #36),
// against the two full workflows' 32 calls and 35 KB.
const (
	quickCallBudget = 8
	quickByteBudget = 12 * 1024
)

// TestQuickChangeHonestGo is the measured run: a one-criterion change on a
// Go project; -v prints the figures by action.
func TestQuickChangeHonestGo(t *testing.T) {
	t.Parallel()
	m := quickHonest(t, goLight())
	total, lines := m.report()
	calls := 0
	for _, n := range m.calls {
		calls += n
	}
	t.Logf("quick_change_v1, one criterion, svc_workflow answers (text + structured content):\n%s\n  plus 3 svc_filesystem writes (change.md, the test, the code)", lines)
	if calls > quickCallBudget || total > quickByteBudget {
		t.Errorf("the quick path took %d calls and %d bytes; the budget is %d calls and %d bytes", calls, total, quickCallBudget, quickByteBudget)
	}
}

func TestQuickChangeHonestPython(t *testing.T) {
	long(t) // the fast run has the quick change on Go (TestQuickChangeHonestGo)
	quickHonest(t, pythonLight(t))
}

func TestQuickChangeHonestJest(t *testing.T) {
	long(t) // a Jest run with ts-jest takes seconds per gate; the fast run has Vitest
	t.Parallel()
	quickHonest(t, jestLight(t))
}

func TestQuickChangeHonestVitest(t *testing.T) {
	long(t) // the fast run has these paths on Go, and pytest and Vitest in the full workflow (TestHonest*RunPassesFirstTime)
	t.Parallel()
	quickHonest(t, vitestLight(t))
}

// bugfixHonest plays the honest bug fix on p: the reproduction, the
// person's approval, the fix. With fixApproval the person approves the
// finished fix instead (workflow.bugfix_approval: fix). It returns the
// project's root.
func bugfixHonest(t *testing.T, p lightProject, fixApproval bool) string {
	t.Helper()
	config := ""
	if fixApproval {
		config = "workflow:\n  bugfix_approval: fix\n"
	}
	root, c := lightStart(t, p, config)
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "bugfix_v1", "options": map[string]any{"bug": "empty-name"}})
	id, dir, cmd := out.Session.ID, out.Session.Vars["spec_dir"], out.Session.Vars["test_command"]
	mustWF(t, c, map[string]any{"action": "get_phase", "session_id": id})
	fsWrite(t, c, p.testPath, p.test("AC-empty-name-1"))
	fsWrite(t, c, dir+"/bug.md", bugDoc("empty-name", p.reason, cmd))
	if !fixApproval {
		runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	}
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed {
		t.Fatalf("%s: the reproduction's gate did not pass first time: %+v", p.name, out.Gate)
	}
	mustWF(t, c, map[string]any{"action": "get_phase", "session_id": id})
	fsWrite(t, c, p.code, p.fixed)
	if fixApproval {
		// The fix's gate asks for the person, and says so.
		out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
		if msg, _ := failedCheck(t, out, "approval"); !strings.Contains(msg, "not been approved") || len(out.Gate.Failed) != 1 {
			t.Fatalf("%s: the fix's gate, before the approval: %+v", p.name, out.Gate)
		}
		runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	}
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("%s: the fix's gate did not pass: %+v", p.name, out.Gate)
	}
	return root
}

func TestBugfixHonestGo(t *testing.T) {
	t.Parallel()
	bugfixHonest(t, goLight(), false)
}

func TestBugfixHonestGoApprovingTheFix(t *testing.T) {
	long(t) // the fast run has the bug fix path on Go (TestBugfixHonestGo)
	t.Parallel()
	bugfixHonest(t, goLight(), true)
}

func TestBugfixHonestPython(t *testing.T) {
	long(t) // the fast run has the bug fix path on Go (TestBugfixHonestGo)
	bugfixHonest(t, pythonLight(t), false)
}

func TestBugfixHonestVitest(t *testing.T) {
	long(t) // the fast run has these paths on Go, and pytest and Vitest in the full workflow (TestHonest*RunPassesFirstTime)
	t.Parallel()
	bugfixHonest(t, vitestLight(t), false)
}

func TestBugfixHonestJest(t *testing.T) {
	long(t) // a Jest run with ts-jest takes seconds per gate; the fast run has Vitest
	t.Parallel()
	bugfixHonest(t, jestLight(t), false)
}
