package gates

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A finished spec keeps, for each criterion, the tests that proved it. Weeks
// later those tests are found again in the source by the same reading the
// gate does, so that "still holds" means what "held" meant: the same test,
// unchanged, run and passing.

// TracedTest is one test that names a criterion, as the source holds it.
type TracedTest struct {
	Name    string `json:"name"` // Go: TestX or TestX/sub; Python: the function; JS: the title
	Package string `json:"package,omitempty"`
	File    string `json:"file"` // relative to the root, with slashes
	Line    int    `json:"line"`
	Lang    string `json:"lang"`
	// SHA256 is the hash of the test's source: its function for Go (the
	// top-level test of a subtest), the lines from its start to the next
	// test of its file otherwise. A different hash is a changed test.
	SHA256 string `json:"sha256"`
}

// Key identifies a test across runs: its file and name.
func (t TracedTest) Key() string { return t.File + "\x00" + t.Name }

// Label is how a person reads the test: "TestX (file.go:12)".
func (t TracedTest) Label() string { return testRef{name: t.Name, file: t.File, line: t.Line}.label() }

// Traced is the project's tests as read now for some criterion IDs.
type Traced struct {
	src  *sourceTests
	refs map[string]testRef // by Key
	// ByID lists, per criterion ID (lower case), the tests that name it.
	ByID map[string][]TracedTest
}

// TraceTests reads the project's Go, Python and JS/TS tests for those that
// name ids, as the acceptance_criteria check reads them.
func TraceTests(ctx context.Context, root string, ids []string) (*Traced, error) {
	lower := make([]string, len(ids))
	for i, id := range ids {
		lower[i] = strings.ToLower(id)
	}
	src, err := findTests(ctx, root, lower)
	if err != nil {
		return nil, err
	}
	out := &Traced{src: src, refs: map[string]testRef{}, ByID: map[string][]TracedTest{}}
	byFile := map[string][]int{} // lines of every test found per file, for the non-Go spans
	for _, r := range src.refs {
		byFile[r.file] = append(byFile[r.file], r.line)
	}
	for _, r := range src.refs {
		if len(r.ids) == 0 {
			continue
		}
		t := TracedTest{Name: r.name, Package: r.pkg, File: r.file, Line: r.line, Lang: r.lang,
			SHA256: testSourceSum(root, r, byFile[r.file])}
		out.refs[t.Key()] = r
		for _, id := range r.ids {
			out.ByID[id] = append(out.ByID[id], t)
		}
	}
	return out, nil
}

// Find returns the test now in the source under t's file and name.
func (tr *Traced) Find(t TracedTest) (TracedTest, bool) {
	r, ok := tr.refs[t.Key()]
	if !ok {
		return TracedTest{}, false
	}
	for _, id := range r.ids {
		for _, found := range tr.ByID[id] {
			if found.Key() == t.Key() {
				return found, true
			}
		}
	}
	return TracedTest{}, false
}

// Result is the report's entry for t (found now in the source): a passing
// one if any passed, else a skipped one, else the first; the zero TestCase
// when the run did not hold it.
func (tr *Traced) Result(t TracedTest, tests []TestCase) TestCase {
	r, ok := tr.refs[t.Key()]
	if !ok {
		return TestCase{}
	}
	return tr.src.result(r, tests)
}

// Case is t as a test report names it, to narrow a test command to it.
func (t TracedTest) Case() TestCase {
	return TestCase{Package: t.Package, Name: t.Name, File: t.File}
}

// CauseLine is the line of a run's output that says why tests did not
// run (a build or import error), or "".
func CauseLine(output string) string { return causeLine(output) }

// testSourceSum hashes the source of test r: for Go the declaration of its
// top-level function, with its doc comment; for other languages the lines
// from r's to the next test's of the same file (lines), or to the end.
func testSourceSum(root string, r testRef, lines []int) string {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(r.file)))
	if err != nil {
		return ""
	}
	if r.lang == langGo {
		if span := goFuncSource(data, goRootName(r.name)); span != nil {
			return sum(span)
		}
	}
	all := bytes.Split(data, []byte("\n"))
	end := len(all)
	sorted := slices.Clone(lines)
	slices.Sort(sorted)
	for _, l := range sorted {
		if l > r.line {
			end = l - 1
			break
		}
	}
	start := max(r.line-1, 0)
	if start >= end {
		return sum(nil)
	}
	return sum(bytes.Join(all[start:end], []byte("\n")))
}

// goFuncSource returns the source of the top-level function name in a Go
// file, doc comment included; nil when the file holds none.
func goFuncSource(data []byte, name string) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", data, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != name {
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		return data[fset.Position(start).Offset:fset.Position(fd.End()).Offset]
	}
	return nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// ProjectTest is a test of the project's source, whether or not it names a
// criterion: what a spec drafted from the code can take for a criterion.
type ProjectTest struct {
	TracedTest
	// Checks says the test can fail (an assertion, a t.Error …).
	Checks bool `json:"checks"`
	// Never says why the source marks it as one that never counts (skip,
	// todo, xfail …); "" for a test that runs.
	Never string `json:"never,omitempty"`
}

// ListTests reads the project's Go, Python and JS/TS tests as the
// acceptance_criteria check reads them, every one (Go subtests included,
// named TestX/sub), in the order of their files and lines.
func ListTests(ctx context.Context, root string) ([]ProjectTest, error) {
	src, err := findTests(ctx, root, nil)
	if err != nil {
		return nil, err
	}
	out := make([]ProjectTest, 0, len(src.refs))
	for _, r := range src.refs {
		out = append(out, ProjectTest{TracedTest: TracedTest{Name: r.name, Package: r.pkg, File: r.file, Line: r.line, Lang: r.lang},
			Checks: r.checks, Never: r.never})
	}
	slices.SortStableFunc(out, func(a, b ProjectTest) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return out, nil
}
