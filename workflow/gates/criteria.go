package gates

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/workflow/baseline"
)

// CriteriaDetails is the Details of an acceptance_criteria result.
type CriteriaDetails struct {
	File      string         `json:"file"`
	Phase     int            `json:"phase"` // 0: every phase
	Criteria  int            `json:"criteria"`
	Checked   int            `json:"checked"`
	Unchecked []CriterionRef `json:"unchecked,omitempty"` // the first maxListed
	Untraced  []CriterionRef `json:"untraced,omitempty"`  // IDs no test file mentions; the first maxListed
	TestFiles int            `json:"test_files_scanned"`
	// Proofs say, per criterion, how its tests fared before the change and
	// after it (fail-before, pass-after); Emptied names the functions the
	// before-run emptied.
	Proofs    []Proof  `json:"proofs,omitempty"`
	Emptied   []string `json:"emptied,omitempty"`
	Truncated bool     `json:"test_scan_truncated,omitempty"` // the scan stopped at maxTestFiles
}

// CriterionRef points at one criterion of tasks.md.
type CriterionRef struct {
	Task string `json:"task"`
	ID   string `json:"id,omitempty"`
	Text string `json:"text"`
	Line int    `json:"line"`
	// Why says, for a criterion not traced, what the tests that name it
	// did ("named only by tests that failed in this run: TestX (x_test.go:12)"),
	// or that none names it.
	Why string `json:"why,omitempty"`
}

// Why an untraced criterion is untraced (CriterionRef.Why).
const (
	WhyNoTest     = "no test names it"
	whyNoTestFile = "no test file names it"
	whyFailed     = "named only by tests that failed or did not run in this run: "
	whyHollow     = "named only by tests that check nothing: "
	whySkipped    = "named only by tests that were skipped: "
)

func (r CriterionRef) label() string {
	if r.ID != "" {
		return fmt.Sprintf("%s (line %d)", r.ID, r.Line)
	}
	return fmt.Sprintf("task %s %q (line %d)", r.Task, clip(r.Text, 30), r.Line)
}

// Limits of the test-file scan.
const (
	maxTestFiles     = 20000
	maxTestFileBytes = 4 << 20
)

func (c Check) runAcceptanceCriteria(ctx context.Context, env Env) Result {
	src, rel, res, ok := c.readDoc(env, "acceptance_criteria")
	if !ok {
		return res
	}
	plan, _ := ParseTasks(src)
	phases := plan.Phases
	scope := "in " + rel
	if env.TasksPhase > 0 {
		ph, ok := plan.Phase(env.TasksPhase)
		if !ok {
			return failf(c.Type, fmt.Sprintf("Add a \"## Phase %d: Title\" section with its tasks to %s.", env.TasksPhase, rel),
				"%s has no phase %d.", rel, env.TasksPhase)
		}
		phases = []Phase{ph}
		scope = fmt.Sprintf("in phase %d", env.TasksPhase)
	}
	return c.judgeCriteria(ctx, env, rel, phases, scope)
}

// judgeCriteria judges the criteria of phases, read from rel: each checked
// and, by ID, traced to a test that ran and passed, and failed before the
// change when env.Before is set. scope names where they were read ("in phase
// 2") for the messages.
func (c Check) judgeCriteria(ctx context.Context, env Env, rel string, phases []Phase, scope string) Result {
	d := CriteriaDetails{File: rel, Phase: env.TasksPhase}
	var unchecked, withID []CriterionRef
	for _, ph := range phases {
		for _, t := range ph.Tasks {
			for _, cr := range t.Criteria {
				ref := CriterionRef{Task: t.ID, ID: cr.ID, Text: cr.Text, Line: cr.Line}
				d.Criteria++
				if cr.Checked {
					d.Checked++
				} else {
					unchecked = append(unchecked, ref)
				}
				if cr.ID != "" {
					withID = append(withID, ref)
				}
			}
		}
	}
	if env.Only != nil {
		withID = slices.DeleteFunc(withID, func(r CriterionRef) bool { return !env.Only[strings.ToLower(r.ID)] })
	}
	if d.Criteria == 0 {
		r := failf(c.Type, fmt.Sprintf("Give every task %s acceptance criteria as checkbox items (- [ ] AC-1.1.1: …).", scope),
			"No acceptance criteria were found %s.", scope)
		r.Details = d
		return r
	}
	// A spec whose IDs name it (AC-login-1.1.1, as the template writes them)
	// is held to the strict rules; older specs only when the config says so.
	name := SpecName(filepath.Dir(rel))
	strict := env.Strict
	var noID []CriterionRef
	for _, ph := range phases {
		for _, t := range ph.Tasks {
			for _, cr := range t.Criteria {
				if cr.Namespace() == name {
					strict = true
				}
				if cr.ID == "" {
					noID = append(noID, CriterionRef{Task: t.ID, Text: cr.Text, Line: cr.Line})
				}
			}
		}
	}
	report, tests := env.Tests.Results()
	var warnings []string
	var untraced, hollow, skipped, notProven []CriterionRef
	notProvenWhy := map[string]string{}
	hollowBy, skippedBy := map[string][]testRef{}, map[string][]testRef{}
	if len(withID) > 0 {
		ids := make([]string, len(withID))
		for i, ref := range withID {
			ids[i] = strings.ToLower(ref.ID)
		}
		if report != "" {
			traces, src, err := traceByRun(ctx, env.Root, report, ids, tests)
			if err != nil {
				return failf(c.Type, "Run the gate again.", "The acceptance_criteria check was cancelled while reading the tests.")
			}
			d.TestFiles = src.files
			if env.Before != nil {
				fb, err := failBefore(ctx, env.Before, src, tests, withID, ids, traces)
				if err != nil {
					return failf(c.Type, "Fix what stops the tests from running on the code before the change, then run the gate again.", "The tests could not be run on the code before this session's change: %s.", trimDot(err.Error()))
				}
				d.Proofs, d.Emptied = fb.proofs, fb.emptied
				notProven, notProvenWhy = fb.notProven, fb.why
				warnings = append(warnings, fb.warnings...)
			}
			for i, ref := range withID {
				tr := traces[ids[i]]
				switch {
				case tr.passed:
				case len(tr.hollow) > 0:
					hollow = append(hollow, ref)
					hollowBy[ids[i]] = tr.hollow
				case len(tr.skipped) > 0:
					skipped = append(skipped, ref)
					skippedBy[ids[i]] = tr.skipped
				case len(tr.failed) > 0:
					ref.Why = whyFailed + hollowLabels(tr.failed)
					untraced = append(untraced, ref)
				default:
					ref.Why = WhyNoTest
					untraced = append(untraced, ref)
				}
			}
		} else {
			found, files, truncated, err := traceIDs(ctx, env.Root, withID)
			if err != nil {
				return failf(c.Type, "Run the gate again.", "The acceptance_criteria check was cancelled while searching the tests.")
			}
			d.TestFiles, d.Truncated = files, truncated
			for _, ref := range withID {
				if !found[strings.ToLower(ref.ID)] {
					ref.Why = whyNoTestFile
					untraced = append(untraced, ref)
				}
			}
			if strict {
				warnings = append(warnings, "No test report was read in this gate, so a criterion counts as traced when a test file names it, whether or not that test ran or passed.")
			}
		}
	}
	for i, ref := range hollow {
		hollow[i].Why = whyHollow + hollowLabels(hollowBy[strings.ToLower(ref.ID)])
	}
	for i, ref := range skipped {
		skipped[i].Why = whySkipped + skippedLabels(skippedBy[strings.ToLower(ref.ID)])
	}
	d.Unchecked, d.Untraced = capRefs(unchecked), capRefs(append(append(slices.Clone(untraced), hollow...), skipped...))
	how := "is not referenced by any test file"
	if report != "" {
		how = "is not named by a test that passed in this run"
	}
	if !strict {
		for _, ref := range capRefs(untraced) {
			warnings = append(warnings, fmt.Sprintf("Criterion %s of task %s (line %d) %s.", ref.ID, ref.Task, ref.Line, how))
		}
	}
	if !strict {
		for _, ref := range capRefs(hollow) {
			warnings = append(warnings, fmt.Sprintf("Criterion %s (line %d) is named only by tests that check nothing: %s.", ref.ID, ref.Line, hollowLabels(hollowBy[strings.ToLower(ref.ID)])))
		}
	}
	if !strict {
		for _, ref := range capRefs(skipped) {
			warnings = append(warnings, fmt.Sprintf("Criterion %s (line %d) is named only by tests that were skipped: %s.", ref.ID, ref.Line, skippedLabels(skippedBy[strings.ToLower(ref.ID)])))
		}
	}
	if d.Truncated {
		warnings = append(warnings, fmt.Sprintf("The search for criterion IDs stopped after %d test files.", maxTestFiles))
	}
	if !strict {
		for _, ref := range capRefs(notProven) {
			warnings = append(warnings, fmt.Sprintf("Criterion %s (line %d) is not proven: %s.", ref.ID, ref.Line, notProvenWhy[strings.ToLower(ref.ID)]))
		}
	}
	failing := len(unchecked) > 0 || (strict && (len(untraced) > 0 || len(hollow) > 0 || len(skipped) > 0 || len(noID) > 0 || len(notProven) > 0))
	if !failing {
		r := pass(c.Type, "%s%s.", upperFirst(every(d.Criteria, "acceptance criterion "+scope+" is checked", "acceptance criteria "+scope+" are checked")), traceNote(len(withID), len(untraced)+len(hollow)+len(skipped), report != ""))
		r.Details, r.Warnings = d, warnings
		return r
	}
	var parts, fixes []string
	if len(unchecked) > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s %s %s not checked: %s", len(unchecked), plural(d.Criteria, "acceptance criterion", "acceptance criteria"), scope, isAre(len(unchecked)), labels(unchecked)))
		fixes = append(fixes, fmt.Sprintf("make each unchecked criterion true and mark it [x] in %s", rel))
	}
	if strict && len(noID) > 0 {
		parts = append(parts, fmt.Sprintf("%s no ID, so no test can prove %s: %s", plural(len(noID), "criterion has", "criteria have"), map[bool]string{true: "it", false: "them"}[len(noID) == 1], labels(noID)))
		fixes = append(fixes, fmt.Sprintf("give each criterion an ID like AC-%s-%s.1", name, noID[0].Task))
	}
	if strict && len(untraced) > 0 {
		what := "no test file mentions"
		if report != "" {
			what = "no test that passed in this run names"
		}
		parts = append(parts, fmt.Sprintf("%s %s: %s", plural(len(untraced), "criterion ID", "criterion IDs"), what, labels(untraced)))
		fixes = append(fixes, fmt.Sprintf("name each criterion ID in the test that proves it (a comment naming %s in the test or just above it, or a test named like Test%s) and make that test run and pass", untraced[0].ID, underscored(untraced[0].ID)))
	}
	if strict && len(hollow) > 0 {
		id := strings.ToLower(hollow[0].ID)
		by := hollowBy[id]
		parts = append(parts, fmt.Sprintf("%s named only by tests that check nothing (%s): %s by %s",
			plural(len(hollow), "criterion is", "criteria are"), noCheck(by[0].lang), labels(hollow), hollowLabels(by)))
		fixes = append(fixes, fmt.Sprintf("make %s fail when %s does not hold", by[0].name, hollow[0].ID))
	}
	if strict && len(skipped) > 0 {
		id := strings.ToLower(skipped[0].ID)
		parts = append(parts, fmt.Sprintf("%s named only by tests that were skipped (a skip, xfail, todo, or a test expected to fail such as it.fails): %s by %s",
			plural(len(skipped), "criterion is", "criteria are"), labels(skipped), skippedLabels(skippedBy[id])))
		fixes = append(fixes, fmt.Sprintf("make %s run and pass as a plain test", skippedBy[id][0].name))
	}
	if strict && len(notProven) > 0 {
		var why []string
		for _, ref := range capRefs(notProven) {
			why = append(why, ref.ID+": "+notProvenWhy[strings.ToLower(ref.ID)])
		}
		parts = append(parts, fmt.Sprintf("%s no test that fails without this session's change (its new and changed functions emptied) and passes with it: %s",
			plural(len(notProven), "criterion has", "criteria have"), strings.Join(why, "; ")))
		fixes = append(fixes, "make each such criterion's test check what the criterion says, so that it fails on the code before the change by its assertions and passes now")
	}
	r := failf(c.Type, upperFirst(strings.Join(fixes, ", and ")+"."), "%s.", upperFirst(strings.Join(parts, "; ")))
	r.Details, r.Warnings = d, warnings
	return r
}

// noCheck says, for a test's language, what a test that checks nothing lacks.
func noCheck(lang string) string {
	switch lang {
	case langPy:
		return "no assert, pytest.raises or self.assert…"
	case langJS:
		return "no expect or assert"
	}
	return "no t.Error, t.Fatal or helper given t"
}

// skippedLabels names skipped tests with why each never counts.
func skippedLabels(refs []testRef) string {
	var names []string
	for _, r := range refs {
		why := "skipped"
		if r.never != "" {
			why = r.never
		}
		names = append(names, fmt.Sprintf("%s (%s:%d, %s)", r.name, r.file, r.line, why))
	}
	return listNames(names, 3)
}

func hollowLabels(refs []testRef) string {
	var names []string
	for _, r := range refs {
		names = append(names, r.label())
	}
	return listNames(names, 3)
}

// underscored writes an ID as a Go identifier can hold it: AC_login_1_1_1.
func underscored(id string) string { return strings.NewReplacer("-", "_", ".", "_").Replace(id) }

func traceNote(ids, untraced int, ran bool) string {
	by, notBy := "referenced by tests", "referenced by any test"
	if ran {
		by, notBy = "named by tests that passed in this run", "named by a test that passed in this run"
	}
	switch {
	case ids == 0:
		return ""
	case untraced == 0:
		return " and " + every(ids, "criterion ID is "+by, "criterion IDs are "+by)
	default:
		return fmt.Sprintf(", but %d of %s %s not %s", untraced, plural(ids, "criterion ID", "criterion IDs"), isAre(untraced), notBy)
	}
}

func labels(refs []CriterionRef) string {
	var names []string
	for _, r := range refs {
		names = append(names, r.label())
	}
	return listNames(names, 5)
}

func capRefs(refs []CriterionRef) []CriterionRef {
	if len(refs) > maxListed {
		return refs[:maxListed]
	}
	return refs
}

// skipDirs are never searched for tests.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".agentos": true}

// traceIDs searches the project's test files for the refs' IDs and returns
// the IDs found (lower case), how many files it read, and whether it stopped
// at maxTestFiles. It returns early once every ID is found.
func traceIDs(ctx context.Context, root string, refs []CriterionRef) (map[string]bool, int, bool, error) {
	found := map[string]bool{}
	remaining := map[string]bool{}
	for _, r := range refs {
		remaining[strings.ToLower(r.ID)] = true
	}
	files, truncated := 0, false
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if de != nil && de.IsDir() && path != root {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() {
			if path != root && skipDirs[de.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !baseline.IsTestFile(rel) {
			return nil
		}
		if files >= maxTestFiles {
			truncated = true
			return fs.SkipAll
		}
		files++
		content, ok := readText(path)
		if !ok {
			return nil
		}
		content = bytes.ToLower(content)
		for id := range remaining {
			if mentions(content, id) {
				found[id] = true
				delete(remaining, id)
			}
		}
		if len(remaining) == 0 {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return nil, files, truncated, ctx.Err()
	}
	return found, files, truncated, nil
}

// readText reads a file of at most maxTestFileBytes that does not look binary.
func readText(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTestFileBytes+1))
	if err != nil || len(b) > maxTestFileBytes || bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return nil, false
	}
	return b, true
}

// mentions reports whether lower-cased content names the lower-cased ID id,
// as written (ac-1.2.1) or with underscores (ac_1_2_1, as in TestAC_1_2_1),
// not as the prefix of a longer ID (ac-1.2.10, ac-1.2.1.3).
func mentions(content []byte, id string) bool {
	underscored := strings.NewReplacer("-", "_", ".", "_").Replace(id)
	for _, needle := range []string{id, underscored} {
		n := []byte(needle)
		for off := 0; ; {
			i := bytes.Index(content[off:], n)
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(n)
			off = start + 1
			if start > 0 {
				prev := content[start-1]
				if isDigit(prev) || (needle == id && isAlnum(prev)) {
					continue
				}
			}
			if end < len(content) {
				next := content[end]
				if isDigit(next) {
					continue
				}
				if (next == '.' || next == '_' || next == '-') && end+1 < len(content) && isDigit(content[end+1]) {
					continue
				}
			}
			return true
		}
		if underscored == id {
			break
		}
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
func isAlnum(b byte) bool { return isDigit(b) || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }
