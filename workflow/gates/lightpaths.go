package gates

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/workflow/baseline"
)

// The light paths' checks: quick_change_v1 judges one short document
// (change.md) and then the code against its criteria with the verified
// gate's rules; bugfix_v1 judges a reproduction, a test seen failing on the
// code as it was, for the reason its document states, and then the fix that
// makes that same test pass.
//
//	change_doc       file, max_criteria   What and Why filled in, 1 to max_criteria criteria
//	                                      AC-<name>-N, and the configured test command
//	change_criteria  file, max_files      every criterion of the document traced to a test
//	                                      that failed before the change and passes now; at
//	                                      most max_files files changed
//	bug_doc          file                 the bug, what is expected, one reproduction
//	                                      criterion with the failure it shows, the fix
//	                                      summary, and the configured test command
//	reproduction     file                 the session changed tests only; in the sandbox,
//	                                      the criterion's test fails, for the stated reason
//	bug_fixed        file                 the reproduction's test passed in this gate's run,
//	                                      its files as they were seen failing

// Check types of the light paths.
const (
	TypeChangeDoc      = "change_doc"
	TypeChangeCriteria = "change_criteria"
	TypeBugDoc         = "bug_doc"
	TypeReproduction   = "reproduction"
	TypeBugFixed       = "bug_fixed"
)

// The quick path's limits when a definition names none. A person reads the
// document and the diff in one sitting: three criteria, each with a code
// file and a test file to change, is one small behaviour; more is a feature
// whose parts need ordering into tasks, which the full spec path gives.
const (
	DefaultMaxCriteria = 3
	DefaultMaxFiles    = 6
)

// Vars a passed reproduction records for the fix phase.
const (
	ReproIDVar     = "repro_id"
	ReproReasonVar = "repro_reason"
	ReproFilesVar  = "repro_files" // "path sha256" lines
)

// Recorder is a check result's Details that asks the engine to keep values
// in the session's vars once the gate passed, for a later phase's checks.
type Recorder interface {
	Recorded() map[string]string
}

// RunsCommands reports whether c runs the project's commands, and so must
// run in the gate's sandbox.
func RunsCommands(c Check) bool {
	if c.Type == TypeCommand {
		return true
	}
	ext, ok := extension(c.Type)
	return ok && ext.RunsCommands
}

func init() {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(Register(TypeChangeDoc, Extension{Keys: []string{"file", "max_criteria"}, Required: []string{"file"}, Run: runChangeDoc}))
	must(Register(TypeChangeCriteria, Extension{Keys: []string{"file", "max_files"}, Required: []string{"file"}, Run: runChangeCriteria}))
	must(Register(TypeBugDoc, Extension{Keys: []string{"file"}, Required: []string{"file"}, Run: runBugDoc}))
	must(Register(TypeReproduction, Extension{Keys: []string{"file"}, Required: []string{"file"}, Run: runReproduction, RunsCommands: true}))
	must(Register(TypeBugFixed, Extension{Keys: []string{"file"}, Required: []string{"file"}, Run: runBugFixed}))
}

// lightDoc is a light path's document as read.
type lightDoc struct {
	rel      string
	lines    []mdLine
	criteria []Criterion
	name     string // the spec name criterion IDs carry
}

// readLightDoc reads the document a check names and the criteria listed
// under heading.
func readLightDoc(c Check, env Env, heading string) (*lightDoc, Result, bool) {
	doc := Check{Type: c.Type, File: c.Params["file"]}
	src, rel, res, ok := doc.readDoc(env, c.Type)
	if !ok {
		return nil, res, false
	}
	d := &lightDoc{rel: rel, lines: splitMarkdown(src), name: SpecName(filepath.Dir(rel))}
	d.criteria = docCriteria(d.lines, heading)
	return d, Result{}, true
}

// DocCriteria returns the criteria with IDs listed under heading in a light
// path's document (change.md's "Acceptance criteria", bug.md's
// "Reproduction"), as the gates read them.
func DocCriteria(src []byte, heading string) []Criterion {
	return docCriteria(splitMarkdown(src), heading)
}

func docCriteria(lines []mdLine, heading string) []Criterion {
	var out []Criterion
	for _, l := range sectionLines(lines, heading) {
		item, ok := listItem(l.text)
		if !ok {
			continue
		}
		checked := false
		if len(item) >= 3 && item[0] == '[' && item[2] == ']' && strings.ContainsRune(" xX", rune(item[1])) {
			checked, item = item[1] != ' ', strings.TrimSpace(item[3:])
		}
		m := criterionRe.FindStringSubmatch(item)
		if m == nil {
			continue
		}
		out = append(out, Criterion{ID: m[1], Text: strings.TrimSpace(m[2]), Checked: checked, Line: l.num})
	}
	return out
}

// listItem returns the text of a markdown list item ("- x", "* x", "1. x").
func listItem(line string) (string, bool) {
	t := strings.TrimSpace(line)
	for _, p := range []string{"- ", "* ", "+ "} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			return strings.TrimSpace(rest), true
		}
	}
	if i := strings.IndexAny(t, ".)"); i > 0 && i < 4 {
		if _, err := strconv.Atoi(t[:i]); err == nil && len(t) > i+1 && t[i+1] == ' ' {
			return strings.TrimSpace(t[i+2:]), true
		}
	}
	return "", false
}

// sectionLines returns the lines under the first heading named name, up to
// the next heading of its level or above.
func sectionLines(lines []mdLine, name string) []mdLine {
	norm := normalizeHeading(name)
	for i, l := range lines {
		if l.level == 0 || normalizeHeading(l.heading) != norm {
			continue
		}
		end := i + 1
		for end < len(lines) && (lines[end].level == 0 || lines[end].level > l.level) {
			end++
		}
		return lines[i+1 : end]
	}
	return nil
}

// sectionText is the text under a heading, code included, trimmed.
func sectionText(lines []mdLine, name string) string {
	var b strings.Builder
	for _, l := range sectionLines(lines, name) {
		if l.fence {
			continue
		}
		b.WriteString(l.text + "\n")
	}
	return strings.TrimSpace(b.String())
}

// checkIDs judges the criteria's IDs: each names the spec (AC-<name>-N),
// none twice. It returns what is wrong, "" when nothing is.
func (d *lightDoc) checkIDs() string {
	seen := map[string]bool{}
	for _, cr := range d.criteria {
		id := strings.ToLower(cr.ID)
		switch {
		case cr.Namespace() != d.name:
			return fmt.Sprintf("%s (line %d) does not name this change: write it AC-%s-N", cr.ID, cr.Line, d.name)
		case seen[id]:
			return fmt.Sprintf("%s (line %d) is given twice", cr.ID, cr.Line)
		case strings.TrimSpace(cr.Text) == "":
			return fmt.Sprintf("%s (line %d) says nothing after its ID", cr.ID, cr.Line)
		}
		seen[id] = true
	}
	return ""
}

// checkTestCommand requires the document's Test command section to hold
// the command the gate runs, as configured: the person approves the
// command they read, and the agent never chooses it.
func (d *lightDoc) checkTestCommand(env Env) string {
	want := strings.TrimSpace(env.Vars["test_command"])
	if want == "" {
		return ""
	}
	got := sectionText(d.lines, "Test command")
	if !strings.Contains(got, want) {
		return fmt.Sprintf("its Test command section does not hold the configured test command `%s`", want)
	}
	return ""
}

// proseSections runs the markdown_sections rules (words, sentences, no filler)
// on the document's prose sections.
func proseSections(ctx context.Context, c Check, env Env, sections map[string]int) (Result, bool) {
	m := Check{Type: TypeMarkdownSections, File: c.Params["file"], MinWords: sections}
	for _, s := range slices.Sorted(func(yield func(string) bool) {
		for k := range sections {
			if !yield(k) {
				return
			}
		}
	}) {
		m.Sections = append(m.Sections, s)
	}
	r := m.Run(ctx, env)
	r.Type = c.Type
	return r, r.Passed
}

// intParam reads a positive number parameter, def when unset.
func intParam(c Check, key string, def int) (int, error) {
	v := c.Params[key]
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s %q is not a positive number", key, v)
	}
	return n, nil
}

// fullPath says how to take a change that is too big for the quick path.
func fullPath(name string) string {
	return fmt.Sprintf("This is too big for quick_change_v1: take the full path, start workflow_type spec_creation_v1 options {\"feature\": %q} (its tasks order the work), or split the change into smaller quick changes.", name)
}

func runChangeDoc(ctx context.Context, c Check, env Env) Result {
	max, err := intParam(c, "max_criteria", DefaultMaxCriteria)
	if err != nil {
		return failf(c.Type, "Fix this check in the workflow definition.", "The gate check is invalid: %s.", err)
	}
	if r, ok := proseSections(ctx, c, env, map[string]int{"What": 8, "Why": 8}); !ok {
		return r
	}
	d, r, ok := readLightDoc(c, env, "Acceptance criteria")
	if !ok {
		return r
	}
	switch n := len(d.criteria); {
	case n == 0:
		return failf(c.Type, fmt.Sprintf("List each criterion under \"## Acceptance criteria\" as \"- AC-%s-1: what the code then does\".", d.name),
			"%s lists no acceptance criterion with an ID.", d.rel)
	case n > max:
		return failf(c.Type, fullPath(d.name), "%s lists %d acceptance criteria; the quick path holds at most %d.", d.rel, n, max)
	}
	if bad := d.checkIDs(); bad != "" {
		return failf(c.Type, fmt.Sprintf("Give each criterion its own ID AC-%s-N and say what it checks.", d.name), "In %s, %s.", d.rel, bad)
	}
	if bad := d.checkTestCommand(env); bad != "" {
		return failf(c.Type, fmt.Sprintf("Write the command under \"## Test command\" as `%s`: it comes from .agentos/config/mcp.yaml, and the person approves what they read.", env.Vars["test_command"]), "In %s, %s.", d.rel, bad)
	}
	return pass(c.Type, "%s says what changes and why, with %s and the test command.", d.rel, plural(len(d.criteria), "acceptance criterion", "acceptance criteria"))
}

// changedFiles lists the files a session diff touches.
func changedFiles(diff []byte) []string {
	var files []string
	for _, line := range strings.Split(string(diff), "\n") {
		rest, ok := strings.CutPrefix(line, "diff --git a/")
		if !ok {
			continue
		}
		if i := strings.Index(rest, " b/"); i >= 0 {
			files = append(files, rest[:i])
		}
	}
	return files
}

func runChangeCriteria(ctx context.Context, c Check, env Env) Result {
	max, err := intParam(c, "max_files", DefaultMaxFiles)
	if err != nil {
		return failf(c.Type, "Fix this check in the workflow definition.", "The gate check is invalid: %s.", err)
	}
	d, r, ok := readLightDoc(c, env, "Acceptance criteria")
	if !ok {
		return r
	}
	if len(d.criteria) == 0 {
		return failf(c.Type, fmt.Sprintf("List the criteria under \"## Acceptance criteria\" in %s.", d.rel), "%s lists no acceptance criterion with an ID.", d.rel)
	}
	if env.SessionDiff != nil {
		diff, err := env.SessionDiff(ctx, nil)
		if err != nil {
			return failf(c.Type, "Run the gate again.", "The session's change cannot be read: %s.", trimDot(err.Error()))
		}
		if files := changedFiles(diff); len(files) > max {
			return failf(c.Type, fullPath(d.name), "The change touches %d files (%s); the quick path holds at most %d.", len(files), listNames(files, 5), max)
		}
	}
	// The tests prove a criterion, not a tick: each counts as checked.
	task := Task{ID: "1", Title: d.rel}
	for _, cr := range d.criteria {
		cr.Checked = true
		task.Criteria = append(task.Criteria, cr)
	}
	env.Strict = true
	res := Check{Type: TypeAcceptanceCriteria, File: c.Params["file"]}.judgeCriteria(ctx, env, d.rel, []Phase{{Number: 1, Title: d.rel, Tasks: []Task{task}}}, "in "+d.rel)
	res.Type = c.Type
	return res
}

// reproDoc is a bug document's reproduction: its one criterion and the
// failure its test shows on the code as it is.
type reproDoc struct {
	*lightDoc
	id, reason string
}

// failsWithRe finds the stated failure: "Fails with: `…`".
func readReproDoc(c Check, env Env) (*reproDoc, Result, bool) {
	d, r, ok := readLightDoc(c, env, "Reproduction")
	if !ok {
		return nil, r, false
	}
	if len(d.criteria) != 1 {
		return nil, failf(c.Type, fmt.Sprintf("Under \"## Reproduction\", name the test's criterion once: \"- AC-%s-1: what the code should do\".", d.name),
			"%s names %d reproduction criteria; a bug fix has exactly one.", d.rel, len(d.criteria)), false
	}
	rd := &reproDoc{lightDoc: d, id: d.criteria[0].ID}
	for _, l := range sectionLines(d.lines, "Reproduction") {
		t := strings.TrimSpace(l.text)
		if item, ok := listItem(t); ok {
			t = item
		}
		lower := strings.ToLower(t)
		if rest, ok := strings.CutPrefix(lower, "fails with:"); ok {
			rd.reason = strings.Trim(strings.TrimSpace(t[len(t)-len(rest):]), "`\"")
			break
		}
	}
	if rd.reason == "" {
		return nil, failf(c.Type, "Under \"## Reproduction\", add a line \"Fails with: `…`\" quoting what the test's failure says (its assertion's message).",
			"%s does not say what the reproduction's failure says.", d.rel), false
	}
	if len(rd.reason) < 6 {
		return nil, failf(c.Type, "Quote more of the failure's message after \"Fails with:\": the assertion's own words.", "The stated failure %q is too short to tell one failure from another.", rd.reason), false
	}
	return rd, Result{}, true
}

func runBugDoc(ctx context.Context, c Check, env Env) Result {
	if r, ok := proseSections(ctx, c, env, map[string]int{"What happens": 6, "Expected": 4, "Fix summary": 6}); !ok {
		return r
	}
	d, r, ok := readReproDoc(c, env)
	if !ok {
		return r
	}
	if bad := d.checkIDs(); bad != "" {
		return failf(c.Type, fmt.Sprintf("Give the reproduction its ID AC-%s-1 and say what it checks.", d.name), "In %s, %s.", d.rel, bad)
	}
	if bad := d.checkTestCommand(env); bad != "" {
		return failf(c.Type, fmt.Sprintf("Write the command under \"## Test command\" as `%s`: it comes from .agentos/config/mcp.yaml.", env.Vars["test_command"]), "In %s, %s.", d.rel, bad)
	}
	return pass(c.Type, "%s says what happens, what is expected, the reproduction %s failing with %q, and the fix.", d.rel, d.id, d.reason)
}

// loadFailures are what a failure says when the test never reached its
// assertion: the code or the test did not load. A reproduction shows the
// bug by the test's assertion, never by these.
var loadFailures = []string{
	"importerror", "modulenotfounderror", "syntaxerror", "indentationerror", "nameerror",
	"cannot find module", "failed to load", "failed to resolve import", "is not defined", "is not a function",
	"undefined:", "cannot find package", "build failed", "setup failed", "collection failure", "transform failed",
}

// normalize folds case and runs of white space, so a stated reason matches
// however the runner wrapped it.
func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// ReproDetails is the Details of a reproduction result.
type ReproDetails struct {
	ID      string   `json:"id"`
	Tests   []string `json:"tests,omitempty"`
	Failure string   `json:"failure,omitempty"`
	Files   []string `json:"files,omitempty"` // "path sha256" of the test files seen failing
	record  map[string]string
}

// Recorded keeps the reproduction for the fix phase.
func (d ReproDetails) Recorded() map[string]string { return d.record }

func runReproduction(ctx context.Context, c Check, env Env) Result {
	d, r, ok := readReproDoc(c, env)
	if !ok {
		return r
	}
	// The code as it was: the session may have written tests only.
	if env.SessionDiff == nil {
		return failf(c.Type, "Install git, and let the gate run in its sandbox (workflow.sandbox), then run the gate again.",
			"The code as it was cannot be told from the session's change: no base was recorded for this session, or the gate runs unsandboxed.")
	}
	{
		diff, err := env.SessionDiff(ctx, nil)
		if err != nil {
			return failf(c.Type, "Run the gate again.", "The session's change cannot be read: %s.", trimDot(err.Error()))
		}
		var code []string
		for _, f := range changedFiles(diff) {
			if !baseline.IsTestFile(f) {
				code = append(code, f)
			}
		}
		if len(code) > 0 {
			return failf(c.Type, "Undo those changes for now: the reproduction runs on the code as it was; the fix comes in the next phase.",
				"The session changed %s, which %s not a test: a reproduction shows the bug in the code as it was.", listNames(code, 5), map[bool]string{true: "is", false: "are"}[len(code) == 1])
		}
	}
	run := Check{Type: TypeCommand, Command: "{test_command}", Report: "{test_report}"}
	if env.Vars["test_report"] == "" || env.Vars["test_report"] == ReportExitStatus {
		return failf(c.Type, "Configure a test command whose report names each test (go test -json, or a JUnit report), then run the gate again.",
			"The test command's report does not name its tests, so the reproduction's failure cannot be read.")
	}
	tests := &TestRun{}
	runEnv := env
	runEnv.Tests, runEnv.Earlier, runEnv.Before = tests, nil, nil
	cmd := run.Run(ctx, runEnv)
	report, cases := tests.Results()
	if report == "" {
		r := failf(c.Type, "Make the tests run (the output below says what stopped them), then run the gate again.", "The tests did not run: %s", cmd.Message)
		r.Output = cmd.Output
		return r
	}
	id := strings.ToLower(d.id)
	src, err := findTests(ctx, env.Root, []string{id})
	if err != nil {
		return failf(c.Type, "Run the gate again.", "The reproduction check was cancelled while reading the tests.")
	}
	det := ReproDetails{ID: d.id}
	var failed []testRef
	var why []string
	for _, ref := range src.refs {
		if !slices.Contains(ref.ids, id) {
			continue
		}
		tc := src.result(ref, cases)
		det.Tests = append(det.Tests, ref.label())
		switch {
		case ref.never != "":
			why = append(why, ref.label()+" is marked "+ref.never)
		case !ref.checks:
			why = append(why, ref.label()+" checks nothing ("+noCheck(ref.lang)+")")
		case tc.Status == TestPassed:
			why = append(why, ref.label()+" passes on the code as it is")
		case tc.Status == TestSkipped:
			why = append(why, ref.label()+" was skipped")
		case tc.Status != TestFailed:
			why = append(why, ref.label()+" did not run (it did not build, or was not collected)")
		case tc.Failure == "":
			why = append(why, ref.label()+" failed without a message to compare with the stated failure")
		case isLoadFailure(tc.Failure) && !isLoadFailure(d.reason):
			why = append(why, fmt.Sprintf("%s failed because the code or the test did not load: %s", ref.label(), clip(tc.Failure, 200)))
		case isLoadFailure(d.reason):
			why = append(why, fmt.Sprintf("%s failed with %q, a failure to load, not the bug", ref.label(), clip(tc.Failure, 200)))
		case !strings.Contains(normalize(tc.Failure), normalize(d.reason)):
			why = append(why, fmt.Sprintf("%s failed for another reason: %q, not %q", ref.label(), clip(tc.Failure, 200), d.reason))
		default:
			failed = append(failed, ref)
			det.Failure = tc.Failure
		}
	}
	if len(det.Tests) == 0 {
		r := failf(c.Type, fmt.Sprintf("Write a test that shows the bug and name %s in it (a comment just above it, or its name, like Test%s).", d.id, underscored(d.id)),
			"No test names %s.", d.id)
		r.Details = det
		return r
	}
	if len(failed) == 0 || len(why) > 0 {
		r := failf(c.Type, "Make the test fail by its assertion on the bug, and quote that failure after \"Fails with:\" in "+d.rel+".",
			"%s is not reproduced: %s.", d.id, strings.Join(why, "; "))
		r.Details, r.Output = det, cmd.Output
		return r
	}
	// What the fix is held to: these files, byte for byte.
	files := map[string]bool{}
	for _, ref := range failed {
		files[ref.file] = true
	}
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for f := range files {
			if !yield(f) {
				return
			}
		}
	}) {
		sum, err := fileSHA256(env.Root, f)
		if err != nil {
			return failf(c.Type, "Run the gate again.", "The reproduction's test file %s cannot be read: %s.", f, trimDot(err.Error()))
		}
		det.Files = append(det.Files, f+" "+sum)
	}
	det.record = map[string]string{ReproIDVar: d.id, ReproReasonVar: d.reason, ReproFilesVar: strings.Join(det.Files, "\n")}
	res := pass(c.Type, "%s is reproduced: %s fails on the code as it is with %q.", d.id, failed[0].label(), clip(det.Failure, 200))
	res.Details = det
	return res
}

func isLoadFailure(s string) bool {
	n := normalize(s)
	return slices.ContainsFunc(loadFailures, func(m string) bool { return strings.Contains(n, m) })
}

// fileSHA256 hashes a project file, read as a regular file inside root.
func fileSHA256(root, rel string) (string, error) {
	abs, _, err := resolveLiteral(root, rel)
	if err != nil {
		return "", err
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", rel)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

func runBugFixed(ctx context.Context, c Check, env Env) Result {
	id, files := env.Vars[ReproIDVar], env.Vars[ReproFilesVar]
	if id == "" || files == "" {
		return failf(c.Type, "Finish the reproduction phase first.", "No reproduction was recorded for this session.")
	}
	d, r, ok := readReproDoc(c, env)
	if !ok {
		return r
	}
	if !strings.EqualFold(d.id, id) || normalize(d.reason) != normalize(env.Vars[ReproReasonVar]) {
		return failf(c.Type, fmt.Sprintf("Put back the reproduction as it was seen failing: %s, failing with %q.", id, env.Vars[ReproReasonVar]),
			"%s now names the reproduction %s failing with %q, not the %s failing with %q that the gate saw.", d.rel, d.id, d.reason, id, env.Vars[ReproReasonVar])
	}
	var changed []string
	for _, line := range strings.Split(files, "\n") {
		f, want, _ := strings.Cut(line, " ")
		if got, err := fileSHA256(env.Root, f); err != nil || got != want {
			changed = append(changed, f)
		}
	}
	if len(changed) > 0 {
		return failf(c.Type, fmt.Sprintf("Put %s back as it was when it failed: the fix changes the code, not the test that shows the bug (add more tests in other files).", listNames(changed, 3)),
			"The reproduction's test %s changed since it was seen failing: %s.", map[bool]string{true: "file", false: "files"}[len(changed) == 1], listNames(changed, 3))
	}
	report, cases := env.Tests.Results()
	if report == "" {
		return failf(c.Type, "Run the test command before this check in the gate.", "No test report was read in this gate, so the reproduction's test cannot be seen passing.")
	}
	lid := strings.ToLower(id)
	src, err := findTests(ctx, env.Root, []string{lid})
	if err != nil {
		return failf(c.Type, "Run the gate again.", "The bug_fixed check was cancelled while reading the tests.")
	}
	var passed, not []string
	for _, ref := range src.refs {
		if !slices.Contains(ref.ids, lid) || !strings.Contains(files, ref.file+" ") {
			continue
		}
		tc := src.result(ref, cases)
		if tc.Status == TestPassed && ref.checks && ref.never == "" {
			passed = append(passed, ref.label())
		} else {
			status := tc.Status
			if status == "" {
				status = "did not run"
			}
			not = append(not, ref.label()+" "+status)
		}
	}
	if len(passed) == 0 || len(not) > 0 {
		return failf(c.Type, "Fix the code so that the reproduction's test passes as it was written.", "The reproduction %s does not pass: %s.", id, listNames(not, 3))
	}
	return pass(c.Type, "The reproduction %s passes now: %s, unchanged since it failed.", id, listNames(passed, 3))
}
