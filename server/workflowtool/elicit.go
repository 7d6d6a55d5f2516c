package workflowtool

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/workflow"
)

// elicitTimeout bounds how long a person has to answer in the client's UI.
const elicitTimeout = 10 * time.Minute

// askApproval asks the person at the client, through MCP elicitation, to
// approve the session's spec, showing what the approval binds. It does
// nothing when the phase does not need an approval, one is recorded already,
// workflow.approval is "terminal", or the client cannot ask its user — the
// terminal (`agentos workflow approve`) remains the way then. The answer comes
// from the client's UI, not from the model, which never sees the request; it
// is recorded as an elicitation by that client, not as the terminal.
func (t *tool) askApproval(ctx context.Context, s *workflow.Session) {
	e := t.engine
	if s.Approval != nil || !needsApproval(e, s) || !e.ElicitationAllowed() || !canElicit(ctx) {
		return
	}
	server := mcpserver.ServerFromContext(ctx)
	if server == nil {
		return
	}
	if gates := e.RunningGates(); len(gates) > 0 {
		// Refused meanwhile (code a gate runs could answer the prompt):
		// asking would only waste the person's answer.
		t.log.Debug("no approval asked while a gate runs", "session", s.ID, "gate", gates[0])
		return
	}
	dir, shown, err := e.PendingApproval(s.ID)
	if err != nil {
		t.log.Debug("nothing to ask approval for", "session", s.ID, "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, elicitTimeout)
	defer cancel()
	req := mcp.ElicitationRequest{Params: mcp.ElicitationParams{
		Message: fmt.Sprintf("Approve the specification in %s (workflow session %s)? Read its files first. "+
			"If you want changes, say which.\n\n%s", dir, s.ID, e.Describe(dir, shown, s)),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "title": "Approve the spec"},
				"changes": map[string]any{"type": "string", "title": "Changes you want (when not approving)"},
			},
			"required": []string{"approve"},
		},
	}}
	res, err := server.RequestElicitation(ctx, req)
	if err != nil || res.Action != mcp.ElicitationResponseActionAccept {
		if err != nil {
			t.log.Debug("approval by elicitation unavailable", "session", s.ID, "err", err)
		}
		return
	}
	content, _ := res.Content.(map[string]any)
	actor := actorFrom(ctx)
	who := workflow.Approver{By: "the user of " + actor.Client, Via: workflow.ViaElicitation(actor.Client), Actor: actor}
	if approve, _ := content["approve"].(bool); approve {
		if _, err := e.Approve(s.ID, who, "approved when asked by the server", shown); err != nil {
			t.log.Warn("record approval", "session", s.ID, "err", err)
		}
		return
	}
	reason, _ := content["changes"].(string)
	if reason == "" {
		reason = "the user did not approve and named no change; ask them what to change"
	}
	if _, err := e.Reject(s.ID, who, reason); err != nil {
		t.log.Warn("record change request", "session", s.ID, "err", err)
	}
}

// canElicit reports whether the calling client declared it can ask its user.
func canElicit(ctx context.Context) bool {
	s, ok := mcpserver.ClientSessionFromContext(ctx).(mcpserver.SessionWithClientInfo)
	return ok && s.GetClientCapabilities().Elicitation != nil
}
