package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/user"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/linediff"
	"github.com/agentos-dev/agentos/server/review"
	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
)

func newWorkflowCmd(s *streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "workflow",
		Short: "List, inspect and approve workflow sessions",
		Long: `Workflow sessions are started and advanced by agents through the svc_workflow tool.
From a terminal a person can list and inspect them, and do what no agent can:
approve a spec, or request changes.`,
	}
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	engine := func() (*workflow.Engine, error) {
		p, cfg, _, err := openProject(dir)
		if err != nil {
			return nil, err
		}
		return workflow.ForProject(p, cfg, nil)
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the workflow sessions of this project",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			sessions, corrupt, err := e.Store().List()
			if err != nil {
				return err
			}
			// The JSON keeps its shape (the readable sessions); what cannot
			// be read is said on stderr either way.
			for _, c := range corrupt {
				fmt.Fprintln(s.Err, c.Error()+".")
			}
			if asJSON {
				return printJSON(s, sessions)
			}
			if len(sessions)+len(corrupt) == 0 {
				fmt.Fprintln(s.Out, "No workflow sessions yet. Agents start them with svc_workflow.")
				return nil
			}
			w := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "SESSION\tWORKFLOW\tSTATUS\tPHASE\tOWNER")
			for _, sess := range sessions {
				status := sess.Status
				if sess.Integrity != nil {
					status += " (" + sess.Integrity.Verdict + ")"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", sess.ID, sess.Workflow, status, sess.PhaseLabel(), sess.Owner.Client)
			}
			for _, c := range corrupt {
				fmt.Fprintf(w, "%s\t?\t%s\t?\t?\n", c.ID, workflow.StatusUnreadable)
			}
			return w.Flush()
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	show := &cobra.Command{
		Use:   "show SESSION",
		Short: "Show a session: phases, tasks, the last gate, and its audit log",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			sess, err := e.Get(args[0])
			if err != nil {
				return cliError(err)
			}
			audit, _ := e.Store().ReadAudit(sess.ID)
			approval, void := e.ApprovalState(sess)
			if asJSON {
				out := map[string]any{"session": sess, "audit": audit, "approval": approval, "integrity": sess.Integrity}
				if void != nil {
					out["approval_void"] = void.Error()
				}
				return printJSON(s, out)
			}
			printSession(s, sess, audit)
			printApproval(s, e, sess, approval, void)
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	var by, note, spec, reason string
	var yes bool
	approve := &cobra.Command{
		Use:   "approve [SESSION]",
		Short: "Approve a spec at its approval gate (only a person can)",
		Long: `Approve records your approval of the session's spec, so the agent can complete the
Approval & Finalization phase. With --spec NAME it approves a spec folder under
.agentos/specs/ that was written without spec_creation_v1, or approves a spec
again after it changed.

It first shows what the approval binds: every file of the spec with its SHA-256,
the workflows that will judge the work, the test command and the coverage
threshold. Changing any of them later voids the approval. In a terminal you
confirm by typing "approve"; without a terminal it refuses unless --yes is
given, and the approval is then recorded as non-interactive.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			if spec == "" && len(args) != 1 {
				return withCode(exitUsage, errors.New("name the session to approve, or --spec NAME"))
			}
			projectDir := dir
			var dir string
			var shown *workflow.Binding
			var waiting *workflow.Session // the session approved, if it is one
			if spec != "" {
				if dir, err = workflow.SpecDir(spec); err == nil {
					if shown, err = e.BindingFor(dir); err == nil {
						err = e.Executable(dir) // before the person reads and confirms
					}
					if err == nil {
						err = e.CheckDraft(spec)
					}
				}
			} else if dir, shown, err = e.PendingApproval(args[0]); err == nil {
				waiting, err = e.Store().Get(args[0])
			}
			if err != nil {
				return cliError(err)
			}
			fmt.Fprintf(s.Out, "Approving the spec in %s.\n%s", dir, e.Describe(dir, shown, waiting))
			if spec != "" && e.IsDrafted(spec) {
				fmt.Fprintln(s.Out, "It was drafted from code (agentos specs init): approving it makes it a finished spec, whose traced tests agentos specs check runs.")
				// Its evidence names the symbols each test reaches, from the
				// saved code index.
				if p, cfg, _, err := openProject(projectDir); err == nil {
					defer useLocalGraph(cmd.Context(), s, e, p, cfg)()
				}
			}
			via := workflow.ViaTerminal
			switch {
			case yes:
				via = workflow.ViaNonInteractive
			case !isTerminal(s.InFile):
				return withCode(exitUsage, errors.New("nothing was approved: there is no terminal to confirm in. A person approves in a terminal; --yes approves without asking and is recorded as non-interactive"))
			default:
				if ok, err := confirmTyped(s, "approve", "approved"); !ok {
					return err
				}
			}
			who := workflow.Approver{By: approver(by), Via: via, Actor: workflow.CLIActor}
			if spec != "" {
				t, err := e.ApproveSpec(spec, who, note, shown)
				if err != nil {
					return cliError(err)
				}
				keepDecision(s, projectDir, e, dir, true, who, note, "", shown)
				fmt.Fprintf(s.Out, "Approved spec %s (%s). Coverage threshold for its execution: %s.\n", spec, via, t)
				return nil
			}
			sess, err := e.Approve(args[0], who, note, shown)
			if err != nil {
				return cliError(err)
			}
			keepDecision(s, projectDir, e, dir, true, who, note, sess.ID, shown)
			fmt.Fprintf(s.Out, "Approved %s (%s, %s). The agent can now complete phase %d.\n", sess.ID, sess.Workflow, via, sess.Current)
			if t := sess.Vars["coverage_threshold"]; t != "" {
				fmt.Fprintf(s.Out, "Coverage threshold for the spec's execution: %s%% (%s).\n", t, sess.Vars["coverage_threshold_source"])
			}
			return nil
		},
	}
	approve.Flags().StringVar(&by, "by", "", "who approves (default: your user name)")
	approve.Flags().StringVar(&note, "note", "", "a note kept with the approval")
	approve.Flags().StringVar(&spec, "spec", "", "approve this spec folder instead of a session")
	approve.Flags().BoolVarP(&yes, "yes", "y", false, "approve without a typed confirmation (recorded as non-interactive)")
	reject := &cobra.Command{
		Use:   "reject SESSION --reason TEXT",
		Short: "Request changes at an approval gate",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			who := workflow.Approver{By: approver(by), Via: workflow.ViaTerminal, Actor: workflow.CLIActor}
			sess, err := e.Reject(args[0], who, reason)
			if err != nil {
				return cliError(err)
			}
			if specDir := sess.Vars["spec_dir"]; specDir != "" {
				keepDecision(s, dir, e, specDir, false, who, reason, sess.ID, nil)
			}
			fmt.Fprintf(s.Out, "Requested changes on %s. The agent sees your reason in its next answer.\n", sess.ID)
			return nil
		},
	}
	reject.Flags().StringVar(&reason, "reason", "", "what should change (required)")
	reject.Flags().StringVar(&by, "by", "", "who asks (default: your user name)")
	reset := &cobra.Command{
		Use:   "reset SESSION",
		Short: "Start a session over from phase 1 (its files are kept), or remove one that cannot be read",
		Long: `Reset starts a session over from phase 1; the files it made are kept.
A session whose state.json cannot be read cannot be started over: reset
removes it (its state and audit log) after asking, or with --yes.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			sess, err := e.Reset(args[0], workflow.CLIActor)
			var corrupt *workflow.CorruptError
			if errors.As(err, &corrupt) {
				return removeUnreadable(s, e, corrupt, yes)
			}
			if err != nil {
				return cliError(err)
			}
			fmt.Fprintf(s.Out, "Reset %s to phase 1.\n", sess.ID)
			return nil
		},
	}
	reset.Flags().BoolVarP(&yes, "yes", "y", false, "remove a session that cannot be read without asking")
	rollback := &cobra.Command{
		Use:   "rollback SESSION PHASE",
		Short: "Return a session to an earlier phase (also an approved or completed one)",
		Long: `Rollback returns a session to an earlier phase: that phase and every later one
start over; the files are kept. Agents may roll back their own sessions, but
not an approved or completed one: that takes a person, here. Rolling back an
approved spec withdraws its approval.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			phase, err := strconv.Atoi(args[1])
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("PHASE must be a phase number, not %q", args[1]))
			}
			e, err := engine()
			if err != nil {
				return err
			}
			sess, err := e.Rollback(args[0], phase, workflow.CLIActor, true)
			if err != nil {
				return cliError(err)
			}
			fmt.Fprintf(s.Out, "Rolled %s back to phase %d (%s).\n", sess.ID, sess.Current, sess.PhaseLabel())
			return nil
		},
	}
	deleteCmd := &cobra.Command{
		Use:   "delete SESSION",
		Short: "Delete a session and its audit log (also an approved or completed one)",
		Long: `Delete removes a session's state and audit log after asking, or with --yes; the
files it made and an approval it recorded stay. Agents may delete their own
sessions, but not an approved or completed one: that takes a person, here.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			if _, err := e.Get(args[0]); err != nil && workflow.KindOf(err) == workflow.KindNotFound {
				return cliError(err)
			}
			if !yes {
				if ok, err := confirm(s, "Delete session "+args[0]+" and its audit log?", "deleted"); !ok {
					return err
				}
			}
			if err := e.Delete(args[0], workflow.CLIActor, true); err != nil {
				return cliError(err)
			}
			fmt.Fprintf(s.Out, "Deleted session %s.\n", args[0])
			return nil
		},
	}
	deleteCmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	accept := &cobra.Command{
		Use:   "accept SESSION",
		Short: "Accept a session changed outside agentos or written on another machine",
		Long: `agentos signs each session's state.json and audit log with a key kept in your
config folder. A session that no longer matches its signature (edited by hand),
that another machine signed (a teammate's, through git), or that predates
signing is read-only. Accept shows it, asks, and signs it on this machine as it
now is, so it can advance again. To discard such a session instead, use reset.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			sess, err := e.Get(args[0])
			if err != nil {
				return cliError(err)
			}
			audit, _ := e.Store().ReadAudit(sess.ID)
			printSession(s, sess, audit)
			if sess.Integrity == nil {
				fmt.Fprintf(s.Out, "\nSession %s is as agentos on this machine signed it; there is nothing to accept.\n", sess.ID)
				return nil
			}
			if !yes {
				if ok, err := confirm(s, "\nAccept session "+sess.ID+" as it is shown above and sign it on this machine?", "accepted"); !ok {
					return err
				}
			}
			if _, err := e.Accept(sess.ID, workflow.CLIActor); err != nil {
				return cliError(err)
			}
			fmt.Fprintf(s.Out, "Accepted session %s; it can advance again.\n", sess.ID)
			return nil
		},
	}
	accept.Flags().BoolVarP(&yes, "yes", "y", false, "accept without asking")
	confirmRules := &cobra.Command{
		Use:   "confirm-rules SESSION",
		Short: "Let a session go on under workflow rules a person changed",
		Long: `A session records the rules it is judged by: its workflow.yaml and the workflow.*
settings of .agentos/config/mcp.yaml. When they change under it, it stops
advancing until a person confirms them. confirm-rules shows what changed and,
in a terminal, asks you to type "confirm"; the session then goes on under the
rules as they are now, and the audit log records it. Without a terminal it
refuses unless --yes is given, and the confirmation is recorded as
non-interactive. To go back to the old rules instead, restore the files.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := engine()
			if err != nil {
				return err
			}
			sess, changes, shown, err := e.PendingRules(args[0])
			if err != nil {
				return cliError(err)
			}
			if len(changes) == 0 {
				fmt.Fprintf(s.Out, "The rules of session %s have not changed; there is nothing to confirm.\n", sess.ID)
				return nil
			}
			fmt.Fprintf(s.Out, "The rules of session %s (%s, phase %s) changed since it recorded them:\n", sess.ID, sess.Workflow, sess.PhaseLabel())
			for _, c := range changes {
				fmt.Fprintf(s.Out, "  - %s\n", c)
			}
			printHarnessDiffs(s, e, sess.Rules, shown)
			fmt.Fprintln(s.Out, "Once confirmed, the session is judged by the rules as they are now (git diff .agentos/ shows a definition's edits).")
			via := workflow.ViaTerminal
			switch {
			case yes:
				via = workflow.ViaNonInteractive
			case !isTerminal(s.InFile):
				return withCode(exitUsage, errors.New("nothing was confirmed: there is no terminal to confirm in. A person confirms in a terminal; --yes confirms without asking and is recorded as non-interactive"))
			default:
				if ok, err := confirmTyped(s, "confirm", "confirmed"); !ok {
					return err
				}
			}
			if _, err := e.ConfirmRules(sess.ID, workflow.Approver{By: approver(""), Via: via, Actor: workflow.CLIActor}, shown); err != nil {
				return cliError(err)
			}
			fmt.Fprintf(s.Out, "Confirmed: session %s goes on under the rules as they are now (%s).\n", sess.ID, via)
			return nil
		},
	}
	confirmRules.Flags().BoolVarP(&yes, "yes", "y", false, "confirm without a typed confirmation (recorded as non-interactive)")
	cmd.AddCommand(list, show, approve, reject, reset, rollback, deleteCmd, accept, confirmRules)
	return cmd
}

// maxDiffCells bounds the work of one diff (lines before × lines after,
// of what changed between the lines both begin and end with).
const maxDiffCells = 4_000_000

// printHarnessDiffs shows, for each part of the test harness that changed
// between was and now, what changed line by line: what decides which tests
// run is read before it is confirmed, not only named.
func printHarnessDiffs(s *streams, e *workflow.Engine, was, now *workflow.Binding) {
	for _, c := range workflow.HarnessChanges(was, now) {
		var old, cur []byte
		oldKnown := c.Was == ""
		if c.Was != "" {
			old, oldKnown, _ = e.ApprovedFile(c.Was)
		}
		if c.Now != "" {
			cur, _, _ = e.HarnessPart(c.Part)
		}
		fmt.Fprintf(s.Out, "\nTest harness %s:\n", c.Part)
		a, b := diffSplit(old), diffSplit(cur)
		if !oldKnown {
			fmt.Fprintln(s.Out, "  (the recorded version was not kept, so only its hash tells it changed; now:)")
			for _, l := range b {
				fmt.Fprintf(s.Out, "  + %s\n", l)
			}
			continue
		}
		diff, ok := linediff.Diff(a, b, maxDiffCells)
		if !ok {
			fmt.Fprintf(s.Out, "  (too large to diff here: %d and %d lines; read it in your editor)\n", len(a), len(b))
			continue
		}
		lines := make([]string, len(diff)) // each with its mark: "  " unchanged, "- " or "+ "
		for k, l := range diff {
			lines[k] = map[byte]string{'=': "  ", '-': "- ", '+': "+ "}[l.Op] + l.Text
		}
		// Unchanged lines are shown within three of a change.
		skipped := 0
		for k, l := range lines {
			near := false
			for d := max(0, k-3); d <= min(len(lines)-1, k+3); d++ {
				near = near || !strings.HasPrefix(lines[d], "  ")
			}
			if !near {
				skipped++
				continue
			}
			if skipped > 0 {
				fmt.Fprintf(s.Out, "  … %d unchanged\n", skipped)
				skipped = 0
			}
			fmt.Fprintf(s.Out, "  %s\n", l)
		}
		if skipped > 0 {
			fmt.Fprintf(s.Out, "  … %d unchanged\n", skipped)
		}
	}
}

func diffSplit(data []byte) []string {
	text := strings.TrimSuffix(string(data), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// removeUnreadable removes a session whose state cannot be read, once the
// person confirms (or passed --yes).
func removeUnreadable(s *streams, e *workflow.Engine, c *workflow.CorruptError, yes bool) error {
	fmt.Fprintf(s.Out, "Session %s cannot be reset: %s %s.\nIt can only be removed, with its audit log.\n", c.ID, c.File, c.Reason)
	if !yes {
		if ok, err := confirm(s, "Remove session "+c.ID+"?", "removed"); !ok {
			return err
		}
	}
	if err := e.Delete(c.ID, workflow.CLIActor, true); err != nil {
		return cliError(err)
	}
	fmt.Fprintf(s.Out, "Removed session %s.\n", c.ID)
	return nil
}

// agentWords turns the svc_workflow actions the engine's messages name
// (they are written for agents) into the commands a person runs here.
var agentWords = strings.NewReplacer("list_sessions shows", "`agentos workflow list` shows")

// cliError gives engine refusals the CLI's exit codes, in the CLI's words.
func cliError(err error) error {
	kind := workflow.KindOf(err)
	if msg := agentWords.Replace(err.Error()); msg != err.Error() {
		err = errors.New(msg)
	}
	switch kind {
	case workflow.KindInvalid:
		return withCode(exitUsage, err)
	case workflow.KindNotFound, workflow.KindRefused, workflow.KindForbidden:
		return withCode(exitFailure, err)
	}
	return err
}

func approver(by string) string {
	if by != "" {
		return by
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

func printSession(s *streams, sess *workflow.Session, audit []workflow.AuditEntry) {
	fmt.Fprintf(s.Out, "%s  %s %s  %s  owner %s\n", sess.ID, sess.Workflow, sess.Version, sess.Status, sess.Owner)
	if sess.Integrity != nil {
		fmt.Fprintf(s.Out, "%s: %s\n", sess.Integrity.Verdict, sess.Integrity.Advice(sess.ID))
	}
	if dir := sess.Vars["spec_dir"]; dir != "" {
		fmt.Fprintf(s.Out, "spec: %s\n", dir)
	}
	for _, p := range sess.Phases {
		mark := map[string]string{workflow.Done: "✓", workflow.Active: "▶", workflow.Pending: " "}[p.Status]
		fmt.Fprintf(s.Out, "%s %d. %s\n", mark, p.Number, p.Name)
		for _, t := range p.Tasks {
			tm := " "
			if t.Status == workflow.Done {
				tm = "x"
			}
			fmt.Fprintf(s.Out, "     [%s] %s %s\n", tm, printable(t.ID), printable(t.Title))
		}
		if p.LastGate == nil {
			continue
		}
		failing := !p.LastGate.Passed && p.Status != workflow.Done
		evidence := gateEvidence(p.LastGate)
		if len(evidence) > 0 && !failing {
			verdict := "passed"
			if !p.LastGate.Passed {
				verdict = "failed"
			}
			fmt.Fprintf(s.Out, "     last gate %s at %s\n", verdict, p.LastGate.At.Local().Format("2006-01-02 15:04"))
		}
		if failing {
			for _, c := range p.LastGate.Checks {
				if !c.Passed {
					fmt.Fprintf(s.Out, "     ✗ %s: %s\n", c.Type, printable(c.Message))
				}
			}
		}
		for _, l := range evidence {
			fmt.Fprintf(s.Out, "       %s\n", l)
		}
	}
	if sess.Changes != nil {
		fmt.Fprintf(s.Out, "changes requested by %s: %s\n", sess.Changes.By, printable(sess.Changes.Reason))
		for _, c := range sess.Changes.Comments {
			where := fmt.Sprintf("%s:%d", c.File, c.Line)
			if c.EndLine > c.Line {
				where += fmt.Sprintf("-%d", c.EndLine)
			}
			fmt.Fprintf(s.Out, "  %s: %s\n", printable(where), printable(c.Text))
		}
	}
	if len(audit) > 0 {
		fmt.Fprintln(s.Out, "\naudit:")
		for _, a := range audit {
			line := fmt.Sprintf("  %s  %-15s %s", a.At.Format("2006-01-02 15:04:05"), a.Action, a.Actor)
			if a.Result != "" {
				line += "  " + a.Result
			}
			if a.Detail != "" {
				line += "  " + a.Detail
			}
			fmt.Fprintln(s.Out, strings.TrimRight(printable(line), " "))
		}
	}
}

// gateEvidence is what a gate's report proves, one line each, made safe
// for the terminal: per criterion, its test before the change and now;
// the functions emptied for the run before; and the tests that passed
// when the session started and no longer hold, or how many still do.
func gateEvidence(g *workflow.GateReport) []string {
	var lines []string
	for _, c := range g.Checks {
		switch c.Type {
		case "acceptance_criteria":
			var d gates.CriteriaDetails
			if !redecode(c.Details, &d) {
				continue
			}
			for _, p := range d.Proofs {
				before := "before: " + p.Before
				switch p.Before {
				case "failed":
					before = "failed before"
					if p.Failure != "" {
						before += ": " + p.Failure
					}
				case "passed":
					before = "passed before too"
				case "skipped":
					before = "skipped before"
				}
				after := "passes now"
				if p.After != gates.TestPassed {
					after = "now: " + p.After
				}
				mark := "proven"
				if !p.Proven {
					mark = "NOT PROVEN"
				}
				lines = append(lines, printable(fmt.Sprintf("%s  %s  %s  → %s  %s", p.ID, p.Test, before, after, mark)))
			}
			if len(d.Emptied) > 0 {
				lines = append(lines, printable("emptied for the run before the change: "+strings.Join(d.Emptied, ", ")))
			}
		case "command":
			var d gates.CommandDetails
			if !redecode(c.Details, &d) {
				continue
			}
			switch {
			case len(d.Regressions) > 0:
				head := "earlier tests that no longer hold"
				if d.Earlier > 0 {
					head += fmt.Sprintf(" (%d of %d)", len(d.Regressions), d.Earlier)
				}
				lines = append(lines, head+":")
				for _, r := range d.Regressions {
					line := "  " + r.Test + "  " + r.Now
					if r.Failure != "" {
						line += "  " + r.Failure
					}
					lines = append(lines, printable(line))
				}
			case d.Earlier == 1:
				lines = append(lines, "1 earlier test still holds")
			case d.Earlier > 1:
				lines = append(lines, fmt.Sprintf("%d earlier tests still hold", d.Earlier))
			}
		}
	}
	return lines
}

// redecode turns a result's Details, as the store read them (a JSON
// object), into v; false when they are not that.
func redecode(details, v any) bool {
	if details == nil {
		return false
	}
	data, err := json.Marshal(details)
	return err == nil && json.Unmarshal(data, v) == nil
}

// printApproval shows what a session's approval (or, for an execution
// session, its spec's) binds, and whether it still holds.
func printApproval(s *streams, e *workflow.Engine, sess *workflow.Session, a *workflow.ApprovalRecord, void error) {
	switch {
	case a == nil && void == nil:
		return
	case a == nil:
		fmt.Fprintf(s.Out, "\napproval: none: %s\n", void)
		return
	}
	fmt.Fprintf(s.Out, "\napproved by %s via %s at %s", a.By, a.Via, a.At.Format("2006-01-02 15:04"))
	if a.Note != "" {
		fmt.Fprintf(s.Out, " (%s)", a.Note)
	}
	if void != nil {
		fmt.Fprintf(s.Out, "\napproval no longer holds: %s\n", void)
	} else {
		fmt.Fprintln(s.Out, "; it holds: the spec and the rules are as approved")
	}
	if a.Binding != nil {
		fmt.Fprint(s.Out, e.Describe(sess.Vars["spec_dir"], a.Binding, sess))
	}
}

func printJSON(s *streams, v any) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// keepDecision adds a decision made here to the person's history of the
// spec that the review page shows. The decision stands whatever happens
// to the record: a failure is a warning.
func keepDecision(s *streams, projectDir string, e *workflow.Engine, specDir string, approved bool, who workflow.Approver, note, session string, shown *workflow.Binding) {
	p, _, _, err := openProject(projectDir)
	if err == nil {
		err = review.RecordTerminalDecision(p, e, specDir, approved, who, note, session, shown)
	}
	if err != nil {
		fmt.Fprintf(s.Err, "warning: the review page's history does not list this decision: %v\n", err)
	}
}
