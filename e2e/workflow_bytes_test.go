package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// answerBytes counts what a tool answer costs an agent whose client passes
// both to the model: the text content plus the structured content, as JSON.
// What varies with the machine's speed and not with the answer's design —
// a duration's digits, a timestamp's fraction of a second — is counted at a
// fixed width, so a loaded machine does not push the run over its budget.
func answerBytes(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	n := 0
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			n += len(steady(tc.Text))
		}
	}
	if res.StructuredContent != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		n += len(steady(string(data)))
	}
	return n
}

var (
	durationRE = regexp.MustCompile(`"duration_ms":\d+`)
	fractionRE = regexp.MustCompile(`(T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)`)
)

// steady writes every duration with 4 digits and every timestamp with a
// 6-digit fraction of a second.
func steady(s string) string {
	s = durationRE.ReplaceAllString(s, `"duration_ms":1000`)
	return fractionRE.ReplaceAllString(s, "${1}.000000${3}")
}

// byteMeter runs svc_workflow calls and adds up their answers' bytes by action.
type byteMeter struct {
	t     *testing.T
	c     *client.Client
	bytes map[string]int
	calls map[string]int
}

func (m *byteMeter) call(args map[string]any) wfOut {
	m.t.Helper()
	var out wfOut
	res := call(m.t, m.c, "svc_workflow", args, &out)
	if res.IsError {
		m.t.Fatalf("svc_workflow %v: %v", args, res.Content)
	}
	action := args["action"].(string)
	if text := res.Content[0].(mcp.TextContent).Text; strings.Contains(text, "{spec_dir}") || strings.Contains(text, "{session_id}") {
		m.t.Errorf("%s answers with a placeholder left in: %s", action, text)
	}
	m.bytes[action] += answerBytes(m.t, res)
	m.calls[action]++
	return out
}

func (m *byteMeter) report() (total int, lines string) {
	var b strings.Builder
	actions := make([]string, 0, len(m.bytes))
	for a := range m.bytes {
		actions = append(actions, a)
	}
	slices.Sort(actions)
	calls := 0
	for _, a := range actions {
		fmt.Fprintf(&b, "  %-15s %2d calls %7d bytes\n", a, m.calls[a], m.bytes[a])
		total += m.bytes[a]
		calls += m.calls[a]
	}
	fmt.Fprintf(&b, "  %-15s %2d calls %7d bytes", "total", calls, total)
	return total, b.String()
}

// honestRun plays an agent that follows every next_action and does the work
// right the first time: spec_creation_v1 for the greeting feature, a person's
// approval, then spec_execution_v1 of that spec. Every gate must pass first time.
func honestRun(t *testing.T, root string, m *byteMeter) {
	t.Helper()
	passed := func(o wfOut, phase int) {
		t.Helper()
		if o.Gate == nil || !o.Gate.Passed {
			t.Fatalf("phase %d's gate did not pass first time: %+v", phase, o.Gate)
		}
	}
	tasks := func(id string, ids ...string) {
		t.Helper()
		for _, task := range ids {
			if next := m.call(map[string]any{"action": "get_task", "session_id": id, "task_number": task}).NextAction; !strings.Contains(next, "complete_task task_number "+task) || strings.Contains(next, "get_task") {
				t.Errorf("after get_task %s, next_action says %q", task, next)
			}
			m.call(map[string]any{"action": "complete_task", "session_id": id, "task_number": task, "note": "done"})
		}
	}

	// The project exists before its spec: the approval binds the test
	// command its go.mod implies. Greet is the execution session's work.
	goProjectBeforeGreet(t, root)
	out := m.call(map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "greeting"}})
	id, dir := out.Session.ID, out.Session.Vars["spec_dir"]
	for phase, ids := range [][]string{{"1.1", "1.2", "1.3"}, {"2.1", "2.2"}, {"3.1", "3.2"}, {"4.1"}} {
		m.call(map[string]any{"action": "get_phase", "session_id": id})
		tasks(id, ids...)
		writeSpecDocs(t, root, dir, phase+1)
		if phase == 3 {
			runOK(t, root, "workflow", "approve", id, "--by", "alice", "--dir", root, "--yes")
		}
		passed(m.call(map[string]any{"action": "complete_phase", "session_id": id}), phase+1)
	}

	spec := dir[strings.LastIndex(dir, "/")+1:]
	out = m.call(map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}})
	id = out.Session.ID
	m.call(map[string]any{"action": "get_phase", "session_id": id})
	write(t, root, "greet.go", greetGo)
	write(t, root, "greet_test.go", fullGreetTest)
	tasks(id, "1.1", "1.2")
	write(t, root, dir+"/tasks.md", goodTasks)
	passed(m.call(map[string]any{"action": "complete_phase", "session_id": id}), 1)
}

// baselineBytes is what the honest run's answers cost before they were made
// compact: this test's script run on the commit before that work (2179add),
// 32 calls.
const baselineBytes = 101470

// TestWorkflowAnswerBytes measures what svc_workflow's answers cost over an
// honest run of both workflows; -v prints the figures by action.
func TestWorkflowAnswerBytes(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	m := &byteMeter{t: t, c: stdioClient(t, root, "--transport", "stdio"), bytes: map[string]int{}, calls: map[string]int{}}
	honestRun(t, root, m)
	total, lines := m.report()
	t.Logf("svc_workflow answer bytes (text + structured content) over an honest run of both workflows, %.1f%% of the %d baseline:\n%s", 100*float64(total)/baselineBytes, baselineBytes, lines)
	// The budget: at most 35.5% of the baseline (35% until the gate judged
	// the coverage of the changed lines, which the phases and the gate's
	// answer now say: 35,084 → 35,636 bytes).
	if budget := baselineBytes * 355 / 1000; total > budget {
		t.Errorf("the honest run's answers cost %d bytes (%.1f%% of the %d baseline), more than the %d budget", total, 100*float64(total)/baselineBytes, baselineBytes, budget)
	}
}
