package workflowtool

import (
	"fmt"
	"strings"

	"github.com/agentos-dev/agentos/server/toolkit"
	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// Output is the result of svc_workflow; which fields are set depends on the
// action. Agents pay for every byte, so an answer about a session carries its
// id, where it stands and what the call changed; the whole state comes only
// with start, get_state and get_session, and a phase's instructions only with
// get_phase (the overview with start).
type Output struct {
	SessionID    string                `json:"session_id,omitempty"`
	Status       string                `json:"status,omitempty"`
	CurrentPhase int                   `json:"current_phase,omitempty"`
	Changed      string                `json:"changed,omitempty"`
	Workflows    []WorkflowSummary     `json:"workflows,omitempty"`
	Invalid      map[string]string     `json:"invalid_definitions,omitempty"`
	Sessions     []SessionSummary      `json:"sessions,omitempty"`
	Session      *SessionView          `json:"session,omitempty"`
	Phase        *PhaseView            `json:"phase,omitempty"`
	Task         *TaskView             `json:"task,omitempty"`
	Gate         *GateView             `json:"gate,omitempty"`
	Audit        []workflow.AuditEntry `json:"audit,omitempty"`
	Deleted      string                `json:"deleted,omitempty"`
	NextAction   string                `json:"next_action,omitempty"`
	// ChangeRequest is the person's request for changes, with their
	// comments on lines of the spec, while the agent has to act on it.
	ChangeRequest *workflow.ChangeRequest `json:"change_request,omitempty"`
	// Living specs (livingtool.go).
	Specs        []workflow.SpecState         `json:"specs,omitempty"`
	SpecsReached *[]workflow.CoveredCriterion `json:"finished_specs_reached,omitempty"`
	Converging   []string                     `json:"converging,omitempty"`
	// Drafts are the specs draft_specs drafted from code.
	Drafts []workflow.Draft `json:"drafts,omitempty"`
}

// WorkflowSummary describes a workflow definition.
type WorkflowSummary struct {
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	Inputs      []string `json:"inputs"`
	Phases      []string `json:"phases,omitempty"`
	Source      string   `json:"source"`
}

// SessionSummary is one line of list_sessions. A session whose state cannot
// be read has the status "unreadable" and says why in Error.
type SessionSummary struct {
	ID       string `json:"id"`
	Workflow string `json:"workflow"`
	Status   string `json:"status"`
	Phase    string `json:"phase"`
	Owner    string `json:"owner"`
	Updated  string `json:"updated_at"`
	Error    string `json:"error,omitempty"`
}

// SessionView is a session's state, compact.
type SessionView struct {
	ID            string                  `json:"id"`
	Workflow      string                  `json:"workflow"`
	Status        string                  `json:"status"`
	CurrentPhase  int                     `json:"current_phase"`
	PhaseName     string                  `json:"phase_name,omitempty"`
	TotalPhases   int                     `json:"total_phases"`
	Tasks         []workflow.TaskState    `json:"tasks,omitempty"`
	Owner         string                  `json:"owner"`
	Vars          map[string]string       `json:"vars,omitempty"`
	Approval      *gates.Approval         `json:"approval,omitempty"`
	ChangeRequest *workflow.ChangeRequest `json:"change_request,omitempty"`
	LastGate      *GateView               `json:"last_gate,omitempty"`
	Phases        []workflow.PhaseState   `json:"phases,omitempty"`
	Revision      int                     `json:"revision"`
}

// PhaseView is one phase with its instructions, its tasks as a checklist
// ("[ ] 1.1 Title", "[x]" once done) and what its gate checks.
type PhaseView struct {
	Number       int      `json:"number"`
	Name         string   `json:"name"`
	Status       string   `json:"status,omitempty"`
	Instructions string   `json:"instructions"`
	Tasks        []string `json:"tasks,omitempty"`
	Gate         []string `json:"gate,omitempty"`
}

// TaskView is one task; Instructions is empty when its phase's instructions
// (get_phase) explain it.
type TaskView struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Phase        int    `json:"phase"`
	Status       string `json:"status"`
	Instructions string `json:"instructions,omitempty"`
}

// GateView is the outcome of a gate: one line per check ("✓ type: what was
// found" or "✗ …"), and for each failed check what to do about it.
type GateView struct {
	Passed bool          `json:"passed"`
	Checks []string      `json:"checks"`
	Failed []FailedCheck `json:"failed,omitempty"`
}

// FailedCheck is what an agent needs to fix a failed check: Check is its
// index in GateView.Checks, whose line says what was found.
type FailedCheck struct {
	Check    int      `json:"check"`
	Type     string   `json:"type"`
	Fix      string   `json:"fix"`
	Warnings []string `json:"warnings,omitempty"`
	Output   string   `json:"output,omitempty"`
	Details  any      `json:"details,omitempty"`
}

func listWorkflows(e *workflow.Engine) Output {
	out := Output{NextAction: "start one with action start, workflow_type and options"}
	for _, d := range e.Library().List() {
		w := WorkflowSummary{Name: d.Name, Version: d.Version, Description: d.Description, Source: d.Source, Inputs: []string{}}
		for _, in := range d.Inputs {
			req := ""
			if in.Required {
				req = " (required)"
			}
			w.Inputs = append(w.Inputs, in.Name+req+": "+in.Description)
		}
		for _, p := range d.Phases {
			w.Phases = append(w.Phases, p.Name)
		}
		out.Workflows = append(out.Workflows, w)
	}
	if inv := e.Library().Invalid(); len(inv) > 0 {
		out.Invalid = inv
	}
	return out
}

func listSessions(e *workflow.Engine) (Output, error) {
	sessions, corrupt, err := e.Store().List()
	if err != nil {
		return Output{}, err
	}
	out := Output{Sessions: []SessionSummary{}, NextAction: "get_state SESSION to continue one, or start a new one"}
	for _, s := range sessions {
		sum := SessionSummary{
			ID: s.ID, Workflow: s.Workflow, Status: s.Status, Phase: s.PhaseLabel(),
			Owner: s.Owner.String(), Updated: s.UpdatedAt.Format("2006-01-02T15:04:05Z"),
		}
		if s.Integrity != nil {
			sum.Error = s.Integrity.Advice(s.ID)
		}
		out.Sessions = append(out.Sessions, sum)
	}
	for _, c := range corrupt {
		out.Sessions = append(out.Sessions, SessionSummary{ID: c.ID, Status: workflow.StatusUnreadable, Error: c.Error()})
	}
	switch {
	case len(corrupt) > 0:
		out.NextAction = "a session marked unreadable can only be removed: delete_session with force: true; get_state SESSION to continue another"
	case len(sessions) == 0:
		out.NextAction = "no sessions yet: list_workflows, then start"
	}
	return out, nil
}

// sessionView is a session's whole state, for start, get_state and
// get_session; start leaves out the tasks, which get_phase lists.
func sessionView(s *workflow.Session, withTasks bool) *SessionView {
	v := &SessionView{
		ID: s.ID, Workflow: s.Workflow, Status: s.Status, CurrentPhase: s.Current, TotalPhases: len(s.Phases),
		Owner: s.Owner.String(), Vars: s.AgentVars(), Approval: s.Approval, ChangeRequest: s.Changes, Revision: s.Revision,
	}
	if s.Current <= len(s.Phases) {
		p := s.Phases[s.Current-1]
		v.PhaseName = p.Name
		if withTasks {
			v.Tasks = p.Tasks
		}
		if p.LastGate != nil && !p.LastGate.Passed {
			v.LastGate = gateView(p.LastGate)
		}
	}
	return v
}

// brief is what every answer about a change to a session carries: where it
// now stands, what the call changed, and what to do next.
func brief(e *workflow.Engine, s *workflow.Session, changed string) Output {
	return Output{SessionID: s.ID, Status: s.Status, CurrentPhase: s.Current, Changed: changed, NextAction: nextAction(e, s), ChangeRequest: changeRequest(s)}
}

// reading answers a call that left the phase and status as they were: the
// session's id and what to do next; the phase or task it is about says the rest.
func reading(e *workflow.Engine, s *workflow.Session) Output {
	return Output{SessionID: s.ID, NextAction: nextAction(e, s), ChangeRequest: changeRequest(s)}
}

// changeRequest is the person's request for changes while it is the
// agent's to act on: every answer carries it, with the comments on lines.
func changeRequest(s *workflow.Session) *workflow.ChangeRequest {
	if s.Changes == nil || s.Status != workflow.StatusActive || s.Integrity != nil {
		return nil
	}
	return s.Changes
}

// gateOutput answers complete_phase and retry_phase: s is the session after
// the gate ran, which moved it on only if the gate passed.
func gateOutput(e *workflow.Engine, s *workflow.Session, r *workflow.GateReport) Output {
	// A failed gate changes nothing but the attempt count.
	var changed string
	switch {
	case r.Passed && s.Status == workflow.StatusCompleted:
		changed = "the workflow is complete"
	case r.Passed:
		changed = fmt.Sprintf("phase %d (%s) begins", s.Current, s.Phases[s.Current-1].Name)
	}
	out := brief(e, s, changed)
	out.Gate = gateView(r)
	if r.Passed && s.Status == workflow.StatusActive {
		out.NextAction = fmt.Sprintf("get_phase for phase %d's instructions and tasks", s.Current)
	}
	return out
}

func gateView(r *workflow.GateReport) *GateView {
	g := &GateView{Passed: r.Passed, Checks: []string{}}
	for i, c := range r.Checks {
		mark := "✓ "
		if !c.Passed {
			mark = "✗ "
			g.Failed = append(g.Failed, FailedCheck{
				Check: i, Type: c.Type, Fix: c.Remediation, Warnings: c.Warnings, Output: c.Output, Details: c.Details,
			})
		}
		line := mark + c.Type + ": " + c.Message
		if c.Passed && len(c.Warnings) > 0 {
			// A passed check's warnings are all it has to say beyond its line.
			line += " Warning: " + strings.Join(c.Warnings, " ")
		}
		g.Checks = append(g.Checks, line)
	}
	return g
}

// nextAction tells the agent what to do now, in one line.
func nextAction(e *workflow.Engine, s *workflow.Session) string {
	switch {
	case s.Integrity != nil:
		return s.Integrity.Advice(s.ID) + "; ask the person"
	case s.RulesChanged != "":
		return s.RulesChanged + "; ask the person"
	case s.Status == workflow.StatusCompleted:
		if s.Workflow == "spec_creation_v1" {
			return fmt.Sprintf("the spec is approved; implement it with start workflow_type spec_execution_v1 options {\"spec\": %q}", lastPathPart(s.Vars["spec_dir"]))
		}
		return "the workflow is complete"
	case s.Status == workflow.StatusPaused:
		return "the session is paused: resume it to continue"
	case s.Changes != nil:
		return changesAction(s.Changes)
	}
	p := s.Phases[s.Current-1]
	if t := nextTaskOf(s); t != nil {
		return fmt.Sprintf("get_task task_number %s, do its work, then complete_task", t.ID)
	}
	if needsApproval(e, s) && s.Approval == nil {
		return fmt.Sprintf("ask the user to review the spec and run `agentos workflow approve %s` in a terminal (or reject with --reason); then complete_phase", s.ID)
	}
	if p.LastGate != nil && !p.LastGate.Passed {
		return "the gate failed: do what each failed check's fix says, then complete_phase again"
	}
	return "every task is done: complete_phase to run the gate"
}

// changesAction is the next action after a request for changes: its
// reason, and where its comments on lines are.
func changesAction(c *workflow.ChangeRequest) string {
	what := "the user asked for changes"
	if c.Reason != "" {
		what += ": " + c.Reason
	}
	if n := len(c.Comments); n > 0 {
		lines := fmt.Sprintf("%d comments on lines", n)
		if n == 1 {
			lines = "a comment on a line"
		}
		what += fmt.Sprintf("; and %s of the spec (change_request.comments: each with its file, line, the line's text as quote, and the comment) — answer each", lines)
	}
	return what + " — update the files, show them, and ask for approval again"
}

func needsApproval(e *workflow.Engine, s *workflow.Session) bool {
	return s.Current <= len(s.Phases) && e.PhaseAsksApproval(s)
}

func lastPathPart(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// phaseView renders phase n's instructions with the session's values; 0 is
// the overview. A "# Phase N: Name" heading is left out: number and name say it.
func phaseView(e *workflow.Engine, s *workflow.Session, n int) *PhaseView {
	d, ok := e.Library().Get(s.Workflow)
	if !ok {
		return nil
	}
	if n == 0 {
		return &PhaseView{Number: 0, Name: "Overview", Instructions: render(d.Text(d.Overview), s, 0)}
	}
	p := s.Phases[n-1]
	v := &PhaseView{Number: n, Name: p.Name, Status: p.Status}
	for _, t := range p.Tasks {
		mark := "[ ] "
		if t.Status == workflow.Done {
			mark = "[x] "
		}
		v.Tasks = append(v.Tasks, mark+t.ID+" "+t.Title)
	}
	var checks []gates.Check
	if d.PhasesFromTasks != nil {
		v.Instructions = render(d.Text(d.PhasesFromTasks.Instructions), s, n)
		checks = d.PhasesFromTasks.Gate
	} else {
		v.Instructions = render(d.Text(d.Phases[n-1].Instructions), s, n)
		checks = e.PhaseGate(s, n)
	}
	v.Instructions = strings.TrimLeft(strings.TrimPrefix(v.Instructions, fmt.Sprintf("# Phase %d: %s\n", n, p.Name)), "\n")
	for _, c := range checks {
		v.Gate = append(v.Gate, render(describe(c), s, n))
	}
	return v
}

func taskView(e *workflow.Engine, s *workflow.Session, id string) (*TaskView, error) {
	if id == "" {
		if t := nextTaskOf(s); t != nil {
			id = t.ID
		}
	}
	for _, p := range s.Phases {
		for _, t := range p.Tasks {
			if t.ID != id {
				continue
			}
			v := &TaskView{ID: t.ID, Title: t.Title, Phase: p.Number, Status: t.Status}
			v.Instructions = render(e.TaskInstructions(s, p.Number, t.ID), s, p.Number)
			return v, nil
		}
	}
	return nil, errNoTask(id)
}

func nextTaskOf(s *workflow.Session) *workflow.TaskState {
	if s.Current > len(s.Phases) {
		return nil
	}
	for i, t := range s.Phases[s.Current-1].Tasks {
		if t.Status != workflow.Done {
			return &s.Phases[s.Current-1].Tasks[i]
		}
	}
	return nil
}

// render fills {name} placeholders from the session's vars and phase.
func render(text string, s *workflow.Session, phase int) string {
	vars := map[string]string{"phase": fmt.Sprint(phase), "session_id": s.ID}
	if phase >= 1 && phase <= len(s.Phases) {
		vars["phase_name"] = s.Phases[phase-1].Name
	}
	for k, v := range s.Vars {
		vars[k] = v
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		name := text[i+1 : i+j]
		if v, ok := vars[name]; ok {
			b.WriteString(text[:i] + v)
		} else {
			b.WriteString(text[:i+j+1])
		}
		text = text[i+j+1:]
	}
}

func errNoTask(id string) error {
	return toolkit.Errorf(toolkit.CodeNotFound, "no task %q in this session; get_state lists the current phase's tasks", id)
}

// describe says in a few words what a gate check verifies.
func describe(c gates.Check) string {
	if c.Description != "" {
		return c.Description
	}
	switch c.Type {
	case "files_exist":
		return "files with content: " + strings.Join(c.Paths, ", ")
	case "markdown_sections":
		return c.File + " has filled-in sections: " + strings.Join(c.Sections, ", ")
	case "tasks_format":
		return c.File + " parses into phases of numbered tasks with estimates and acceptance criteria"
	case "command":
		if c.Report != "" {
			return "the server runs `" + c.Command + "`; it must exit 0 and every test in its report must pass"
		}
		return "the server runs `" + c.Command + "`; it must exit 0"
	case "coverage":
		return "the server reads " + c.File + "; coverage must meet the threshold"
	case "acceptance_criteria":
		return "every acceptance criterion of the phase is ticked in " + c.File + " and named by a test"
	case "evidence":
		var names []string
		for _, f := range c.Fields {
			names = append(names, f.Name)
		}
		return "evidence with fields: " + strings.Join(names, ", ")
	case "approval":
		return "a person approves in a terminal: agentos workflow approve {session_id}"
	}
	var keys []string
	for k, v := range c.Params {
		keys = append(keys, k+"="+v)
	}
	return c.Type + " " + strings.Join(keys, " ")
}
