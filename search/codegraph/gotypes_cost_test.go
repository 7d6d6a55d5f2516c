package codegraph

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGoTypesCost measures what type checking the Go standard library
// (the corpus of BenchmarkUses and the monorepo's ×1) with go/types would
// cost the index: the time, and the heap live once every package is
// checked with the facts a call graph needs (uses and selections), against
// reading the same files' facts from their syntax. It decides whether the
// graph resolves Go with a type checker (docs/decisions.md); only
// AGENTOS_GOTYPES_COST turns it on:
//
//	AGENTOS_GOTYPES_COST=1 go test ./search/codegraph -run GoTypesCost -v
func TestGoTypesCost(t *testing.T) {
	if os.Getenv("AGENTOS_GOTYPES_COST") == "" {
		t.Skip("AGENTOS_GOTYPES_COST not set")
	}
	src := filepath.Join(runtime.GOROOT(), "src")
	var dirs []string
	err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			n := e.Name()
			if n == "testdata" || n == "vendor" || n == "cmd" || strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The files this platform builds, outside tests: of a package's files
	// for several systems, one set.
	buildable := func(dir string) func(os.FileInfo) bool {
		return func(fi os.FileInfo) bool {
			ok, err := build.Default.MatchFile(dir, fi.Name())
			return err == nil && ok && !strings.HasSuffix(fi.Name(), "_test.go")
		}
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := heap()

	// The syntax: every file's facts, as indexing keeps them.
	start := time.Now()
	g := New()
	files := 0
	for _, dir := range dirs {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, buildable(dir), parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(src, dir)
		for _, p := range pkgs {
			for name, f := range p.Files {
				g.SetFile(FromGo(filepath.Join(rel, filepath.Base(name)), fset, f, filepath.ToSlash(rel)))
				files++
			}
		}
	}
	g.Uses()
	syntaxTime := time.Since(start)
	syntaxHeap := heap() - base
	runtime.KeepAlive(g)
	t.Logf("syntax: %d files, facts and resolved graph %.0f MB live, %.1f s", files, float64(syntaxHeap)/1e6, syntaxTime.Seconds())
	g = nil
	base = heap()

	// The type checker: each package from source, its imports too (the
	// "source" importer checks them once and keeps them), with the uses
	// and selections resolving calls needs.
	start = time.Now()
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	var infos []*types.Info
	checked, failed := 0, 0
	for _, dir := range dirs {
		pkgs, err := parser.ParseDir(fset, dir, buildable(dir), parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(src, dir)
		for name, p := range pkgs {
			if strings.HasSuffix(name, "_test") || name == "main" {
				continue
			}
			var fs []*ast.File
			for _, f := range p.Files {
				fs = append(fs, f)
			}
			info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
			conf := types.Config{Importer: imp, Error: func(error) {}}
			if _, err := conf.Check(filepath.ToSlash(rel), fset, fs, info); err != nil {
				failed++
			}
			infos = append(infos, info)
			checked++
		}
	}
	typesTime := time.Since(start)
	typesHeap := heap() - base
	runtime.KeepAlive(infos)
	t.Logf("go/types: %d packages (%d with errors: cgo, assembly), %.0f MB live, %.1f s", checked, failed, float64(typesHeap)/1e6, typesTime.Seconds())
	t.Logf("go/types / syntax: %.1f× the memory, %.1f× the time", float64(typesHeap)/float64(syntaxHeap), typesTime.Seconds()/syntaxTime.Seconds())
}
