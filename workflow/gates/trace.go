package gates

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentos-dev/agentos/workflow/baseline"
)

// Languages whose test sources the trace reads.
const (
	langGo = "go"
	langPy = "py"
	langJS = "js"
)

// testRef is one test in the project's source: a Go test function or a
// subtest with a literal name, a Python test function, a JS/TS it or test
// block.
type testRef struct {
	lang string
	pkg  string // Go: the import path; Python: the file's dotted module path; JS: ""
	name string // Go: TestX or TestX/sub as go test names it; Python: the function; JS: the title
	// names are a JS test's full names as runners report them: its describe
	// titles and its own, joined by " > " (Vitest) and by " " (jest-junit).
	names []string
	file  string // relative to the root, with slashes
	line  int
	// ids are the criterion IDs (lower case) the test names in its name, body,
	// or the comments (and Python decorators) just above it.
	ids []string
	// checks is false for a test that can never fail: a Go test that calls no
	// failure method (Error, Fatal, Fail …) and passes its *testing.T to
	// nothing, a Python test with no assert, a JS test with no expect or assert.
	checks bool
	// never says why the source marks the test as one that never counts
	// however the report shows it ("it.fails", "xfail", "todo", "skip"): such
	// a test passes when its assertion fails, or does not run at all.
	never string
	// constrained is true for a Go file the default build context excludes
	// (a //go:build line, a _GOOS suffix).
	constrained bool
}

func (r testRef) label() string { return fmt.Sprintf("%s (%s:%d)", r.name, r.file, r.line) }

// runTrace is how a criterion fared against the tests of this gate's run.
type runTrace struct {
	passed  bool      // a test that names it ran, passed and can fail
	proving []testRef // those tests, read from the source (none when traced by a JUnit name alone)
	hollow  []testRef // tests that name it and passed, but check nothing
	skipped []testRef // tests that name it but were skipped, or are marked to fail or to do later
	failed  []testRef // tests that name it but failed, or did not run
}

// traceByRun decides, for each ID, whether a test that names it ran and
// passed in this run and can fail. A test is found in the source the runner
// compiles (for Go, only files the go tool builds) and matched to the
// report's own entry for it: go test's name, or a JUnit case's name and file.
// A JUnit case from a language whose sources are not read (Java, Kotlin …)
// traces by its name alone.
func traceByRun(ctx context.Context, root, report string, ids []string, tests []TestCase) (map[string]runTrace, *sourceTests, error) {
	src, err := findTests(ctx, root, ids)
	if err != nil {
		return nil, src, err
	}
	out := map[string]runTrace{}
	for _, ref := range src.refs {
		if len(ref.ids) == 0 {
			continue
		}
		status := src.status(ref, tests)
		for _, id := range ref.ids {
			tr := out[id]
			switch {
			case status == TestSkipped || (status == TestPassed && ref.never != ""):
				tr.skipped = append(tr.skipped, ref)
			case status != TestPassed:
				tr.failed = append(tr.failed, ref)
			case ref.checks:
				tr.passed = true
				tr.proving = append(tr.proving, ref)
			default:
				tr.hollow = append(tr.hollow, ref)
			}
			out[id] = tr
		}
	}
	for _, tc := range tests {
		if report == ReportGoJSON || tc.Status != TestPassed || src.parsedLanguage(root, tc) {
			continue
		}
		name := []byte(strings.ToLower(tc.Package + "." + tc.Name))
		for _, id := range ids {
			if mentions(name, id) {
				tr := out[id]
				tr.passed = true
				out[id] = tr
			}
		}
	}
	for id, tr := range out {
		if tr.passed {
			tr.hollow, tr.skipped, tr.failed = nil, nil, nil
			out[id] = tr
		}
	}
	return out, src, nil
}

// sourceTests are the tests found in the project's test files.
type sourceTests struct {
	refs  []testRef
	files int
	// goDeclared holds pkg + "\x00" + name of every Go test function in a
	// file the default build context compiles.
	goDeclared map[string]bool
	// pyModules are the dotted module paths of the Python test files read.
	pyModules map[string]bool
	// jsNames counts the JS tests of each full name, to tell whether a JUnit
	// case that carries no file names one test only.
	jsNames map[string]int
}

// status is what the report says of ref: TestPassed when one of its entries
// passed, else TestSkipped when one was skipped, else TestFailed or "" (not
// in the report: it did not run).
func (s *sourceTests) status(ref testRef, tests []TestCase) string {
	return s.result(ref, tests).Status
}

// result is the report's entry for ref: a passing one if any passed, else a
// skipped one, else the first; the zero TestCase when the report has none.
func (s *sourceTests) result(ref testRef, tests []TestCase) TestCase {
	var best TestCase
	for _, tc := range tests {
		if !s.matches(ref, tc) {
			continue
		}
		switch {
		case tc.Status == TestPassed:
			return tc
		case tc.Status == TestSkipped, best.Status == "":
			best = tc
		}
	}
	return best
}

func (s *sourceTests) matches(ref testRef, tc TestCase) bool {
	switch ref.lang {
	case langGo:
		// go test names a repeated subtest name TestX/sub#01.
		return tc.Package == ref.pkg && (tc.Name == ref.name || strings.HasPrefix(tc.Name, ref.name+"#"))
	case langPy:
		return pyMatches(ref, tc)
	case langJS:
		return s.jsMatches(ref, tc)
	}
	return false
}

// parsedLanguage reports whether a JUnit case comes from a language whose
// test sources the trace reads, so that the case counts only through its
// source, never by its name.
func (s *sourceTests) parsedLanguage(root string, tc TestCase) bool {
	if p := junitPath(tc); p != "" {
		ext := strings.TrimPrefix(filepath.Ext(p), ".")
		if ext == "py" || ext == "go" || jsExt(p) {
			return true
		}
	}
	if tc.Package != "" && (s.pyModules[tc.Package] || pyModuleFile(root, tc.Package)) {
		return true
	}
	return s.jsNames[strings.TrimSpace(tc.Name)] > 0
}

// goRootName is the top-level test of a go test name: TestX of TestX/sub.
func goRootName(name string) string {
	root, _, _ := strings.Cut(name, "/")
	return root
}

// findTests reads the project's Go, Python and JS/TS test files for their
// tests and the IDs each names.
func findTests(ctx context.Context, root string, ids []string) (*sourceTests, error) {
	s := &sourceTests{goDeclared: map[string]bool{}, pyModules: map[string]bool{}, jsNames: map[string]int{}}
	modules := map[string]string{} // dir -> module path of the nearest go.mod ("" if none)
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
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		isGo := strings.HasSuffix(name, "_test.go")
		isPy := strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py"))
		isJS := jsExt(name) && baseline.IsTestFile(rel)
		if !de.Type().IsRegular() || (!isGo && !isPy && !isJS) {
			return nil
		}
		if isGo && !goBuilds(rel) {
			return nil // the go tool never compiles it, whatever the tags
		}
		if s.files >= maxTestFiles {
			return fs.SkipAll
		}
		s.files++
		src, ok := readText(path)
		if !ok {
			return nil
		}
		switch {
		case isGo:
			pkg := goImportPath(root, filepath.Dir(path), modules)
			refs := goTestRefs(src, ids, pkg, rel)
			if goMatchesBuild(path, name) {
				for _, r := range refs {
					s.goDeclared[pkg+"\x00"+goRootName(r.name)] = true
				}
			} else {
				for i := range refs {
					refs[i].constrained = true
				}
			}
			s.refs = append(s.refs, refs...)
		case isPy:
			mod := strings.ReplaceAll(strings.TrimSuffix(rel, ".py"), "/", ".")
			s.pyModules[mod] = true
			s.refs = append(s.refs, pyTestRefs(src, ids, mod, rel)...)
		default:
			refs := jsTestRefs(src, ids, rel)
			for _, r := range refs {
				for i, n := range r.names {
					if i == 0 || n != r.names[0] {
						s.jsNames[n]++
					}
				}
			}
			s.refs = append(s.refs, refs...)
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return s, ctx.Err()
	}
	// A file the default build excludes counts only for a test no built file
	// declares: it is then in the report only when the test command's tags
	// built it, while a same-named test in a built file is the one that ran.
	kept := s.refs[:0]
	for _, r := range s.refs {
		if !r.constrained || !s.goDeclared[r.pkg+"\x00"+goRootName(r.name)] {
			kept = append(kept, r)
		}
	}
	s.refs = kept
	return s, nil
}

// junitPath is the test file a JUnit case names: its file attribute, or a
// classname that is a path (Vitest writes the file there).
func junitPath(tc TestCase) string {
	p := tc.File
	if p == "" && (strings.Contains(tc.Package, "/") || jsExt(tc.Package)) {
		p = tc.Package
	}
	return strings.TrimPrefix(filepath.ToSlash(p), "./")
}

// samePath reports whether the report's path p (relative to wherever the
// runner ran, or absolute) is the project file rel.
func samePath(rel, p string) bool {
	return p != "" && (p == rel || strings.HasSuffix(rel, "/"+p) || strings.HasSuffix(p, "/"+rel))
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
