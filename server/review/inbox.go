package review

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentos-dev/agentos/workflow"
)

// The inbox is what the landing view lists first: only what waits for the
// person, each with the feature's name and what is asked, so that with fifty
// sessions the two that need a decision are not rows 44 and 47.

// What waits for a person (sessionRow.Attention, inboxItem.Kind).
const (
	needsApproval  = "awaits approval"
	needsReapprove = "approval void"
	needsRules     = "rules changed"
	needsIntegrity = "changed outside agentos"
	needsGateLook  = "gate failing"
	needsDrifted   = "spec drifted"
)

// repeatedFailures is how many failed attempts in a row at one gate make it
// something a person should look at: an agent stuck in a loop.
const repeatedFailures = 3

// Session states as the person reads them (sessionRow.State).
const (
	stateAwaitsYou   = "awaits your decision"
	stateAgentActs   = "changes requested: the agent has to act"
	stateRevised     = "revised after your request: awaits your approval"
	stateApproved    = "approved: the agent goes on"
	stateActive      = "active"
	statePaused      = "paused"
	stateCompleted   = "completed"
	stateUnreadable  = "unreadable"
	stateNeedsPerson = "blocked until you act"
)

// inboxItem is one thing waiting for the person.
type inboxItem struct {
	Kind string `json:"kind"`
	// Name is the feature's name (the spec's, or the workflow's when the
	// session has no spec); Spec the spec folder's name.
	Name  string `json:"name"`
	Spec  string `json:"spec,omitempty"`
	Asked string `json:"asked"`
	// Href is where the decision is made: the session's page at its
	// decision, or the spec's page.
	Href    string    `json:"href"`
	Session string    `json:"session,omitempty"`
	Owner   string    `json:"owner,omitempty"`
	Since   time.Time `json:"since,omitzero"`
}

// featureName is what a person calls the work a session does: the feature
// it specifies, the spec it executes, else its workflow.
func featureName(s *workflow.Session) string {
	for _, k := range []string{"feature", "spec"} {
		if v := s.Inputs[k]; v != "" {
			return v
		}
	}
	if d := s.Vars["spec_dir"]; d != "" {
		return filepath.Base(d)
	}
	return s.Workflow
}

func specOf(s *workflow.Session) string {
	if d := s.Vars["spec_dir"]; d != "" {
		return filepath.Base(d)
	}
	return ""
}

// triage says what a session waits for from the person (attention, "" for
// nothing), what is asked of them, and its state in their words.
// onSpec is true when the decision is made on the spec's page (an
// execution session's spec whose approval went void), not the session's.
func (h *Handler) triage(s *workflow.Session) (attention, asked, state string, onSpec bool) {
	e := h.opts.Engine
	spec := s.Vars["spec_dir"]
	switch {
	case s.Integrity != nil:
		return needsIntegrity, "Its state was changed outside agentos (" + s.Integrity.Verdict + "): accept it as it is, or reset it to phase 1.", stateNeedsPerson, false
	case s.RulesChanged != "":
		return needsRules, "The rules it runs under changed: read the changes and confirm them, or it cannot advance.", stateNeedsPerson, false
	}
	if s.Status == workflow.StatusCompleted {
		return "", "", stateCompleted, false
	}
	if e.AwaitsApproval(s) {
		switch {
		case s.Approval != nil:
			if _, void := e.ApprovalState(s); void != nil {
				return needsReapprove, "Your approval of " + spec + " no longer holds (" + void.Error() + "): read the changes and approve again.", stateNeedsPerson, false
			}
			return "", "", stateApproved, false
		case s.Changes != nil && !h.revisedSince(spec, s.Changes.At):
			return "", "", stateAgentActs, false
		case s.Changes != nil:
			return needsApproval, "The agent revised " + spec + " after your request for changes: read what changed and approve it, or ask for more.", stateRevised, false
		}
		return needsApproval, "Approve the spec " + spec + ", or request changes.", stateAwaitsYou, false
	}
	if _, void := e.ApprovalState(s); void != nil && s.Status == workflow.StatusActive {
		return needsReapprove, "The approval this session runs on is void (" + void.Error() + "): read the spec's changes and approve it again.", stateNeedsPerson, true
	}
	if p := s.Current; p >= 1 && p <= len(s.Phases) {
		ph := s.Phases[p-1]
		if ph.LastGate != nil && !ph.LastGate.Passed && ph.Attempts >= repeatedFailures {
			return needsGateLook, fmt.Sprintf("The gate of phase %d (%s) failed %d times: look at the evidence; the agent may be stuck.", ph.Number, ph.Name, ph.Attempts), s.Status, false
		}
	}
	if s.Status == workflow.StatusPaused {
		return "", "", statePaused, false
	}
	return "", "", stateActive, false
}

// revisedSince reports whether a file of the spec folder changed after t:
// the agent answered a request for changes.
func (h *Handler) revisedSince(specDir string, t time.Time) bool {
	if specDir == "" {
		return false
	}
	dir := filepath.Join(h.opts.Project.Root, filepath.FromSlash(specDir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, d := range entries {
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().After(t) {
			return true
		}
	}
	return false
}

// inbox lists what waits for the person: each session's attention, then
// each spec whose approval no session answers for any more.
func inbox(rows []sessionRow, specs []specRow) []inboxItem {
	items := []inboxItem{}
	covered := map[string]bool{}
	for _, r := range rows {
		if r.Attention == "" {
			continue
		}
		items = append(items, inboxItem{Kind: r.Attention, Name: r.Name, Spec: r.Spec, Asked: r.Asked, Href: r.Decide, Session: r.ID, Owner: r.Owner, Since: r.UpdatedAt})
		if r.Spec != "" {
			covered[r.Spec] = true
		}
	}
	for _, sp := range specs {
		if sp.State == specChanged && !covered[sp.Name] {
			items = append(items, inboxItem{Kind: needsReapprove, Name: sp.Name, Spec: sp.Name, Href: "#/spec/" + sp.Name + "/decide",
				Asked: "The spec changed since " + sp.By + " approved it: its approval is void; read the changes and approve it again."})
		}
		if sp.Living == workflow.SpecDrifted {
			items = append(items, inboxItem{Kind: needsDrifted, Name: sp.Name, Spec: sp.Name, Href: "#/spec/" + sp.Name + "/decide",
				Asked: "A test that proves a criterion of this finished spec fails now, was deleted or was changed: read which, then have it converged, or accept the change."})
		}
	}
	return items
}
