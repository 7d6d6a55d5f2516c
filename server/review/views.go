package review

import (
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/trust"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/agentos-dev/agentos/server/info"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/standards"
	"github.com/agentos-dev/agentos/workflow"
)

// overview is what the page polls: everything but one session's detail.
type overview struct {
	Project string `json:"project"`
	// Inbox is what waits for the person, shown first.
	Inbox      []inboxItem  `json:"inbox"`
	Sessions   []sessionRow `json:"sessions"`
	Unreadable []string     `json:"unreadable,omitempty"`
	// Settings says which settings of mcp.yaml wait for `agentos trust`
	// (trust.State.Notice): the gates run the defaults meanwhile.
	Settings  string                   `json:"settings,omitempty"`
	Specs     []specRow                `json:"specs"`
	Agents    []info.Client            `json:"agents"`
	Indexes   []searchtool.IndexStatus `json:"indexes"`
	Standards []standards.Listed       `json:"standards"`
}

type sessionRow struct {
	ID string `json:"id"`
	// Name is the feature's name, Spec its spec folder's: what a person
	// knows the work by; the ID is secondary.
	Name     string `json:"name"`
	Spec     string `json:"spec,omitempty"`
	Workflow string `json:"workflow"`
	Status   string `json:"status"`
	// State is the status in the person's words: whose move it is.
	State     string    `json:"state"`
	Phase     string    `json:"phase"`
	Task      string    `json:"task,omitempty"`
	Owner     string    `json:"owner"`
	UpdatedAt time.Time `json:"updated_at"`
	// Attention says what waits for a person, "" when nothing does, and
	// Asked what they are asked to do.
	Attention string `json:"attention,omitempty"`
	Asked     string `json:"asked,omitempty"`
	// Decide is the page where the person makes the decision asked.
	Decide string `json:"decide,omitempty"`
}

type specRow struct {
	Name  string `json:"name"`
	State string `json:"state"` // not approved, approved, changed since approval
	By    string `json:"by,omitempty"`
	At    string `json:"at,omitempty"`
	// Living is a finished spec's state as its last check found it
	// (holding, drifted, touched, unchecked, unverified); "" when the spec
	// has not finished.
	Living string `json:"living,omitempty"`
}

// Approval states of a spec folder (specRow.State).
const (
	specNotApproved = "not approved"
	specApproved    = "approved"
	specChanged     = "changed since approval"
)

func (h *Handler) overview() (*overview, error) {
	e := h.opts.Engine
	sessions, corrupt, err := e.Store().List()
	if err != nil {
		return nil, err
	}
	ov := &overview{Project: h.opts.Project.Name(), Sessions: []sessionRow{}, Agents: h.opts.Agents(), Indexes: h.opts.Indexes()}
	for _, s := range sessions {
		attention, asked, state, onSpec := h.triage(s)
		row := sessionRow{
			ID: s.ID, Name: featureName(s), Spec: specOf(s), Workflow: s.Workflow, Status: s.Status, State: state,
			Phase: s.PhaseLabel(), Task: currentTask(s), Owner: s.Owner.Client, UpdatedAt: s.UpdatedAt,
			Attention: attention, Asked: asked,
		}
		if attention != "" {
			row.Decide = "#/session/" + s.ID + "/decide"
			if onSpec {
				row.Decide = "#/spec/" + row.Spec + "/decide"
			}
		}
		ov.Sessions = append(ov.Sessions, row)
	}
	sort.SliceStable(ov.Sessions, func(i, j int) bool { return ov.Sessions[i].UpdatedAt.After(ov.Sessions[j].UpdatedAt) })
	for _, c := range corrupt {
		ov.Unreadable = append(ov.Unreadable, c.Error())
	}
	if ov.Specs, err = h.specs(); err != nil {
		return nil, err
	}
	ov.Inbox = inbox(ov.Sessions, ov.Specs)
	ov.Standards = h.standards()
	if _, st, err := trust.Load(h.opts.Project); err == nil {
		ov.Settings = st.Notice()
	}
	return ov, nil
}

// currentTask is the title of the first task of the current phase not done.
func currentTask(s *workflow.Session) string {
	if s.Status == workflow.StatusCompleted || s.Current < 1 || s.Current > len(s.Phases) {
		return ""
	}
	for _, t := range s.Phases[s.Current-1].Tasks {
		if t.Status != workflow.Done {
			return t.ID + " " + t.Title
		}
	}
	return ""
}

// specs lists the spec folders with whether their approval holds.
func (h *Handler) specs() ([]specRow, error) {
	entries, err := os.ReadDir(h.opts.Project.Specs())
	if errors.Is(err, fs.ErrNotExist) {
		return []specRow{}, nil
	}
	if err != nil {
		return nil, err
	}
	rows := []specRow{}
	living := map[string]string{}
	if states, err := h.opts.Engine.Specs(); err == nil {
		for _, st := range states {
			living[st.Spec] = st.State
		}
	} else {
		h.log.Warn("review page: the finished specs", "err", err)
	}
	for _, d := range entries {
		dir, err := workflow.SpecDir(d.Name())
		if !d.IsDir() || err != nil {
			continue
		}
		row := specRow{Name: d.Name(), State: specNotApproved, Living: living[d.Name()]}
		rec, err := h.opts.Engine.SpecApproval(d.Name())
		if err == nil && rec != nil && rec.Binding != nil {
			row.State, row.By, row.At = specApproved, rec.By, rec.At.Format(time.RFC3339)
			if now, err := h.opts.Engine.BindingFor(dir); err != nil || len(rec.Binding.Changes(now)) > 0 {
				row.State = specChanged
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// standards lists the project's standards; the page shows what could be read.
func (h *Handler) standards() []standards.Listed {
	rows, _ := standards.List(h.opts.Project.Standards())
	return rows
}

// sessionView is one session in full.
type sessionView struct {
	Session      *workflow.Session        `json:"session"`
	Integrity    *workflow.Integrity      `json:"integrity,omitempty"`
	RulesChanged string                   `json:"rules_changed,omitempty"`
	Audit        []workflow.AuditEntry    `json:"audit"`
	Approval     *workflow.ApprovalRecord `json:"approval,omitempty"`
	ApprovalVoid string                   `json:"approval_void,omitempty"`
	Pending      *specView                `json:"pending,omitempty"` // the spec awaiting approval
	Rules        *rulesView               `json:"rules,omitempty"`   // rules changed under the session
	// Criteria is the text of each criterion the gates' proofs name, by
	// lower-case ID.
	Criteria map[string]string `json:"criteria,omitempty"`
}

type rulesView struct {
	Changes []string          `json:"changes"`
	Binding *workflow.Binding `json:"binding"` // what a confirmation records, sent back with it
	// Harness shows each changed part of the test harness with its diff:
	// what decides which tests run is read before it is confirmed.
	Harness []fileView `json:"harness,omitempty"`
}

func (h *Handler) session(id string) (*sessionView, error) {
	e := h.opts.Engine
	s, err := e.Get(id)
	if err != nil {
		return nil, err
	}
	v := &sessionView{Session: s, Integrity: s.Integrity, RulesChanged: s.RulesChanged, Criteria: h.criteriaTexts(s)}
	if v.Audit, err = e.Store().ReadAudit(s.ID); err != nil || v.Audit == nil {
		v.Audit = []workflow.AuditEntry{}
	}
	rec, void := e.ApprovalState(s)
	v.Approval = rec
	if void != nil {
		v.ApprovalVoid = void.Error()
	}
	if e.AwaitsApproval(s) {
		if v.Pending, err = h.spec(s.Vars["spec_dir"], s); err != nil {
			return nil, err
		}
	}
	if s.RulesChanged != "" {
		if _, changes, now, err := e.PendingRules(s.ID); err == nil && len(changes) > 0 {
			v.Rules = &rulesView{Changes: changes, Binding: now, Harness: h.harnessDiffs(s.Rules, now)}
		}
	}
	return v, nil
}

// specView is a spec as an approval would bind it now.
type specView struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// Binding is what approving binds: the page sends it back, and nothing
	// is approved if the spec no longer matches it.
	Binding  *workflow.Binding        `json:"binding"`
	Describe string                   `json:"describe"`
	Files    []fileView               `json:"files"`
	Last     *workflow.ApprovalRecord `json:"last_approval,omitempty"`
	// Against says what each file is compared with: the version the
	// person last decided on ("the version you asked changes on, …"), or
	// the last approval; "" when there is none.
	Against string `json:"against,omitempty"`
	// History is every decision on the spec, newest first, with what
	// changed since the one before.
	History []historyEntry `json:"history,omitempty"`
	// Waiting is the session that waits for this spec's approval: an
	// approval from the spec's page is given there, so that there is one
	// decision per spec version, whichever page it is made on.
	Waiting string `json:"waiting,omitempty"`
	// Comments are the comments on lines of the person's last request for
	// changes, each open or resolved in the spec as it is now; Commented
	// is when they were sent.
	Comments  []commentView `json:"comments,omitempty"`
	Commented *time.Time    `json:"commented_at,omitempty"`
	// Living is the spec as a finished one: its state as the last check
	// found it, and its dated history; nil until it finishes.
	Living *livingView `json:"living,omitempty"`
}

type livingView struct {
	State   workflow.SpecState      `json:"state"`
	History []workflow.HistoryEntry `json:"history"`
}

// living is the finished spec named spec, or nil when it has not finished.
func (h *Handler) living(spec string) *livingView {
	states, err := h.opts.Engine.Specs()
	if err != nil {
		return nil
	}
	for _, st := range states {
		if st.Spec != spec {
			continue
		}
		v := &livingView{State: st, History: []workflow.HistoryEntry{}}
		if hist, _, err := h.opts.Engine.SpecHistory(spec); err == nil && hist != nil {
			v.History = hist
		}
		return v
	}
	return nil
}

type fileView struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	// Status against the version compared with: unchanged, changed,
	// added, removed, or new (nothing to compare with).
	Status string     `json:"status"`
	Text   string     `json:"text,omitempty"` // the file as it is (empty when removed or not text)
	Lines  int        `json:"lines,omitempty"`
	Binary bool       `json:"binary,omitempty"`
	Diff   []diffLine `json:"diff,omitempty"`
	Note   string     `json:"note,omitempty"` // why no diff is shown
}

// historyEntry is one decision on a spec: the person's from the page, or
// an approval recorded by the workflow (the terminal's, an IDE's).
type historyEntry struct {
	Action  string     `json:"action"`
	By      string     `json:"by"`
	Via     string     `json:"via,omitempty"`
	At      time.Time  `json:"at"`
	Comment string     `json:"comment,omitempty"`
	Session string     `json:"session,omitempty"`
	Files   []fileHash `json:"files"`
	// Comments are the comments on lines sent with a request for changes.
	Comments []workflow.LineComment `json:"comments,omitempty"`
	// Changed is each file that differs from the decision before, with
	// its diff (all of them for the first).
	Changed []fileView `json:"changed,omitempty"`
}

type fileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// maxShownBytes caps a file the page shows: a spec file is a few kB, and
// the page should not carry megabytes because an agent wrote them.
const maxShownBytes = 1 << 20

// maxHistoryDiffs is how many of the newest decisions carry their diffs.
const maxHistoryDiffs = 5

// specByName is the view of a spec folder by name.
func (h *Handler) specByName(name string) (*specView, error) {
	dir, err := workflow.SpecDir(name)
	if err != nil {
		return nil, err
	}
	var waiting *workflow.Session
	if sessions, _, err := h.opts.Engine.Store().List(); err == nil {
		for _, s := range sessions {
			if s.Vars["spec_dir"] == dir && h.opts.Engine.AwaitsApproval(s) {
				waiting = s
				break
			}
		}
	}
	v, err := h.spec(dir, waiting)
	if v != nil && waiting != nil {
		v.Waiting = waiting.ID
	}
	return v, err
}

// spec reads specDir once, as an approval binds it, and compares it with
// the newest of: the person's last decision on it from the page (an
// approval, or a request for changes), the approval of session (the
// session that waits on it, when one does), the spec's approval record.
func (h *Handler) spec(specDir string, session *workflow.Session) (*specView, error) {
	e := h.opts.Engine
	b, files, err := e.SpecSnapshot(specDir)
	if err != nil {
		return nil, err
	}
	v := &specView{Name: filepath.Base(specDir), Dir: specDir, Binding: b, Describe: e.Describe(specDir, b, session)}
	var last map[string]string
	var lastAt time.Time
	if session != nil && session.Binding != nil {
		last, v.Against = session.Binding.Files, "the version approved in this session"
	}
	rec, _ := e.SpecApproval(v.Name)
	if rec != nil && rec.Binding != nil {
		v.Last = rec
		if last == nil {
			last, lastAt, v.Against = rec.Binding.Files, rec.At, "the last approval ("+rec.By+", "+rec.At.Local().Format(time.DateTime)+")"
		}
	}
	decs, err := h.decisions.of(v.Name)
	if err != nil {
		h.log.Warn("review page", "err", err)
	}
	if n := len(decs); n > 0 && decs[n-1].Files != nil && !decs[n-1].At.Before(lastAt) {
		d := decs[n-1]
		last = d.Files
		switch d.Action {
		case decidedChanges:
			v.Against = "the version you asked changes on (" + d.At.Local().Format(time.DateTime) + ")"
		case decidedSeen:
			v.Against = "the version you marked as seen (" + d.At.Local().Format(time.DateTime) + ")"
		default:
			v.Against = "the version you approved (" + d.At.Local().Format(time.DateTime) + ")"
		}
	}
	for _, path := range sortedKeys(b.Files) {
		f := files[path]
		fv := fileView{Path: path, SHA256: b.Files[path]}
		switch {
		case !utf8.Valid(f.Raw):
			fv.Binary = true
		case len(f.Raw) > maxShownBytes:
			fv.Note = fmt.Sprintf("%d bytes: too large to show here; read it in your editor before you approve (its SHA-256 is above)", len(f.Raw))
		default:
			fv.Text = string(f.Raw)
			fv.Lines = len(splitLines(fv.Text))
		}
		var was string
		switch {
		case last == nil:
			fv.Status = "new"
		case last[path] == "":
			fv.Status = "added"
		case last[path] == b.Files[path]:
			fv.Status = "unchanged"
		default:
			fv.Status, was = "changed", last[path]
		}
		if was != "" && fv.Note == "" {
			fv.Diff, fv.Note = h.diffAgainst(was, f.Bound, fv.Binary)
		}
		v.Files = append(v.Files, fv)
	}
	for _, path := range sortedKeys(last) {
		if _, ok := b.Files[path]; !ok {
			fv := fileView{Path: path, Status: "removed"}
			fv.Diff, fv.Note = h.diffAgainst(last[path], nil, false)
			v.Files = append(v.Files, fv)
		}
	}
	v.History = h.history(decs, rec)
	v.Living = h.living(v.Name)
	if n := len(decs); n > 0 && decs[n-1].Action == decidedChanges && len(decs[n-1].Comments) > 0 && (rec == nil || rec.At.Before(decs[n-1].At)) {
		now := map[string]string{}
		for path, f := range files {
			if utf8.Valid(f.Raw) {
				now[path] = string(f.Raw)
			}
		}
		v.Comments = resolve(decs[n-1].Comments, now)
		v.Commented = &decs[n-1].At
	}
	return v, nil
}

// history is the decisions on a spec, newest first: the person's from the
// page and the terminal, and the spec's approval record when neither kept
// it (one made before the terminal kept its decisions, or by another user).
func (h *Handler) history(decs []decision, rec *workflow.ApprovalRecord) []historyEntry {
	var out []historyEntry
	fromPage := false
	for _, d := range decs {
		out = append(out, historyEntry{Action: d.Action, By: d.By, Via: d.Via, At: d.At, Comment: d.Comment, Session: d.Session, Files: hashes(d.Files), Comments: d.Comments})
		fromPage = fromPage || (rec != nil && rec.Binding != nil && d.Action == decidedApproved && sameFiles(d.Files, rec.Binding.Files) && d.By == rec.By && d.Via == rec.Via && d.At.Sub(rec.At).Abs() < time.Minute)
	}
	if rec != nil && rec.Binding != nil && !fromPage {
		out = append(out, historyEntry{Action: decidedApproved, By: rec.By, Via: rec.Via, At: rec.At, Comment: rec.Note, Session: rec.Session, Files: hashes(rec.Binding.Files)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	for i := max(0, len(out)-maxHistoryDiffs); i < len(out); i++ {
		var before map[string]string
		if i > 0 {
			before = files(out[i-1].Files)
		}
		out[i].Changed = h.changedBetween(before, files(out[i].Files))
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// changedBetween is each file that differs between two decided versions,
// with its diff when both were kept.
func (h *Handler) changedBetween(was, now map[string]string) []fileView {
	var out []fileView
	for _, path := range sortedKeys(now) {
		if was[path] == now[path] {
			continue
		}
		fv := fileView{Path: path, SHA256: now[path], Status: "changed"}
		cur, ok := h.kept(now[path])
		switch {
		case !ok:
			fv.Note = "the version decided on was not kept"
		case was == nil || was[path] == "":
			fv.Status = "added"
			if was == nil {
				fv.Status = "new"
			}
			if utf8.Valid(cur) && len(cur) <= maxShownBytes {
				fv.Diff, fv.Note = diffLines("", string(cur))
			}
		default:
			fv.Diff, fv.Note = h.diffAgainst(was[path], cur, !utf8.Valid(cur))
		}
		out = append(out, fv)
	}
	for _, path := range sortedKeys(was) {
		if _, ok := now[path]; !ok && now != nil {
			out = append(out, fileView{Path: path, Status: "removed"})
		}
	}
	return out
}

func hashes(m map[string]string) []fileHash {
	out := []fileHash{}
	for _, k := range sortedKeys(m) {
		out = append(out, fileHash{Path: k, SHA256: m[k]})
	}
	return out
}

func files(hs []fileHash) map[string]string {
	m := map[string]string{}
	for _, f := range hs {
		m[f.Path] = f.SHA256
	}
	return m
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// harnessDiffs is each part of the test harness that differs between was
// and now, with its diff against the version kept when it was recorded.
func (h *Handler) harnessDiffs(was, now *workflow.Binding) []fileView {
	var out []fileView
	for _, c := range workflow.HarnessChanges(was, now) {
		fv := fileView{Path: c.Part, SHA256: c.Now}
		var cur []byte
		if c.Now != "" {
			cur, _, _ = h.opts.Engine.HarnessPart(c.Part)
		}
		switch {
		case c.Was == "":
			fv.Status = "added"
			fv.Diff, fv.Note = diffLines("", string(cur))
		case c.Now == "":
			fv.Status = "removed"
			fv.Diff, fv.Note = h.diffAgainst(c.Was, nil, false)
		default:
			fv.Status = "changed"
			fv.Diff, fv.Note = h.diffAgainst(c.Was, cur, !utf8.Valid(cur))
		}
		out = append(out, fv)
	}
	return out
}

// kept is the version of a file kept under sum: by the person's decisions
// on the page, or by an approval.
func (h *Handler) kept(sum string) ([]byte, bool) {
	if data, ok := h.decisions.file(sum); ok {
		return data, true
	}
	data, ok, err := h.opts.Engine.ApprovedFile(sum)
	return data, err == nil && ok
}

// diffAgainst diffs the version kept under sum with now.
func (h *Handler) diffAgainst(sum string, now []byte, binary bool) ([]diffLine, string) {
	if binary {
		return nil, "not text: no diff shown"
	}
	old, ok := h.kept(sum)
	if !ok {
		return nil, "the version compared with was not kept (approved before agentos kept copies, or removed since); the hashes still tell it changed"
	}
	if !utf8.Valid(old) {
		return nil, "not text: no diff shown"
	}
	return diffLines(string(old), string(now))
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
