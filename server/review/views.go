package review

import (
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/trust"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
	Standards []standardRow            `json:"standards"`
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
}

type standardRow struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Keywords []string `json:"keywords"`
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
	for _, d := range entries {
		dir, err := workflow.SpecDir(d.Name())
		if !d.IsDir() || err != nil {
			continue
		}
		row := specRow{Name: d.Name(), State: specNotApproved}
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

// maxStandards caps the standards listed: a project has tens of them.
const maxStandards = 500

func (h *Handler) standards() []standardRow {
	root := h.opts.Project.Standards()
	rows := []standardRow{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(rows) == maxStandards {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") || d.Name() == "README.md" || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		st := standards.Parse(path, data)
		rel, _ := filepath.Rel(root, path)
		rows = append(rows, standardRow{Path: filepath.ToSlash(rel), Title: st.Title, Keywords: st.Keywords})
		return nil
	})
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
		if v.Pending, err = h.spec(s.Vars["spec_dir"], s.Binding); err != nil {
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
}

type fileView struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	// Status against the last approval: unchanged, changed, added,
	// removed, or new (never approved).
	Status string     `json:"status"`
	Text   string     `json:"text,omitempty"` // the file as it is (empty when removed or not text)
	Binary bool       `json:"binary,omitempty"`
	Diff   []diffLine `json:"diff,omitempty"`
	Note   string     `json:"note,omitempty"` // why no diff is shown
}

// maxShownBytes caps a file the page shows: a spec file is a few kB, and
// the page should not carry megabytes because an agent wrote them.
const maxShownBytes = 1 << 20

// specByName is the view of a spec folder by name.
func (h *Handler) specByName(name string) (*specView, error) {
	dir, err := workflow.SpecDir(name)
	if err != nil {
		return nil, err
	}
	return h.spec(dir, nil)
}

// spec reads specDir once, as an approval binds it, and compares it with
// the last approval: sessionApproved when the session holds one, else the
// spec's approval record.
func (h *Handler) spec(specDir string, sessionApproved *workflow.Binding) (*specView, error) {
	e := h.opts.Engine
	b, files, err := e.SpecSnapshot(specDir)
	if err != nil {
		return nil, err
	}
	v := &specView{Name: filepath.Base(specDir), Dir: specDir, Binding: b, Describe: e.Describe(specDir, b)}
	last := sessionApproved
	if rec, err := e.SpecApproval(v.Name); err == nil && rec != nil && rec.Binding != nil {
		v.Last = rec
		if last == nil {
			last = rec.Binding
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
		}
		var was string
		switch {
		case last == nil:
			fv.Status = "new"
		case last.Files[path] == "":
			fv.Status = "added"
		case last.Files[path] == b.Files[path]:
			fv.Status = "unchanged"
		default:
			fv.Status, was = "changed", last.Files[path]
		}
		if was != "" && fv.Note == "" {
			fv.Diff, fv.Note = h.diffAgainst(was, f.Bound, fv.Binary)
		}
		v.Files = append(v.Files, fv)
	}
	if last != nil {
		for _, path := range sortedKeys(last.Files) {
			if _, ok := b.Files[path]; !ok {
				fv := fileView{Path: path, Status: "removed"}
				fv.Diff, fv.Note = h.diffAgainst(last.Files[path], nil, false)
				v.Files = append(v.Files, fv)
			}
		}
	}
	return v, nil
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

// diffAgainst diffs the approved version kept under sum with now.
func (h *Handler) diffAgainst(sum string, now []byte, binary bool) ([]diffLine, string) {
	if binary {
		return nil, "not text: no diff shown"
	}
	old, ok, err := h.opts.Engine.ApprovedFile(sum)
	if err != nil || !ok {
		return nil, "the approved version was not kept (approved before agentos kept copies, or removed since); the hashes still tell it changed"
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
