package gates

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// goBuilds reports whether the go tool can compile the test file rel (a
// slash path under the root) at all: never a file or folder whose name starts
// with "_" or ".", nor anything under testdata.
func goBuilds(rel string) bool {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "_") || strings.HasPrefix(p, ".") || (p == "testdata" && i < len(parts)-1) {
			return false
		}
	}
	return true
}

// goMatchesBuild reports whether the default build context (this GOOS and
// GOARCH, no extra tags) compiles the file: its //go:build line and its
// _GOOS/_GOARCH suffix allow it.
func goMatchesBuild(path, name string) bool {
	ok, err := build.Default.MatchFile(filepath.Dir(path), name)
	return ok && err == nil
}

// goTestRefs parses a Go test file and returns its tests: each Test function
// and each subtest run with a literal name, t.Run("AC_login_1_1_1", func(t
// *testing.T) {…}), with the IDs it names. A subtest's name, body and the
// IDs in them are its own; the rest of the function (its doc comment, name
// and other statements) is the function's.
func goTestRefs(src []byte, ids []string, pkg, rel string) []testRef {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []testRef
	var walk func(name string, start, end token.Pos, params *ast.FieldList, body *ast.BlockStmt)
	walk = func(name string, start, end token.Pos, params *ast.FieldList, body *ast.BlockStmt) {
		subs := goSubtests(body)
		text := []byte(strings.ToLower(string(src[fset.Position(start).Offset:fset.Position(end).Offset])))
		for _, s := range subs {
			from, to := fset.Position(s.call.Pos()).Offset-fset.Position(start).Offset, fset.Position(s.call.End()).Offset-fset.Position(start).Offset
			for i := from; i < to; i++ {
				text[i] = ' '
			}
		}
		ref := testRef{lang: langGo, pkg: pkg, name: name, file: rel, line: fset.Position(start).Line, checks: goChecks(params, body)}
		for _, id := range ids {
			if mentions(text, id) {
				ref.ids = append(ref.ids, id)
			}
		}
		out = append(out, ref)
		for _, s := range subs {
			walk(name+"/"+goSubtestName(s.name), s.call.Pos(), s.call.End(), s.fn.Type.Params, s.fn.Body)
		}
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
			continue
		}
		start := fn.Pos()
		if fn.Doc != nil {
			start = fn.Doc.Pos()
		}
		n := len(out)
		walk(fn.Name.Name, start, fn.End(), fn.Type.Params, fn.Body)
		out[n].line = fset.Position(fn.Pos()).Line
	}
	return out
}

type goSubtest struct {
	name string
	call *ast.CallExpr
	fn   *ast.FuncLit
}

// goSubtests finds the subtests run directly in body (not inside another
// one) with a literal name and a function literal: x.Run("name", func…).
func goSubtests(body *ast.BlockStmt) []goSubtest {
	var out []goSubtest
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		lit, okLit := call.Args[0].(*ast.BasicLit)
		fn, okFn := call.Args[1].(*ast.FuncLit)
		if !ok || sel.Sel.Name != "Run" || !okLit || lit.Kind != token.STRING || !okFn {
			return true
		}
		name, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		out = append(out, goSubtest{name, call, fn})
		return false
	})
	return out
}

// goSubtestName is a subtest's name as go test reports it: spaces become
// underscores and unprintable characters are escaped (testing's rewrite).
func goSubtestName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// failureMethods are the testing.T methods that fail a test.
var failureMethods = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// goChecks reports whether a test or subtest can fail: it calls a failure
// method on one of its *testing.T values, or passes one to a helper
// (assert.Equal(t, …); a subtest's own checks count for its parent too). A
// test that only calls the code covers it without checking it.
func goChecks(params *ast.FieldList, body *ast.BlockStmt) bool {
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
	collect(params)
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			collect(lit.Type.Params)
		}
		return true
	})
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
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
