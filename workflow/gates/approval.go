package gates

import "time"

// ApprovalDetails is the Details of an approval result.
type ApprovalDetails struct {
	Approved bool      `json:"approved"`
	By       string    `json:"by,omitempty"`
	At       time.Time `json:"at,omitzero"`
	Note     string    `json:"note,omitempty"`
}

// runApproval passes only on an approval recorded by the CLI (env.Approved).
// Nothing an agent supplies as evidence counts.
func (c Check) runApproval(env Env) Result {
	a := env.Approved
	if a == nil {
		r := failf(c.Type, "Ask a person to review this phase and record their approval with the agentos command line; an agent cannot approve it.",
			"This phase has not been approved by a person.")
		r.Details = ApprovalDetails{}
		return r
	}
	by := a.By
	if by == "" {
		by = "an unnamed person"
	}
	d := ApprovalDetails{Approved: true, By: a.By, At: a.At, Note: a.Note}
	var r Result
	if a.At.IsZero() {
		r = pass(c.Type, "Approved by %s.", by)
	} else {
		r = pass(c.Type, "Approved by %s on %s.", by, a.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	r.Details = d
	return r
}
