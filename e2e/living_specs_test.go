package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Living specs, end to end through the built binary and a real MCP client:
// an honest Go run completes a spec; a change that keeps the tests green but
// reaches the symbols they test shows touched; a real regression shows
// drifted with the criterion, the test and its failure; converge repairs it
// through the verified gate; and a forged evidence file is never holding.

// The greeting spec with one test per criterion, so a regression breaks one.
const (
	livingGreetTest = "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1\nfunc TestGreet(t *testing.T) {\n\tif got := Greet(\"ann\"); got != \"hello, ann\" {\n\t\tt.Fatalf(\"Greet(ann) = %q, want hello, ann\", got)\n\t}\n}\n\n// AC-greeting-1.2.1\nfunc TestGreetEmpty(t *testing.T) {\n\tif got := Greet(\"\"); got != \"hello, world\" {\n\t\tt.Fatalf(\"Greet(empty) = %q, want hello, world\", got)\n\t}\n}\n"
	// greetTouched is greetGo written another way: the tests still pass.
	greetTouched = "package greet\n\nfunc Greet(name string) string {\n\tif len(name) == 0 {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n"
	// greetBroken forgets the empty name: AC-greeting-1.2.1 no longer holds.
	greetBroken = "package greet\n\nfunc Greet(name string) string {\n\treturn \"hello, \" + name\n}\n"
)

type specState struct {
	Spec     string `json:"spec"`
	State    string `json:"state"`
	Note     string `json:"note"`
	Criteria []struct {
		ID    string `json:"id"`
		State string `json:"state"`
		Tests []struct {
			Test    string `json:"test"`
			State   string `json:"state"`
			Failure string `json:"failure"`
			Touched []struct {
				Symbol, File, Lines, Change string
			} `json:"touched"`
		} `json:"tests"`
	} `json:"criteria"`
}

func gitIn(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func specsJSON(t *testing.T, root string, args ...string) ([]specState, result) {
	t.Helper()
	r := runAgentos(t, root, append(append([]string{"specs"}, args...), "--dir", root, "--json")...)
	var out []specState
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("agentos specs %v: %v\nstdout: %s\nstderr: %s", args, err, r.stdout, r.stderr)
	}
	return out, r
}

// checkSpecs runs `agentos specs check` on the project's one finished
// spec and returns what it says, failing the test (named by what) unless
// the spec is in state, with the exit code that goes with it: 1 for a
// spec that does not hold (drifted, unverified), else 0.
func checkSpecs(t *testing.T, root, state, what string) []specState {
	t.Helper()
	specs, r := specsJSON(t, root, "check")
	code := 0
	if state == "drifted" || state == "unverified" {
		code = 1
	}
	if r.code != code || len(specs) != 1 || specs[0].State != state {
		t.Fatalf("%s: %+v (exit %d, want %s and %d)\n%s", what, specs, r.code, state, code, r.stderr)
	}
	return specs
}

func criterion(t *testing.T, s specState, id string) (string, string, string) {
	t.Helper()
	for _, c := range s.Criteria {
		if c.ID == id {
			if len(c.Tests) == 0 {
				return c.State, "", ""
			}
			return c.State, c.Tests[0].Test + " " + c.Tests[0].State, c.Tests[0].Failure
		}
	}
	t.Fatalf("no criterion %s in %+v", id, s)
	return "", "", ""
}

// commitApprovedGreeting writes the greeting spec (its tasks unticked),
// commits the project in a new git repository and approves the spec from
// the terminal; it returns the spec's name.
func commitApprovedGreeting(t *testing.T, root string) string {
	t.Helper()
	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 80%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", untickedTasks)
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "greeting spec")
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	return spec
}

// finishGreeting runs the honest greeting spec to completion through MCP
// in a git repository, and returns the client and the spec's name.
func finishGreeting(t *testing.T) (string, *client.Client, string) {
	t.Helper()
	root := newProject(t)
	goProjectBeforeGreet(t, root)
	write(t, root, "greet_test.go", livingGreetTest)
	spec := commitApprovedGreeting(t, root)
	c := stdioClient(t, root, "--transport", "stdio")
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}})
	id := out.Session.ID
	fsWrite(t, c, "greet.go", greetGo)
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
	return root, c, spec
}

func TestLivingSpecDriftTouchAndConverge(t *testing.T) {
	long(t) // the fast run has a living spec's impact and forged evidence (TestLivingSpecImpactAndForgedEvidence) and drift and converge on Go (TestSpecsInitGo)
	t.Parallel()
	root, c, spec := finishGreeting(t)

	// The evidence: the commit, each criterion's test with its file and
	// line, and the symbols the tests reach, from the server's graph.
	var rec struct {
		Tree     string `json:"tree"`
		Criteria []struct {
			ID    string `json:"id"`
			Tests []struct {
				Name, File string
				Line       int
				Proven     bool
				Reaches    []struct{ Path, Name string }
			} `json:"tests"`
		} `json:"criteria"`
		Graph string `json:"graph"`
	}
	data := readFile(t, filepath.Join(root, ".agentos", "state", "living", spec+".json"))
	if err := json.Unmarshal([]byte(data), &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Criteria) != 2 || rec.Tree == "" {
		t.Fatalf("evidence: %s", data)
	}
	for _, cr := range rec.Criteria {
		if len(cr.Tests) != 1 || cr.Tests[0].File != "greet_test.go" || cr.Tests[0].Line == 0 || !cr.Tests[0].Proven {
			t.Fatalf("criterion %s traced to %+v", cr.ID, cr.Tests)
		}
		found := false
		for _, s := range cr.Tests[0].Reaches {
			found = found || (s.Name == "Greet" && s.Path == "greet.go")
		}
		if !found {
			t.Fatalf("the test of %s reaches no Greet (graph: %q): %+v", cr.ID, rec.Graph, cr.Tests[0].Reaches)
		}
	}

	specs, _ := specsJSON(t, root)
	if len(specs) != 1 || specs[0].State != "unchecked" {
		t.Fatalf("after completion: %+v", specs)
	}
	checkSpecs(t, root, "holding", "an untouched spec")

	// A change that keeps the tests green but reaches Greet: touched.
	write(t, root, "greet.go", greetTouched)
	specs = checkSpecs(t, root, "touched", "a change to Greet")
	if st, test, _ := criterion(t, specs[0], "AC-greeting-1.2.1"); st != "touched" || !strings.Contains(test, "TestGreetEmpty") {
		t.Fatalf("AC-greeting-1.2.1: %s %s", st, test)
	}
	if tc := specs[0].Criteria[0].Tests[0].Touched; len(tc) == 0 || tc[0].Symbol != "Greet" || tc[0].File != "greet.go" {
		t.Fatalf("the change that touched it: %+v", tc)
	}

	// A real regression: drifted, naming the criterion, the test and its failure.
	write(t, root, "greet.go", greetBroken)
	gitIn(t, root, "commit", "-q", "-am", "simplify Greet")
	specs = checkSpecs(t, root, "drifted", "a regression")
	st, test, failure := criterion(t, specs[0], "AC-greeting-1.2.1")
	if st != "drifted" || !strings.Contains(test, "TestGreetEmpty (greet_test.go:") || !strings.Contains(test, "failed") || !strings.Contains(failure, "want hello, world") {
		t.Fatalf("AC-greeting-1.2.1: %s / %s / %s", st, test, failure)
	}
	if st, _, _ := criterion(t, specs[0], "AC-greeting-1.1.1"); st == "drifted" {
		t.Fatalf("AC-greeting-1.1.1 still holds, but reads %s", st)
	}
	text := runAgentos(t, root, "specs", "--dir", root).stdout
	if !strings.Contains(text, "AC-greeting-1.2.1 drifted") || !strings.Contains(text, "simplify Greet") {
		t.Fatalf("agentos specs does not say what broke it and which change:\n%s", text)
	}

	// The same through MCP.
	var listed struct {
		Specs []specState `json:"specs"`
	}
	call(t, c, "svc_workflow", map[string]any{"action": "check_specs"}, &listed)
	// Both criteria are listed: one drifted, the other touched by the same change.
	if len(listed.Specs) != 1 || listed.Specs[0].State != "drifted" || len(listed.Specs[0].Criteria) != 2 {
		t.Fatalf("check_specs: %+v", listed)
	}

	// Converge: a session whose task is the broken criterion, under the
	// verified gate.
	out := mustWF(t, c, map[string]any{"action": "converge_spec", "options": map[string]any{"spec": spec}})
	id := out.SessionID
	if id == "" || out.CurrentPhase != 1 {
		t.Fatalf("converge: %+v", out)
	}
	changes := readFile(t, filepath.Join(root, ".agentos", "specs", spec, "changes.md"))
	if !strings.Contains(changes, ": converge started") || !strings.Contains(changes, "AC-greeting-1.2.1 drifted") {
		t.Fatalf("changes.md:\n%s", changes)
	}
	tasks := readFile(t, filepath.Join(root, ".agentos", "specs", spec, "tasks.md"))
	if !strings.Contains(tasks, "[ ] AC-greeting-1.2.1") || !strings.Contains(tasks, "[x] AC-greeting-1.1.1") {
		t.Fatalf("tasks.md after converge:\n%s", tasks)
	}
	// Only task 1.2 is left; 1.1 holds.
	if _, errText := wf(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"}); !strings.Contains(errText, "already done") {
		t.Fatalf("task 1.1 of a converge: %s", errText)
	}
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.2"})
	// Ticking without the fix does not pass: the test still fails.
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", goodTasks)
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || out.Gate.Passed {
		t.Fatalf("the converge passed without the fix: %+v", out.Gate)
	}
	fsWrite(t, c, "greet.go", greetGo)
	out = mustWF(t, c, map[string]any{"action": "retry_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the converge with the fix: %+v", out.Gate)
	}
	checkSpecs(t, root, "holding", "after converge")
	changes = readFile(t, filepath.Join(root, ".agentos", "specs", spec, "changes.md"))
	if !strings.Contains(changes, ": converged (session "+id) {
		t.Fatalf("changes.md after converge:\n%s", changes)
	}
	// A spec that holds has nothing to converge.
	if r := runAgentos(t, root, "specs", "converge", spec, "--dir", root); r.code == 0 || !strings.Contains(r.stderr, "holds") {
		t.Fatalf("converge of a holding spec: exit %d, %s", r.code, r.stderr)
	}
}

// fitsSchema checks an answer's structured content against the outputSchema
// tools/list declares for tool.
func fitsSchema(t *testing.T, c *client.Client, tool string, res *mcp.CallToolResult) {
	t.Helper()
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if tl.Name != tool {
			continue
		}
		raw, _ := json.Marshal(tl.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(res.StructuredContent)
		var v any
		json.Unmarshal(data, &v)
		if err := resolved.Validate(v); err != nil {
			t.Fatalf("%s's answer does not fit its outputSchema: %v\n%s", tool, err, data)
		}
		return
	}
	t.Fatalf("no tool %s", tool)
}

func TestLivingSpecImpactAndForgedEvidence(t *testing.T) {
	t.Parallel()
	root, c, spec := finishGreeting(t)

	// Impact before a change: the CLI, the MCP impact action, and a new
	// spec's start name the finished spec's criteria.
	r := runOK(t, root, "graph", "impact", "Greet", "--dir", root)
	if !strings.Contains(r.stdout, spec+" AC-greeting-1.2.1") || !strings.Contains(r.stdout, "TestGreetEmpty") {
		t.Fatalf("graph impact Greet:\n%s", r.stdout)
	}
	var impact struct {
		Impact struct {
			SpecsTraced bool `json:"specs_traced"`
			Criteria    []struct {
				Spec, Criterion string
				Tests           []string
			} `json:"criteria"`
		} `json:"impact"`
	}
	res := call(t, c, "svc_search_project", map[string]any{"action": "impact", "query": "Greet"}, &impact)
	if res.IsError || !impact.Impact.SpecsTraced || len(impact.Impact.Criteria) != 2 {
		t.Fatalf("impact of Greet: %+v %v", impact, res.Content)
	}
	fitsSchema(t, c, "svc_search_project", res)
	var started struct {
		Reached []struct{ Spec, Criterion string } `json:"finished_specs_reached"`
		Next    string                             `json:"next_action"`
	}
	res = call(t, c, "svc_workflow", map[string]any{"action": "start", "workflow_type": "spec_creation_v1",
		"options": map[string]any{"feature": "shout", "touches": "greet.go"}}, &started)
	if res.IsError || len(started.Reached) != 2 || started.Reached[0].Spec != spec || !strings.Contains(started.Next, "AC-greeting-1.1.1") {
		t.Fatalf("a spec started on greet.go: %+v %v", started, res.Content)
	}
	fitsSchema(t, c, "svc_workflow", res)
	for _, action := range []string{"list_specs", "check_specs"} {
		res = call(t, c, "svc_workflow", map[string]any{"action": action}, nil)
		if res.IsError {
			t.Fatalf("%s: %v", action, res.Content)
		}
		fitsSchema(t, c, "svc_workflow", res)
	}

	// The evidence cannot be written through agentos's own tools.
	evidence := ".agentos/state/living/" + spec + ".json"
	if res := call(t, c, "svc_filesystem", map[string]any{"action": "write", "path": evidence, "content": "{}"}, nil); !res.IsError {
		t.Fatal("svc_filesystem wrote the evidence of a finished spec")
	}
	// An agent with a shell breaks the code and rewrites the evidence so
	// that the broken criterion is traced to a test that passes, and its
	// last check reads holding.
	write(t, root, "greet.go", greetBroken)
	path := filepath.Join(root, filepath.FromSlash(evidence))
	forged := strings.ReplaceAll(readFile(t, path), "TestGreetEmpty", "TestGreet")
	var rec map[string]any
	if err := json.Unmarshal([]byte(forged), &rec); err != nil {
		t.Fatal(err)
	}
	rec["last_check"] = map[string]any{"spec": spec, "state": "holding", "completed_at": "2026-01-01T00:00:00Z"}
	data, _ := json.MarshalIndent(rec, "", "  ")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	specs, _ := specsJSON(t, root)
	if len(specs) != 1 || specs[0].State != "unverified" {
		t.Fatalf("a forged record reads %+v", specs)
	}
	checkSpecs(t, root, "unverified", "a check of a forged record")
	if _, errText := wf(t, c, map[string]any{"action": "converge_spec", "options": map[string]any{"spec": spec}}); !strings.Contains(errText, "agentos does not converge from it") {
		t.Fatalf("converge from a forged record: %s", errText)
	}
	if r := runOK(t, root, "graph", "impact", "Greet", "--dir", root); strings.Contains(r.stdout, spec) {
		t.Fatalf("impact trusts a forged record:\n%s", r.stdout)
	}
}
