package workflow

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// Binding is what a person approved: the bytes of every file of the spec,
// the workflow definitions that will judge the work, and the settings in
// force (test command, coverage). An approval holds only while all three
// are unchanged, so editing the spec or weakening the rules after approval
// voids it instead of riding on it.
type Binding struct {
	// Files maps each file of the spec folder (slash path from the project
	// root) to its SHA-256; tasks.md is hashed with every checkbox unticked,
	// because ticking a criterion while implementing is progress, not a
	// change of what was approved.
	Files map[string]string `json:"files,omitempty"`
	// Workflows maps each workflow that judges an approved spec's work to the
	// SHA-256 of its workflow.yaml.
	Workflows map[string]string `json:"workflows"`
	// Settings are the effective workflow.* settings the gates apply, and
	// SettingsSHA256 the hash of their canonical JSON.
	Settings       map[string]string `json:"settings"`
	SettingsSHA256 string            `json:"settings_sha256"`
	// Harness maps each part of the test harness (package harness: the
	// files and sections that decide what the tests run and how they are
	// counted) to the SHA-256 of its bytes. Nil: recorded before harnesses
	// were, and not compared; empty: the project has none.
	Harness map[string]string `json:"harness,omitzero"`
}

// Changes lists, in words, how now differs from b ("tasks.md changed",
// "notes.md added", "setting test_command changed from … to …"); nil if it
// does not.
func (b *Binding) Changes(now *Binding) []string {
	var out []string
	out = appendMapChanges(out, "", b.Files, now.Files)
	out = appendMapChanges(out, "workflow ", b.Workflows, now.Workflows)
	if b.Harness != nil && now.Harness != nil {
		out = appendMapChanges(out, "test harness ", b.Harness, now.Harness)
	}
	if b.SettingsSHA256 != now.SettingsSHA256 {
		keys := maps.Clone(now.Settings)
		for k := range b.Settings {
			keys[k] = ""
		}
		changed := false
		for _, k := range sortedKeys(keys) {
			if b.Settings[k] != now.Settings[k] {
				out = append(out, fmt.Sprintf("setting workflow.%s changed from %q to %q", k, b.Settings[k], now.Settings[k]))
				changed = true
			}
		}
		if !changed {
			out = append(out, "the workflow settings changed")
		}
	}
	return out
}

func appendMapChanges(out []string, prefix string, was, now map[string]string) []string {
	for _, k := range sortedKeys(was) {
		switch h, ok := now[k]; {
		case !ok:
			out = append(out, prefix+k+" removed")
		case h != was[k]:
			out = append(out, prefix+k+" changed")
		}
	}
	for _, k := range sortedKeys(now) {
		if _, ok := was[k]; !ok {
			out = append(out, prefix+k+" added")
		}
	}
	return out
}

// maxSpecFiles bounds what an approval hashes: a spec folder is a handful of
// markdown files.
const maxSpecFiles = 1000

// tickable are the files of a spec folder whose checkboxes an approval does
// not bind: ticking a criterion is progress, not a change of what was
// approved (tasks.md; the light paths' one document).
var tickable = map[string]bool{"tasks.md": true, "change.md": true, "bug.md": true}

var tickedBox = regexp.MustCompile(`(?m)^([ \t]*[-*+][ \t]+)\[[xX]\]`)

// BindingFor computes what an approval of the spec folder specDir (relative
// to the project root) binds now.
func (e *Engine) BindingFor(specDir string) (*Binding, error) {
	b, _, err := e.SpecSnapshot(specDir)
	return b, err
}

// SpecFile is one file of a spec as an approval binds it: Raw is the file
// as read, Bound the bytes its hash is taken of (for tasks.md, Raw with
// every checkbox unticked).
type SpecFile struct {
	Raw, Bound []byte
}

// SpecSnapshot returns what an approval of specDir binds now together with
// the files it hashed, read once: a page that shows these files and sends
// the binding back with the approval approves exactly what it showed.
func (e *Engine) SpecSnapshot(specDir string) (*Binding, map[string]SpecFile, error) {
	return e.specSnapshot(specDir, false)
}

// specSnapshot is SpecSnapshot with the harness read afresh when fresh: an
// approval binds the harness as it is, not as it was a moment ago.
func (e *Engine) specSnapshot(specDir string, fresh bool) (*Binding, map[string]SpecFile, error) {
	b := &Binding{Files: map[string]string{}, Workflows: map[string]string{}}
	files := map[string]SpecFile{}
	root := filepath.Join(e.set.Root, filepath.FromSlash(specDir))
	if err := notBindable(specDir, root, specDir); err != nil {
		return nil, nil, err
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, nil, notFound("no spec folder %s", specDir)
	}
	// WalkDir looks at each entry without following it: a link (to a file
	// or a folder) is refused by readSpecFile, never hashed or descended.
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if len(b.Files) == maxSpecFiles {
			return refused("%s holds more than %d files; a spec folder holds the spec only", specDir, maxSpecFiles)
		}
		rel, _ := filepath.Rel(e.set.Root, path)
		rel = filepath.ToSlash(rel)
		data, err := readSpecFile(specDir, path, rel)
		if err != nil {
			return err
		}
		if d.Name() == changesFile && filepath.Dir(path) == root && e.agentosChanges(specDir, data) {
			return nil // the spec's history as agentos wrote it (converge.go)
		}
		bound := data
		if tickable[d.Name()] && filepath.Dir(path) == root {
			bound = tickedBox.ReplaceAll(data, []byte("${1}[ ]"))
		}
		b.Files[rel] = sha256Hex(bound)
		files[rel] = SpecFile{Raw: data, Bound: bound}
		return nil
	})
	if err != nil {
		if KindOf(err) != 0 {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("read the spec %s: %w", specDir, err)
	}
	r := e.rules.refresh()
	for _, d := range r.lib.List() {
		if d.RequiresApprovedSpec {
			b.Workflows[d.Name] = d.Digest
		}
	}
	b.Settings = r.judgingSettings(e.set.Root)
	b.SettingsSHA256 = settingsSHA256(b.Settings)
	parts, hashes, err := e.harnessNow(fresh)
	if err != nil {
		return nil, nil, err
	}
	b.Harness = hashes
	if fresh {
		// What is approved is kept, for the diff a later change shows.
		e.keepHarness(parts)
	}
	return b, files, nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// How a person approved (gates.Approval.Via).
const (
	ViaTerminal       = "terminal"
	ViaNonInteractive = "non-interactive (--yes)"
	ViaReviewPage     = "review page"
)

// ReviewActor is a person acting through the review page (agentos review),
// as the audit log names them.
var ReviewActor = Actor{Client: "agentos-review"}

// ViaElicitation is how an approval answered in the IDE of client is recorded.
func ViaElicitation(client string) string { return "elicitation by " + client }

// Approver is a person approving, how they did, and who the audit log
// names for it: CLIActor at the terminal, the MCP client that asked them
// for an elicitation.
type Approver struct {
	By    string
	Via   string
	Actor Actor
}

// ElicitationAllowed reports whether a person may approve through their
// IDE's elicitation prompt (workflow.approval is not "terminal").
func (e *Engine) ElicitationAllowed() bool {
	return e.rules.refresh().wf.Approval != config.ApprovalTerminal
}

// ApprovalRecord is the record, under .agentos/state/approvals/<spec>.json,
// that a person approved a spec folder, and what that approval binds.
type ApprovalRecord struct {
	Spec    string    `json:"spec"`
	By      string    `json:"by"`
	Via     string    `json:"via,omitempty"`
	At      time.Time `json:"at"`
	Note    string    `json:"note,omitempty"`
	Session string    `json:"session,omitempty"` // the spec_creation_v1 session that approved it
	Binding *Binding  `json:"binding,omitempty"`
	// CoverageThreshold is the threshold shown to the person who approved;
	// the spec's execution applies it, whatever the spec says later.
	CoverageThreshold *float64 `json:"coverage_threshold,omitempty"`
}

// PendingApproval returns the spec folder a session asks approval for and
// what approving it now would bind, for a person to read before approving.
func (e *Engine) PendingApproval(id string) (string, *Binding, error) {
	s, err := e.Get(id)
	if err != nil {
		return "", nil, err
	}
	if err := e.checkApprovable(s); err != nil {
		return "", nil, err
	}
	b, err := e.BindingFor(s.Vars["spec_dir"])
	return s.Vars["spec_dir"], b, err
}

// AwaitsApproval reports whether session s waits for a person to approve
// its spec now.
func (e *Engine) AwaitsApproval(s *Session) bool { return e.checkApprovable(s) == nil }

func (e *Engine) checkApprovable(s *Session) error {
	if err := requireActive(s); err != nil {
		return err
	}
	if !e.phaseNeedsApproval(s) {
		return refused("session %s is in phase %d (%s), which does not ask for approval", s.ID, s.Current, s.phase(s.Current).Name)
	}
	if s.Vars["spec_dir"] == "" {
		return refused("session %s names no spec folder to approve", s.ID)
	}
	return nil
}

// Approve records a person's approval of the session's spec, bound to what
// it holds now. shown, when not nil, is what the person was shown: if the
// spec changed since, nothing is approved. No MCP tool reaches this but the
// elicitation the person answers in their IDE.
func (e *Engine) Approve(id string, who Approver, note string, shown *Binding) (*Session, error) {
	if strings.HasPrefix(who.Via, "elicitation") && !e.ElicitationAllowed() {
		return nil, &Error{Kind: KindForbidden, Msg: "workflow.approval is \"terminal\": approve with `agentos workflow approve` in a terminal"}
	}
	if err := e.refuseWhileGate("approve", id, who.Actor, "an approval of session "+id+" by "+who.By+" via "+who.Via); err != nil {
		return nil, err
	}
	return e.mutate(id, CLIActor, true, func(s *Session) error {
		if err := e.checkApprovable(s); err != nil {
			return err
		}
		b, files, err := e.specSnapshot(s.Vars["spec_dir"], true)
		if err != nil {
			return err
		}
		if err := changedWhileShown(shown, b); err != nil {
			return err
		}
		e.keepApproved(files)
		t, err := e.SpecThreshold(s.Vars["spec_dir"])
		if err != nil {
			return err
		}
		// What the person approves is the threshold now, whatever the spec
		// says later.
		s.Vars["coverage_threshold"], s.Vars["coverage_threshold_source"] = strconv.FormatFloat(t.Percent, 'f', -1, 64), t.Source
		s.Approval = &gates.Approval{By: who.By, At: e.set.Now().UTC(), Note: note, Via: who.Via}
		s.Binding, s.Changes = b, nil
		e.audit(s, who.Actor, "approve", s.Current, s.Current, "approved", who.By+" via "+who.Via)
		return nil
	})
}

func changedWhileShown(shown, now *Binding) error {
	if shown == nil {
		return nil
	}
	if ch := shown.Changes(now); len(ch) > 0 {
		return refused("nothing was approved: the spec changed while it was shown (%s); run the approval again", strings.Join(ch, ", "))
	}
	return nil
}

// Reject records a person's request for changes.
func (e *Engine) Reject(id string, who Approver, reason string) (*Session, error) {
	return e.RequestChanges(id, who, reason, nil, nil)
}

// Bounds of the comments on lines one request for changes carries.
const (
	MaxLineComments    = 200
	maxLineCommentText = 8000
	maxQuoteBytes      = 4000
)

// RequestChanges records a person's request for changes with their
// comments on lines of the spec's files. reason may be empty when there
// are comments. shown, when not nil, is the spec as the person read it:
// with comments, nothing is recorded if a file changed since, or if a
// commented line no longer reads as it did when they commented (its
// Quote, when set); each comment's Quote is then set to the lines as they
// are, which is what the agent receives.
func (e *Engine) RequestChanges(id string, who Approver, reason string, comments []LineComment, shown *Binding) (*Session, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" && len(comments) == 0 {
		return nil, invalid("reason", "say what should change: --reason \"…\"")
	}
	if len(comments) > MaxLineComments {
		return nil, invalid("comments", "%d comments on lines; at most %d go with one request", len(comments), MaxLineComments)
	}
	for i, c := range comments {
		if strings.TrimSpace(c.Text) == "" {
			return nil, invalid("comments", "the comment on %s line %d says nothing: write it or delete it", c.File, c.Line)
		}
		if len(c.Text) > maxLineCommentText {
			return nil, invalid("comments", "the comment on %s line %d is %d bytes; at most %d", c.File, c.Line, len(c.Text), maxLineCommentText)
		}
		comments[i].Text = strings.TrimSpace(c.Text)
		if comments[i].EndLine == 0 {
			comments[i].EndLine = c.Line
		}
	}
	// It withdraws an approval given at this gate: a person's decision too.
	if err := e.refuseWhileGate("reject", id, who.Actor, "a request for changes on session "+id+" by "+who.By+" via "+who.Via); err != nil {
		return nil, err
	}
	return e.mutate(id, CLIActor, true, func(s *Session) error {
		if err := e.checkApprovable(s); err != nil {
			return err
		}
		var quoted []LineComment
		if len(comments) > 0 {
			b, files, err := e.specSnapshot(s.Vars["spec_dir"], false)
			if err != nil {
				return err
			}
			if shown != nil {
				if ch := shown.Changes(b); len(ch) > 0 {
					return refused("nothing was sent: the spec changed while it was shown (%s); read the new version, then send your comments again", strings.Join(ch, ", "))
				}
			}
			if quoted, err = quoteLines(comments, files); err != nil {
				return err
			}
		}
		s.Approval, s.Binding = nil, nil
		s.Changes = &ChangeRequest{By: who.By, Reason: reason, At: e.set.Now().UTC(), Comments: quoted}
		detail := reason
		if n := len(quoted); n > 0 {
			detail = strings.TrimSpace(fmt.Sprintf("%s (%d %s on lines)", reason, n, map[bool]string{true: "comment", false: "comments"}[n == 1]))
		}
		e.audit(s, who.Actor, "reject", s.Current, s.Current, "changes requested", detail)
		return nil
	})
}

// quoteLines checks each comment against the spec's files as they are and
// returns them with the lines they are on quoted.
func quoteLines(comments []LineComment, files map[string]SpecFile) ([]LineComment, error) {
	out := make([]LineComment, 0, len(comments))
	for _, c := range comments {
		f, ok := files[c.File]
		if !ok {
			return nil, refused("nothing was sent: the spec has no file %s (commented on at line %d)", c.File, c.Line)
		}
		lines := SpecLines(f.Raw)
		if c.Line < 1 || c.EndLine < c.Line || c.EndLine > len(lines) {
			return nil, refused("nothing was sent: %s has %d lines; a comment is on lines %d–%d", c.File, len(lines), c.Line, c.EndLine)
		}
		quote := strings.Join(lines[c.Line-1:c.EndLine], "\n")
		if c.Quote != "" && c.Quote != quote {
			return nil, refused("nothing was sent: %s line %d changed since you commented on it (it read %q, it reads %q now); move or delete that comment, then send again", c.File, c.Line, clip(c.Quote, 80), clip(quote, 80))
		}
		c.Quote = clip(quote, maxQuoteBytes)
		out = append(out, c)
	}
	return out, nil
}

// SpecLines splits a spec file into its lines as a person reads them
// numbered (without line ends; a last line end starts no line).
func SpecLines(raw []byte) []string {
	s := strings.ReplaceAll(string(raw), "\r\n", "\n")
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

var specName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// SpecDir returns the folder of the spec named spec, checking the name.
func SpecDir(spec string) (string, error) {
	if !specName.MatchString(spec) || strings.Contains(spec, "..") {
		return "", invalid("spec", "%q is not a spec folder name", spec)
	}
	return ".agentos/specs/" + spec, nil
}

// ApproveSpec records a person's approval of a spec folder written without
// spec_creation_v1 (or approves one again after it changed). Only the CLI
// calls it. shown is as for Approve.
// It returns the coverage threshold the spec's execution will apply.
func (e *Engine) ApproveSpec(spec string, who Approver, note string, shown *Binding) (Threshold, error) {
	dir, err := SpecDir(spec)
	if err != nil {
		return Threshold{}, err
	}
	if err := e.refuseWhileGate("approve", "", who.Actor, "an approval of spec "+spec+" by "+who.By+" via "+who.Via); err != nil {
		return Threshold{}, err
	}
	if err := e.Executable(dir); err != nil {
		return Threshold{}, err
	}
	adopt := e.IsDrafted(spec)
	if err := e.CheckDraft(spec); err != nil {
		return Threshold{}, err
	}
	b, files, err := e.specSnapshot(dir, true)
	if err != nil {
		return Threshold{}, err
	}
	if err := changedWhileShown(shown, b); err != nil {
		return Threshold{}, err
	}
	e.keepApproved(files)
	t, err := e.SpecThreshold(dir)
	if err != nil {
		return t, err
	}
	if err := e.writeApproval(&ApprovalRecord{Spec: spec, By: who.By, Via: who.Via, At: e.set.Now().UTC(), Note: note, Binding: b, CoverageThreshold: &t.Percent}); err != nil {
		return t, err
	}
	if adopt {
		// A spec drafted from code is finished once a person approves it:
		// its criteria are tests that exist, and its evidence is recorded
		// as a finished spec's, for `agentos specs check`.
		if err := e.adoptDrafted(context.Background(), spec, dir, who); err != nil {
			return t, fmt.Errorf("spec %s is approved, but its evidence could not be recorded (%w); approve it again to retry", spec, err)
		}
	}
	return t, nil
}

// Executable refuses a spec folder the execution workflow would refuse to
// start on (no tasks.md, or one that does not parse into phases of numbered
// tasks), naming what is missing: an approval of what cannot be executed
// only moves the refusal to later, after a person has signed.
func (e *Engine) Executable(dir string) error {
	def, ok := e.rules.refresh().lib.Get("spec_execution_v1")
	if !ok || def.PhasesFromTasks == nil {
		return nil
	}
	if _, err := e.plan(def, map[string]string{"spec_dir": dir}); err != nil {
		return refused("nothing was approved: %v; write the spec's tasks (the spec_creation_v1 workflow walks an agent through it), then approve it", err)
	}
	return nil
}

func (e *Engine) approvalPath(spec string) string {
	return filepath.Join(e.set.StateDir, "approvals", spec+".json")
}

func (e *Engine) writeApproval(rec *ApprovalRecord) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the approval of %s: %w", rec.Spec, err)
	}
	if err := os.MkdirAll(filepath.Dir(e.approvalPath(rec.Spec)), 0o755); err != nil {
		return fmt.Errorf("record the approval of %s: %w", rec.Spec, err)
	}
	// A gate's rules check must not take the server's own write for tampering.
	defer e.store.own.note(e.approvalPath(rec.Spec))
	return atomicfile.WriteFile(e.approvalPath(rec.Spec), append(data, '\n'), 0o644)
}

// SpecApproval returns the approval record of spec; nil if there is none.
func (e *Engine) SpecApproval(spec string) (*ApprovalRecord, error) {
	data, err := os.ReadFile(e.approvalPath(spec))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the approval of %s: %w", spec, err)
	}
	var rec ApprovalRecord
	if err := json.Unmarshal(bytes.TrimSpace(data), &rec); err != nil {
		return nil, refused(".agentos/state/approvals/%s.json is not an approval record (%v); approve the spec again with `agentos workflow approve --spec %s`", spec, err, spec)
	}
	return &rec, nil
}

// withdrawApproval removes the approval record that session s wrote, when
// s no longer stands for an approved spec (rolled back or reset).
func (e *Engine) withdrawApproval(s *Session) {
	spec := filepath.Base(s.Vars["spec_dir"])
	if s.Vars["spec_dir"] == "" {
		return
	}
	if rec, err := e.SpecApproval(spec); err == nil && rec != nil && rec.Session == s.ID {
		os.Remove(e.approvalPath(spec))
	}
}

// verifySpecApproval returns the approval of spec if it still holds: it
// exists and the spec, the judging workflows and the settings are what was
// approved. Otherwise the refusal names what changed and how to approve again.
func (e *Engine) verifySpecApproval(spec, specDir string) (*ApprovalRecord, error) {
	if fi, err := os.Stat(filepath.Join(e.set.Root, specDir)); err != nil || !fi.IsDir() {
		return nil, notFound("no spec folder %s; list .agentos/specs/ for the specs", specDir)
	}
	rec, err := e.SpecApproval(spec)
	if err != nil {
		return nil, err
	}
	again := fmt.Sprintf("ask a person to review the spec and approve it again with `agentos workflow approve --spec %s` in a terminal", spec)
	if rec == nil {
		return nil, refused("spec %s has not been approved by a person: finish spec_creation_v1, or %s", spec, strings.Replace(again, " again", "", 1))
	}
	if rec.Binding == nil {
		return nil, refused("the approval of spec %s does not record what was approved (it predates approvals bound to the spec's content); %s", spec, again)
	}
	now, err := e.BindingFor(specDir)
	var nb *notBindableError
	if errors.As(err, &nb) {
		// What it binds now cannot be read as bytes, so what was approved
		// is no longer what the spec says.
		return nil, refused("the approval of spec %s by %s on %s is void: %s, then %s",
			spec, rec.By, rec.At.Format(time.DateOnly), nb, again)
	}
	if err != nil {
		return nil, err
	}
	if ch := rec.Binding.Changes(now); len(ch) > 0 {
		return nil, refused("the approval of spec %s by %s on %s is void: since it was approved, %s; %s",
			spec, rec.By, rec.At.Format(time.DateOnly), strings.Join(ch, ", "), again)
	}
	return rec, nil
}

// checkStillApproved runs before a gate: an execution session's spec must
// still be approved as it is now, and a creation session's approval (once
// given) must still match its spec. The refusal names what changed.
func (e *Engine) checkStillApproved(s *Session) error {
	if err := e.holdHarness(s); err != nil {
		return err
	}
	def, ok := e.rules.get().lib.Get(s.Workflow)
	switch {
	case !ok:
		return nil
	case def.RequiresApprovedSpec:
		rec, err := e.verifySpecApproval(s.Inputs["spec"], s.Vars["spec_dir"])
		if err != nil {
			return err
		}
		s.SpecApproval = rec // a newer approval of the same spec replaces the one it started under
	case s.Approval != nil && (e.phaseNeedsApproval(s) || def.RunsTests):
		// A light path's approval binds its document for the rest of the
		// session: the work is judged against what the person read.
		if err := e.sessionApprovalHolds(s); err != nil {
			return refused("the approval of %s by %s is %s; ask a person to review it and run `agentos workflow approve %s` again", s.Vars["spec_dir"], s.Approval.By, err, s.ID)
		}
	}
	return nil
}

// sessionApprovalHolds reports why the approval given in session s no
// longer matches its spec (nil while it does).
func (e *Engine) sessionApprovalHolds(s *Session) error {
	if s.Binding == nil {
		return refused("void: it does not record what was approved")
	}
	now, err := e.BindingFor(s.Vars["spec_dir"])
	var nb *notBindableError
	if errors.As(err, &nb) {
		return refused("void: %s", nb)
	}
	if err != nil {
		return err
	}
	if ch := s.Binding.Changes(now); len(ch) > 0 {
		return refused("void: since it was approved, %s", strings.Join(ch, ", "))
	}
	return nil
}

// ApprovalState says what a session was approved for and whether that
// still holds: the approval (nil when there is none) and, when it no longer
// holds, why. An execution session answers for the spec it implements.
func (e *Engine) ApprovalState(s *Session) (*ApprovalRecord, error) {
	if def, ok := e.rules.get().lib.Get(s.Workflow); ok && def.RequiresApprovedSpec {
		rec, err := e.verifySpecApproval(s.Inputs["spec"], s.Vars["spec_dir"])
		if rec == nil {
			rec = s.SpecApproval
		}
		return rec, err
	}
	if s.Approval == nil {
		return nil, nil
	}
	a := s.Approval
	rec := &ApprovalRecord{Spec: filepath.Base(s.Vars["spec_dir"]), By: a.By, Via: a.Via, At: a.At, Note: a.Note, Session: s.ID, Binding: s.Binding}
	return rec, e.sessionApprovalHolds(s)
}

// shown is s as a person must read it in what they approve: as it is, or,
// when it holds a control character or a bidirectional override (a file
// name an agent chose: an escape sequence could erase or hide lines of a
// terminal, an override reorder them), quoted with those escaped, so every
// byte is visible and nothing after it is hidden.
func shown(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// Describe says, for a person about to approve specDir, what the approval
// binds: each file with its SHA-256, the workflows that will judge the work,
// the test command, the coverage threshold and the test harness.
func (e *Engine) Describe(specDir string, b *Binding, s *Session) string {
	var w strings.Builder
	w.WriteString("Files (SHA-256")
	for _, f := range sortedKeys(b.Files) {
		if name := filepath.Base(f); tickable[name] && filepath.Dir(filepath.FromSlash(f)) == filepath.FromSlash(specDir) {
			w.WriteString("; " + name + " with its checkboxes unticked")
		}
	}
	w.WriteString("):\n")
	for _, f := range sortedKeys(b.Files) {
		fmt.Fprintf(&w, "  %s  %s\n", b.Files[f], shown(f))
	}
	w.WriteString("Workflows that will judge the work (SHA-256 of workflow.yaml):\n")
	if d, ok := e.judgedBySession(s); ok {
		fmt.Fprintf(&w, "  %s  %s (this session's next phase; the session keeps to its rules as they are now)\n", d.Digest, shown(d.Name))
	} else {
		for _, n := range sortedKeys(b.Workflows) {
			fmt.Fprintf(&w, "  %s  %s\n", b.Workflows[n], shown(n))
		}
	}
	cmd := b.Settings["test_command"]
	if cmd == "" {
		cmd = "(none: set workflow.test_command in .agentos/config/mcp.yaml)"
	}
	threshold := "unreadable: " // the approval itself refuses and names the line
	if t, err := e.SpecThreshold(specDir); err == nil {
		threshold = t.String()
	} else {
		threshold += err.Error()
	}
	fmt.Fprintf(&w, "Test command: %s\nTest report read: %s\nCoverage report: %s\nCoverage threshold: %s\nStrict acceptance criteria: %s\n",
		shown(cmd), shown(b.Settings["test_report"]), shown(b.Settings["coverage_file"]), shown(threshold), b.Settings["strict"])
	if b.Settings["sandbox"] == config.SandboxUnsandboxed {
		w.WriteString("Gate sandbox: none (workflow.sandbox: unsandboxed): the agent's tests run with your full authority\n")
	} else {
		w.WriteString("Gate sandbox: required: the tests run without network, secrets or writes outside a throwaway copy\n")
	}
	describeHarness(&w, b)
	w.WriteString("A change to any of these after approval voids it.\n")
	return w.String()
}

// judgedBySession returns the workflow of s when its own later phases run
// the tests that judge the work it approves (a quick change, a bug fix),
// rather than a spec execution started from the approved spec.
func (e *Engine) judgedBySession(s *Session) (*Definition, bool) {
	if s == nil {
		return nil, false
	}
	d, ok := e.rules.refresh().lib.Get(s.Workflow)
	if !ok || !d.RunsTests {
		return nil, false
	}
	return d, true
}
