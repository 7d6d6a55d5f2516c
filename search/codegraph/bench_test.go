package codegraph

import (
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// stdFacts are the facts of the Go standard library's files as
// bench/corpus.sh selects them (no tests, cmd/, testdata/ or vendor/),
// parsed from the local Go's GOROOT once for every benchmark.
var stdFacts = sync.OnceValues(func() ([]FileFacts, error) {
	src := filepath.Join(build.Default.GOROOT, "src")
	var out []FileFacts
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, src+string(filepath.Separator)))
		if e.IsDir() {
			if rel == "cmd" || e.Name() == "testdata" || e.Name() == "vendor" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset, f, err := chunk.ParseGo(rel, data)
		if err != nil {
			return nil // a file the build never compiles
		}
		out = append(out, FromGo(rel, fset, f, path.Dir(rel)))
		return nil
	})
	return out, err
})

// copies returns n copies of the facts, each under its own top-level
// folder: n times the symbols and call sites of one. As modules, each copy
// imports its own copy of the packages, as n Go modules side by side
// would; else its imports name packages no copy is (what indexing n copies
// of GOROOT/src in plain folders gives: "fmt" is now "copy1/fmt").
func copies(facts []FileFacts, n int, modules bool) []FileFacts {
	if n == 1 {
		return facts
	}
	pkgs := map[string]bool{}
	for _, f := range facts {
		pkgs[f.Package] = true
	}
	out := make([]FileFacts, 0, n*len(facts))
	for k := 1; k <= n; k++ {
		prefix := fmt.Sprintf("copy%d/", k)
		for _, f := range facts {
			f.Path, f.Package = prefix+f.Path, prefix+f.Package
			imports := make([]string, len(f.Imports))
			for i, im := range f.Imports {
				if modules && pkgs[im] {
					im = prefix + im
				}
				imports[i] = im
			}
			f.Imports = imports
			out = append(out, f)
		}
	}
	return out
}

// BenchmarkUses resolves the graph of the Go standard library, once and
// eight times over (as modules, and as plain folders), and counts every
// symbol's callers (what indexing does after a build). ns/call, the time
// per call site, stays about the same from x1 to x8 when the cost grows
// linearly.
func BenchmarkUses(b *testing.B) {
	facts, err := stdFacts()
	if err != nil || len(facts) == 0 {
		b.Skipf("no Go standard library to read in %s: %v", build.Default.GOROOT, err)
	}
	for _, c := range []struct {
		name    string
		n       int
		modules bool
	}{{"x1", 1, true}, {"x8", 8, true}, {"x8-folders", 8, false}} {
		b.Run(c.name, func(b *testing.B) {
			fs := copies(facts, c.n, c.modules)
			calls := 0
			for _, f := range fs {
				calls += len(f.Calls)
			}
			for b.Loop() {
				g := New()
				for _, f := range fs {
					g.SetFile(f)
				}
				g.Uses()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(calls), "ns/call")
			b.ReportMetric(float64(calls), "calls")
		})
	}
}
