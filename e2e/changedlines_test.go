package e2e

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// Coverage of the changed lines through the built binary: a quick change
// on a project whose old code no test runs passes when its own new lines
// are covered, and is refused, naming the line, when it leaves one new
// branch untested.

// untested adds to p a file of old code no test runs, enough to pull the
// project's total coverage far below the threshold.
func untested(p lightProject, path, content string) lightProject {
	p.files = maps.Clone(p.files)
	p.files[path] = content
	return p
}

const oldGoCode = "package greet\n\n// Old is old code nobody tests.\nfunc Old(x int) int {\n\tswitch {\n\tcase x > 10:\n\t\tx -= 10\n\tcase x > 5:\n\t\tx -= 5\n\tcase x > 2:\n\t\tx -= 2\n\t}\n\tfor x > 1 {\n\t\tx--\n\t}\n\treturn x\n}\n"

const oldPyCode = "def old(x):\n    if x > 10:\n        x -= 10\n    elif x > 5:\n        x -= 5\n    elif x > 2:\n        x -= 2\n    while x > 1:\n        x -= 1\n    return x\n"

// changedLinesRun plays a quick change on p whose code is fixed; it returns
// the implementation gate's answer as JSON.
func changedLinesRun(t *testing.T, p lightProject, fixed string) (passed bool, answer string) {
	t.Helper()
	_, _, passed, answer = quickRun(t, p, fixed)
	return passed, answer
}

// quickRun is changedLinesRun that also returns the project's root and the
// client.
func quickRun(t *testing.T, p lightProject, fixed string) (root string, c *client.Client, passed bool, answer string) {
	t.Helper()
	root, c = lightStart(t, p, "")
	out, errText := wf(t, c, map[string]any{"action": "start", "workflow_type": "quick_change_v1", "options": map[string]any{"change": "greet-empty"}})
	if errText != "" {
		t.Fatal(errText)
	}
	id, dir, cmd := out.Session.ID, out.Session.Vars["spec_dir"], out.Session.Vars["test_command"]
	fsWrite(t, c, dir+"/change.md", changeDoc("greet-empty", cmd, "Greet of an empty name returns hello, world."))
	runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	if out, errText = wf(t, c, map[string]any{"action": "complete_phase", "session_id": id}); errText != "" || out.Gate == nil || !out.Gate.Passed {
		t.Fatalf("the change document's gate: %s %+v", errText, out.Gate)
	}
	fsWrite(t, c, p.testPath, p.test("AC-greet-empty-1"))
	fsWrite(t, c, p.code, fixed)
	out, errText = wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if errText != "" || out.Gate == nil {
		t.Fatalf("the implementation's gate: %s", errText)
	}
	data, _ := json.Marshal(out.Gate)
	return root, c, out.Gate.Passed, string(data)
}

func TestChangedLinesGo(t *testing.T) {
	long(t) // workflow/gates checks changed lines on Go (TestChangedLinesGo)
	t.Parallel()
	p := untested(goLight(), "old.go", oldGoCode)
	if passed, answer := changedLinesRun(t, p, greetGo); !passed {
		t.Fatalf("covered new lines in a project whose old code is untested were refused: %s", answer)
	}
	// One new branch no test runs: line 7 of greetBoss.
	passed, answer := changedLinesRun(t, p, greetBoss)
	if passed || !strings.Contains(answer, "greet.go:7") || strings.Contains(answer, "old.go") {
		t.Fatalf("an untested new branch was not refused by name: %s", answer)
	}
}

func TestChangedLinesPytest(t *testing.T) {
	long(t) // the fast run has changed lines in Go, and pytest's coverage report in workflow/gates
	p := untested(pythonLight(t), "old.py", oldPyCode)
	if passed, answer := changedLinesRun(t, p, pyGreet); !passed {
		t.Fatalf("covered new lines in a project whose old code is untested were refused: %s", answer)
	}
	passed, answer := changedLinesRun(t, p, strings.Replace(pyGreet, "def greet(name):\n", "def greet(name):\n    if name == \"boss\":\n        return \"hello, boss\"\n", 1))
	if passed || !strings.Contains(answer, "greet.py:3") || strings.Contains(answer, "old.py") {
		t.Fatalf("an untested new branch was not refused by name: %s", answer)
	}
}

// greetBoss is greetGo with a second new branch, which no test runs.
const greetBoss = "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t} else if name == \"boss\" {\n\t\treturn \"hello, boss\"\n\t}\n\treturn \"hello, \" + name\n}\n"
