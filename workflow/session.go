package workflow

import (
	"fmt"
	"time"

	"github.com/agentos-dev/agentos/workflow/gates"
)

// Session statuses.
const (
	StatusActive    = "active"
	StatusPaused    = "paused"
	StatusCompleted = "completed"
	// StatusUnreadable is shown, never stored, for a session whose
	// state.json cannot be read (a CorruptError).
	StatusUnreadable = "unreadable"
)

// Phase and task statuses.
const (
	Pending = "pending"
	Active  = "active"
	Done    = "done"
)

// Session is one run of a workflow, persisted as state.json.
type Session struct {
	ID       string            `json:"id"`
	Workflow string            `json:"workflow"`
	Version  string            `json:"version"`
	Status   string            `json:"status"`
	Current  int               `json:"current_phase"` // 1-based; len(Phases)+1 once completed
	Phases   []PhaseState      `json:"phases"`
	Inputs   map[string]string `json:"inputs"`
	Vars     map[string]string `json:"vars"`
	Owner    Actor             `json:"owner"`
	// Approval is a person's approval given at this session's approval
	// gate, and Binding what it approved.
	Approval *gates.Approval `json:"approval,omitempty"`
	Binding  *Binding        `json:"approval_binding,omitempty"`
	// SpecApproval is the approval of the spec an execution session
	// implements, as it stood at the last gate.
	SpecApproval *ApprovalRecord `json:"spec_approval,omitempty"`
	Changes      *ChangeRequest  `json:"change_request,omitempty"`
	// EarlierGates are each phase's gate attempts before its last (by
	// phase number), oldest first, the newest MaxEarlierGates: a person
	// compares them on the review page.
	EarlierGates map[int][]GateReport `json:"earlier_gates,omitempty"`
	// Rules are the rules the session runs under, recorded when it started
	// and when a person confirmed new ones: its workflow definition (by the
	// file it comes from) and the workflow.* settings. Files is empty.
	Rules     *Binding  `json:"rules,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Revision  int       `json:"revision"` // bumped on every change
	// AuditAccepted is how many lines of the audit log a person accepted as
	// they were (agentos workflow accept, reset); later lines must be signed
	// by this machine.
	AuditAccepted int `json:"audit_accepted,omitempty"`
	// AuditLines and AuditHead are how many lines the audit log held when
	// agentos last appended to it, and the MAC of the last: signed with the
	// state, they show lines cut from the log's end, which its chain alone
	// cannot.
	AuditLines int    `json:"audit_lines,omitempty"`
	AuditHead  string `json:"audit_head,omitempty"`
	Seal       *Seal  `json:"seal,omitempty"`
	// Integrity is set, on reading, when the session is not as this
	// machine's agentos signed it; such a session is read-only until a
	// person accepts or resets it.
	Integrity *Integrity `json:"-"`
	// RulesChanged is set, on reading, when the rules on disk are not those
	// the session recorded: why it cannot advance, and what a person does.
	RulesChanged string `json:"-"`
}

// PhaseState is a phase's progress.
type PhaseState struct {
	Number      int         `json:"number"`
	Name        string      `json:"name"`
	Status      string      `json:"status"`
	Tasks       []TaskState `json:"tasks"`
	Attempts    int         `json:"gate_attempts"`
	LastGate    *GateReport `json:"last_gate,omitempty"`
	CompletedAt *time.Time  `json:"completed_at,omitempty"`
}

// TaskState is a task's progress.
type TaskState struct {
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Status      string     `json:"status"`
	Note        string     `json:"note,omitempty"`
	CompletedAt *time.Time `json:"completed_at,omitempty"`
}

// GateReport is the outcome of one gate evaluation.
type GateReport struct {
	Passed   bool           `json:"passed"`
	At       time.Time      `json:"at"`
	Checks   []gates.Result `json:"checks"`
	Evidence map[string]any `json:"evidence,omitempty"`
}

// Actor is who acts on a session: an MCP client, or a person at the CLI.
type Actor struct {
	Client  string    `json:"client"`
	Session string    `json:"session,omitempty"`
	Since   time.Time `json:"since,omitzero"`
}

// Same reports whether a and b are the same agent. Agents are known by their
// client name: an IDE that reconnects gets a new MCP session but is still the
// owner of its workflow.
func (a Actor) Same(b Actor) bool { return a.Client == b.Client }

func (a Actor) String() string {
	if a.Session == "" {
		return a.Client
	}
	return a.Client + " (" + a.Session + ")"
}

// CLIActor is a person at the terminal.
var CLIActor = Actor{Client: "agentos-cli"}

// MaxEarlierGates bounds the earlier attempts kept of a phase's gate.
const MaxEarlierGates = 10

// ChangeRequest is a person's request for changes at an approval gate.
type ChangeRequest struct {
	By     string    `json:"by"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
	// Comments are the person's comments on lines of the spec's files.
	Comments []LineComment `json:"comments,omitempty"`
}

// LineComment is a person's comment on a line, or a range of lines, of a
// file of the spec.
type LineComment struct {
	File    string `json:"file"`               // slash path from the project root
	Line    int    `json:"line"`               // 1-based
	EndLine int    `json:"end_line,omitempty"` // the range's last line; Line for one line
	// Quote is the text of the lines commented on, as they read when the
	// comment was sent.
	Quote string `json:"quote"`
	Text  string `json:"comment"`
}

// shapeError says what makes s, read from the folder of session id, unusable
// ("" when nothing does): the engine indexes phases by number and current_phase.
func (s *Session) shapeError(id string) string {
	switch {
	case s.ID != id:
		return fmt.Sprintf("its id is %q, not that of its folder", s.ID)
	case s.Workflow == "":
		return "it names no workflow"
	case len(s.Phases) == 0:
		return "it has no phases"
	case s.Current < 1 || s.Current > len(s.Phases)+1:
		return fmt.Sprintf("its current_phase %d is not one of its %d phases", s.Current, len(s.Phases))
	case s.Status != StatusActive && s.Status != StatusPaused && s.Status != StatusCompleted:
		return fmt.Sprintf("its status %q is not %s, %s or %s", s.Status, StatusActive, StatusPaused, StatusCompleted)
	}
	for i, p := range s.Phases {
		if p.Number != i+1 {
			return fmt.Sprintf("its phase %d is numbered %d", i+1, p.Number)
		}
	}
	return ""
}

// phase returns the state of phase n (1-based), or nil.
func (s *Session) phase(n int) *PhaseState {
	if n < 1 || n > len(s.Phases) {
		return nil
	}
	return &s.Phases[n-1]
}

// nextTask returns the first task of the current phase not yet done.
func (s *Session) nextTask() *TaskState {
	p := s.phase(s.Current)
	if p == nil {
		return nil
	}
	for i := range p.Tasks {
		if p.Tasks[i].Status != Done {
			return &p.Tasks[i]
		}
	}
	return nil
}

// PhaseLabel says where a session stands, e.g. "2/4 System Specification".
func (s *Session) PhaseLabel() string {
	if s.Status == StatusCompleted || s.Current > len(s.Phases) {
		return "complete"
	}
	return fmt.Sprintf("%d/%d %s", s.Current, len(s.Phases), s.Phases[s.Current-1].Name)
}
