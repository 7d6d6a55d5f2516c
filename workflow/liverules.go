package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/trust"
)

// A person may edit the rules a session is judged by — a workflow.yaml, the
// workflow.* settings of mcp.yaml — while the session runs. The session
// records the rules it started under; at each call the engine compares them
// with the rules on disk now. A difference stops the session from advancing
// (reads still answer, with the notice) until a person confirms the new
// rules with `agentos workflow confirm-rules`: a change never applies
// silently, and neither do the old rules once the files say otherwise.

// RuleFiles are where a project's rules live, for an engine that re-reads
// them when they change (ForProject sets them).
type RuleFiles struct {
	Builtin   fs.FS  // the built-in definitions
	Workflows string // the project's definitions: .agentos/workflows, absolute
	Config    string // .agentos/config/mcp.yaml, absolute
	// Root is the project root: whether the person trusts the test
	// command mcp.yaml names is recorded per folder (package trust).
	Root string
}

// ruleSet is one reading of the rules. It is never changed once made: a
// call works with the one it read even if the files change meanwhile.
type ruleSet struct {
	lib   *Library
	wf    config.Workflow
	err   error  // mcp.yaml cannot be read: no session may advance
	stamp string // sizes and times of the files it was read from
	// untrusted says which settings of mcp.yaml wait for `agentos trust`,
	// whose defaults wf holds instead (trust.State.Notice); "" when none.
	untrusted string
	// hidden are the project's definitions (by file under
	// .agentos/workflows) whose added commands wait for `agentos trust`,
	// and hiddenWhy says so.
	hidden    map[string]bool
	hiddenWhy string
}

// hideFiles is a folder of definitions with some files left out.
type hideFiles struct {
	fs.FS
	hidden map[string]bool
}

func (h hideFiles) Open(name string) (fs.File, error) {
	if h.hidden[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.FS.Open(name)
}

// liveRules holds the engine's current ruleSet and re-reads the files when
// their sizes or modification times change.
type liveRules struct {
	files  *RuleFiles // nil: the rules given to NewEngine never change
	cur    atomic.Pointer[ruleSet]
	reload sync.Mutex
	// harness is the last reading of the project's test harness, which an
	// execution session's rules include (harnessbind.go).
	harness harnessCache
}

func newRuleSet(lib *Library, set Settings) *ruleSet {
	approval := config.ApprovalElicitation
	if set.TerminalApprovalOnly {
		approval = config.ApprovalTerminal
	}
	mode := config.SandboxRequired
	if set.Unsandboxed {
		mode = config.SandboxUnsandboxed
	}
	return &ruleSet{lib: lib, wf: config.Workflow{
		TestCommand: set.TestCommand, CoverageFile: set.CoverageFile, TestReport: set.TestReport,
		CoverageThreshold: set.CoverageThreshold, Strict: set.Strict, Approval: approval, Sandbox: mode,
	}}
}

// get returns the rules as last read, without looking at the files.
func (l *liveRules) get() *ruleSet { return l.cur.Load() }

// refresh returns the rules as the files say now: stat, and read again only
// what changed since the last reading.
func (l *liveRules) refresh() *ruleSet {
	cur := l.cur.Load()
	if l.files == nil {
		return cur
	}
	stamp := l.files.stamp()
	if stamp == cur.stamp {
		return cur
	}
	l.reload.Lock()
	defer l.reload.Unlock()
	if cur = l.cur.Load(); stamp == cur.stamp {
		return cur
	}
	next := &ruleSet{lib: cur.lib, wf: cur.wf, stamp: stamp}
	cfg, err := config.Load(l.files.Config)
	if errors.Is(err, fs.ErrNotExist) {
		cfg, err = config.Default(), nil
	}
	if err != nil {
		// The old settings stay for reads; progress is refused until the file is fixed.
		next.err = fmt.Errorf("the workflow settings cannot be read: %w; fix .agentos/config/mcp.yaml", err)
	} else {
		st := trust.Check(l.files.Root, cfg)
		if !st.Trusted {
			cfg = trust.Apply(cfg)
		}
		next.wf, next.untrusted = cfg.Workflow, st.Under("workflow.").Notice()
		next.hidden = st.UntrustedWorkflows()
		if len(next.hidden) > 0 {
			next.hiddenWhy = st.Under("workflows/").Notice()
		}
	}
	// A project definition adding commands the person has not trusted is
	// not loaded: the built-in one of that name stays, and the library
	// names the file and why.
	if lib, err := LoadLibrary(l.files.Builtin, hideFiles{os.DirFS(l.files.Workflows), next.hidden}); err == nil {
		for file := range next.hidden {
			lib.invalid[".agentos/workflows/"+file] = errors.New(next.hiddenWhy)
		}
		next.lib = lib
	} else if next.err == nil {
		next.err = err
	}
	if next.wf.CoverageThreshold == 0 {
		next.wf.CoverageThreshold = 80
	}
	l.cur.Store(next)
	return next
}

// stamp names every file of the rules with its size and modification time:
// cheap enough for every call, and any save changes it.
func (f *RuleFiles) stamp() string {
	var b strings.Builder
	add := func(path string, fi fs.FileInfo) {
		fmt.Fprintf(&b, "%s\x00%d\x00%d\x00%v\n", path, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
	}
	if fi, err := os.Stat(f.Config); err == nil {
		add(f.Config, fi)
	}
	if record, err := trust.Path(); err == nil { // the person trusting the file changes the rules too
		if fi, err := os.Stat(record); err == nil {
			add(record, fi)
		}
	}
	filepath.WalkDir(f.Workflows, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			add(path, fi)
		}
		return nil
	})
	return b.String()
}

// judgingSettings are the effective workflow.* settings the gates apply:
// what mcp.yaml says, or the defaults. An approval binds them.
func (r *ruleSet) judgingSettings(root string) map[string]string {
	cmd, cov, report := r.wf.TestCommand, r.wf.CoverageFile, r.wf.TestReport
	if cmd == "" {
		cmd, cov, report = defaultTestCommand(root)
	}
	if report == "" {
		report = guessTestReport(cmd)
	}
	settings := map[string]string{
		"test_command":       cmd,
		"coverage_file":      cov,
		"test_report":        report,
		"coverage_threshold": strconv.FormatFloat(r.wf.CoverageThreshold, 'f', -1, 64),
		"strict":             strconv.FormatBool(r.wf.Strict),
	}
	// The weaker mode is bound by name; the default is left out, so that
	// approvals recorded before there was a choice keep holding.
	if r.wf.Sandbox == config.SandboxUnsandboxed {
		settings["sandbox"] = config.SandboxUnsandboxed
	}
	return settings
}

// settingsSHA256 is the hash of the settings' canonical JSON.
func settingsSHA256(settings map[string]string) string {
	data, _ := json.Marshal(settings) // map keys sorted: canonical
	return sha256Hex(data)
}

// rulesFor returns the rules a session of workflow name runs under by r:
// its definition (keyed by the file it comes from) and every workflow.*
// setting, including how a person may approve. The error says why there
// are none: the definition is gone or invalid, or the settings unreadable.
func (e *Engine) rulesFor(r *ruleSet, name, recordedSource string) (*Binding, error) {
	if r.err != nil {
		return nil, refused("%v", r.err)
	}
	def, ok := r.lib.Get(name)
	if why, bad := r.lib.invalid[recordedSource]; bad {
		return nil, refused("the definition %s of workflow %s is invalid: %v", recordedSource, name, why)
	}
	if !ok {
		return nil, refused("workflow %s is no longer defined (its definition %s was removed)", name, recordedSource)
	}
	settings := r.judgingSettings(e.set.Root)
	settings["approval"] = r.wf.Approval
	if settings["approval"] == "" {
		settings["approval"] = config.ApprovalElicitation
	}
	if r.wf.BugfixApproval != "" {
		// Where a person approves a bug fix; left out when unset, so the
		// rules recorded before there was a choice keep holding.
		settings["bugfix_approval"] = r.wf.BugfixApproval
	}
	b := &Binding{Workflows: map[string]string{def.Source: def.Digest}, Settings: settings, SettingsSHA256: settingsSHA256(settings)}
	if def.RequiresApprovedSpec || def.RunsTests {
		// The harness decides what the gates' test runs count, as the
		// settings do.
		_, hashes, err := e.harnessNow(false)
		if err != nil {
			return nil, refused("%v", err)
		}
		b.Harness = hashes
	}
	return b, nil
}

func recordedSource(s *Session) string {
	if s.Rules == nil {
		return ""
	}
	for src := range s.Rules.Workflows {
		return src
	}
	return ""
}

// rulesChanged says why session s cannot advance under the rules r: ""
// while they are the rules it recorded.
func (e *Engine) rulesChanged(s *Session, r *ruleSet) string {
	if s.Rules == nil {
		return ""
	}
	now, err := e.rulesFor(r, s.Workflow, recordedSource(s))
	if err != nil {
		return fmt.Sprintf("session %s cannot go on: %s. A person restores it (or deletes the session with `agentos workflow delete %s`)", s.ID, err.Error(), s.ID)
	}
	if ch := s.Rules.Changes(now); len(ch) > 0 {
		return rulesChangedMessage(s, ch)
	}
	return ""
}

// rulesChangedMessage says that the rules of s changed as ch says, and what
// a person does about it.
func rulesChangedMessage(s *Session, ch []string) string {
	return fmt.Sprintf("the rules of session %s changed since it recorded them: %s. Nothing advances until a person reviews and confirms them with `agentos workflow confirm-rules %s` in a terminal",
		s.ID, strings.Join(ch, ", "), s.ID)
}

// holdRules runs before every change an agent or person makes to s: a
// session that predates recorded rules records those in force now; any
// other refuses to advance under rules that are not those it recorded.
func (e *Engine) holdRules(s *Session) error {
	r := e.rules.refresh()
	if s.Rules == nil {
		changes, err := e.adoptRules(s, r)
		if err != nil {
			return err
		}
		e.audit(s, CLIActor, "record_rules", s.Current, s.Current, "",
			"the session predates recorded rules: recorded those in force now ("+strings.Join(changes, ", ")+"); there was nothing to compare them with")
		return nil
	}
	if msg := e.rulesChanged(s, r); msg != "" {
		// A refusal rests on a fresh reading of the harness: the cached one
		// may predate the agent undoing its change.
		e.rules.harness.forget()
		if msg = e.rulesChanged(s, r); msg != "" {
			return refused("%s", msg)
		}
	}
	return nil
}

// adoptRules makes the rules r those session s runs under and returns them
// in words: an execution session's test command, coverage report and test
// report are the settings' now.
func (e *Engine) adoptRules(s *Session, r *ruleSet) ([]string, error) {
	now, err := e.rulesFor(r, s.Workflow, recordedSource(s))
	if err != nil {
		return nil, err
	}
	if def, _ := r.lib.Get(s.Workflow); def.runsTests() {
		if err := e.testVars(r, s.Vars); err != nil {
			return nil, err
		}
	}
	var was Binding
	if s.Rules != nil {
		was = *s.Rules
	}
	if now.Harness != nil {
		parts, _, _ := e.harnessNow(false)
		e.keepHarness(parts)
	}
	s.Rules = now
	return was.Changes(now), nil
}

// PendingRules returns session id and how the rules on disk differ from
// those it runs under, with the rules a confirmation would record: for a
// person to read before confirming. No changes: nothing to confirm.
func (e *Engine) PendingRules(id string) (*Session, []string, *Binding, error) {
	s, err := e.Get(id)
	if err != nil {
		return nil, nil, nil, err
	}
	e.rules.harness.forget() // a person reads what they confirm: the harness as it is
	now, err := e.rulesFor(e.rules.refresh(), s.Workflow, recordedSource(s))
	if err != nil {
		return s, nil, nil, err
	}
	var was Binding
	if s.Rules != nil {
		was = *s.Rules
	}
	return s, was.Changes(now), now, nil
}

// ConfirmRules records a person's confirmation that session id goes on
// under the rules as they are now; who says how they confirmed. shown is
// what they were shown: if the rules changed since, nothing is confirmed.
// An execution session's spec approval is bound to the confirmed rules
// too, as it binds the workflow, the settings and the harness that judge
// the work.
func (e *Engine) ConfirmRules(id string, who Approver, shown *Binding) (*Session, error) {
	if err := e.refuseWhileGate("confirm_rules", id, who.Actor, "a confirmation of the rules of session "+id+" via "+who.Via); err != nil {
		return nil, err
	}
	return e.change(id, CLIActor, true, false, func(s *Session) error {
		e.rules.harness.forget()
		r := e.rules.refresh()
		now, err := e.rulesFor(r, s.Workflow, recordedSource(s))
		if err != nil {
			return err
		}
		if shown != nil {
			if ch := shown.Changes(now); len(ch) > 0 {
				return refused("nothing was confirmed: the rules changed while they were shown (%s); run confirm-rules again", strings.Join(ch, ", "))
			}
		}
		if s.Rules != nil && len(s.Rules.Changes(now)) == 0 {
			return refused("the rules of session %s have not changed; there is nothing to confirm", s.ID)
		}
		if err := e.rebindApproval(s, r); err != nil {
			return err
		}
		changes, err := e.adoptRules(s, r)
		if err != nil {
			return err
		}
		e.audit(s, who.Actor, "confirm_rules", s.Current, s.Current, "confirmed", who.Via+": "+strings.Join(changes, "; "))
		return nil
	})
}

// rebindApproval binds the approval of an execution session's spec to the
// session's workflow and the settings of r, leaving what it binds of the
// spec's files as it was: a changed spec still needs a new approval.
func (e *Engine) rebindApproval(s *Session, r *ruleSet) error {
	def, _ := r.lib.Get(s.Workflow)
	if !def.RequiresApprovedSpec {
		return nil
	}
	rec, err := e.SpecApproval(s.Inputs["spec"])
	if err != nil || rec == nil || rec.Binding == nil {
		return err
	}
	if rec.Binding.Workflows == nil {
		rec.Binding.Workflows = map[string]string{}
	}
	rec.Binding.Workflows[def.Name] = def.Digest
	rec.Binding.Settings = r.judgingSettings(e.set.Root)
	rec.Binding.SettingsSHA256 = settingsSHA256(rec.Binding.Settings)
	_, hashes, err := e.harnessNow(false) // ConfirmRules read it afresh
	if err != nil {
		return err
	}
	rec.Binding.Harness = hashes
	return e.writeApproval(rec)
}
