package workflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/workflow/baseline"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// Brownfield start. A project that did not start with agentos has code,
// tests and docs but no specs, so living specs have nothing to keep true.
// DraftSpecs writes, for each module a person names (a folder), a spec in
// the usual layout drafted from what is there: what the module does (its
// package documentation or README), its interfaces (the exported symbols
// of the code index), and its existing tests as the criteria that already
// hold, each test naming its criterion in a comment as every traced test
// does. A draft says it was drafted from code; it is a spec like any other
// only once a person approves it (`agentos workflow approve --spec`), and
// that approval records its evidence as a finished spec's, so `agentos
// specs check` runs its tests from then on.

// DraftedStatus is the README line that marks a spec drafted from code.
const DraftedStatus = "Status: drafted from code"

// specsInitWorkflow names, in a living record, a spec whose evidence was
// recorded when a person approved a draft of it.
const specsInitWorkflow = "specs_init"

// maxDraftCriteria bounds the criteria of one draft: a module with more
// tests is drafted with the first ones, and says so.
const maxDraftCriteria = 200

// DraftOptions say what DraftSpecs drafts.
type DraftOptions struct {
	// Modules are folders relative to the project root ("." for the code at
	// the root); none: every top-level folder that holds code.
	Modules []string
	// DryRun writes nothing: the drafts carry what would be written.
	DryRun bool
}

// Draft is one spec drafted from a module's code.
type Draft struct {
	Module string `json:"module"`
	Spec   string `json:"spec"` // the spec folder's name
	Dir    string `json:"dir"`  // .agentos/specs/<spec>
	// Files are the spec's documents (path from the project root → text).
	Files    map[string]string `json:"files,omitempty"`
	Symbols  int               `json:"symbols"` // exported symbols listed under Interfaces
	Criteria []DraftCriterion  `json:"criteria"`
	// Annotated are the test files given a comment naming a criterion.
	Annotated []string `json:"annotated,omitempty"`
	// Skipped are tests of the module not taken for a criterion, and why.
	Skipped []string `json:"skipped,omitempty"`
	// ToAdd is what a person must write before the draft can be approved.
	ToAdd []string `json:"to_add,omitempty"`
	// NotWritten says why nothing was written for the module (a spec of
	// that name exists); "" when it was, or would be with DryRun.
	NotWritten string `json:"not_written,omitempty"`
	Written    bool   `json:"written"`

	annotations map[string][]*draftTest // test file → the tests to name their criteria
}

// DraftCriterion is a criterion of a draft and the test that holds it.
type DraftCriterion struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Test string `json:"test"` // "TestX (file.go:12)"
}

// moduleGraph is what drafting asks of the code index besides SymbolGraph:
// every file's facts (*codegraph.Graph has it).
type moduleGraph interface {
	Files() []codegraph.FileFacts
}

// DraftSpecs drafts a spec for each module of opts from the code index's
// graph, the project's tests and its docs. It never overwrites a spec: a
// module whose spec name is taken is reported, not drafted.
func (e *Engine) DraftSpecs(ctx context.Context, opts DraftOptions) ([]Draft, error) {
	if !opts.DryRun {
		if err := e.refuseWhileGate("draft specs", "", CLIActor, "drafting specs from code"); err != nil {
			return nil, err
		}
	}
	sg, err := e.codeGraph(ctx)
	if err != nil {
		return nil, refused("specs are drafted from the code index, which is not at hand: %v; run `agentos index` first", err)
	}
	mg, ok := sg.(moduleGraph)
	if !ok {
		return nil, refused("the code index's graph does not list its files")
	}
	files := mg.Files()
	modules := opts.Modules
	if len(modules) == 0 {
		modules = topModules(files)
		if len(modules) == 0 {
			return nil, notFound("the code index holds no code outside tests, so there is nothing to draft a spec from (a server's index may still be building: wait until svc_search_project's index_status says ready)")
		}
	}
	tests, err := gates.ListTests(ctx, e.set.Root)
	if err != nil {
		return nil, fmt.Errorf("read the tests: %w", err)
	}
	taken, err := e.specNames()
	if err != nil {
		return nil, err
	}
	var out []Draft
	for _, m := range modules {
		m, err := e.moduleFolder(m)
		if err != nil {
			return nil, err
		}
		d, err := e.draft(ctx, m, files, sg, tests, taken)
		if err != nil {
			return nil, err
		}
		if d.NotWritten == "" {
			taken[gates.SpecName(d.Dir)] = d.Spec
			if !opts.DryRun {
				if err := e.writeDraft(&d); err != nil {
					return nil, err
				}
				if len(d.Annotated) > 0 {
					// The comments moved the tests' lines: a later module
					// reached by the same test files reads them afresh.
					if tests, err = gates.ListTests(ctx, e.set.Root); err != nil {
						return nil, fmt.Errorf("read the tests: %w", err)
					}
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// moduleFolder checks a module a person named: a folder inside the
// project, returned relative to the root with slashes.
func (e *Engine) moduleFolder(m string) (string, error) {
	if filepath.IsAbs(m) {
		rel, err := filepath.Rel(e.set.Root, m)
		if err != nil {
			return "", invalid("module", "%s is not inside the project", m)
		}
		m = rel
	}
	m = path.Clean(filepath.ToSlash(m))
	if m == ".." || strings.HasPrefix(m, "../") || strings.HasPrefix(m, ".agentos") {
		return "", invalid("module", "%s is not a folder of the project's code", m)
	}
	fi, err := os.Stat(filepath.Join(e.set.Root, filepath.FromSlash(m)))
	if err != nil || !fi.IsDir() {
		return "", notFound("no folder %s in the project; name a folder of its code (a package or module)", m)
	}
	return m, nil
}

// topModules are the top-level folders whose files the index holds code
// of (not tests only), and "." when code sits at the root.
func topModules(files []codegraph.FileFacts) []string {
	seen := map[string]bool{}
	for _, f := range files {
		if baseline.IsTestFile(f.Path) || !slices.ContainsFunc(f.Symbols, func(d codegraph.Def) bool { return !d.Test }) {
			continue
		}
		top, _, nested := strings.Cut(f.Path, "/")
		if !nested {
			top = "."
		}
		if strings.HasPrefix(top, ".") && top != "." {
			continue
		}
		seen[top] = true
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// inModule reports whether file is in module's folder; the root's module
// holds the files at the root only, each folder being a module of its own.
func inModule(module, file string) bool {
	if module == "." {
		return !strings.Contains(file, "/")
	}
	return strings.HasPrefix(file, module+"/")
}

// specNames maps the name of each spec of the project (its folder without
// the date) to its folder: criterion IDs carry that name, so two specs of
// one name would claim each other's tests.
func (e *Engine) specNames() (map[string]string, error) {
	entries, err := os.ReadDir(filepath.Join(e.set.Root, ".agentos", "specs"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("list the specs: %w", err)
	}
	out := map[string]string{}
	for _, d := range entries {
		out[gates.SpecName(d.Name())] = d.Name()
	}
	return out, nil
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// moduleSlug names a module's spec: its folder, or the project's for ".".
func (e *Engine) moduleSlug(module string) string {
	name := module
	if module == "." {
		name = filepath.Base(e.set.Root)
	}
	s := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if s == "" {
		s = "module"
	}
	return s
}

// draftTest is a test of a module taken for a criterion.
type draftTest struct {
	gates.ProjectTest
	id string
}

func (e *Engine) draft(ctx context.Context, module string, files []codegraph.FileFacts, g SymbolGraph, tests []gates.ProjectTest, taken map[string]string) (Draft, error) {
	slug := e.moduleSlug(module)
	spec := e.set.Now().Format("2006-01-02") + "-" + slug
	d := Draft{Module: module, Spec: spec, Dir: ".agentos/specs/" + spec, Criteria: []DraftCriterion{}}
	if _, err := SpecDir(spec); err != nil {
		return d, err
	}
	if old, ok := taken[slug]; ok {
		d.NotWritten = fmt.Sprintf(".agentos/specs/%s exists, and its criteria are named AC-%s-…: it is not overwritten; approve or remove it, or draft %s under another folder", old, slug, module)
		return d, nil
	}

	// Interfaces: the exported symbols of the module's code, as the index
	// declares them.
	var syms []codegraph.Symbol
	var code []string
	for _, f := range files {
		if !inModule(module, f.Path) || baseline.IsTestFile(f.Path) {
			continue
		}
		fileSyms := g.SymbolsOf(f.Path)
		kept := false
		for _, s := range fileSyms {
			if s.Exported && !s.Test && s.Kind != "package" {
				syms = append(syms, s)
				kept = true
			}
		}
		if kept || len(fileSyms) > 0 {
			code = append(code, f.Path)
		}
	}
	if len(code) == 0 {
		return d, notFound("the code index holds no code in %s; name a folder of the project's code (is it in code.source_paths?)", module)
	}
	d.Symbols = len(syms)

	// The tests: those in the module's folder, and those elsewhere that
	// reach its symbols by the graph (a tests/ folder beside a package).
	reachedTests, reachedFiles := map[string]bool{}, map[string]bool{}
	if len(syms) > 0 {
		im := g.Impact(syms, codegraph.ImpactOptions{TestLimit: codegraph.MaxLimit})
		for _, t := range im.Tests {
			if t.Symbol.Kind == "package" || t.Symbol.Kind == "module" || t.Symbol.Name == "" {
				reachedFiles[t.Symbol.Path] = true
			}
			reachedTests[t.Symbol.Path+"\x00"+t.Symbol.Name] = true
		}
	}
	specName := gates.SpecName(d.Dir)
	var taken2 []draftTest
	byFile := map[string][]*draftTest{}
	var fileOrder []string
	for _, t := range tests {
		root, _, sub := strings.Cut(t.Name, "/")
		if t.Lang == "go" && sub {
			continue // a subtest is held by its test
		}
		if !inModule(module, t.File) && !reachedFiles[t.File] && !reachedTests[t.File+"\x00"+root] {
			continue
		}
		switch {
		case t.Never != "":
			d.Skipped = append(d.Skipped, fmt.Sprintf("%s: marked %s, so it never counts", t.Label(), t.Never))
			continue
		case !t.Checks:
			d.Skipped = append(d.Skipped, fmt.Sprintf("%s: checks nothing (no assertion), so it cannot fail", t.Label()))
			continue
		case !e.annotatable(t):
			d.Skipped = append(d.Skipped, fmt.Sprintf("%s: shares its line with other code, so no comment can name a criterion above it", t.Label()))
			continue
		case len(taken2) == maxDraftCriteria:
			d.Skipped = append(d.Skipped, fmt.Sprintf("%s: the draft holds %d criteria already", t.Label(), maxDraftCriteria))
			continue
		}
		taken2 = append(taken2, draftTest{ProjectTest: t})
		if _, ok := byFile[t.File]; !ok {
			fileOrder = append(fileOrder, t.File)
		}
		byFile[t.File] = append(byFile[t.File], nil)
	}
	// One task per test file, one criterion per test.
	task := map[string]int{}
	for i, f := range fileOrder {
		task[f] = i + 1
		byFile[f] = byFile[f][:0]
	}
	for i := range taken2 {
		t := &taken2[i]
		byFile[t.File] = append(byFile[t.File], t)
		t.id = fmt.Sprintf("AC-%s-1.%d.%d", specName, task[t.File], len(byFile[t.File]))
		d.Criteria = append(d.Criteria, DraftCriterion{ID: t.id, Text: criterionText(t.ProjectTest), Test: t.Label()})
	}
	if len(taken2) == 0 {
		d.ToAdd = append(d.ToAdd, "tasks.md: no test of "+module+" can hold a criterion; write tests for its behaviour first")
	}

	doc := e.moduleDoc(module, code)
	d.Files = map[string]string{}
	readme, toAdd := draftReadme(module, spec, doc, d, e.set.Now().Format("2006-01-02"))
	d.ToAdd = append(d.ToAdd, toAdd...)
	d.Files[d.Dir+"/README.md"] = readme
	d.Files[d.Dir+"/srd.md"] = draftSRD(module, fileOrder, byFile)
	d.Files[d.Dir+"/specs.md"] = draftSpecsDoc(e.set.Root, module, doc, code, syms, taken2, e.testCommandNow())
	d.Files[d.Dir+"/tasks.md"] = draftTasks(module, fileOrder, byFile)
	d.Files[d.Dir+"/implementation.md"] = draftImplementation(module, code, taken2, e.testCommandNow())
	for _, f := range fileOrder {
		if len(byFile[f]) > 0 {
			d.Annotated = append(d.Annotated, f)
		}
	}
	d.annotations = byFile
	return d, nil
}

// testCommandNow is the test command the gates run now ("" when none).
func (e *Engine) testCommandNow() string {
	if cmd := e.rules.refresh().wf.TestCommand; cmd != "" {
		return cmd
	}
	cmd, _, _ := defaultTestCommand(e.set.Root)
	return cmd
}

// annotatable reports whether a comment line can go just above test t: its
// line starts with the test (after indentation), so the comment is read as
// the test's.
func (e *Engine) annotatable(t gates.ProjectTest) bool {
	data, err := os.ReadFile(filepath.Join(e.set.Root, filepath.FromSlash(t.File)))
	if err != nil {
		return false
	}
	lines := strings.Split(string(data), "\n")
	if t.Line < 1 || t.Line > len(lines) {
		return false
	}
	l := strings.TrimLeft(lines[t.Line-1], " \t")
	switch t.Lang {
	case "go":
		return strings.HasPrefix(l, "func ")
	case "py":
		return strings.HasPrefix(l, "def ") || strings.HasPrefix(l, "async def ")
	}
	name := strings.TrimLeftFunc(l, func(r rune) bool { return unicode.IsLetter(r) || r == '.' })
	return name != l && strings.HasPrefix(strings.TrimLeft(name, " "), "(")
}

// criterionText is what a test holds, in words read from its name: the
// title of a JS test, a Go or Python test's name split into words.
func criterionText(t gates.ProjectTest) string {
	name := t.Name
	if t.Lang == "js" {
		return fmt.Sprintf("%s (%s)", strings.TrimSpace(name), t.File)
	}
	words := name
	switch t.Lang {
	case "go":
		words = strings.TrimPrefix(words, "Test")
		var b strings.Builder
		for i, r := range words {
			if i > 0 && unicode.IsUpper(r) {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
		}
		words = strings.ReplaceAll(b.String(), "_", " ")
	case "py":
		words = strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(words, "test_"), "test"), "_", " ")
	}
	words = strings.Join(strings.Fields(words), " ")
	if words == "" {
		words = name
	}
	return fmt.Sprintf("%s holds, as `%s` checks it (%s)", words, name, t.File)
}

// moduleDoc is what the module says it does: its README's first paragraph,
// else its Go package documentation, Python module docstring, or a JS/TS
// file's leading doc comment; "" when none says.
func (e *Engine) moduleDoc(module string, code []string) string {
	dir := filepath.Join(e.set.Root, filepath.FromSlash(module))
	for _, name := range []string{"README.md", "README", "readme.md", "README.rst"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			if p := firstParagraph(string(data)); p != "" {
				return p
			}
		}
	}
	for _, f := range code {
		if module != "." && path.Dir(f) != module {
			continue
		}
		if module == "." && strings.Contains(f, "/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(e.set.Root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		var doc string
		switch {
		case strings.HasSuffix(f, ".go"):
			if pf, err := parser.ParseFile(token.NewFileSet(), f, data, parser.PackageClauseOnly|parser.ParseComments); err == nil && pf.Doc != nil {
				doc = pf.Doc.Text()
			}
		case strings.HasSuffix(f, ".py"):
			if m := pyDocstring.FindSubmatch(data); m != nil {
				doc = string(m[2])
			}
		default:
			if m := jsDocComment.FindSubmatch(data); m != nil {
				doc = strings.TrimSpace(jsDocStar.ReplaceAllString(string(m[1]), ""))
			}
		}
		if doc = strings.Join(strings.Fields(doc), " "); doc != "" {
			return doc
		}
	}
	return ""
}

var (
	pyDocstring  = regexp.MustCompile(`(?s)\A(?:\s*#[^\n]*\n)*\s*[rRuU]?("""|\'\'\')(.*?)("""|\'\'\')`)
	jsDocComment = regexp.MustCompile(`(?s)\A\s*/\*\*(.*?)\*/`)
	jsDocStar    = regexp.MustCompile(`(?m)^\s*\*\s?`)
)

// firstParagraph is a markdown file's first paragraph of prose, headings,
// badges and code left out.
func firstParagraph(md string) string {
	var para []string
	fence := false
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			continue
		}
		switch {
		case fence, strings.HasPrefix(t, "#"), strings.HasPrefix(t, "[!["), strings.HasPrefix(t, "!["), strings.HasPrefix(t, "<"):
			if len(para) > 0 {
				return strings.Join(para, " ")
			}
		case t == "":
			if len(para) > 0 {
				return strings.Join(para, " ")
			}
		default:
			para = append(para, t)
		}
	}
	return strings.Join(para, " ")
}

func moduleLabel(module string) string {
	if module == "." {
		return "the project's root"
	}
	return "`" + module + "/`"
}

func moduleTitle(module string) string {
	if module == "." {
		return "the project's root"
	}
	return module
}

func draftReadme(module, spec, doc string, d Draft, date string) (string, []string) {
	var b strings.Builder
	var toAdd []string
	fmt.Fprintf(&b, "# %s\n\n", moduleTitle(module))
	fmt.Fprintf(&b, "%s\nDrafted: %s by `agentos specs init`, from the code, tests and docs of %s\n\n", DraftedStatus, date, moduleLabel(module))
	fmt.Fprintf(&b, "> This spec was drafted from the code as it is, not written by a person. It is not approved and not a\n")
	fmt.Fprintf(&b, "> living spec until a person has read it, corrected what it gets wrong, and approved it with\n")
	fmt.Fprintf(&b, "> `agentos workflow approve --spec %s`. Each criterion of tasks.md is an existing test, which now\n", spec)
	fmt.Fprintf(&b, "> names its criterion in a comment; once approved, `agentos specs check` runs those tests.\n\n")
	b.WriteString("## Objectives\n\n")
	if doc != "" {
		fmt.Fprintf(&b, "What %s does, as its documentation says: %s\n\n", moduleLabel(module), doc)
	} else {
		fmt.Fprintf(&b, "[[fill: what %s is for, in two or three sentences: no README or package documentation of it says so]]\n\n", strings.Trim(moduleLabel(module), "`"))
		toAdd = append(toAdd, d.Dir+"/README.md: the Objectives (what the module is for): neither a README nor its package documentation says it")
	}
	b.WriteString("## Deliverables\n\n")
	fmt.Fprintf(&b, "- The code of %s as it is today, with %d exported symbols (specs.md, Interfaces).\n", moduleLabel(module), d.Symbols)
	fmt.Fprintf(&b, "- The %d existing tests that hold its behaviour, each one a criterion of tasks.md.\n\n", len(d.Criteria))
	b.WriteString("## Success metrics\n\n")
	fmt.Fprintf(&b, "Every criterion of tasks.md holds: `agentos specs check %s` finds each traced test passing as written.\n\n", spec)
	b.WriteString("## Out of scope\n\n- Behaviour no test checks: it is not a criterion of this spec until a test holds it.\n\n")
	b.WriteString("## Documents\n\n- [Requirements](srd.md) · [Technical spec](specs.md) · [Tasks](tasks.md) · [Implementation notes](implementation.md)\n")
	return b.String(), toAdd
}

func draftSRD(module string, files []string, byFile map[string][]*draftTest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Requirements: %s\n\n", moduleTitle(module))
	b.WriteString("> Drafted from the existing tests: each requirement is the behaviour one test file checks.\n\n")
	b.WriteString("## Functional requirements\n\n")
	b.WriteString("Each requirement below is the behaviour one existing test file checks today. The tests it names are its\n")
	b.WriteString("acceptance criteria in tasks.md, and each of them must keep passing as it is written.\n\n")
	if len(files) == 0 {
		b.WriteString("No test checks this module's behaviour yet, so no requirement could be drafted from one.\n\n")
	}
	for i, f := range files {
		var names []string
		for _, t := range byFile[f] {
			names = append(names, "`"+t.Name+"`")
		}
		fmt.Fprintf(&b, "- FR-%d: %s must keep behaving as the tests of `%s` check it: %s.\n", i+1, moduleLabel(module), f, strings.Join(names, ", "))
	}
	b.WriteString("\n## Non-functional requirements\n\n")
	b.WriteString("None were drafted: the code and its tests do not state any. Add the ones that matter, with numbers.\n\n")
	b.WriteString("## Constraints\n\n")
	b.WriteString("- The behaviour is the code's as it is when the spec was drafted; the spec changes none of it.\n")
	return b.String()
}

func draftSpecsDoc(root, module, doc string, code []string, syms []codegraph.Symbol, tests []draftTest, command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Technical specification: %s\n\n", moduleTitle(module))
	b.WriteString("## Overview\n\n")
	if doc != "" {
		fmt.Fprintf(&b, "%s\n\n", doc)
	}
	fmt.Fprintf(&b, "This spec describes %s as its code stands: %d source files and %d exported symbols, read from the project's code index.\n\n", moduleLabel(module), len(code), len(syms))
	b.WriteString("## Components and data flow\n\n")
	b.WriteString("The module's code lives in these files, as the code index reads them; each line counts the exported\n")
	b.WriteString("symbols the file declares, which the Interfaces section lists one by one.\n\n")
	for _, f := range code {
		n := 0
		for _, s := range syms {
			if s.Path == f {
				n++
			}
		}
		fmt.Fprintf(&b, "- `%s`: %d exported symbols.\n", f, n)
	}
	b.WriteString("\n## Interfaces\n\n")
	if len(syms) == 0 {
		b.WriteString("The module exports no symbol the code index knows of, so other code reaches it only through its files.\n")
	} else {
		b.WriteString("These are the exported symbols the code index declares in the module's code, each with its declaration as\n")
		b.WriteString("written and its line; other code and the tests call the module through them.\n\n")
	}
	lines := map[string][]string{}
	for _, s := range syms {
		sig := s.Signature
		if sig == "" {
			sig = declLine(root, s, lines)
		}
		kind := ""
		if sig == "" {
			sig, kind = s.Qualified(), s.Kind+" "
		}
		sig = strings.Join(strings.Fields(sig), " ")
		fmt.Fprintf(&b, "- %s`%s` (%s:%d)\n", kind, sig, s.Path, s.Line)
	}
	b.WriteString("\n## Failure handling\n\n")
	b.WriteString("Not drafted: the code does not say how it fails in words a draft can read. Describe it here if it matters.\n\n")
	b.WriteString("## Testing strategy\n\n")
	fmt.Fprintf(&b, "The behaviour is held by %d existing tests, each traced to a criterion of tasks.md by a comment naming it.", len(tests))
	if command != "" {
		fmt.Fprintf(&b, " They run with the project's test command, `%s`, in the gate's sandbox.", command)
	}
	b.WriteString("\n")
	return b.String()
}

func draftTasks(module string, files []string, byFile map[string][]*draftTest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tasks: %s\n\n", moduleTitle(module))
	b.WriteString("> Drafted from code: the behaviour is built and each criterion is an existing test that passes on it\n")
	b.WriteString("> and names the criterion in a comment. A criterion that stops holding is repaired with\n")
	b.WriteString("> `agentos specs converge`.\n\n")
	b.WriteString("## Phase 1: Behaviour the existing tests hold\n")
	for i, f := range files {
		fmt.Fprintf(&b, "\n- [x] 1.%d Behaviour checked by %s (FR-%d)\n", i+1, f, i+1)
		fmt.Fprintf(&b, "  - Built before this spec; the tests of `%s` check it.\n", f)
		b.WriteString("  - Estimate: 15m\n")
		b.WriteString("  - Acceptance criteria:\n")
		for _, t := range byFile[f] {
			fmt.Fprintf(&b, "    - [x] %s: %s\n", t.id, criterionText(t.ProjectTest))
		}
	}
	return b.String()
}

func draftImplementation(module string, code []string, tests []draftTest, command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Implementation notes: %s\n\n", moduleTitle(module))
	b.WriteString("## Approach\n\n")
	fmt.Fprintf(&b, "The code of %s was written before this spec, which was drafted from it; the %d source files are listed in specs.md.\n\n", moduleLabel(module), len(code))
	b.WriteString("## Testing\n\n")
	fmt.Fprintf(&b, "The %d tests traced to criteria run with ", len(tests))
	if command != "" {
		fmt.Fprintf(&b, "`%s`", command)
	} else {
		b.WriteString("the project's test command (set `workflow.test_command` in .agentos/config/mcp.yaml)")
	}
	b.WriteString("; `agentos specs check` runs them in the gate's sandbox once the spec is approved.\n")
	return b.String()
}

// writeDraft writes a draft's documents and the comments that trace its
// criteria to their tests. The spec folder must not exist.
func (e *Engine) writeDraft(d *Draft) error {
	dir := filepath.Join(e.set.Root, filepath.FromSlash(d.Dir))
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", d.Dir, err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, os.ErrExist) {
			d.NotWritten = d.Dir + " exists: it is not overwritten"
			return nil
		}
		return fmt.Errorf("write %s: %w", d.Dir, err)
	}
	for rel, text := range d.Files {
		if err := atomicfile.WriteFile(filepath.Join(e.set.Root, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	for _, f := range d.Annotated {
		if err := e.annotate(f, d.annotations[f]); err != nil {
			return err
		}
	}
	d.Written = true
	return nil
}

// annotate puts above each test of file a comment naming its criterion,
// indented as the test is.
func (e *Engine) annotate(file string, tests []*draftTest) error {
	p := filepath.Join(e.set.Root, filepath.FromSlash(file))
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("name the criteria in %s: %w", file, err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("name the criteria in %s: %w", file, err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	sorted := slices.Clone(tests)
	slices.SortFunc(sorted, func(a, b *draftTest) int { return b.Line - a.Line })
	for _, t := range sorted {
		i := t.Line - 1
		if i < 0 || i >= len(lines) {
			continue
		}
		l := lines[i]
		indent := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		mark := "//"
		if t.Lang == "py" {
			mark = "#"
		}
		comment := fmt.Sprintf("%s%s %s (drafted from code)\n", indent, mark, t.id)
		lines = slices.Insert(lines, i, []byte(comment))
	}
	return atomicfile.WriteFile(p, bytes.Join(lines, nil), fi.Mode().Perm())
}

// drafted reports whether the spec folder dir was drafted from code: its
// README carries DraftedStatus.
func (e *Engine) drafted(dir string) bool {
	data, err := os.ReadFile(filepath.Join(e.set.Root, filepath.FromSlash(dir), "README.md"))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == DraftedStatus {
			return true
		}
	}
	return false
}

// IsDrafted reports whether spec was drafted from code and has no evidence
// yet: approving it records its evidence.
func (e *Engine) IsDrafted(spec string) bool {
	dir, err := SpecDir(spec)
	if err != nil || !e.drafted(dir) {
		return false
	}
	_, err = os.Stat(e.livingPath(spec))
	return errors.Is(err, os.ErrNotExist)
}

// CheckDraft refuses the approval of a drafted spec that still asks a
// person to write what the code does not say, naming each place.
func (e *Engine) CheckDraft(spec string) error {
	if !e.IsDrafted(spec) {
		return nil
	}
	dir, _ := SpecDir(spec)
	if left := e.draftUnfinished(dir); len(left) > 0 {
		return refused("nothing was approved: spec %s was drafted from code and still asks a person to write what the code does not say, at %s; replace each [[fill: …]] there, then approve", spec, strings.Join(left, ", "))
	}
	return nil
}

var fillMark = regexp.MustCompile(`\[\[fill\b`)

// draftUnfinished names what a person must still write in a drafted spec
// before approving it: every "[[fill: …]]" left, with its file and line.
func (e *Engine) draftUnfinished(dir string) []string {
	var out []string
	entries, _ := os.ReadDir(filepath.Join(e.set.Root, filepath.FromSlash(dir)))
	for _, d := range entries {
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".md") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(e.set.Root, filepath.FromSlash(dir), d.Name()))
		if err != nil {
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			if fillMark.MatchString(l) {
				out = append(out, fmt.Sprintf("%s/%s:%d", dir, d.Name(), i+1))
			}
		}
	}
	return out
}

// adoptDrafted records the evidence of a drafted spec a person just
// approved, as a finished spec's: each criterion's test, found by the
// comment naming it, and the symbols it reaches. The tests are not run
// here; `agentos specs check` runs them.
func (e *Engine) adoptDrafted(ctx context.Context, spec, dir string, who Approver) error {
	data, err := readSpecFile(dir, filepath.Join(e.set.Root, filepath.FromSlash(dir), "tasks.md"), dir+"/tasks.md")
	if err != nil {
		return fmt.Errorf("read %s/tasks.md: %w", dir, err)
	}
	plan, _ := gates.ParseTasks(data)
	rec, err := e.newLiving(ctx, spec, "specs-init", plan, nil)
	rec.Session = ""
	if err != nil {
		return err
	}
	rec.Workflow, rec.Source = specsInitWorkflow, "tasks.md"
	rec.TestCommand = e.testCommandNow()
	rec.History = []HistoryEntry{{At: rec.CompletedAt, What: "drafted from code, approved", Commit: rec.Commit,
		Detail: []string{"approved by " + who.By + " via " + who.Via}}}
	return e.writeLiving(rec)
}

// declLine is the line that declares s in its file, as written ("" when it
// cannot be read): a Go symbol's signature, which the index does not keep.
func declLine(root string, s codegraph.Symbol, cache map[string][]string) string {
	lines, ok := cache[s.Path]
	if !ok {
		data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.Path)))
		lines = strings.Split(string(data), "\n")
		cache[s.Path] = lines
	}
	if s.Line < 1 || s.Line > len(lines) {
		return ""
	}
	l := strings.TrimSpace(lines[s.Line-1])
	l = strings.TrimSpace(strings.TrimSuffix(l, "{"))
	if len(l) > 200 || !strings.Contains(l, s.Name) {
		return ""
	}
	return l
}
