package e2e

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// The cheats of the light paths, played by an agent that holds only
// agentos's MCP tools: each is refused, saying what it did, and the honest
// work then passes.

// gateFails completes the phase and wants the failed check typ to say every want.
func gateFails(t *testing.T, c *client.Client, id, what, typ string, want ...string) {
	t.Helper()
	out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	msg, fix := failedCheck(t, out, typ)
	for _, w := range want {
		if !strings.Contains(msg+" "+fix, w) {
			t.Errorf("%s: the %s check does not say %q: %s / %s", what, typ, w, msg, fix)
		}
	}
}

// selfApprovalRefused tries what an agent can to approve its own session:
// there is no approving action, and the approvals are out of its reach.
func selfApprovalRefused(t *testing.T, c *client.Client, id, dir string) {
	t.Helper()
	if _, msg := wf(t, c, map[string]any{"action": "approve", "session_id": id}); msg == "" {
		t.Errorf("svc_workflow took an approve action")
	}
	res := call(t, c, "svc_filesystem", map[string]any{"action": "write", "path": ".agentos/state/approvals/" + dir[strings.LastIndex(dir, "/")+1:] + ".json", "content": "{}"}, nil)
	if !res.IsError {
		t.Errorf("an agent wrote an approval record")
	}
	gateFails(t, c, id, "no approval", "approval", "not been approved", "an agent cannot approve")
}

func TestQuickChangeCheatsAreRefused(t *testing.T) {
	long(t) // the fast run plays the gate's cheats on Go (TestGateCheatsAreRefused)
	t.Parallel()
	p := goLight()
	root, c := lightStart(t, p, "")
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "quick_change_v1", "options": map[string]any{"change": "greet-empty"}})
	id, dir, cmd := out.Session.ID, out.Session.Vars["spec_dir"], out.Session.Vars["test_command"]
	doc := dir + "/change.md"

	// Too big: four criteria; the agent is offered the full path.
	fsWrite(t, c, doc, changeDoc("greet-empty", cmd, "one thing happens.", "another thing happens.", "a third thing happens.", "a fourth thing happens."))
	gateFails(t, c, id, "four criteria", "change_doc", "lists 4 acceptance criteria; the quick path holds at most 3", "spec_creation_v1")
	// A test command of the agent's choosing.
	fsWrite(t, c, doc, changeDoc("greet-empty", "true", "Greet of an empty name returns hello, world."))
	gateFails(t, c, id, "test command", "change_doc", "does not hold the configured test command")
	// Another change's criterion IDs.
	fsWrite(t, c, doc, changeDoc("other", cmd, "Greet of an empty name returns hello, world."))
	gateFails(t, c, id, "foreign IDs", "change_doc", "does not name this change")

	honest := changeDoc("greet-empty", cmd, "Greet of an empty name returns hello, world.")
	fsWrite(t, c, doc, honest)
	selfApprovalRefused(t, c, id, dir)
	runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	// Edited after the person approved it: the approval is void.
	fsWrite(t, c, doc, strings.Replace(honest, "hello, world", "anything", 1))
	if _, msg := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !strings.Contains(msg, "void") || !strings.Contains(msg, "change.md changed") {
		t.Errorf("a change document edited after approval passed: %s", msg)
	}
	fsWrite(t, c, doc, honest)
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
		t.Fatalf("the approved document's gate: %+v", out.Gate)
	}
	// The implementation phase: the approval still binds the document.
	fsWrite(t, c, doc, strings.Replace(honest, "hello, world", "anything", 1))
	fsWrite(t, c, p.code, p.fixed)
	fsWrite(t, c, p.testPath, p.test("AC-greet-empty-1"))
	if _, msg := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !strings.Contains(msg, "void") {
		t.Errorf("an implementation went on under a document edited after approval: %s", msg)
	}
	fsWrite(t, c, doc, honest)

	// A test that passed before the change proves nothing.
	fsWrite(t, c, p.testPath, "package greet\n\nimport \"testing\"\n\n// AC-greet-empty-1\nfunc TestOld(t *testing.T) {\n\tif Shout(\"a\") != \"A\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n\tGreet(\"\")\n}\n")
	gateFails(t, c, id, "passed before", "change_criteria", "no test that fails without this session's change")
	// A skipped test.
	fsWrite(t, c, p.testPath, "package greet\n\nimport \"testing\"\n\n// AC-greet-empty-1\nfunc TestLater(t *testing.T) {\n\tt.Skip(\"later\")\n\tif Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\nfunc TestCalls(t *testing.T) {\n\tif Greet(\"\") == \"\" {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n")
	gateFails(t, c, id, "skipped", "change_criteria", "skipped")
	// Too many files: the agent is offered the full path.
	fsWrite(t, c, p.testPath, p.test("AC-greet-empty-1"))
	extra := []string{"a.go", "b.go", "c.go", "d.go", "e.go"}
	for _, f := range extra {
		fsWrite(t, c, f, "package greet\n")
	}
	gateFails(t, c, id, "seven files", "change_criteria", "touches 7 files", "at most 6", "spec_creation_v1")
	for _, f := range extra {
		if res := call(t, c, "svc_filesystem", map[string]any{"action": "delete", "path": f}, nil); res.IsError {
			t.Fatalf("delete %s: %v", f, res.Content)
		}
	}
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest work did not pass: %+v", out.Gate)
	}
}

func TestBugfixCheatsAreRefused(t *testing.T) {
	long(t) // the fast run plays the gate's cheats on Go (TestGateCheatsAreRefused)
	t.Parallel()
	p := goLight()
	root, c := lightStart(t, p, "")
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "bugfix_v1", "options": map[string]any{"bug": "empty-name"}})
	id, dir, cmd := out.Session.ID, out.Session.Vars["spec_dir"], out.Session.Vars["test_command"]
	fsWrite(t, c, dir+"/bug.md", bugDoc("empty-name", p.reason, cmd))
	honest := p.test("AC-empty-name-1")

	// A reproduction that does not build (an unused variable), and one
	// that does not parse.
	fsWrite(t, c, p.testPath, strings.Replace(honest, "func TestGreetEmpty(t *testing.T) {", "func TestGreetEmpty(t *testing.T) {\n\tx := 1", 1))
	gateFails(t, c, id, "build error", "reproduction", "is not reproduced", "did not run")
	fsWrite(t, c, p.testPath, strings.Replace(honest, "func TestGreetEmpty(t *testing.T) {", "func TestGreetEmpty(t *testing.T) {\n\tx :=", 1))
	gateFails(t, c, id, "syntax error", "reproduction", "No test names AC-empty-name-1")
	// One that fails for another reason than the one stated.
	fsWrite(t, c, p.testPath, "package greet\n\nimport \"testing\"\n\n// AC-empty-name-1\nfunc TestGreetEmpty(t *testing.T) {\n\tt.Fatal(\"not written yet\")\n\tGreet(\"\")\n}\n")
	gateFails(t, c, id, "another reason", "reproduction", "failed for another reason", "not written yet")
	// A skipped one.
	fsWrite(t, c, p.testPath, strings.Replace(honest, "{\n\tif got", "{\n\tt.Skip(\"later\")\n\tif got", 1))
	gateFails(t, c, id, "skipped", "reproduction", "was skipped")
	// The code changed before the reproduction: it must show the bug in the code as it was.
	fsWrite(t, c, p.testPath, honest)
	fsWrite(t, c, p.code, "package greet\n\n// Greet greets name.\nfunc Greet(name string) string {\n\treturn \"hello, \" + name + \"\"\n}\n")
	gateFails(t, c, id, "code changed", "reproduction", "changed greet.go, which is not a test")
	fsWrite(t, c, p.code, p.files[p.code])
	selfApprovalRefused(t, c, id, dir)
	runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
		t.Fatalf("the approved reproduction's gate: %+v", out.Gate)
	}

	// A "fix" that rewrites the test to expect the bug.
	fsWrite(t, c, p.testPath, strings.Replace(honest, "got != \"hello, world\"", "got != \"hello, \"", 1))
	gateFails(t, c, id, "test edited", "bug_fixed", "changed since it was seen failing", p.testPath)
	// One that deletes it.
	if res := call(t, c, "svc_filesystem", map[string]any{"action": "delete", "path": p.testPath}, nil); res.IsError {
		t.Fatal(res.Content)
	}
	gateFails(t, c, id, "test deleted", "bug_fixed", "changed since it was seen failing")
	// A reproduction restated in bug.md to fit whatever happens: void.
	fsWrite(t, c, p.testPath, honest)
	fsWrite(t, c, dir+"/bug.md", bugDoc("empty-name", "something else entirely", cmd))
	if _, msg := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !strings.Contains(msg, "void") {
		t.Errorf("a fix went on under a bug.md edited after approval: %s", msg)
	}
	fsWrite(t, c, dir+"/bug.md", bugDoc("empty-name", p.reason, cmd))
	// The honest fix.
	fsWrite(t, c, p.code, p.fixed)
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest fix did not pass: %+v", out.Gate)
	}
}

// TestBugfixLoadErrorsRefused plays, on pytest and on Vitest, a
// reproduction that fails because the code or the test does not load,
// stated as if it were the bug; then the honest one passes.
func TestBugfixLoadErrorsRefused(t *testing.T) {
	long(t) // pytest and Vitest runs; workflow/gates refuses a reproduction that does not load
	for _, tc := range []struct {
		name    string
		project func(t *testing.T) lightProject
		broken  string // the reproduction test
		reason  string // what the agent states
		want    string
	}{
		{"pytest import error", pythonLight,
			"from greet import greet_everyone\n\n\n# AC-empty-name-1\ndef test_empty_name():\n    assert greet_everyone(\"\") == \"hello, world\"\n",
			"cannot import name 'greet_everyone'", "did not run"},
		{"pytest syntax error", pythonLight,
			"from greet import greet\n\n\n# AC-empty-name-1\ndef test_empty_name(:\n    assert greet(\"\") == \"hello, world\"\n",
			"an empty name greets the world", "did not run"},
		{"vitest missing export", vitestLight,
			vitestImports + "import { greetAll } from \"./greet\";\n\n// AC-empty-name-1\ntest(\"an empty name greets the world\", () => {\n  expect((greetAll as any)(\"\")).toBe(\"hello, world\");\n});\n",
			"greetAll is not a function", "a failure to load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.project(t)
			_, c := lightStart(t, p, "workflow:\n  bugfix_approval: fix\n")
			out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "bugfix_v1", "options": map[string]any{"bug": "empty-name"}})
			id, dir, cmd := out.Session.ID, out.Session.Vars["spec_dir"], out.Session.Vars["test_command"]
			fsWrite(t, c, dir+"/bug.md", bugDoc("empty-name", tc.reason, cmd))
			fsWrite(t, c, p.testPath, tc.broken)
			gateFails(t, c, id, tc.name, "reproduction", "is not reproduced", tc.want)
			fsWrite(t, c, dir+"/bug.md", bugDoc("empty-name", p.reason, cmd))
			fsWrite(t, c, p.testPath, p.test("AC-empty-name-1"))
			if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
				t.Fatalf("the honest reproduction did not pass: %+v", out.Gate)
			}
		})
	}
}
