package baseline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// FuzzStub checks that Stub never panics on any pair of files in any
// language, and that for Go a base and a current file that compile (without
// imports, so the check needs nothing outside) give a stubbed file that
// compiles too.
func FuzzStub(f *testing.F) {
	for _, s := range [][2]string{
		{goBase, goCurrent},
		{"", "package x\n\nfunc F[T any](x T) (T, error) { return x, nil }\n"},
		{"package x\n\nfunc f() int { return 1 }\n", "package x\n\ntype T struct{}\n\nfunc (T) f() int { return 2 }\nfunc f() int { return 1 }\n"},
		{pyBase, pyCurrent},
		{"", "def f(x):\n\tif x:\n\t\treturn 1\n"},
		{tsBase, tsCurrent},
		{"", jsCurrent},
	} {
		f.Add(s[0], s[1], s[0] == "")
	}
	f.Fuzz(func(t *testing.T, base, current string, added bool) {
		var b []byte
		if !added {
			b = []byte(base)
		}
		for _, lang := range []string{"python", "typescript", "javascript"} {
			Stub(lang, "f.tsx", b, []byte(current)) //nolint:errcheck // only panics matter
		}
		out, _, err := Stub("go", "x.go", b, []byte(current))
		if !compiles(current) || !added && !compiles(base) {
			return
		}
		if err != nil {
			t.Fatalf("Stub failed on files that compile: %v", err)
		}
		if !compiles(string(out)) {
			t.Fatalf("stubbed file does not compile:\n%s\n--- from:\n%s", out, current)
		}
	})
}

// compiles reports whether src is a Go file that type-checks alone.
func compiles(src string) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		return false
	}
	conf := types.Config{Error: func(error) {}}
	_, err = conf.Check("x", fset, []*ast.File{f}, nil)
	return err == nil
}
