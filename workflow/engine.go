package workflow

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/workflow/gates"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// Settings configure an Engine.
type Settings struct {
	Root     string // project root, absolute
	StateDir string // .agentos/state, absolute
	// TestCommand and CoverageFile are what spec_execution_v1's gates run
	// and read. They come from the project's configuration, never from an
	// agent: an agent that chose the test command could choose `true`.
	TestCommand       string
	CoverageFile      string
	TestReport        string  // go-test-json, junit:PATH or exit-status; "" guesses
	CoverageThreshold float64 // default when the spec names none; 0 → 80
	// RulesDirs are the folders a gate's run may not change (absolute):
	// the state, the configuration, the workflow definitions. Empty: StateDir.
	RulesDirs []string
	Strict    bool // untraced acceptance criteria fail instead of warn
	// TerminalApprovalOnly refuses approvals answered in an IDE's
	// elicitation prompt (workflow.approval: terminal).
	TerminalApprovalOnly bool
	// Unsandboxed runs the gates' commands in the project itself, with the
	// person's full authority (workflow.sandbox: unsandboxed).
	Unsandboxed bool
	// Rules, when set, is where the rules above are read again whenever
	// a person changes them (see liverules.go); nil: they never change.
	Rules *RuleFiles
	// Key signs sessions and their audit logs, so a change made outside
	// agentos is noticed; nil signs and checks nothing (ForProject sets it).
	Key *machinekey.Key
	// SpecTemplates are copied into a new spec folder (a workflow with scaffold).
	SpecTemplates fs.FS
	Now           func() time.Time
	// OnChange is called after every change to a session (for notifications).
	OnChange func(id string)
}

// Engine runs workflows. It is safe for concurrent use, and several engines
// (the server and the CLI) may share one project.
type Engine struct {
	rules liveRules
	store *Store
	set   Settings
	gates runningGates // the gates running now: no person-only action meanwhile (gaterun.go)
	graph graphHolder  // the call graph living specs use (living.go)
}

// NewEngine returns an engine over lib whose sessions live in set.StateDir.
func NewEngine(lib *Library, set Settings) *Engine {
	if set.Now == nil {
		set.Now = time.Now
	}
	if set.CoverageThreshold == 0 {
		set.CoverageThreshold = 80
	}
	if len(set.RulesDirs) == 0 {
		set.RulesDirs = []string{set.StateDir}
	}
	e := &Engine{store: NewStore(set.Root, filepath.Join(set.StateDir, "workflows"), set.Key), set: set}
	e.rules.files = set.Rules
	e.rules.cur.Store(newRuleSet(lib, set))
	return e
}

// Library returns the workflow definitions as they are now.
func (e *Engine) Library() *Library { return e.rules.refresh().lib }

// Store returns the engine's session store.
func (e *Engine) Store() *Store { return e.store }

func (e *Engine) changed(id string) {
	if e.set.OnChange != nil {
		e.set.OnChange(id)
	}
}

// audit appends a line to session s's audit log and notes in s how long
// the log now is, which the state signs when it is next written.
func (e *Engine) audit(s *Session, actor Actor, action string, from, to int, result, detail string) {
	n, mac, err := e.store.Audit(s.ID, AuditEntry{At: e.set.Now().UTC(), Actor: actor.String(), Action: action, From: from, To: to, Result: result, Detail: detail})
	if err == nil && mac != "" {
		s.AuditLines, s.AuditHead = n, mac
	}
}

// Start begins a session of the named workflow.
func (e *Engine) Start(ctx context.Context, name string, inputs map[string]string, actor Actor) (*Session, error) {
	r := e.rules.refresh()
	if r.err != nil {
		return nil, refused("%v", r.err)
	}
	def, ok := r.lib.Get(name)
	if !ok {
		return nil, invalid("workflow_type", "unknown workflow %q; known workflows: %s", name, r.lib.Names())
	}
	rules, err := e.rulesFor(r, name, "")
	if err != nil {
		return nil, err
	}
	if err := checkInputs(def, inputs); err != nil {
		return nil, err
	}
	now := e.set.Now()
	id := newID(def.Name, now)
	vars, err := e.vars(r, def, inputs, id, now)
	if err != nil {
		return nil, err
	}
	if err := e.checkNotRunning(def, vars); err != nil {
		return nil, err
	}
	var approved *ApprovalRecord
	if def.RequiresApprovedSpec {
		if approved, err = e.verifySpecApproval(inputs["spec"], vars["spec_dir"]); err != nil {
			return nil, err
		}
	}
	phases, err := e.phasesFor(def, vars)
	if err != nil {
		return nil, err
	}
	detail := def.Name
	if def.runsTests() {
		// What fail-before compares the session's work with.
		if tree, err := e.snapshot(ctx, id); err != nil {
			detail += "; no base recorded, so criteria are not checked to fail before the change: " + err.Error()
		} else {
			vars[baseVar] = tree
		}
	}
	if def.Scaffold != "" {
		if err := e.scaffold(vars[def.Scaffold]); err != nil {
			return nil, err
		}
	}
	actor.Since = now.UTC()
	sess := &Session{
		ID: id, Workflow: def.Name, Version: def.Version, Status: StatusActive, Current: 1,
		Phases: phases, Inputs: inputs, Vars: vars, Owner: actor, SpecApproval: approved, Rules: rules,
		CreatedAt: now.UTC(), UpdatedAt: now.UTC(),
	}
	sess.Phases[0].Status = Active
	if err := e.store.Create(sess); err != nil {
		return nil, err
	}
	e.audit(sess, actor, "start", 0, 1, "", detail)
	e.changed(id)
	return sess, nil
}

func checkInputs(def *Definition, inputs map[string]string) error {
	known := map[string]bool{}
	for _, in := range def.Inputs {
		known[in.Name] = true
		v, ok := inputs[in.Name]
		if !ok || v == "" {
			if in.Required {
				return invalid("options."+in.Name, "%s needs the input %q: %s", def.Name, in.Name, in.Description)
			}
			continue
		}
		if !in.matches(v) {
			return invalid("options."+in.Name, "input %q = %q does not match %s", in.Name, v, in.Pattern)
		}
	}
	for k := range inputs {
		if !known[k] {
			return invalid("options."+k, "%s takes no input %q", def.Name, k)
		}
	}
	return nil
}

func newID(workflow string, now time.Time) string {
	b := make([]byte, 3)
	rand.Read(b)
	short := regexp.MustCompile(`_v[0-9]+$`).ReplaceAllString(workflow, "")
	return fmt.Sprintf("%s-%s-%s", strings.ReplaceAll(short, "_", "-"), now.Format("20060102"), hex.EncodeToString(b))
}

// vars are the placeholders a session's paths, commands and instructions use.
func (e *Engine) vars(r *ruleSet, def *Definition, inputs map[string]string, id string, now time.Time) (map[string]string, error) {
	v := map[string]string{"date": now.Format(time.DateOnly), "session_id": id}
	for k, val := range inputs {
		v[k] = val
	}
	for _, k := range sortedKeys(def.Vars) {
		val, err := gates.Placeholders(def.Vars[k], v)
		if err != nil {
			return nil, fmt.Errorf("%s: vars.%s: %w", def.Source, k, err)
		}
		v[k] = val
	}
	if dir := v["spec_dir"]; dir != "" {
		// Criterion IDs carry it: AC-{spec_name}-1.1.1.
		v["spec_name"] = gates.SpecName(dir)
	}
	if def.runsTests() {
		if err := e.testVars(r, v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// testVars fills the test command, its report, the coverage report and the
// threshold of an execution workflow: configuration first, then a default for
// the project's language, and a threshold named in the spec wins over both.
func (e *Engine) testVars(r *ruleSet, v map[string]string) error {
	cmd, cov, report := r.wf.TestCommand, r.wf.CoverageFile, r.wf.TestReport
	if cmd == "" {
		cmd, cov, report = defaultTestCommand(e.set.Root)
	}
	if cmd == "" || cov == "" {
		return refused("no test command is configured: set workflow.test_command and workflow.coverage_file in .agentos/config/mcp.yaml")
	}
	if report == "" {
		report = guessTestReport(cmd)
	}
	v["test_command"], v["coverage_file"], v["test_report"] = cmd, cov, report
	// The threshold the person saw when approving wins; a spec approved
	// before approvals recorded one is read from its field.
	if a, err := e.SpecApproval(v["spec"]); err == nil && a != nil && a.CoverageThreshold != nil {
		v["coverage_threshold"] = strconv.FormatFloat(*a.CoverageThreshold, 'f', -1, 64)
		return nil
	}
	t, err := e.SpecThreshold(v["spec_dir"])
	if err != nil {
		return err
	}
	v["coverage_threshold"] = strconv.FormatFloat(t.Percent, 'f', -1, 64)
	return nil
}

// defaultTestCommand is the test command for a project whose mcp.yaml
// names none: the one install writes for the runner it detects (go test,
// pytest with pytest-cov, Vitest, Jest; see package testcmd), so a project
// installed before install wrote it is judged the same way.
func defaultTestCommand(root string) (cmd, coverage, report string) {
	d := testcmd.For(root)
	return d.Command, d.Coverage, d.Report
}

// guessTestReport reads a configured test command for a report it asks
// for: go test's -json, pytest's --junitxml=PATH, Vitest's or jest-junit's
// JUnit file. Anything else is read by its exit status only, and the gate
// says so.
func guessTestReport(cmd string) string {
	return testcmd.GuessReport(cmd)
}

// thresholdField is the spec's coverage threshold: a line of its own in
// README.md, "Coverage threshold: 90%" (the template asks for it). Only this
// labelled field counts; a percentage in prose never does.
var thresholdField = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?coverage threshold(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*?)\s*$`)

var thresholdValue = regexp.MustCompile(`^(\d{1,3}(?:\.\d+)?)\s*%?$`)

// Threshold is the coverage threshold that applies to a spec and where it
// comes from, shown to the person who approves the spec.
type Threshold struct {
	Percent float64
	Source  string // "README.md line 7" or "workflow.coverage_threshold (no threshold in the spec)"
}

func (t Threshold) String() string {
	return strconv.FormatFloat(t.Percent, 'f', -1, 64) + "% (" + t.Source + ")"
}

// SpecThreshold reads the coverage threshold field of the spec in specDir
// (relative to the root); without one the configured default applies. A
// field given twice, or not a percentage from 0 to 100, is an error naming
// its line, and so is a README.md that is a link (an approval refuses it).
func (e *Engine) SpecThreshold(specDir string) (Threshold, error) {
	def := Threshold{Percent: e.rules.get().wf.CoverageThreshold, Source: "workflow.coverage_threshold (no threshold in the spec)"}
	if specDir == "" {
		return def, nil
	}
	// Read as an approval binds it: a threshold reached through a link is
	// not one a person approved.
	data, err := readSpecFile(specDir, filepath.Join(e.set.Root, specDir, "README.md"), specDir+"/README.md")
	var nb *notBindableError
	if errors.As(err, &nb) {
		return def, nb
	}
	if err != nil {
		return def, nil
	}
	var found *Threshold
	for i, line := range strings.Split(string(data), "\n") {
		m := thresholdField.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		where := fmt.Sprintf("%s/README.md line %d", specDir, i+1)
		if found != nil {
			return def, refused("%s names the coverage threshold again (first at %s): keep one \"Coverage threshold: N%%\" line", where, found.Source)
		}
		v := thresholdValue.FindStringSubmatch(strings.Trim(m[1], "*_` "))
		t := 0.0
		if v != nil {
			t, _ = strconv.ParseFloat(v[1], 64)
		}
		if v == nil || t <= 0 || t > 100 {
			return def, refused("%s: the coverage threshold %q is not a percentage above 0 and at most 100: write it like \"Coverage threshold: 85%%\", or delete the line to use the project's default", where, m[1])
		}
		found = &Threshold{Percent: t, Source: strings.TrimPrefix(where, specDir+"/")}
	}
	if found == nil {
		return def, nil
	}
	return *found, nil
}

func (e *Engine) checkNotRunning(def *Definition, vars map[string]string) error {
	dir := vars["spec_dir"]
	if dir == "" {
		return nil
	}
	sessions, _, err := e.store.List()
	if err != nil {
		return err
	}
	for _, s := range sessions {
		if s.Workflow == def.Name && s.Status != StatusCompleted && s.Vars["spec_dir"] == dir {
			return refused("session %s of %s is already working on %s; continue it (get_state) or delete it first", s.ID, def.Name, dir)
		}
	}
	return nil
}

// phasesFor builds a new session's phases from the definition, or from the
// spec's tasks.md for an execution workflow.
func (e *Engine) phasesFor(def *Definition, vars map[string]string) ([]PhaseState, error) {
	var out []PhaseState
	if def.PhasesFromTasks == nil {
		for i, p := range def.Phases {
			ps := PhaseState{Number: i + 1, Name: p.Name, Status: Pending, Tasks: []TaskState{}}
			for _, t := range p.Tasks {
				ps.Tasks = append(ps.Tasks, TaskState{ID: t.ID, Title: t.Title, Status: Pending})
			}
			out = append(out, ps)
		}
		return out, nil
	}
	plan, err := e.plan(def, vars)
	if err != nil {
		return nil, err
	}
	for _, p := range plan.Phases {
		ps := PhaseState{Number: p.Number, Name: p.Title, Status: Pending, Tasks: []TaskState{}}
		for _, t := range p.Tasks {
			ps.Tasks = append(ps.Tasks, TaskState{ID: t.ID, Title: t.Title, Status: Pending})
		}
		out = append(out, ps)
	}
	return out, nil
}

func (e *Engine) plan(def *Definition, vars map[string]string) (gates.Plan, error) {
	rel, err := gates.Placeholders(def.PhasesFromTasks.File, vars)
	if err != nil {
		return gates.Plan{}, err
	}
	data, err := os.ReadFile(filepath.Join(e.set.Root, rel))
	if err != nil {
		return gates.Plan{}, refused("cannot read %s: the spec needs a tasks.md", rel)
	}
	plan, problems := gates.ParseTasks(data)
	if len(problems) > 0 {
		var lines []string
		for i, p := range problems {
			if i == 5 {
				lines = append(lines, fmt.Sprintf("… and %d more", len(problems)-5))
				break
			}
			lines = append(lines, p.String())
		}
		return gates.Plan{}, refused("%s does not parse into phases of numbered tasks: %s", rel, strings.Join(lines, "; "))
	}
	if len(plan.Phases) == 0 {
		return gates.Plan{}, refused("%s has no phases", rel)
	}
	return plan, nil
}

// scaffold copies the spec templates into a new spec folder, keeping any
// file that is already there.
func (e *Engine) scaffold(rel string) error {
	if rel == "" || e.set.SpecTemplates == nil {
		return nil
	}
	dir := filepath.Join(e.set.Root, rel)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	return fs.WalkDir(e.set.SpecTemplates, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		if _, err := os.Stat(target); err == nil {
			return nil
		}
		data, err := fs.ReadFile(e.set.SpecTemplates, name)
		if err != nil {
			return err
		}
		data = bytes.ReplaceAll(data, []byte("{spec_name}"), []byte(gates.SpecName(rel)))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return atomicfile.WriteFile(target, data, 0o644)
	})
}

// Get returns a session.
func (e *Engine) Get(id string) (*Session, error) {
	if !ValidID(id) {
		return nil, invalid("session_id", "session_id %q is not a session id (letters, digits, '-' and '_', at most 64)", id)
	}
	s, err := e.store.Get(id)
	if errors.Is(err, ErrNoSession) {
		return nil, notFound("no session %q; list_sessions shows the sessions", id)
	}
	if err != nil || s.Integrity != nil {
		return s, err
	}
	if s.Rules == nil {
		// A session from before sessions recorded their rules records
		// those in force now; if that fails, its next change says why.
		if recorded, err := e.store.Update(id, e.holdRules); err == nil {
			s = recorded
			e.changed(id)
		}
	}
	s.RulesChanged = e.rulesChanged(s, e.rules.refresh())
	return s, nil
}

// mutate runs fn on a session under its lock, after the checks every
// change must pass, and records the change. A session that is not as this
// machine's agentos signed it is read-only (see accept and reset).
// Nothing changes while the rules are not those the session recorded.
func (e *Engine) mutate(id string, actor Actor, force bool, fn func(*Session) error) (*Session, error) {
	return e.change(id, actor, force, false, func(s *Session) error {
		if err := e.holdRules(s); err != nil {
			return err
		}
		return fn(s)
	})
}

func (e *Engine) change(id string, actor Actor, force, untrusted bool, fn func(*Session) error) (*Session, error) {
	if _, err := e.Get(id); err != nil {
		return nil, err
	}
	sess, err := e.store.Update(id, func(s *Session) error {
		if s.Integrity != nil && !untrusted {
			return s.Integrity.refusal(s.ID)
		}
		if actor != CLIActor && !s.Owner.Same(actor) && !force {
			// transfer_owner is itself a change: only the owner may make it
			// without force, so the advice names who can do what.
			return refused("session %s belongs to %s; read it freely. To change it, either %s hands it over with transfer_owner new_owner %q, or you repeat this call with force: true (recorded in the audit log)", s.ID, s.Owner, s.Owner.Client, actor.Client)
		}
		if err := fn(s); err != nil {
			return err
		}
		s.UpdatedAt = e.set.Now().UTC()
		return nil
	})
	if err == nil {
		e.changed(id)
	}
	return sess, err
}

func requireActive(s *Session) error {
	switch s.Status {
	case StatusPaused:
		return refused("session %s is paused; resume it first", s.ID)
	case StatusCompleted:
		return refused("session %s is complete", s.ID)
	}
	return nil
}

// CompleteTask marks the next task of the current phase done. Tasks are done
// in order: naming any other task is refused.
func (e *Engine) CompleteTask(id, taskID, note string, actor Actor, force bool) (*Session, error) {
	return e.mutate(id, actor, force, func(s *Session) error {
		if err := requireActive(s); err != nil {
			return err
		}
		next := s.nextTask()
		if next == nil {
			return refused("every task of phase %d is done; call complete_phase", s.Current)
		}
		if taskID != next.ID {
			if owner, done := findTask(s, taskID); owner == 0 {
				return invalid("task_number", "phase %d has no task %q; its next task is %s", s.Current, taskID, next.ID)
			} else if done {
				return refused("task %s is already done; the next task is %s", taskID, next.ID)
			}
			return refused("task %s is next: tasks are done in order and cannot be skipped", next.ID)
		}
		now := e.set.Now().UTC()
		next.Status, next.CompletedAt, next.Note = Done, &now, note
		e.audit(s, actor, "complete_task", s.Current, s.Current, "done", taskID)
		return nil
	})
}

// findTask returns the phase holding task id (0 if none) and whether it is done.
func findTask(s *Session, id string) (int, bool) {
	for _, p := range s.Phases {
		for _, t := range p.Tasks {
			if t.ID == id {
				return p.Number, t.Status == Done
			}
		}
	}
	return 0, false
}

// CompletePhase evaluates the current phase's gate and, when every check
// passes, advances. A failed gate is not an error: the session stays in the
// phase and the report says what failed and how to fix it.
func (e *Engine) CompletePhase(ctx context.Context, id string, evidence map[string]any, actor Actor, force bool) (*Session, *GateReport, error) {
	var report *GateReport
	sess, err := e.mutate(id, actor, force, func(s *Session) error {
		if err := requireActive(s); err != nil {
			return err
		}
		if next := s.nextTask(); next != nil {
			return refused("task %s of phase %d is not done; complete the tasks in order first", next.ID, s.Current)
		}
		if err := e.checkStillApproved(s); err != nil {
			return err
		}
		defer e.gateRunning(s)()
		report = e.evaluate(ctx, s, evidence, actor)
		e.record(ctx, s, report, actor, "complete_phase")
		return nil
	})
	return sess, report, err
}

// RetryPhase evaluates the current phase's gate again with the evidence of
// the last attempt, after the agent fixed what the server checks itself.
func (e *Engine) RetryPhase(ctx context.Context, id string, actor Actor, force bool) (*Session, *GateReport, error) {
	var report *GateReport
	sess, err := e.mutate(id, actor, force, func(s *Session) error {
		if err := requireActive(s); err != nil {
			return err
		}
		p := s.phase(s.Current)
		if p.LastGate == nil {
			return refused("phase %d has not been attempted; call complete_phase", s.Current)
		}
		if next := s.nextTask(); next != nil {
			return refused("task %s of phase %d is not done", next.ID, s.Current)
		}
		if err := e.checkStillApproved(s); err != nil {
			return err
		}
		defer e.gateRunning(s)()
		report = e.evaluate(ctx, s, p.LastGate.Evidence, actor)
		e.record(ctx, s, report, actor, "retry_phase")
		return nil
	})
	return sess, report, err
}

// record stores a gate report and advances on success.
func (e *Engine) record(ctx context.Context, s *Session, report *GateReport, actor Actor, action string) {
	p := s.phase(s.Current)
	p.Attempts++
	if p.LastGate != nil {
		if s.EarlierGates == nil {
			s.EarlierGates = map[int][]GateReport{}
		}
		earlier := append(s.EarlierGates[p.Number], *p.LastGate)
		s.EarlierGates[p.Number] = earlier[max(0, len(earlier)-MaxEarlierGates):]
	}
	p.LastGate = report
	from := s.Current
	if !report.Passed {
		e.audit(s, actor, action, from, from, "gate failed", failedChecks(report))
		return
	}
	recordVars(s, report)
	now := e.set.Now().UTC()
	p.Status, p.CompletedAt = Done, &now
	s.Current++
	for next := s.phase(s.Current); next != nil && next.Status == Done; next = s.phase(s.Current) {
		s.Current++ // a phase a converge session found holding
	}
	if next := s.phase(s.Current); next != nil {
		next.Status = Active
	} else {
		s.Status = StatusCompleted
		if def, ok := e.rules.get().lib.Get(s.Workflow); ok && recordsLiving(def) {
			e.recordLiving(ctx, s)
		}
		e.onCompleted(s)
	}
	e.audit(s, actor, action, from, s.Current, "gate passed", "")
}

func failedChecks(r *GateReport) string {
	var failed []string
	for _, c := range r.Checks {
		if !c.Passed {
			failed = append(failed, c.Type+": "+c.Message)
		}
	}
	return strings.Join(failed, "; ")
}

// evaluate runs every check of the current phase's gate, then checks that
// the run left the rules as they were.
func (e *Engine) evaluate(ctx context.Context, s *Session, evidence map[string]any, actor Actor) *GateReport {
	r := e.rules.get() // as holdRules just compared them
	def, _ := r.lib.Get(s.Workflow)
	var checks []gates.Check
	tasksPhase := 0
	if def != nil && def.PhasesFromTasks != nil {
		checks, tasksPhase = def.PhasesFromTasks.Gate, s.Current
	} else if def != nil {
		checks = e.phaseGate(def, s.Current)
	}
	threshold, _ := strconv.ParseFloat(s.Vars["coverage_threshold"], 64)
	vars := s.Vars
	if def != nil && def.PhasesFromTasks != nil && vars["test_report"] == "" {
		// A session started before the gates read test reports.
		vars = maps.Clone(vars)
		vars["test_report"] = guessTestReport(vars["test_command"])
	}
	env := gates.Env{
		Root:              e.set.Root,
		Vars:              vars,
		Tests:             &gates.TestRun{},
		Evidence:          evidence,
		Approved:          s.Approval,
		TasksPhase:        tasksPhase,
		Strict:            r.wf.Strict,
		CoverageThreshold: threshold,
		Only:              convergeOnly(s),
	}
	report := &GateReport{Passed: true, At: e.set.Now().UTC(), Evidence: evidence, Checks: []gates.Result{}}
	if def == nil {
		report.Passed = false
		report.Checks = append(report.Checks, gates.Result{Type: "definition", Message: "the workflow " + s.Workflow + " is no longer defined", Remediation: "restore its definition under .agentos/workflows/"})
		return report
	}
	snap, err := snapshotRules(e.set.RulesDirs)
	if err != nil {
		report.Passed = false
		report.Checks = append(report.Checks, gates.Result{Type: rulesCheck, Message: "The rules cannot be recorded before the gate runs: " + err.Error() + ".",
			Remediation: "Make .agentos/ readable, then run the gate again."})
		return report
	}
	sb, refusal := e.gateSandbox(r.wf, checks)
	if refusal != nil {
		report.Passed = false
		report.Checks = append(report.Checks, *refusal)
		return report
	}
	if sb != nil {
		defer sb.Close()
		env.Sandbox = sb
		// The before-run repeats the gate's test command: its command check
		// that reads a test report.
		i := slices.IndexFunc(checks, func(c gates.Check) bool { return c.Type == gates.TypeCommand && c.Report != "" })
		if base := s.Vars[baseVar]; base != "" && def.runsTests() {
			tree := e.gateTree(s.ID, base)
			env.SessionDiff = tree.sessionDiff
			if i >= 0 {
				env.Before = e.beforeRun(tree, checks[i], env)
				env.Earlier = e.earlierRun(tree, checks[i], env)
			}
		}
	}
	untrusted := r.untrusted
	for _, c := range checks {
		r := c.Run(ctx, env)
		if untrusted != "" && c.Type == gates.TypeCommand {
			r.Warnings = append(r.Warnings, "The command is the default: "+untrusted+".")
		}
		report.Passed = report.Passed && r.Passed
		report.Checks = append(report.Checks, r)
	}
	if r, ok := e.checkRules(s, snap, actor); !ok {
		report.Passed = false
		report.Checks = append(report.Checks, r)
	}
	return report
}

// sandboxCheck is the type of the result that reports a gate that could not
// run its commands in a sandbox.
const sandboxCheck = "sandbox"

// gateSandboxOptions say what a gate's command may not see: approvals and
// sessions, backups, and agentos's cache (the auth token), which the run
// sees empty and where its reports land.
var gateSandboxOptions = sandbox.Options{
	Hidden:  []string{".agentos/state", ".agentos/backups"},
	Outputs: ".agentos/.cache",
}

// gateSandbox prepares the sandbox the gate's commands run in: none when the
// gate runs no command, or when the person chose workflow.sandbox:
// unsandboxed. Where the system cannot sandbox, the gate fails with why and
// what the person may do; it never falls back by itself.
func (e *Engine) gateSandbox(wf config.Workflow, checks []gates.Check) (*sandbox.Sandbox, *gates.Result) {
	if !slices.ContainsFunc(checks, gates.RunsCommands) || wf.Sandbox == config.SandboxUnsandboxed {
		return nil, nil
	}
	refuse := func(err error) *gates.Result {
		return &gates.Result{Type: sandboxCheck, Message: "The gate's commands cannot run in a sandbox here: " + err.Error() + ".",
			Remediation: "Let this system sandbox: " + sandbox.Remedy + ". Or, accepting that the agent's tests then run with your full authority, set workflow.sandbox: unsandboxed in .agentos/config/mcp.yaml."}
	}
	if err := sandbox.Check(); err != nil {
		return nil, refuse(err)
	}
	sb, err := sandbox.New(e.set.Root, gateSandboxOptions)
	if err != nil {
		return nil, refuse(err)
	}
	return sb, nil
}

// rulesCheck is the type of the result that reports a gate's run changing
// the rules.
const rulesCheck = "rules_unchanged"

// checkRules compares the rules with snap; on a change it undoes what it
// can, writes the audit log and returns the failed result.
func (e *Engine) checkRules(s *Session, snap *rulesSnapshot, actor Actor) (gates.Result, bool) {
	changes, err := snap.compare(e.store.own)
	if err != nil {
		return gates.Result{Type: rulesCheck, Message: "The rules cannot be compared after the gate ran: " + err.Error() + ".",
			Remediation: "Make .agentos/ readable, then run the gate again."}, false
	}
	if len(changes) == 0 {
		return gates.Result{}, true
	}
	keep := filepath.Join(e.set.Root, ".agentos", "backups", "gate-runs", e.set.Now().UTC().Format("20060102T150405Z"))
	snap.restore(changes, e.set.Root, keep)
	var names, kept []string
	for _, c := range changes {
		rel := filepath.ToSlash(relTo(e.set.Root, c.path))
		how := c.what + ", undone"
		if !c.restored {
			how = c.what + ", NOT undone"
			kept = append(kept, rel)
		}
		if c.kept != "" {
			how += "; what was written is kept in " + filepath.ToSlash(relTo(e.set.Root, c.kept))
		}
		names = append(names, rel+" ("+how+")")
	}
	listed := names
	if len(listed) > 5 {
		listed = append(listed[:5:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	msg := fmt.Sprintf("The gate's run changed %d %s it is judged by: %s.", len(changes), pluralWord(len(changes), "file", "files"), strings.Join(listed, ", "))
	fix := "Remove whatever in the project's code or tests writes under .agentos/ (state, config, workflows), then run the gate again. If it was a person editing the config or a workflow while the gate ran, copy their edit back from the kept file once no gate runs."
	if len(kept) > 0 {
		fix = "Restore " + strings.Join(kept, ", ") + " by hand (agentos upgrade restores config and workflows), and remove whatever in the project's code or tests writes under .agentos/."
	}
	e.audit(s, actor, "rules_changed", s.Current, s.Current, "gate failed", strings.Join(names, "; "))
	return gates.Result{Type: rulesCheck, Message: msg, Remediation: fix, Details: map[string]any{"files": names}}, false
}

func relTo(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil {
		return rel
	}
	return path
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// onCompleted records what a finished workflow established: a completed
// spec creation is an approved spec.
func (e *Engine) onCompleted(s *Session) {
	e.dropBaseIndex(s.ID)
	if s.Approval == nil || s.Vars["spec_dir"] == "" {
		return
	}
	a := s.Approval
	rec := &ApprovalRecord{Spec: filepath.Base(s.Vars["spec_dir"]), By: a.By, Via: a.Via, At: a.At, Note: a.Note, Session: s.ID, Binding: s.Binding}
	if t, err := strconv.ParseFloat(s.Vars["coverage_threshold"], 64); err == nil {
		rec.CoverageThreshold = &t
	}
	e.writeApproval(rec)
}

// Pause stops a session from advancing until Resume.
func (e *Engine) Pause(id string, actor Actor, force bool) (*Session, error) {
	return e.mutate(id, actor, force, func(s *Session) error {
		if s.Status != StatusActive {
			return refused("session %s is %s, not active", s.ID, s.Status)
		}
		s.Status = StatusPaused
		e.audit(s, actor, "pause", s.Current, s.Current, "", "")
		return nil
	})
}

// Resume continues a paused session.
func (e *Engine) Resume(id string, actor Actor, force bool) (*Session, error) {
	return e.mutate(id, actor, force, func(s *Session) error {
		if s.Status != StatusPaused {
			return refused("session %s is %s, not paused", s.ID, s.Status)
		}
		s.Status = StatusActive
		e.audit(s, actor, "resume", s.Current, s.Current, "", "")
		return nil
	})
}

// Rollback returns to an earlier phase: it and every later phase start over.
func (e *Engine) Rollback(id string, to int, actor Actor, force bool) (*Session, error) {
	return e.mutate(id, actor, force, func(s *Session) error {
		if s.Status == StatusPaused {
			return refused("session %s is paused; resume it first", s.ID)
		}
		if to < 1 || to >= s.Current {
			return invalid("phase", "rollback goes back to an earlier phase: 1 to %d", s.Current-1)
		}
		if err := undoNeedsPerson(s, actor, "roll it back", fmt.Sprintf("agentos workflow rollback %s %d", s.ID, to)); err != nil {
			return err
		}
		from := s.Current
		e.withdrawApproval(s)
		resetFrom(s, to)
		e.audit(s, actor, "rollback", from, to, "", "")
		return nil
	})
}

// resetFrom makes phase n current and every phase from n on pending again.
func resetFrom(s *Session, n int) {
	for i := n - 1; i < len(s.Phases); i++ {
		p := &s.Phases[i]
		p.Status, p.CompletedAt, p.LastGate, p.Attempts = Pending, nil, nil, 0
		delete(s.EarlierGates, p.Number)
		for j := range p.Tasks {
			p.Tasks[j].Status, p.Tasks[j].CompletedAt, p.Tasks[j].Note = Pending, nil, ""
		}
	}
	s.Current, s.Status = n, StatusActive
	s.Phases[n-1].Status = Active
	s.Approval, s.Binding, s.Changes = nil, nil, nil
}

// undoNeedsPerson refuses an agent undoing what a person approved or what
// has been completed: that takes a person at the CLI, whatever client name
// or force the agent sends. A client name is not proof of anything —
// another MCP session can send the same one.
func undoNeedsPerson(s *Session, actor Actor, what, command string) error {
	if actor == CLIActor || (s.Approval == nil && s.Status != StatusCompleted) {
		return nil
	}
	state := "approved"
	if s.Status == StatusCompleted {
		state = "completed"
	}
	return refused("session %s is %s: only a person can %s, with `%s` in a terminal", s.ID, state, what, command)
}

// TransferOwner hands the session to another agent.
func (e *Engine) TransferOwner(id string, to Actor, actor Actor, force bool) (*Session, error) {
	if to.Client == "" {
		return nil, invalid("new_owner", "name the client that takes the session over")
	}
	return e.mutate(id, actor, force, func(s *Session) error {
		from := s.Owner
		to.Since = e.set.Now().UTC()
		s.Owner = to
		e.audit(s, actor, "transfer_owner", s.Current, s.Current, "", from.String()+" → "+to.String())
		return nil
	})
}

// Delete removes a session, also one whose state cannot be read: that is
// all that can be done with it. Its owner is then unknown, so an agent needs
// force.
func (e *Engine) Delete(id string, actor Actor, force bool) error {
	s, err := e.Get(id)
	var corrupt *CorruptError
	switch {
	case errors.As(err, &corrupt):
		if actor != CLIActor && !force {
			return refused("session %s cannot be read (%s %s), so its owner is unknown; delete it with force: true", id, corrupt.File, corrupt.Reason)
		}
	case err != nil:
		return err
	case actor != CLIActor && !s.Owner.Same(actor) && !force:
		return refused("session %s belongs to %s; delete it only with force: true (recorded in the audit log)", s.ID, s.Owner)
	case actor != CLIActor && s.Integrity != nil:
		return s.Integrity.refusal(s.ID)
	default:
		if err := undoNeedsPerson(s, actor, "delete it", "agentos workflow delete "+s.ID); err != nil {
			return err
		}
	}
	if err := e.store.Delete(id); err != nil {
		return err
	}
	e.dropBaseIndex(id)
	e.changed(id)
	return nil
}

// Reset starts a session over from phase 1. It is how a person discards a
// session changed outside agentos: its audit log is kept, as it is. actor
// is how the person did it (CLIActor, ReviewActor).
func (e *Engine) Reset(id string, actor Actor) (*Session, error) {
	// It accepts the audit log as it is, as accept does.
	if err := e.refuseWhileGate("reset", id, actor, "a reset of session "+id); err != nil {
		return nil, err
	}
	return e.change(id, CLIActor, true, true, func(s *Session) error {
		if err := e.acceptAudit(s); err != nil {
			return err
		}
		from := s.Current
		e.withdrawApproval(s)
		resetFrom(s, 1)
		// Starting over is starting under the rules as they are now.
		detail := ""
		if changes, err := e.adoptRules(s, e.rules.refresh()); err != nil {
			detail = "the rules could not be recorded: " + err.Error()
		} else if len(changes) > 0 {
			detail = "under the rules now: " + strings.Join(changes, "; ")
		}
		e.audit(s, actor, "reset", from, 1, "", detail)
		return nil
	})
}

func (e *Engine) phaseNeedsApproval(s *Session) bool {
	def, ok := e.rules.get().lib.Get(s.Workflow)
	if !ok {
		return false
	}
	return slices.ContainsFunc(e.phaseGate(def, s.Current), func(c gates.Check) bool { return c.Type == "approval" })
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TaskInstructions returns what a task asks: its instructions file ("" when
// its phase's instructions explain it), or for a task of a spec's tasks.md,
// its bullets and acceptance criteria as they are in the file now.
func (e *Engine) TaskInstructions(s *Session, phase int, id string) string {
	def, ok := e.rules.get().lib.Get(s.Workflow)
	if !ok {
		return ""
	}
	if def.PhasesFromTasks == nil {
		p := def.Phases[phase-1]
		for _, t := range p.Tasks {
			if t.ID == id && t.Instructions != "" {
				return def.Text(t.Instructions)
			}
		}
		// A task without a file of its own is explained by its phase's
		// instructions, which get_phase gives once.
		return ""
	}
	plan, err := e.plan(def, s.Vars)
	if err != nil {
		return err.Error()
	}
	for _, p := range plan.Phases {
		for _, t := range p.Tasks {
			if t.ID != id {
				continue
			}
			var b strings.Builder
			for _, bullet := range t.Bullets {
				b.WriteString("- " + bullet + "\n")
			}
			if t.EstimateMinutes > 0 {
				fmt.Fprintf(&b, "Estimate: %d min\n", t.EstimateMinutes)
			}
			b.WriteString("Acceptance criteria:\n")
			for _, c := range t.Criteria {
				mark := " "
				if c.Checked {
					mark = "x"
				}
				label := c.Text
				if c.ID != "" {
					label = c.ID + ": " + c.Text
				}
				fmt.Fprintf(&b, "- [%s] %s\n", mark, label)
			}
			return b.String()
		}
	}
	return ""
}
