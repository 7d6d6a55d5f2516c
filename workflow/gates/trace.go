package gates

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// testRef is a test whose source names a criterion ID.
type testRef struct {
	pkg  string // Go: the import path; Python: the file's dotted module path
	name string // the test function
	file string // relative to the root
	line int
	// checks is false for a Go test that calls no failure method (Error,
	// Fatal, Fail …) and passes its *testing.T to nothing: it cannot fail.
	checks bool
}

func (r testRef) label() string { return fmt.Sprintf("%s (%s:%d)", r.name, r.file, r.line) }

// runTrace is how a criterion fared against the tests of this gate's run.
type runTrace struct {
	passed bool      // a test that names it ran and passed
	hollow []testRef // tests that name it, passed, but check nothing
}

// traceByRun decides, for each ID, whether a test that names it — in its
// source (a comment, a string) or in its name (TestAC_login_1_1_1, a subtest,
// a JUnit test case's name) — ran and passed in this run.
func traceByRun(ctx context.Context, root string, ids []string, tests []TestCase) (map[string]runTrace, int, error) {
	passed := map[string]bool{} // pkg + "\x00" + name
	for _, tc := range tests {
		if tc.Status == TestPassed {
			passed[tc.Package+"\x00"+tc.Name] = true
		}
	}
	refs, files, err := findTestRefs(ctx, root, ids)
	if err != nil {
		return nil, files, err
	}
	out := map[string]runTrace{}
	for _, id := range ids {
		var tr runTrace
		for _, tc := range tests {
			if tc.Status == TestPassed && mentions([]byte(strings.ToLower(tc.Package+"."+tc.Name)), id) {
				tr.passed = true
			}
		}
		for _, ref := range refs[id] {
			ran := passed[ref.pkg+"\x00"+ref.name]
			if !ran && strings.HasSuffix(ref.file, ".py") {
				ran = pyRan(tests, ref)
			}
			if !ran {
				continue
			}
			if ref.checks {
				tr.passed = true
			} else {
				tr.hollow = append(tr.hollow, ref)
			}
		}
		if tr.passed {
			tr.hollow = nil
		}
		out[id] = tr
	}
	return out, files, nil
}

// pyBaseName drops pytest's parameter suffix: test_x[1-2] -> test_x.
func pyBaseName(name string) string {
	if i := strings.IndexByte(name, '['); i > 0 {
		return name[:i]
	}
	return name
}

// pyRan reports whether the Python test ref passed: a JUnit case of its name
// whose classname is its module (tests.test_a) or a class in it.
func pyRan(tests []TestCase, ref testRef) bool {
	for _, tc := range tests {
		if tc.Status != TestPassed || pyBaseName(tc.Name) != ref.name {
			continue
		}
		if tc.Package == ref.pkg || strings.HasPrefix(tc.Package, ref.pkg+".") || strings.HasSuffix(ref.pkg, "."+tc.Package) ||
			(tc.File != "" && filepath.ToSlash(tc.File) == ref.file) {
			return true
		}
	}
	return false
}

// findTestRefs reads the project's Go and Python test files for the tests
// that name each ID.
func findTestRefs(ctx context.Context, root string, ids []string) (map[string][]testRef, int, error) {
	refs := map[string][]testRef{}
	modules := map[string]string{} // dir -> module path of the nearest go.mod ("" if none)
	files := 0
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
		name := de.Name()
		isGo := strings.HasSuffix(name, "_test.go")
		isPy := strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py"))
		if !de.Type().IsRegular() || (!isGo && !isPy) {
			return nil
		}
		if files >= maxTestFiles {
			return fs.SkipAll
		}
		files++
		src, ok := readText(path)
		if !ok {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if isGo {
			pkg := goImportPath(root, filepath.Dir(path), modules)
			for _, r := range goTestRefs(src, ids, pkg, rel) {
				refs[r.id] = append(refs[r.id], r.testRef)
			}
		} else {
			mod := strings.ReplaceAll(strings.TrimSuffix(rel, ".py"), "/", ".")
			for _, r := range pyTestRefs(src, ids, mod, rel) {
				refs[r.id] = append(refs[r.id], r.testRef)
			}
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return nil, files, ctx.Err()
	}
	return refs, files, nil
}

type idRef struct {
	id string
	testRef
}

// goTestRefs parses a Go test file and returns, for each test function that
// names an ID in its doc comment, body or name, a ref.
func goTestRefs(src []byte, ids []string, pkg, rel string) []idRef {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []idRef
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
			continue
		}
		start := fn.Pos()
		if fn.Doc != nil {
			start = fn.Doc.Pos()
		}
		text := bytes.ToLower(src[fset.Position(start).Offset:fset.Position(fn.End()).Offset])
		var checks *bool
		for _, id := range ids {
			if !mentions(text, id) {
				continue
			}
			if checks == nil {
				c := goTestChecks(fn)
				checks = &c
			}
			out = append(out, idRef{id, testRef{pkg: pkg, name: fn.Name.Name, file: rel, line: fset.Position(fn.Pos()).Line, checks: *checks}})
		}
	}
	return out
}

// failureMethods are the testing.T methods that fail a test.
var failureMethods = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// goTestChecks reports whether a test can fail: it calls a failure method on
// one of its *testing.T values, or passes one to a helper (assert.Equal(t,
// …), a t.Run subtest's own checks count too). A test that only calls the
// code covers it without checking it.
func goTestChecks(fn *ast.FuncDecl) bool {
	ts := map[string]bool{}
	collect := func(fields *ast.FieldList) {
		if fields == nil {
			return
		}
		for _, f := range fields.List {
			if star, ok := f.Type.(*ast.StarExpr); ok {
				if sel, ok := star.X.(*ast.SelectorExpr); ok && (sel.Sel.Name == "T" || sel.Sel.Name == "B" || sel.Sel.Name == "F") {
					for _, n := range f.Names {
						ts[n.Name] = true
					}
				}
			}
		}
	}
	collect(fn.Type.Params)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			collect(lit.Type.Params)
		}
		return true
	})
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && ts[id.Name] && failureMethods[sel.Sel.Name] {
				found = true
				return false
			}
		}
		for _, a := range call.Args {
			if id, ok := a.(*ast.Ident); ok && ts[id.Name] {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

var pyDefRe = regexp.MustCompile(`^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(`)

// pyTestRefs finds the test functions of a Python file that name an ID in
// their body, docstring, or the comments and decorators just above them.
// Python tests are not judged on whether they check anything: a bare assert
// is a check, and telling it from none needs more than a scan.
func pyTestRefs(src []byte, ids []string, mod, rel string) []idRef {
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	var out []idRef
	for i, l := range lines {
		m := pyDefRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indent := len(m[1])
		from := i
		for from > 0 {
			prev := strings.TrimSpace(lines[from-1])
			if !strings.HasPrefix(prev, "#") && !strings.HasPrefix(prev, "@") {
				break
			}
			from--
		}
		to := i + 1
		for to < len(lines) {
			t := lines[to]
			if strings.TrimSpace(t) != "" && len(t)-len(strings.TrimLeft(t, " \t")) <= indent {
				break
			}
			to++
		}
		text := []byte(strings.ToLower(strings.Join(lines[from:to], "\n")))
		for _, id := range ids {
			if mentions(text, id) {
				out = append(out, idRef{id, testRef{pkg: mod, name: m[2], file: rel, line: i + 1, checks: true}})
			}
		}
	}
	return out
}

// goImportPath is the import path of the Go package in dir: the module path
// of the nearest go.mod at or above it (inside root), plus the rest of dir.
func goImportPath(root, dir string, cache map[string]string) string {
	var walk func(d string) string
	walk = func(d string) string {
		if mod, ok := cache[d]; ok {
			return mod
		}
		mod := ""
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					mod = strings.Trim(f[1], `"`) + "\x00" + d
				}
			}
		} else if d != root && strings.HasPrefix(d, root) {
			mod = walk(filepath.Dir(d))
		}
		cache[d] = mod
		return mod
	}
	mod := walk(dir)
	path, modDir, ok := strings.Cut(mod, "\x00")
	if !ok {
		return ""
	}
	rel, err := filepath.Rel(modDir, dir)
	if err != nil || rel == "." {
		return path
	}
	return path + "/" + filepath.ToSlash(rel)
}
