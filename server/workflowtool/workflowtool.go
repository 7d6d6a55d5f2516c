// Package workflowtool owns the svc_workflow MCP tool and the workflow
// session resources (agentos://workflows/<id>): the agent-facing surface of
// the workflow engine. Nothing here can approve a gate that needs a person.
package workflowtool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/server/toolkit"
	"github.com/agentos-dev/agentos/workflow"
)

// MaxEvidenceBytes caps the evidence of one call, as JSON.
const MaxEvidenceBytes = 1 << 20

var actions = []string{
	"list_workflows", "start", "get_state", "get_phase", "get_task", "complete_task", "complete_phase",
	"list_sessions", "get_session", "delete_session", "pause", "resume", "retry_phase", "rollback", "transfer_owner",
}

type input struct {
	Action       string            `json:"action"`
	SessionID    string            `json:"session_id"`
	WorkflowType string            `json:"workflow_type"`
	Options      map[string]string `json:"options"`
	Phase        *int              `json:"phase"`
	TaskNumber   string            `json:"task_number"`
	Evidence     map[string]any    `json:"evidence"`
	Note         string            `json:"note"`
	NewOwner     string            `json:"new_owner"`
	Force        bool              `json:"force"`
}

// New returns the svc_workflow tool over engine.
func New(engine *workflow.Engine, log *slog.Logger) toolkit.Tool {
	def := mcp.NewTool("svc_workflow",
		mcp.WithDescription("Phase-gated workflows: spec_creation_v1 (write and get a spec approved), spec_execution_v1 (implement an approved spec task by task), quick_change_v1 (a small change: one short document, one approval), bugfix_v1 (reproduce with a failing test, then fix), agentos_upgrade_v1. "+
			"The server checks every gate itself — it reads the files, runs the tests, parses the coverage — and only a person can approve (in a terminal). "+
			"Finished specs: list_specs, check_specs (runs their traced tests on the code now: holding, drifted or touched), converge_spec (a session that repairs a drifted one), draft_specs (drafts specs for existing modules from their code and tests, for a person to approve). "+
			"Start with list_workflows or list_sessions; every answer carries next_action."),
		mcp.WithString("action", mcp.Required(), mcp.Enum(actions...), mcp.Description("What to do")),
		mcp.WithString("session_id", mcp.Description("The session, for every action but list_workflows, start and list_sessions")),
		mcp.WithString("workflow_type", mcp.Description("start: the workflow to run, e.g. spec_creation_v1")),
		mcp.WithObject("options", mcp.Description("start: the workflow's inputs, e.g. {\"feature\": \"user-login\", \"touches\": \"auth/login.go,Login\"} or {\"spec\": \"2026-11-22-user-login\"}. "+
			"check_specs: {\"spec\": NAME} (default: every finished spec). converge_spec: {\"spec\": NAME, \"keep\": \"AC-…,AC-…\"} (touched criteria to repair too). draft_specs: {\"module\": \"pkg/a,pkg/b\" (default: every top-level folder of code), \"dry_run\": \"true\"}"),
			mcp.AdditionalProperties(map[string]any{"type": "string"})),
		mcp.WithInteger("phase", mcp.Description("get_phase: the phase number (0 = overview; default: the current phase). rollback: the earlier phase to return to")),
		mcp.WithString("task_number", mcp.Description("get_task, complete_task: the task id, e.g. 1.2")),
		mcp.WithObject("evidence", mcp.Description("complete_phase: what the gate asks of you that the server cannot check itself (at most 1 MiB)")),
		mcp.WithString("note", mcp.Description("complete_task: a one-line summary of what was done")),
		mcp.WithString("new_owner", mcp.Description("transfer_owner: the client name of the agent taking the session over")),
		mcp.WithBoolean("force", mcp.Description("Change a session another agent owns (recorded in the audit log)")),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Workflows", false, true, false, false),
	)
	t := &tool{engine: engine, log: log}
	return toolkit.Tool{Def: def, Handler: toolkit.Handler(t.handle)}
}

type tool struct {
	engine *workflow.Engine
	log    *slog.Logger
}

func (t *tool) handle(ctx context.Context, _ mcp.CallToolRequest, in input) (Output, error) {
	if err := validate(in); err != nil {
		return Output{}, err
	}
	out, err := t.dispatch(ctx, in, actorFrom(ctx))
	if err != nil {
		return Output{}, t.toolError(err)
	}
	if in.Action == "start" {
		t.namesReached(ctx, in, &out)
	}
	return out, nil
}

func validate(in input) error {
	found := false
	for _, a := range actions {
		found = found || a == in.Action
	}
	if !found {
		return toolkit.Validation("action", "unknown action %q; use one of: %s", in.Action, strings.Join(actions, ", "))
	}
	needsSession := in.Action != "list_workflows" && in.Action != "start" && in.Action != "list_sessions" && !livingAction(in.Action)
	if needsSession && in.SessionID == "" {
		return toolkit.Validation("session_id", "%s needs session_id", in.Action)
	}
	if in.SessionID != "" && !workflow.ValidID(in.SessionID) {
		return toolkit.Validation("session_id", "session_id %q is not a session id: letters, digits, '-' and '_' only, at most 64", in.SessionID)
	}
	if in.Evidence != nil {
		data, _ := json.Marshal(in.Evidence)
		if len(data) > MaxEvidenceBytes {
			return toolkit.Validation("evidence", "evidence is %d bytes; the limit is 1 MiB — summarise, and point at files instead", len(data))
		}
	}
	return nil
}

func (t *tool) dispatch(ctx context.Context, in input, actor workflow.Actor) (Output, error) {
	e := t.engine
	if out, ok, err := t.living(ctx, in, actor); ok {
		return out, err
	}
	switch in.Action {
	case "list_workflows":
		return listWorkflows(e), nil
	case "list_sessions":
		return listSessions(e)
	case "start":
		if in.WorkflowType == "" {
			return Output{}, toolkit.Validation("workflow_type", "start needs workflow_type; list_workflows shows them")
		}
		s, err := e.Start(ctx, in.WorkflowType, in.Options, actor)
		if err != nil {
			return Output{}, err
		}
		out := reading(e, s)
		out.Session, out.Phase = sessionView(s, false), phaseView(e, s, 0)
		out.NextAction = "read the overview, then get_phase for phase 1's instructions and tasks"
		return out, nil
	case "get_state", "get_session":
		s, err := e.Get(in.SessionID)
		if err != nil {
			return Output{}, err
		}
		out := reading(e, s) // the session view says where it stands
		out.Session = sessionView(s, true)
		out.ChangeRequest = nil // the session carries it
		if in.Action == "get_session" {
			out.Session.Phases = s.Phases
			out.Audit, _ = e.Store().ReadAudit(s.ID)
		}
		return out, nil
	case "get_phase":
		s, err := e.Get(in.SessionID)
		if err != nil {
			return Output{}, err
		}
		n := s.Current
		if in.Phase != nil {
			n = *in.Phase
		}
		if n < 0 || n > len(s.Phases) {
			return Output{}, toolkit.Validation("phase", "phase must be 0 (overview) to %d", len(s.Phases))
		}
		out := reading(e, s)
		out.Phase = phaseView(e, s, n)
		return out, nil
	case "get_task":
		s, err := e.Get(in.SessionID)
		if err != nil {
			return Output{}, err
		}
		task, err := taskView(e, s, in.TaskNumber)
		if err != nil {
			return Output{}, err
		}
		out := reading(e, s)
		out.Task = task
		if next := nextTaskOf(s); next != nil && next.ID == task.ID && s.Status == workflow.StatusActive {
			how := "as its instructions say"
			if task.Instructions == "" {
				how = fmt.Sprintf("as phase %d's instructions say", task.Phase)
			}
			out.NextAction = fmt.Sprintf("do it %s, then complete_task task_number %s", how, task.ID)
		}
		return out, nil
	case "complete_task":
		if in.TaskNumber == "" {
			return Output{}, toolkit.Validation("task_number", "complete_task needs task_number")
		}
		s, err := e.CompleteTask(in.SessionID, in.TaskNumber, in.Note, actor, in.Force)
		if err != nil {
			return Output{}, err
		}
		// A task changes neither the phase nor the status: the task is news enough.
		out := reading(e, s)
		out.Changed = "task " + in.TaskNumber + " done"
		return out, nil
	case "complete_phase":
		if s, err := e.Get(in.SessionID); err == nil && (s.Owner.Same(actor) || in.Force) {
			t.askApproval(ctx, s)
		}
		s, report, err := e.CompletePhase(ctx, in.SessionID, in.Evidence, actor, in.Force)
		if err != nil {
			return Output{}, err
		}
		return gateOutput(e, s, report), nil
	case "retry_phase":
		s, report, err := e.RetryPhase(ctx, in.SessionID, actor, in.Force)
		if err != nil {
			return Output{}, err
		}
		return gateOutput(e, s, report), nil
	case "pause":
		return mutation(e, "paused")(e.Pause(in.SessionID, actor, in.Force))
	case "resume":
		return mutation(e, "resumed")(e.Resume(in.SessionID, actor, in.Force))
	case "rollback":
		if in.Phase == nil {
			return Output{}, toolkit.Validation("phase", "rollback needs phase: the earlier phase to return to")
		}
		out, err := mutation(e, fmt.Sprintf("rolled back to phase %d; its tasks and the later phases' are pending again", *in.Phase))(e.Rollback(in.SessionID, *in.Phase, actor, in.Force))
		if err == nil && out.Status == workflow.StatusActive {
			out.NextAction = fmt.Sprintf("get_phase for phase %d's instructions and tasks", out.CurrentPhase)
		}
		return out, err
	case "transfer_owner":
		return mutation(e, "the session now belongs to "+in.NewOwner)(e.TransferOwner(in.SessionID, workflow.Actor{Client: in.NewOwner}, actor, in.Force))
	case "delete_session":
		if err := e.Delete(in.SessionID, actor, in.Force); err != nil {
			return Output{}, err
		}
		return Output{Deleted: in.SessionID, NextAction: "list_sessions or start a new session"}, nil
	}
	return Output{}, toolkit.Validation("action", "unknown action %q", in.Action)
}

// mutation answers a change to a session with where it now stands.
func mutation(e *workflow.Engine, changed string) func(*workflow.Session, error) (Output, error) {
	return func(s *workflow.Session, err error) (Output, error) {
		if err != nil {
			return Output{}, err
		}
		return brief(e, s, changed), nil
	}
}

// toolError maps engine errors to the error envelope.
func (t *tool) toolError(err error) error {
	var te *toolkit.Error
	if errors.As(err, &te) {
		return te
	}
	var we *workflow.Error
	if errors.As(err, &we) {
		switch we.Kind {
		case workflow.KindInvalid:
			return toolkit.Validation(we.Field, "%s", we.Msg)
		case workflow.KindNotFound:
			return toolkit.Errorf(toolkit.CodeNotFound, "%s", we.Msg)
		case workflow.KindForbidden:
			return toolkit.Errorf(toolkit.CodeForbidden, "%s", we.Msg)
		default:
			return toolkit.Errorf(toolkit.CodeBusinessLogic, "%s", we.Msg)
		}
	}
	var corrupt *workflow.CorruptError
	if errors.As(err, &corrupt) {
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "%s", corrupt.Error()).WithDetails(map[string]string{"session_id": corrupt.ID, "file": corrupt.File})
	}
	if workflow.KindOf(err) == workflow.KindNotFound {
		return toolkit.Errorf(toolkit.CodeNotFound, "%s", err.Error())
	}
	t.log.Error("svc_workflow", "err", err)
	return err
}

// actorFrom identifies the calling agent: its client name and MCP session.
func actorFrom(ctx context.Context) workflow.Actor {
	a := workflow.Actor{Client: "unknown"}
	if pi := mcpserver.RequestProtocolInfoFromContext(ctx); pi != nil && pi.ClientInfo != nil && pi.ClientInfo.Name != "" {
		a.Client = pi.ClientInfo.Name
	}
	if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
		if withInfo, ok := s.(mcpserver.SessionWithClientInfo); ok && withInfo.GetClientInfo().Name != "" {
			a.Client = withInfo.GetClientInfo().Name
		}
		if pi := mcpserver.RequestProtocolInfoFromContext(ctx); pi == nil || !pi.Modern {
			a.Session = s.SessionID()
		}
	}
	return a
}
