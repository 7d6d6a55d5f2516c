package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// Converge. A drifted spec is repaired by an execution session of its own
// whose tasks are the broken criteria (and the touched ones a person keeps).
// It is a spec_execution_v1 session like any other: it starts only while a
// person's approval of the spec holds, its gates run in the sandbox, and each
// broken criterion must be proven again — its test fails on the code the
// session starts from and passes after its change. The spec's changes.md
// records, dated, why the session started and when it converged.

// convergeVar is the session variable naming the criteria a converge
// session repairs, comma-separated.
const convergeVar = "converge"

// changesFile is the spec's history, written by agentos only.
const changesFile = "changes.md"

// convergeOnly returns the criteria a converge session's gates prove
// (lower case); nil for any other session.
func convergeOnly(s *Session) map[string]bool {
	v := s.Vars[convergeVar]
	if v == "" {
		return nil
	}
	out := map[string]bool{}
	for _, id := range strings.Split(v, ",") {
		out[strings.ToLower(strings.TrimSpace(id))] = true
	}
	return out
}

// ConvergeResult is what Converge started.
type ConvergeResult struct {
	Session  *Session  `json:"-"`
	Criteria []string  `json:"criteria"` // the criteria it repairs
	Check    SpecState `json:"check"`    // the check it started from
}

// Converge starts a spec_execution_v1 session on spec whose tasks are the
// criteria its latest check found drifted, plus keep (touched criteria a
// person keeps). The check is run again first when the code changed since.
func (e *Engine) Converge(ctx context.Context, spec string, keep []string, actor Actor) (*ConvergeResult, error) {
	dir, err := SpecDir(spec)
	if err != nil {
		return nil, err
	}
	rec, integrity, err := e.readLiving(spec)
	if errors.Is(err, os.ErrNotExist) {
		return nil, notFound("spec %s has not finished spec_execution_v1, quick_change_v1 or bugfix_v1, so there is nothing to converge to", spec)
	}
	if err != nil {
		return nil, err
	}
	if integrity != nil {
		return nil, refused("the evidence of spec %s is %s (%s); agentos does not converge from it", spec, integrity.Verdict, integrity.Detail)
	}
	if d, light := lightDocs[rec.Workflow]; light {
		// Converge repairs a spec through its tasks.md; a light path's
		// folder has none. A broken criterion of it is a bug.
		return nil, refused("spec %s was finished by %s (%s, no tasks.md), so converge cannot start from it; start bugfix_v1 with a test that shows the broken criterion", spec, rec.Workflow, d.file)
	}
	now, err := e.snapshot(ctx, "specs-check")
	if err != nil {
		return nil, fmt.Errorf("record the working tree: %w", err)
	}
	if rec.LastCheck == nil || rec.LastCheck.Tree != now {
		if _, err := e.CheckSpecs(ctx, []string{spec}); err != nil {
			return nil, err
		}
		if rec, integrity, err = e.readLiving(spec); err != nil || integrity != nil {
			return nil, refused("the evidence of spec %s could not be read again after its check", spec)
		}
	}
	check := *rec.LastCheck
	var targets []string
	states := map[string]string{}
	for _, c := range check.Criteria {
		states[strings.ToLower(c.ID)] = c.State
		if c.State == SpecDrifted {
			targets = append(targets, c.ID)
		}
	}
	for _, k := range keep {
		st, ok := states[strings.ToLower(k)]
		switch {
		case !ok:
			return nil, invalid("keep", "%s is no criterion of spec %s", k, spec)
		case st == SpecHolding:
			return nil, invalid("keep", "%s holds and no change reaches it; keep names touched criteria", k)
		case !slices.ContainsFunc(targets, func(t string) bool { return strings.EqualFold(t, k) }):
			targets = append(targets, criterionID(check, k))
		}
	}
	if len(targets) == 0 {
		if check.State == SpecTouched {
			return nil, refused("spec %s is touched, not drifted: its tests pass. To converge it anyway, name the touched criteria to keep", spec)
		}
		return nil, refused("spec %s holds: nothing to converge", spec)
	}
	// What Start would refuse is refused before the spec's files change.
	if _, err := e.verifySpecApproval(spec, dir); err != nil {
		return nil, err
	}
	if def, ok := e.rules.get().lib.Get("spec_execution_v1"); ok {
		if err := e.checkNotRunning(def, map[string]string{"spec_dir": dir}); err != nil {
			return nil, err
		}
	}
	if err := e.untick(dir, targets); err != nil {
		return nil, err
	}
	entry := HistoryEntry{At: e.set.Now().UTC(), What: "converge started", Detail: convergeDetail(check, targets)}
	rec.History = append(rec.History, entry)
	if err := e.appendChanges(rec, entry); err != nil {
		return nil, err
	}
	if err := e.writeLiving(rec); err != nil {
		return nil, err
	}
	s, err := e.Start(ctx, "spec_execution_v1", map[string]string{"spec": spec}, actor)
	if err != nil {
		return nil, err
	}
	s, err = e.store.Update(s.ID, func(s *Session) error {
		s.Vars[convergeVar] = strings.Join(targets, ",")
		narrowToCriteria(e, s, targets)
		e.audit(s, actor, "converge", 0, s.Current, "", "repairs "+strings.Join(targets, ", "))
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.changed(s.ID)
	return &ConvergeResult{Session: s, Criteria: targets, Check: check}, nil
}

func criterionID(check SpecState, k string) string {
	for _, c := range check.Criteria {
		if strings.EqualFold(c.ID, k) {
			return c.ID
		}
	}
	return k
}

// narrowToCriteria marks done every task of s whose criteria all hold, and
// every phase left with no task to do; the first phase with work is current.
func narrowToCriteria(e *Engine, s *Session, targets []string) {
	def, ok := e.rules.get().lib.Get(s.Workflow)
	if !ok {
		return
	}
	plan, err := e.plan(def, s.Vars)
	if err != nil {
		return
	}
	broken := map[string]bool{}
	for _, p := range plan.Phases {
		for _, t := range p.Tasks {
			for _, c := range t.Criteria {
				if slices.ContainsFunc(targets, func(id string) bool { return strings.EqualFold(id, c.ID) }) {
					broken[t.ID] = true
				}
			}
		}
	}
	now := e.set.Now().UTC()
	first := 0
	for i := range s.Phases {
		p := &s.Phases[i]
		work := false
		for j := range p.Tasks {
			t := &p.Tasks[j]
			if broken[t.ID] {
				work = true
				t.Status = Pending
				continue
			}
			t.Status, t.CompletedAt, t.Note = Done, &now, "holds: not part of the converge"
		}
		if work {
			p.Status = Pending
			if first == 0 {
				first = p.Number
			}
			continue
		}
		p.Status, p.CompletedAt = Done, &now
	}
	if first == 0 {
		return
	}
	s.Current = first
	s.Phases[first-1].Status = Active
}

// convergeDetail says, per criterion, why it is converged.
func convergeDetail(check SpecState, targets []string) []string {
	var out []string
	for _, c := range check.Criteria {
		if !slices.ContainsFunc(targets, func(t string) bool { return strings.EqualFold(t, c.ID) }) {
			continue
		}
		why := c.ID + " " + c.State
		if c.State != SpecDrifted {
			why += " (kept by a person)"
		}
		for _, t := range c.Tests {
			line := why + ": " + t.Test + " " + t.State
			if t.Failure != "" {
				line += ": " + t.Failure
			}
			for _, tc := range t.Touched {
				where := tc.File
				if tc.Symbol != "" {
					where += " " + tc.Symbol
				}
				if tc.Lines != "" {
					where += " lines " + tc.Lines
				}
				line += "; changed by " + where + " (" + tc.Change + ")"
			}
			out = append(out, line)
		}
	}
	return out
}

var tickedLine = regexp.MustCompile(`^([ \t]*[-*+][ \t]+)\[[xX]\]`)

// untick clears the checkbox of the criteria ids in the spec's tasks.md:
// they are to be made true again. An approval hashes tasks.md with every
// box clear, so this changes nothing a person approved.
func (e *Engine) untick(dir string, ids []string) error {
	path := filepath.Join(e.set.Root, dir, "tasks.md")
	data, err := readSpecFile(dir, path, dir+"/tasks.md")
	if err != nil {
		return err
	}
	plan, _ := gates.ParseTasks(data)
	lines := strings.Split(string(data), "\n")
	for _, p := range plan.Phases {
		for _, t := range p.Tasks {
			for _, c := range t.Criteria {
				if c.Line < 1 || c.Line > len(lines) || !slices.ContainsFunc(ids, func(id string) bool { return strings.EqualFold(id, c.ID) }) {
					continue
				}
				lines[c.Line-1] = tickedLine.ReplaceAllString(lines[c.Line-1], "${1}[ ]")
			}
		}
	}
	if err := atomicfile.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		return fmt.Errorf("clear the criteria in %s/tasks.md: %w", dir, err)
	}
	return nil
}

// changesHeader opens a spec's changes.md.
const changesHeader = "# Changes\n\nThe dated changes of this spec since it was first finished, written by agentos. " +
	"An edit by hand makes this file part of what the spec's approval binds, so it voids the approval.\n"

// appendChanges adds entry, dated, to the spec's changes.md and records
// the file's new hash in rec (the caller writes rec). A changes.md that is
// not as agentos wrote it is refused rather than carried on.
func (e *Engine) appendChanges(rec *LivingRecord, entry HistoryEntry) error {
	dir, err := SpecDir(rec.Spec)
	if err != nil {
		return err
	}
	path := filepath.Join(e.set.Root, dir, changesFile)
	data, err := readSpecFile(dir, path, dir+"/"+changesFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		data = []byte(changesHeader)
	case err != nil:
		return err
	case rec.ChangesSHA256 == "" || sha256Hex(data) != rec.ChangesSHA256:
		return refused("%s/%s was changed outside agentos; restore it (git checkout) or remove it, then try again", dir, changesFile)
	}
	var b strings.Builder
	b.Write(data)
	fmt.Fprintf(&b, "\n## %s: %s", entry.At.Format(time.DateOnly), entry.What)
	if entry.Session != "" {
		fmt.Fprintf(&b, " (session %s", entry.Session)
		if entry.Commit != "" {
			fmt.Fprintf(&b, ", commit %s", shortCommit(entry.Commit))
		}
		b.WriteString(")")
	}
	b.WriteString("\n\n")
	for _, d := range entry.Detail {
		fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(d, "\n", " "))
	}
	out := []byte(b.String())
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("record the change in %s/%s: %w", dir, changesFile, err)
	}
	rec.ChangesSHA256 = sha256Hex(out)
	return nil
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// agentosChanges reports whether data, the changes.md of the spec in
// specDir, is exactly what agentos last wrote there: then it is history,
// not part of what an approval binds.
func (e *Engine) agentosChanges(specDir string, data []byte) bool {
	rec, integrity, err := e.readLiving(filepath.Base(specDir))
	return err == nil && integrity == nil && rec.ChangesSHA256 != "" && rec.ChangesSHA256 == sha256Hex(data)
}
