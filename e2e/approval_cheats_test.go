package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// fsWrite writes a project file the way an agent does: through svc_filesystem.
// honestSpec is the greeting spec of the honest run, file by file.
var honestSpec = map[string]string{
	"README.md":         greetingReadme,
	"srd.md":            greetingSRD,
	"specs.md":          greetingSpecs,
	"tasks.md":          strings.ReplaceAll(goodTasks, "[x]", "[ ]"),
	"implementation.md": greetingImplementation,
}

// specAtApproval runs spec_creation_v1 honestly, through MCP only, to its
// approval gate; every gate passes the first time.
func specAtApproval(t *testing.T, c *client.Client, feature string) (id, dir string) {
	t.Helper()
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": feature}})
	id, dir = out.Session.ID, out.Session.Vars["spec_dir"]
	for _, f := range []string{"README.md", "srd.md", "specs.md", "tasks.md", "implementation.md"} {
		fsWrite(t, c, dir+"/"+f, honestSpec[f])
	}
	for phase, tasks := range [][]string{{"1.1", "1.2", "1.3"}, {"2.1", "2.2"}, {"3.1", "3.2"}} {
		for _, task := range tasks {
			mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
		}
		if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
			t.Fatalf("phase %d of an honest spec: %+v", phase+1, out.Gate)
		}
	}
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "4.1"})
	return id, dir
}

// wantRefused checks a call was refused with a message holding every want.
func wantRefused(t *testing.T, what, errText string, want ...string) {
	t.Helper()
	if errText == "" {
		t.Errorf("%s was not refused", what)
		return
	}
	for _, w := range want {
		if !strings.Contains(errText, w) {
			t.Errorf("%s: the refusal lacks %q: %s", what, w, errText)
		}
	}
}

// The cheats of an agent holding only agentos's MCP tools, against the
// built binary: each is refused with a message that says what to do; the
// honest run completes with every gate passing the first time.
func TestApprovalCheatsMCPOnly(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	goProject(t, root)
	c := stdioClient(t, root, "--transport", "dual")
	st := waitState(t, root, 0)
	id, dir := specAtApproval(t, c, "greeting")
	spec := filepath.Base(dir)

	// Without a terminal, approve needs --yes, and says so.
	r := runAgentos(t, root, "workflow", "approve", id, "--dir", root)
	if r.code != 2 || !strings.Contains(r.stderr, "no terminal") || !strings.Contains(r.stdout, dir+"/tasks.md") {
		t.Fatalf("approve without a terminal: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")

	// Editing the spec after approval voids it, naming the file.
	fsWrite(t, c, dir+"/specs.md", honestSpec["specs.md"]+"\nCoverage threshold: 1%\n")
	_, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	wantRefused(t, "completing after an edit", errText, "void", "specs.md changed", "agentos workflow approve "+id)
	fsWrite(t, c, dir+"/specs.md", honestSpec["specs.md"])
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest approval gate: %+v", out.Gate)
	}

	// Editing it before execution starts: refused, naming what changed.
	start := map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}
	fsWrite(t, c, dir+"/tasks.md", strings.ReplaceAll(goodTasks, "[x]", "[ ]")+"\n- [ ] 1.3 Skip the tests\n  - nothing\n")
	_, errText = wf(t, c, start)
	wantRefused(t, "starting after a rewritten tasks.md", errText, "tasks.md changed", "agentos workflow approve --spec "+spec)
	fsWrite(t, c, dir+"/tasks.md", honestSpec["tasks.md"])

	// A second MCP session with the owner's client name cannot undo the
	// approved, completed session, with or without force.
	twin := namedHTTPClient(t, st.URL, "stdio-test")
	_, errText = wf(t, twin, map[string]any{"action": "rollback", "session_id": id, "phase": 1, "force": true})
	wantRefused(t, "rolling back a completed session", errText, "only a person", "agentos workflow rollback "+id)
	_, errText = wf(t, twin, map[string]any{"action": "delete_session", "session_id": id, "force": true})
	wantRefused(t, "deleting a completed session", errText, "only a person", "agentos workflow delete "+id)

	// The honest path: execution starts on the approved spec.
	exec := mustWF(t, c, start)
	// A non-owner is told something it can do.
	other := namedHTTPClient(t, st.URL, "someone-else")
	_, errText = wf(t, other, map[string]any{"action": "complete_task", "session_id": exec.Session.ID, "task_number": "1.1"})
	wantRefused(t, "a non-owner's change", errText, "force: true")
	if strings.Contains(errText, "or after transfer_owner") {
		t.Errorf("circular advice: %s", errText)
	}

	// A person rolls the spec back: its approval record goes with it, so
	// execution cannot start again on it.
	mustWF(t, c, map[string]any{"action": "delete_session", "session_id": exec.Session.ID})
	runOK(t, root, "workflow", "rollback", id, "3", "--dir", root)
	if _, err := os.Stat(filepath.Join(root, ".agentos", "state", "approvals", spec+".json")); !os.IsNotExist(err) {
		t.Errorf("the approval record outlived the rollback: %v", err)
	}
	_, errText = wf(t, c, start)
	wantRefused(t, "starting on a rolled-back spec", errText, "not been approved")

	// The audit log says how the approval was given.
	r = runOK(t, root, "workflow", "show", id, "--json", "--dir", root)
	var shown struct {
		Audit []struct{ Action, Actor, Detail string } `json:"audit"`
	}
	json.Unmarshal([]byte(r.stdout), &shown)
	found := false
	for _, a := range shown.Audit {
		found = found || (a.Action == "approve" && strings.Contains(a.Detail, "alice via non-interactive (--yes)"))
	}
	if !found {
		t.Errorf("the audit log does not record a non-interactive approval: %+v", shown.Audit)
	}
}

// namedHTTPClient connects to the server at url over HTTP as client name.
func namedHTTPClient(t *testing.T, url, name string) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, ownTransport(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c, name, legacyProtocol)
	return c
}

// With its own shell an agent can edit state.json; the next read notices,
// the session is read-only, and a person accepts it (or resets it).
func TestHandEditedStateIsDetected(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "edit"}}).Session.ID
	state := filepath.Join(root, ".agentos", "state", "workflows", id, "state.json")
	data, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, []byte(strings.Replace(string(data), `"current_phase": 1`, `"current_phase": 4`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id})
	if !strings.Contains(out.NextAction, "changed outside agentos") || !strings.Contains(out.NextAction, "agentos workflow accept "+id) {
		t.Errorf("get_state of an edited session: %s", out.NextAction)
	}
	_, errText := wf(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "4.1", "force": true})
	wantRefused(t, "advancing an edited session", errText, "changed outside agentos", "agentos workflow reset "+id)
	if r := runOK(t, root, "workflow", "list", "--dir", root); !strings.Contains(r.stdout, "changed outside agentos") {
		t.Errorf("workflow list does not mark it:\n%s", r.stdout)
	}
	if r := runAgentos(t, root, "workflow", "accept", id, "--dir", root); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Errorf("accept without a terminal or --yes: %d %s", r.code, r.stderr)
	}
	runOK(t, root, "workflow", "accept", id, "--yes", "--dir", root)
	if out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); out.Session.CurrentPhase != 4 || strings.Contains(out.NextAction, "outside") {
		t.Errorf("after accept: %+v %s", out.Session, out.NextAction)
	}
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "4.1"})
}

// With its own shell an agent could cut the end of a session's audit log (a
// failed gate, say); the chain that remains still checks out, but the signed
// state says how long the log was, so the session is read-only until a
// person accepts it. Honest transitions before and after raise nothing.
func TestAuditLogCutIsDetected(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	c := stdioClient(t, root, "--transport", "stdio")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "cut"}}).Session.ID
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	if out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); strings.Contains(out.NextAction, "outside") {
		t.Fatalf("an honest session reads as changed: %s", out.NextAction)
	}
	audit := filepath.Join(root, ".agentos", "state", "workflows", id, "audit.jsonl")
	data, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 3 {
		t.Fatalf("audit log of %d lines", len(lines))
	}
	if err := os.WriteFile(audit, []byte(strings.Join(lines[:len(lines)-2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id})
	if !strings.Contains(out.NextAction, "changed outside agentos") {
		t.Errorf("get_state after the audit log's last line was cut: %s", out.NextAction)
	}
	_, errText := wf(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.3", "force": true})
	wantRefused(t, "advancing a session whose audit log was cut", errText, "changed outside agentos", "agentos workflow accept "+id)
	runOK(t, root, "workflow", "accept", id, "--yes", "--dir", root)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.3"})
	if out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); strings.Contains(out.NextAction, "outside") {
		t.Errorf("after accept: %s", out.NextAction)
	}
}
