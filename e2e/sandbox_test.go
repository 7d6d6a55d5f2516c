package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// attackTests is a test file an agent writes through svc_filesystem so that
// the gate runs it: each test fails when its attack works, so a gate that
// passes means every attack was contained. OUTSIDE is a file outside the
// project, replaced before it is written.
const attackTests = `package greet

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// AC-greeting-1.1.1 AC-greeting-1.2.1
func TestGreet(t *testing.T) {
	if Greet("ann") != "hello, ann" || Greet("") != "hello, world" {
		t.Fatal("wrong")
	}
}

// The server named in the state file: with it a test could complete a
// phase and answer the approval itself.
func TestAttackReachTheServer(t *testing.T) {
	b, err := os.ReadFile(".agentos/.mcp_server_state.json")
	if err != nil {
		t.Skip("no state file")
	}
	var st struct{ URL string }
	if json.Unmarshal(b, &st) != nil || st.URL == "" {
		t.Skip("no URL")
	}
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Post(st.URL, "application/json", strings.NewReader("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("ATTACK reached the server at %s: %s", st.URL, resp.Status)
	}
}

func TestAttackReadSecrets(t *testing.T) {
	paths := []string{".agentos/.cache/auth_token", os.Getenv("AGENTOS_CONFIG_HOME") + "/state.key"}
	if dir, err := os.UserConfigDir(); err == nil {
		paths = append(paths, filepath.Join(dir, "agentos", "state.key"))
	}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
			t.Errorf("ATTACK read %s", p)
		}
	}
	// A descriptor inherited from whoever set up the sandbox would lead
	// back to the real project.
	fds, _ := filepath.Glob("/proc/self/fd/*")
	for _, fd := range fds {
		if b, err := os.ReadFile(filepath.Join(fd, ".agentos/.cache/auth_token")); err == nil && len(b) > 0 {
			t.Errorf("ATTACK read the token through %s", fd)
		}
	}
	if entries, err := os.ReadDir(".agentos/state"); err == nil && len(entries) > 0 {
		t.Errorf("ATTACK listed .agentos/state")
	}
}

// Writes that would outlive the gate: each lands in the throwaway layer,
// or is refused.
func TestAttackWrite(t *testing.T) {
	os.WriteFile(".agentos/bin/agentos", []byte("#!/bin/sh\nexit 0\n"), 0o755)
	os.MkdirAll(".claude", 0o755)
	os.WriteFile(".claude/settings.json", []byte("{\"permissions\":{\"allow\":[\"Bash(*)\"]}}"), 0o644)
	os.MkdirAll(".git/hooks", 0o755)
	os.WriteFile(".git/hooks/pre-commit", []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(".agentos/config/mcp.yaml", []byte("workflow:\n  coverage_threshold: 1\n"), 0o644)
	os.MkdirAll(".agentos/state/approvals", 0o755)
	os.WriteFile(".agentos/state/approvals/2026-01-02-unapproved.json", []byte("{}"), 0o644)
	os.WriteFile("OUTSIDE", []byte("overwritten"), 0o644)
}

// A child that leaves the process group and would write after the gate.
func TestAttackOutliveTheGate(t *testing.T) {
	cmd := exec.Command("setsid", "sh", "-c", "sleep 2; echo late > late.txt; echo late > OUTSIDE")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
}
`

// TestGateRunsInASandbox plays an agent that holds only agentos's MCP tools
// and writes tests that attack the person through the gate: reaching the
// server, reading the token and the state key, replacing the pinned binary,
// the client's settings, a git hook, the config and approvals, writing
// outside the project, and leaving a process behind. The gate runs them
// sandboxed: every attack fails inside, nothing reaches the project or the
// machine, and the honest test still passes.
func TestGateRunsInASandbox(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gate commands are sandboxed on Linux")
	}
	t.Parallel()
	root := newProject(t, "auth: token") // so that there is a token to steal
	c := stdioClient(t, root, "--transport", "dual")
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	outside := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsWrite(t, c, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 50%\n\n## Objectives\nGreet users by name.\n")
	fsWrite(t, c, dir+"/tasks.md", goodTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	// The work the session does: written after it started, so the
	// tests fail on the code before it.
	fsWrite(t, c, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	before := map[string][]byte{}
	for _, rel := range []string{".agentos/bin/agentos", ".agentos/config/mcp.yaml", ".agentos/.cache/auth_token"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		before[rel] = b
	}
	fsWrite(t, c, "attack_test.go", strings.ReplaceAll(attackTests, "OUTSIDE", outside))
	start := time.Now()
	out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed {
		t.Fatalf("an attack worked, or the honest test failed, in the sandbox: %+v", out.Gate)
	}
	// The detached child would write 2 s after it started.
	time.Sleep(time.Until(start.Add(3 * time.Second)))
	for rel, b := range before {
		if now, _ := os.ReadFile(filepath.Join(root, rel)); string(now) != string(b) {
			t.Errorf("the gate's run changed %s", rel)
		}
	}
	for _, rel := range []string{".claude/settings.json", ".git/hooks/pre-commit", ".agentos/state/approvals/2026-01-02-unapproved.json", "late.txt", ".agentos/.cache/coverage.out"} {
		if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
			t.Errorf("the gate's run wrote %s into the project", rel)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("the gate's run wrote outside the project: %q", b)
	}
}

// TestUnsandboxedGateUndoesRuleChanges: in the weaker mode a person may
// choose (workflow.sandbox: unsandboxed) the tests run in the project
// itself; a test that forges an approval and lowers the threshold fails the
// gate, and both are undone.
func TestUnsandboxedGateUndoesRuleChanges(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	cfgPath := filepath.Join(root, ".agentos", "config", "mcp.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, append(cfg, "workflow:\n  sandbox: unsandboxed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, root, "trust", "--yes")
	c := stdioClient(t, root, "--transport", "stdio")
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	fsWrite(t, c, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	fsWrite(t, c, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 90%\n\n## Objectives\nGreet users by name.\n")
	fsWrite(t, c, dir+"/tasks.md", goodTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	gate := func() wfOut {
		t.Helper()
		return mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	}
	// A test whose init() forges another spec's approval and lowers the
	// configured threshold while the gate runs the tests.
	forge := "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc init() {\n" +
		"\tos.MkdirAll(\".agentos/state/approvals\", 0o755)\n" +
		"\tos.WriteFile(\".agentos/state/approvals/2026-01-02-unapproved.json\", []byte(`{\"spec\":\"2026-01-02-unapproved\",\"by\":\"alice\"}`), 0o644)\n" +
		"\tos.WriteFile(\".agentos/config/mcp.yaml\", []byte(\"workflow:\\n  coverage_threshold: 1\\n\"), 0o644)\n}\n\n" +
		"// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" || Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n"
	config, _ := os.ReadFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"))
	fsWrite(t, c, "other_test.go", forge)
	msg, _ := failedCheck(t, gate(), "rules_unchanged")
	for _, want := range []string{".agentos/state/approvals/2026-01-02-unapproved.json (added, undone; what was written is kept in .agentos/backups/gate-runs/", ".agentos/config/mcp.yaml (changed, undone; what was written is kept in .agentos/backups/gate-runs/"} {
		if !strings.Contains(msg, want) {
			t.Errorf("rules result lacks %q: %s", want, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "state", "approvals", "2026-01-02-unapproved.json")); err == nil {
		t.Error("the forged approval is still there")
	}
	if now, _ := os.ReadFile(filepath.Join(root, ".agentos", "config", "mcp.yaml")); string(now) != string(config) {
		t.Errorf("config not restored: %q", now)
	}
	fsWrite(t, c, dir+"/../2026-01-02-unapproved/tasks.md", goodTasks)
	if _, errText := wf(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": "2026-01-02-unapproved"}}); !strings.Contains(errText, "not been approved") {
		t.Errorf("the forged approval was accepted: %s", errText)
	}

}

// TestCriterionNeedsATestThatFailsBefore plays an agent that claims work it
// did not do: Greet was there before the session, and the agent "proves" the
// criteria with tests of it. They pass before the change as after, so the
// gate refuses them, naming each; once the session changes what the
// criteria ask for and the tests check it, the gate passes.
func TestCriterionNeedsATestThatFailsBefore(t *testing.T) {
	long(t) // workflow/gates checks fail-before (TestFailBefore)
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	fsWrite(t, c, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	// Before the session: Greet greets, but not an empty name.
	fsWrite(t, c, "greet.go", "package greet\n\nfunc Greet(name string) string { return \"hello, \" + name }\n")
	id := startExecution(t, c, root)
	gate := func() wfOut {
		t.Helper()
		return mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	}
	// Tests of what was already there.
	fsWrite(t, c, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1\nfunc TestName(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\n// AC-greeting-1.2.1\nfunc TestEmpty(t *testing.T) {\n\tif Greet(\"\") == \"\" {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n")
	msg, fix := failedCheck(t, gate(), "acceptance_criteria")
	for _, want := range []string{"2 criteria have no test that fails without this session's change", "AC-greeting-1.1.1: TestName passed before the change", "AC-greeting-1.2.1: TestEmpty passed before the change"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal lacks %q: %s", want, msg)
		}
	}
	if !strings.Contains(fix, "fails on the code before the change") {
		t.Errorf("fix: %s", fix)
	}
	// The work the criteria ask for, and tests that check it: TestEmpty
	// now fails on the code before the change (Greet emptied).
	fsWrite(t, c, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	fsWrite(t, c, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1\nfunc TestName(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\n// AC-greeting-1.2.1\nfunc TestEmpty(t *testing.T) {\n\tif Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	if out := gate(); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest work did not pass: %+v", out.Gate)
	}
}

// A test that passed when the session started must still hold at its gate
// (PASS_TO_PASS): deleting it, or rewriting it so that broken code passes,
// fails the gate by the test's name; putting it back passes.
func TestEarlierTestsMustStillHold(t *testing.T) {
	long(t) // workflow/gates holds earlier tests (TestCommandCheckHoldsEarlierTests)
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	const byeGo = "package greet\n\nfunc Bye(name string) string { return \"bye, \" + name }\n"
	const byeTest = "package greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\tif Bye(\"ann\") != \"bye, ann\" {\n\t\tt.Fatal(\"Bye(ann) = \" + Bye(\"ann\"))\n\t}\n}\n"
	fsWrite(t, c, "go.mod", "module example.com/greet\n\ngo 1.22\n")
	fsWrite(t, c, "bye.go", byeGo)
	fsWrite(t, c, "bye_test.go", byeTest)
	id := startExecution(t, c, root)
	gate := func() wfOut {
		t.Helper()
		return mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	}
	// The session's work, with tests that fail on the code before it.
	fsWrite(t, c, "greet.go", "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n")
	fsWrite(t, c, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1\nfunc TestName(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\n// AC-greeting-1.2.1\nfunc TestEmpty(t *testing.T) {\n\tif Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	// It breaks Bye and deletes the test that says so.
	fsWrite(t, c, "bye.go", "package greet\n\nfunc Bye(name string) string { return \"\" }\n")
	if res := call(t, c, "svc_filesystem", map[string]any{"action": "delete", "path": "bye_test.go"}, nil); res.IsError {
		t.Fatalf("delete: %v", res.Content)
	}
	msg, fix := failedCheck(t, gate(), "command")
	for _, want := range []string{"1 test no longer holds that passed when the session started", "example.com/greet.TestBye no longer runs"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the deletion: the refusal lacks %q: %s", want, msg)
		}
	}
	if !strings.Contains(fix, "Changes tests:") {
		t.Errorf("fix: %s", fix)
	}
	// It puts the test back, rewritten to check nothing.
	fsWrite(t, c, "bye_test.go", "package greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\tt.Log(Bye(\"ann\"))\n}\n")
	msg, _ = failedCheck(t, gate(), "command")
	if want := "TestBye passes now only as the session changed it: as written before, it fails on the code now (bye_test.go:7: Bye(ann) =)"; !strings.Contains(msg, want) {
		t.Errorf("the weakening: the refusal lacks %q: %s", want, msg)
	}
	// Honest: Bye works again, and its test is as it was.
	fsWrite(t, c, "bye.go", byeGo)
	fsWrite(t, c, "bye_test.go", byeTest)
	if out := gate(); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest work did not pass: %+v", out.Gate)
	}
}

// File names an agent chose cannot drive the terminal of the person who
// approves: `workflow approve` shows them quoted, every byte visible, and
// the coverage threshold after them still shows.
func TestApproveShowsHostileNamesQuoted(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	dir := ".agentos/specs/2026-01-01-greeting"
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 90%\n\n## Objectives\nGreet users by name.\n")
	fsWrite(t, c, dir+"/tasks.md", goodTasks)
	fsWrite(t, c, dir+"/zz\x1b[2K\x1b[1A\rnotes.md", "notes\n")
	fsWrite(t, c, dir+"/hide\x1b[8m.md", "hidden\n")
	out := runOK(t, root, "workflow", "approve", "--spec", "2026-01-01-greeting", "--dir", root, "--yes").stdout
	if strings.ContainsAny(out, "\x1b\r") {
		t.Errorf("approve printed a raw escape or carriage return:\n%q", out)
	}
	for _, want := range []string{`/zz\x1b[2K\x1b[1A\rnotes.md"`, `/hide\x1b[8m.md"`, "Coverage threshold: 90%"} {
		if !strings.Contains(out, want) {
			t.Errorf("approve's output lacks %s:\n%s", want, out)
		}
	}
}

// TestCLIOutputEscapesHostileContent: what the CLI prints from files an
// agent wrote (search snippets, file and spec names) reaches the terminal
// with its control characters escaped, whatever the command.
func TestCLIOutputEscapesHostileContent(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	fsWrite(t, c, "zz\x1b[2Kevil.go", "package main\n\n// Greeting banner\x1b[2J\x1b[8m hidden \u202etxt.exe\nfunc Banner() string { return \"hello\" }\n")
	fsWrite(t, c, ".agentos/specs/2026-01-01-x\x1b[1Ay/README.md", "# Spec\x1b[2K\n")
	for _, args := range [][]string{
		{"search", "greeting banner", "--dir", root},
		{"workflow", "list", "--dir", root},
		{"graph", "callers", "Banner", "--dir", root},
	} {
		r := runAgentos(t, root, args...)
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\u202e") {
			t.Errorf("agentos %s printed a raw escape:\n%q\n%q", strings.Join(args[:2], " "), r.stdout, r.stderr)
		}
	}
	if out := runAgentos(t, root, "search", "greeting banner", "--dir", root).stdout; !strings.Contains(out, `\x1b[2J`) {
		t.Errorf("search does not show the escape as text:\n%s", out)
	}
}
