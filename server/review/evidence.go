package review

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// criteriaTexts is the text of every criterion the gates' proofs name, by
// lower-case ID, so the page shows what each proof proves, not only its
// ID: from the gate's own references when they carry it, else from the
// tasks.md the gate read, as it is now. Nil when no gate holds a proof.
func (h *Handler) criteriaTexts(s *workflow.Session) map[string]string {
	want := map[string]bool{}
	known := map[string]string{}
	var files []string
	for _, g := range gateReports(s) {
		for _, c := range g.Checks {
			var d gates.CriteriaDetails
			if c.Type != "acceptance_criteria" || !redecode(c.Details, &d) || len(d.Proofs) == 0 {
				continue
			}
			for _, pr := range d.Proofs {
				want[strings.ToLower(pr.ID)] = true
			}
			for _, r := range append(d.Unchecked, d.Untraced...) {
				if r.ID != "" && r.Text != "" {
					known[strings.ToLower(r.ID)] = r.Text
				}
			}
			files = append(files, d.File)
		}
	}
	if len(want) == 0 {
		return nil
	}
	for _, file := range files {
		src := h.projectFile(file)
		if src == nil {
			continue
		}
		plan, _ := gates.ParseTasks(src)
		for _, ph := range plan.Phases {
			for _, t := range ph.Tasks {
				for _, cr := range t.Criteria {
					if id := strings.ToLower(cr.ID); id != "" && known[id] == "" {
						known[id] = cr.Text
					}
				}
			}
		}
	}
	out := map[string]string{}
	for id := range want {
		if known[id] != "" {
			out[id] = known[id]
		}
	}
	return out
}

// redecode turns a result's Details, as the store read them (a JSON
// object), into v; false when they are not that.
func redecode(details any, v any) bool {
	if details == nil {
		return false
	}
	data, err := json.Marshal(details)
	return err == nil && json.Unmarshal(data, v) == nil
}

// projectFile is the regular file at rel inside the project, read through
// no link that leads out of it; nil when there is none, or it is larger
// than the page shows.
func (h *Handler) projectFile(rel string) []byte {
	rel = filepath.FromSlash(rel)
	if rel == "" || !filepath.IsLocal(rel) {
		return nil
	}
	root, err := os.OpenRoot(h.opts.Project.Root)
	if err != nil {
		return nil
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxShownBytes {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxShownBytes+1))
	if err != nil || len(data) > maxShownBytes {
		return nil
	}
	return data
}

// gateReports is every gate report a session keeps: each phase's earlier
// attempts and its last.
func gateReports(s *workflow.Session) []workflow.GateReport {
	var out []workflow.GateReport
	for _, p := range s.Phases {
		out = append(out, s.EarlierGates[p.Number]...)
		if p.LastGate != nil {
			out = append(out, *p.LastGate)
		}
	}
	return out
}

// testFileRE is the file a proof names its test by: "TestX (x_test.go:12)".
var testFileRE = regexp.MustCompile(`\(([^()]+):\d+\)$`)

// sourceView is a test file a gate's proof names, to read beside it.
type sourceView struct {
	Session string `json:"session"`
	File    string `json:"file"`
	Text    string `json:"text"`
}

// testSource is the test file file of the project, when a proof of one of
// session's gates names a test in it: the page shows the tests that prove
// the criteria, and nothing else of the project.
func (h *Handler) testSource(session, file string) (*sourceView, error) {
	s, err := h.opts.Engine.Get(session)
	if err != nil {
		return nil, err
	}
	named := false
	for _, g := range gateReports(s) {
		for _, c := range g.Checks {
			var d gates.CriteriaDetails
			if c.Type != "acceptance_criteria" || !redecode(c.Details, &d) {
				continue
			}
			for _, pr := range d.Proofs {
				if m := testFileRE.FindStringSubmatch(pr.Test); m != nil && m[1] == file {
					named = true
				}
			}
		}
	}
	if !named {
		return nil, &workflow.Error{Kind: workflow.KindNotFound, Msg: "no gate of session " + session + " names a test in " + file}
	}
	data := h.projectFile(file)
	if data == nil || !utf8.Valid(data) {
		return nil, &workflow.Error{Kind: workflow.KindNotFound, Msg: file + " cannot be shown: it is gone, not a regular file inside the project, not text, or over 1 MiB"}
	}
	return &sourceView{Session: session, File: file, Text: string(data)}, nil
}
