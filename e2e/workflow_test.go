package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

type wfOut struct {
	Session struct {
		ID           string            `json:"id"`
		Status       string            `json:"status"`
		CurrentPhase int               `json:"current_phase"`
		Vars         map[string]string `json:"vars"`
		Revision     int               `json:"revision"`
		Tasks        []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"tasks"`
	} `json:"session"`
	SessionID    string `json:"session_id"`
	Status       string `json:"status"`
	CurrentPhase int    `json:"current_phase"`
	Changed      string `json:"changed"`
	Gate         *struct {
		Passed bool     `json:"passed"`
		Checks []string `json:"checks"`
		Failed []struct {
			Check int    `json:"check"`
			Type  string `json:"type"`
			Fix   string `json:"fix"`
		} `json:"failed"`
	} `json:"gate"`
	NextAction string `json:"next_action"`
}

// wf calls svc_workflow; on a tool error it returns the error text.
func wf(t *testing.T, c *client.Client, args map[string]any) (wfOut, string) {
	t.Helper()
	var out wfOut
	res := call(t, c, "svc_workflow", args, &out)
	if res.IsError {
		return out, fmt.Sprint(res.Content)
	}
	return out, ""
}

func mustWF(t *testing.T, c *client.Client, args map[string]any) wfOut {
	t.Helper()
	out, errText := wf(t, c, args)
	if errText != "" {
		t.Fatalf("svc_workflow %v: %s", args, errText)
	}
	return out
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func failedTypes(o wfOut) string {
	var f []string
	for _, c := range o.Gate.Failed {
		f = append(f, c.Type)
	}
	return strings.Join(f, ",")
}

func TestSpecCreationEndToEnd(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")

	out, errText := wf(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "../escape"}})
	if !strings.Contains(errText, "VALIDATION_ERROR") {
		t.Fatalf("path characters in the feature name accepted: %s", errText)
	}
	out = mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "greeting"}})
	id, dir := out.Session.ID, out.Session.Vars["spec_dir"]
	if out.Session.CurrentPhase != 1 || !strings.HasPrefix(dir, ".agentos/specs/") || !strings.HasSuffix(dir, "-greeting") {
		t.Fatalf("start: %+v", out.Session)
	}
	if _, err := os.Stat(filepath.Join(root, dir, "README.md")); err != nil {
		t.Fatalf("templates not scaffolded: %v", err)
	}

	// Tasks in order; skipping is refused.
	if _, errText := wf(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"}); !strings.Contains(errText, "cannot be skipped") {
		t.Fatalf("skipping a task: %s", errText)
	}
	for _, task := range []string{"1.1", "1.2", "1.3"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	// The templates still hold placeholders: the gate refuses.
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate.Passed || out.CurrentPhase != 1 || !strings.Contains(failedTypes(out), "markdown_sections") {
		t.Fatalf("gate passed on templates: %+v", out.Gate)
	}
	for _, ch := range out.Gate.Failed {
		if ch.Fix == "" || !strings.HasPrefix(out.Gate.Checks[ch.Check], "✗ "+ch.Type+": ") {
			t.Errorf("failed check %s has no fix, or its line does not say it failed: %+v", ch.Type, out.Gate)
		}
	}
	// Evidence claiming success changes nothing.
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id, "evidence": map[string]any{"sections_written": true, "approved": true}})
	if out.Gate.Passed {
		t.Fatal("an agent's claim opened the gate")
	}

	writeSpecDocs(t, root, dir, 1)
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if !out.Gate.Passed || out.CurrentPhase != 2 || !strings.Contains(out.NextAction, "get_phase") {
		t.Fatalf("phase 1 with real content: %+v", out.Gate)
	}

	for _, task := range []string{"2.1", "2.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	writeSpecDocs(t, root, dir, 2)
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
		t.Fatalf("phase 2: %+v", out.Gate)
	}

	for _, task := range []string{"3.1", "3.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	writeSpecDocs(t, root, dir, 3)
	write(t, root, dir+"/tasks.md", "# Tasks\n\n## Phase 1: Greeting\n\n- [ ] 1.1 Write it\n")
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); out.Gate.Passed || !strings.Contains(failedTypes(out), "tasks_format") {
		t.Fatalf("a tasks.md without estimates or criteria passed: %+v", out.Gate)
	}
	write(t, root, dir+"/tasks.md", specDocs[3][0].content)
	if out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
		t.Fatalf("phase 3: %+v", out.Gate)
	}

	// Approval: nothing the agent sends can approve; only the CLI can.
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "4.1"})
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id, "evidence": map[string]any{"approved": true, "approved_by": "the user"}})
	if out.Gate.Passed || !strings.Contains(out.NextAction, "agentos workflow approve") {
		t.Fatalf("approved without a person: %+v %s", out.Gate, out.NextAction)
	}
	r := runAgentos(t, root, "workflow", "reject", id, "--reason", "name the users", "--dir", root)
	if r.code != 0 {
		t.Fatalf("reject: %d %s", r.code, r.stderr)
	}
	if out = mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); !strings.Contains(out.NextAction, "name the users") {
		t.Errorf("change request not shown to the agent: %s", out.NextAction)
	}
	runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if !out.Gate.Passed || out.Status != "completed" || !strings.Contains(out.NextAction, "spec_execution_v1") {
		t.Fatalf("after approval: %+v", out)
	}

	r = runOK(t, root, "workflow", "show", id, "--dir", root)
	for _, want := range []string{"approved by alice", "complete_phase", "gate failed", "gate passed", "reject"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("workflow show lacks %q:\n%s", want, r.stdout)
		}
	}
}

// greetGo is the Greet the greeting spec asks for: the work of its
// execution session.
const greetGo = "package greet\n\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n"

// goProjectBeforeGreet is goProject as the greeting spec finds it: go.mod
// and a test, but no Greet yet. The execution session writes greet.go
// (greetGo) after it starts, so the tests that trace its criteria fail on
// the code before its change and pass after it.
func goProjectBeforeGreet(t *testing.T, root string) {
	t.Helper()
	goProject(t, root)
	if err := os.Remove(filepath.Join(root, "greet.go")); err != nil {
		t.Fatal(err)
	}
}

func TestSpecExecutionGatesRunTestsAndCoverage(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", untickedTasks)
	c := stdioClient(t, root, "--transport", "stdio")

	start := map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}
	if _, errText := wf(t, c, start); !strings.Contains(errText, "not been approved") {
		t.Fatalf("an unapproved spec started: %s", errText)
	}
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	out := mustWF(t, c, start)
	id := out.Session.ID
	if out.Session.Vars["coverage_threshold"] != "90" {
		t.Errorf("threshold from the spec: %v", out.Session.Vars)
	}
	write(t, root, "greet.go", greetGo)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	if _, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !strings.Contains(errText, "1.2") {
		t.Fatalf("phase completed with a task left: %s", errText)
	}
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})

	// A failing test blocks.
	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hi, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate.Passed || !strings.Contains(failedTypes(out), "command") {
		t.Fatalf("failing tests did not block: %+v", out.Gate)
	}
	// Passing tests, but coverage below 90% and criteria unticked: blocks.
	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if f := failedTypes(out); out.Gate.Passed || !strings.Contains(f, "coverage") || !strings.Contains(f, "acceptance_criteria") || strings.Contains(f, "command") {
		t.Fatalf("want coverage and criteria to fail, tests to pass: %+v", out.Gate)
	}
	// Full coverage and ticked criteria: the phase passes and the workflow completes.
	write(t, root, "greet_test.go", fullGreetTest)
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", goodTasks)
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("fixed project did not pass: %+v", out.Gate)
	}
}

func TestWorkflowConcurrencyOwnershipAndNotifications(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	owner := stdioClient(t, root, "--transport", "dual")
	st := waitState(t, root, 0)
	out := mustWF(t, owner, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "race"}})
	id := out.Session.ID

	// A second agent reads freely but may not change the session. It keeps
	// an event stream open, as clients that subscribe to resources do.
	other, err := client.NewStreamableHttpClient(st.URL, transport.WithContinuousListening(), ownTransport(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	initialize(t, other, "http-test", legacyProtocol)
	mustWF(t, other, map[string]any{"action": "get_state", "session_id": id})
	if _, errText := wf(t, other, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"}); !strings.Contains(errText, `stdio-test hands it over with transfer_owner new_owner \"http-test\", or you repeat this call with force: true`) {
		t.Fatalf("another agent changed the session: %s", errText)
	}

	// It subscribes to the session and is told when the owner advances.
	// The handler never blocks: the 50 writes below send an update each,
	// and a handler stuck on a full channel would hold the client's
	// stream, and with it Close, for good.
	updates := make(chan string, 16)
	other.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/resources/updated" {
			select {
			case updates <- fmt.Sprint(n.Params.AdditionalFields["uri"]):
			default:
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sub := mcp.SubscribeRequest{}
	sub.Params.URI = "agentos://workflows/" + id
	if err := other.Subscribe(ctx, sub); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	mustWF(t, owner, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	select {
	case uri := <-updates:
		if uri != sub.Params.URI {
			t.Errorf("update for %s", uri)
		}
	case <-time.After(5 * time.Second):
		t.Error("no resources/updated notification reached the subscriber")
	}

	// 50 clients at once (with force) on one session: every write is kept.
	before := mustWF(t, owner, map[string]any{"action": "get_state", "session_id": id}).Session.Revision
	var wg sync.WaitGroup
	errs := make(chan string, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := httpClient(t, st.URL, nil)
			action := "pause"
			if i%2 == 1 {
				action = "resume"
			}
			if _, errText := wf(t, c, map[string]any{"action": action, "session_id": id, "force": true}); errText != "" && !strings.Contains(errText, "not active") && !strings.Contains(errText, "not paused") {
				errs <- errText
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	after := mustWF(t, owner, map[string]any{"action": "get_session", "session_id": id})
	var audit struct {
		Audit []struct {
			Action string `json:"action"`
		} `json:"audit"`
	}
	call(t, owner, "svc_workflow", map[string]any{"action": "get_session", "session_id": id}, &audit)
	changes := 0
	for _, a := range audit.Audit {
		if a.Action == "pause" || a.Action == "resume" {
			changes++
		}
	}
	if after.Session.Revision-before != changes {
		t.Errorf("revisions advanced by %d but the audit log records %d changes: a lost update", after.Session.Revision-before, changes)
	}

	// Ownership can be handed over.
	mustWF(t, owner, map[string]any{"action": "transfer_owner", "session_id": id, "new_owner": "http-test", "force": true})
	if after.Session.Status == "paused" {
		mustWF(t, other, map[string]any{"action": "resume", "session_id": id})
	}
	mustWF(t, other, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
}

func TestWorkflowSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	spec := "2026-01-01-kill"
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", strings.ReplaceAll(goodTasks, "AC-greeting-", "AC-kill-"))
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	// Tests that cover everything, and take a while so the kill lands mid-gate.
	write(t, root, "slow_test.go", "package greet\n\nimport (\"testing\"; \"time\")\n\n// AC-kill-1.1.1 AC-kill-1.2.1\nfunc TestSlow(t *testing.T) {\n\tif Greet(\"\") != \"hello, world\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n\ttime.Sleep(3 * time.Second)\n}\n")

	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)
	c := httpClient(t, st.URL, nil)
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	write(t, root, "greet.go", greetGo)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "svc_workflow"
		req.Params.Arguments = map[string]any{"action": "complete_phase", "session_id": id}
		c.CallTool(context.Background(), req) // dies with the server
	}()
	time.Sleep(1500 * time.Millisecond)
	p.signal(t, syscall.SIGKILL)
	p.exitCode(t)

	data, err := os.ReadFile(filepath.Join(root, ".agentos", "state", "workflows", id, "state.json"))
	if err != nil || !json.Valid(data) {
		t.Fatalf("state after SIGKILL: %v %s", err, data)
	}
	p2 := startServe(t, root, "--transport", "http")
	st2 := waitState(t, root, p2.cmd.Process.Pid)
	c2 := httpClient(t, st2.URL, nil)
	out := mustWF(t, c2, map[string]any{"action": "get_state", "session_id": id})
	if out.Session.CurrentPhase != 1 || len(out.Session.Tasks) != 2 || out.Session.Tasks[1].Status != "done" {
		t.Fatalf("session after restart: %+v", out.Session)
	}
	// The session goes on: the gate runs again and passes.
	out = mustWF(t, c2, map[string]any{"action": "complete_phase", "session_id": id})
	if !out.Gate.Passed {
		t.Fatalf("gate after restart: %+v", out.Gate)
	}
}
