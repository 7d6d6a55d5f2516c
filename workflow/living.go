package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/gitrepo"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// Living specs. A spec whose execution completed is not done with: weeks
// later a person wants to know whether it still holds. When
// spec_execution_v1 completes, the engine records the spec's evidence — the
// commit and working tree it finished on, each criterion's tests (the ones
// its gates ran and proved), and the symbols those tests reach in the call
// graph — in .agentos/state/living/<spec>.json, signed with the machine key
// as sessions are. The state folder is hidden from every gate's run, and a
// record that does not match its signature is never read as holding: an
// agent that forges one gets "unverified", not "holding".

// livingDir is the folder of the records, in the state folder.
const livingDir = "living"

// Spec states.
const (
	SpecHolding    = "holding"    // every traced test passes as written, and no change reaches them
	SpecDrifted    = "drifted"    // a traced test fails, was deleted, or was changed
	SpecTouched    = "touched"    // the tests pass, but a change since completion reaches their symbols
	SpecUnchecked  = "unchecked"  // finished, not checked since (holding as of completion)
	SpecUnverified = "unverified" // the record does not match agentos's signature
)

// LivingRecord is a finished spec's evidence, and its history.
type LivingRecord struct {
	Spec    string `json:"spec"`
	Session string `json:"session"` // the execution session that completed it
	// Workflow is the workflow that completed it: spec_execution_v1 (the
	// criteria of tasks.md), quick_change_v1 (change.md) or bugfix_v1
	// (bug.md); "" in records written before it was kept.
	Workflow string `json:"workflow,omitempty"`
	// Source is the document the criteria were read from, in the spec
	// folder: tasks.md, change.md or bug.md.
	Source      string    `json:"source,omitempty"`
	CompletedAt time.Time `json:"completed_at"`
	// Commit is HEAD of the project's git repository at completion ("" with
	// no git); Tree is the working tree then, as the base store keeps it:
	// what "a change since completion" is measured against.
	Commit string `json:"commit,omitempty"`
	Branch string `json:"branch,omitempty"`
	Tree   string `json:"tree"`
	// TestCommand and TestReport are the gate's, recorded for the reader;
	// a check runs the command configured now.
	TestCommand string            `json:"test_command"`
	TestReport  string            `json:"test_report"`
	Criteria    []LivingCriterion `json:"criteria"`
	// Graph says why no symbols were recorded ("" when they were).
	Graph string `json:"graph,omitempty"`
	// History is the spec's changes since it first finished, oldest first;
	// ChangesSHA256 the hash of changes.md as agentos last wrote it.
	History       []HistoryEntry `json:"history,omitempty"`
	ChangesSHA256 string         `json:"changes_sha256,omitempty"`
	LastCheck     *SpecState     `json:"last_check,omitempty"`
	Seal          *Seal          `json:"seal,omitempty"`
}

// LivingCriterion is one acceptance criterion and the tests that prove it.
type LivingCriterion struct {
	ID    string       `json:"id"`
	Task  string       `json:"task"`
	Text  string       `json:"text"`
	Tests []LivingTest `json:"tests"`
}

// LivingTest is a test of a criterion and what it reaches.
type LivingTest struct {
	gates.TracedTest
	// Proven says the gate saw it fail before the change and pass after.
	Proven bool `json:"proven,omitempty"`
	// Reaches are the symbols the test calls, directly or through others,
	// up to codegraph.DefaultTestDepth calls down.
	Reaches []LivingSymbol `json:"reaches,omitempty"`
}

// LivingSymbol is a symbol of the call graph: its file and qualified name.
type LivingSymbol struct {
	Path string `json:"path"`
	Name string `json:"name"`
}

// HistoryEntry is one dated change of a finished spec.
type HistoryEntry struct {
	At      time.Time `json:"at"`
	What    string    `json:"what"` // completed, converge started, converged
	Session string    `json:"session,omitempty"`
	Commit  string    `json:"commit,omitempty"`
	Detail  []string  `json:"detail,omitempty"`
}

// SymbolGraph is what living specs ask of the project's call graph
// (*codegraph.Graph has it): the symbols a test reaches, and the symbols a
// change of some lines touches.
type SymbolGraph interface {
	Callees(name string, depth, limit int) (codegraph.Walk, error)
	SymbolsIn(file string, ranges []codegraph.LineRange) []codegraph.Symbol
	Impact(changed []codegraph.Symbol, o codegraph.ImpactOptions) codegraph.Impact
	Lookup(name string) (codegraph.Symbol, error)
	SymbolsOf(file string) []codegraph.Symbol
	HasFile(file string) bool
}

// GraphSource returns the project's call graph when one is at hand; an
// error says why not (the index is still opening, or disabled).
type GraphSource func(ctx context.Context) (SymbolGraph, error)

// graphHolder holds the engine's graph source; the server sets it once its
// search service exists, the CLI when it opens the saved index.
type graphHolder struct{ src atomic.Pointer[GraphSource] }

// SetGraph gives the engine the call graph living specs record and check
// symbols with; without one they record tests only, and say so.
func (e *Engine) SetGraph(src GraphSource) {
	if src == nil {
		e.graph.src.Store(nil)
		return
	}
	e.graph.src.Store(&src)
}

func (e *Engine) codeGraph(ctx context.Context) (SymbolGraph, error) {
	p := e.graph.src.Load()
	if p == nil {
		return nil, errors.New("no code index is open")
	}
	return (*p)(ctx)
}

func (e *Engine) livingPath(spec string) string {
	return filepath.Join(e.set.StateDir, livingDir, spec+".json")
}

func livingMAC(e *Engine, spec string, canon []byte) string {
	return e.set.Key.MAC([]byte("agentos living spec v1"), []byte(spec), canon)
}

// writeLiving signs rec and writes it atomically.
func (e *Engine) writeLiving(rec *LivingRecord) error {
	rec.Seal = nil
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the evidence of %s: %w", rec.Spec, err)
	}
	if k := e.set.Key; k != nil {
		canon, _, err := canonical(data)
		if err != nil {
			return fmt.Errorf("encode the evidence of %s: %w", rec.Spec, err)
		}
		rec.Seal = &Seal{KeyID: k.ID, Host: k.Host, MAC: livingMAC(e, rec.Spec, canon)}
		if data, err = json.MarshalIndent(rec, "", "  "); err != nil {
			return fmt.Errorf("encode the evidence of %s: %w", rec.Spec, err)
		}
	}
	path := e.livingPath(rec.Spec)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("record the evidence of %s: %w", rec.Spec, err)
	}
	// A gate's rules check must not take the engine's own write for tampering.
	defer e.store.own.note(path)
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("record the evidence of %s: %w", rec.Spec, err)
	}
	return nil
}

// readLiving reads spec's record. integrity is nil when this machine's
// agentos signed it as it is; otherwise it says why it cannot be trusted,
// and the record is returned for display only.
func (e *Engine) readLiving(spec string) (*LivingRecord, *Integrity, error) {
	data, err := os.ReadFile(e.livingPath(spec))
	if err != nil {
		return nil, nil, err
	}
	var rec LivingRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, &Integrity{Verdict: IntegrityChanged, Detail: "it is not a record: " + err.Error()}, nil
	}
	k := e.set.Key
	if k == nil {
		return &rec, nil, nil
	}
	canon, seal, err := canonical(data)
	switch {
	case err != nil || seal == nil:
		return &rec, &Integrity{Verdict: IntegrityUnsigned, Detail: "the record has no signature"}, nil
	case seal.KeyID != k.ID:
		return &rec, &Integrity{Verdict: IntegrityOtherMachine, Detail: fmt.Sprintf("signed on %q with key %s", seal.Host, seal.KeyID)}, nil
	case !k.Verify(seal.MAC, []byte("agentos living spec v1"), []byte(spec), canon):
		return &rec, &Integrity{Verdict: IntegrityChanged, Detail: "the record does not match the signature agentos wrote"}, nil
	case rec.Spec != spec:
		return &rec, &Integrity{Verdict: IntegrityChanged, Detail: "the record names another spec"}, nil
	}
	return &rec, nil, nil
}

// livingSpecs lists the specs that have a record, sorted.
func (e *Engine) livingSpecs() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(e.set.StateDir, livingDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the finished specs: %w", err)
	}
	var out []string
	for _, d := range entries {
		if name, ok := strings.CutSuffix(d.Name(), ".json"); ok && d.Type().IsRegular() {
			if _, err := SpecDir(name); err == nil {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// recordLiving writes the evidence of execution session s, which just
// completed: the tree it finished on, each criterion of its spec with the
// tests that name it (those its gates proved first), and what they reach.
// A failure is noted in the audit log; it never undoes the completion.
func (e *Engine) recordLiving(ctx context.Context, s *Session) {
	if err := e.recordLivingErr(ctx, s); err != nil {
		e.audit(s, Actor{Client: "agentos"}, "record_evidence", s.Current, s.Current, "failed", err.Error())
	}
}

// lightDocs are the documents of the light paths, whose completion records
// a living spec as spec_execution_v1's does: the workflow, the document in
// the spec folder and the heading its criteria are listed under.
var lightDocs = map[string]struct{ file, heading string }{
	"quick_change_v1": {"change.md", "Acceptance criteria"},
	"bugfix_v1":       {"bug.md", "Reproduction"},
}

// recordsLiving reports whether completing a session of def records its
// spec's evidence: an execution of tasks.md, or a light path.
func recordsLiving(def *Definition) bool {
	_, light := lightDocs[def.Name]
	return def.PhasesFromTasks != nil || light
}

// livingCriteria reads the criteria a finished session's spec folder dir
// lists, as one plan: tasks.md's phases, or a light path's document as one
// task.
func (e *Engine) livingCriteria(s *Session, dir string) (gates.Plan, string, error) {
	source, heading := "tasks.md", ""
	if d, ok := lightDocs[s.Workflow]; ok {
		source, heading = d.file, d.heading
	}
	data, err := readSpecFile(dir, filepath.Join(e.set.Root, dir, source), dir+"/"+source)
	if err != nil {
		return gates.Plan{}, source, fmt.Errorf("read %s/%s: %w", dir, source, err)
	}
	if heading == "" {
		plan, _ := gates.ParseTasks(data)
		return plan, source, nil
	}
	task := gates.Task{ID: "1", Title: source, Criteria: gates.DocCriteria(data, heading)}
	return gates.Plan{Phases: []gates.Phase{{Number: 1, Title: source, Tasks: []gates.Task{task}}}}, source, nil
}

func (e *Engine) recordLivingErr(ctx context.Context, s *Session) error {
	spec, dir := s.Inputs["spec"], s.Vars["spec_dir"]
	if _, light := lightDocs[s.Workflow]; light && dir != "" {
		spec = path.Base(filepath.ToSlash(dir))
	}
	if spec == "" || dir == "" {
		return nil
	}
	plan, source, err := e.livingCriteria(s, dir)
	if err != nil {
		return err
	}
	rec, err := e.newLiving(ctx, spec, s.ID, plan, provenTests(s))
	if err != nil {
		return err
	}
	rec.Workflow, rec.Source = s.Workflow, source
	rec.TestCommand, rec.TestReport = s.Vars["test_command"], s.Vars["test_report"]
	// The history goes on from an earlier record (a converge); a record
	// that is not agentos's own starts over.
	if old, integrity, err := e.readLiving(spec); err == nil && integrity == nil {
		rec.History, rec.ChangesSHA256 = old.History, old.ChangesSHA256
	}
	what := "completed"
	if s.Vars[convergeVar] != "" {
		what = "converged"
	}
	entry := HistoryEntry{At: rec.CompletedAt, What: what, Session: s.ID, Commit: rec.Commit}
	if what == "converged" {
		entry.Detail = []string{"hold again: " + strings.ReplaceAll(s.Vars[convergeVar], ",", ", ")}
	}
	rec.History = append(rec.History, entry)
	if what == "converged" {
		if err := e.appendChanges(rec, entry); err != nil {
			return err
		}
	}
	return e.writeLiving(rec)
}

// newLiving builds the evidence of spec as the project is now: the working
// tree, the commit, and each criterion of plan with the tests that name it
// (those proven, keyed as provenTests keys them, first) and what they reach.
func (e *Engine) newLiving(ctx context.Context, spec, session string, plan gates.Plan, proven map[string]bool) (*LivingRecord, error) {
	tree, err := e.snapshot(ctx, session)
	if err != nil {
		return nil, fmt.Errorf("the working tree cannot be recorded: %w", err)
	}
	var ids []string
	for _, p := range plan.Phases {
		for _, t := range p.Tasks {
			for _, c := range t.Criteria {
				if c.ID != "" {
					ids = append(ids, c.ID)
				}
			}
		}
	}
	traced, err := gates.TraceTests(ctx, e.set.Root, ids)
	if err != nil {
		return nil, fmt.Errorf("read the tests: %w", err)
	}
	rec := &LivingRecord{Spec: spec, Session: session, CompletedAt: e.set.Now().UTC(), Tree: tree}
	if repo, err := gitrepo.Find(e.set.Root); err == nil {
		if st, err := repo.State(); err == nil {
			rec.Commit, rec.Branch = st.Commit, st.Branch
		}
	}
	g, gerr := e.codeGraph(ctx)
	if gerr != nil {
		rec.Graph = "no symbols recorded: " + gerr.Error()
	}
	for _, p := range plan.Phases {
		for _, t := range p.Tasks {
			for _, c := range t.Criteria {
				if c.ID == "" {
					continue
				}
				lc := LivingCriterion{ID: c.ID, Task: t.ID, Text: c.Text, Tests: []LivingTest{}}
				tests := traced.ByID[strings.ToLower(c.ID)]
				// The tests the gate proved the criterion with, when it
				// proved it; every test that names it otherwise.
				var keep []gates.TracedTest
				for _, tt := range tests {
					if proven[strings.ToLower(c.ID)+"\x00"+tt.Label()] {
						keep = append(keep, tt)
					}
				}
				if len(keep) == 0 {
					keep = tests
				}
				for _, tt := range keep {
					lt := LivingTest{TracedTest: tt, Proven: proven[strings.ToLower(c.ID)+"\x00"+tt.Label()]}
					if g != nil {
						lt.Reaches = reaches(g, tt)
					}
					lc.Tests = append(lc.Tests, lt)
				}
				rec.Criteria = append(rec.Criteria, lc)
			}
		}
	}
	return rec, nil
}

// provenTests are the tests the session's gates proved a criterion with,
// keyed by lower-case ID and the test's label.
//
// A bug fix proves its reproduction in two gates: the reproduction's test
// seen failing, then passing unchanged (bug_fixed).
func provenTests(s *Session) map[string]bool {
	out := map[string]bool{}
	var repro *gates.ReproDetails
	fixed := false
	for _, p := range s.Phases {
		if p.LastGate == nil {
			continue
		}
		for _, c := range p.LastGate.Checks {
			switch {
			case c.Type == gates.TypeBugFixed:
				fixed = c.Passed
			case c.Type == gates.TypeReproduction && c.Passed && c.Details != nil:
				if data, err := json.Marshal(c.Details); err == nil {
					var d gates.ReproDetails
					if json.Unmarshal(data, &d) == nil {
						repro = &d
					}
				}
			}
		}
		for _, c := range p.LastGate.Checks {
			if (c.Type != gates.TypeAcceptanceCriteria && c.Type != gates.TypeChangeCriteria) || c.Details == nil {
				continue
			}
			data, err := json.Marshal(c.Details)
			if err != nil {
				continue
			}
			var d gates.CriteriaDetails
			if json.Unmarshal(data, &d) != nil {
				continue
			}
			for _, pr := range d.Proofs {
				if pr.Proven {
					out[strings.ToLower(pr.ID)+"\x00"+pr.Test] = true
				}
			}
		}
	}
	if fixed && repro != nil {
		for _, t := range repro.Tests {
			out[strings.ToLower(repro.ID)+"\x00"+t] = true
		}
	}
	return out
}

// maxReached bounds the symbols recorded per test.
const maxReached = 200

// reaches lists the symbols test t calls, directly or not, as the graph
// sees them now.
func reaches(g SymbolGraph, t gates.TracedTest) []LivingSymbol {
	name := t.Name
	if t.Lang == "go" {
		name, _, _ = strings.Cut(name, "/")
	}
	w, err := g.Callees(t.File+":"+name, codegraph.DefaultTestDepth, maxReached)
	if err != nil {
		return nil
	}
	var out []LivingSymbol
	for _, n := range w.Nodes {
		if n.Symbol.Kind == "package" {
			continue
		}
		out = append(out, LivingSymbol{Path: n.Symbol.Path, Name: n.Symbol.Qualified()})
	}
	slices.SortFunc(out, func(a, b LivingSymbol) int { return strings.Compare(a.Path+a.Name, b.Path+b.Name) })
	return slices.Compact(out)
}
