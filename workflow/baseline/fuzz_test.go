package baseline

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// FuzzStub checks, for any pair of files in any language, that Stub never
// panics, and that when it stubs something the file it returns still reads
// (parses, for Go; tokenizes with the same functions, for Python,
// TypeScript and JavaScript) and differs from the current file only in the
// stubbed bodies, the Go imports they alone used, the results a Go stub
// names and the // @ts-nocheck mark. For Go it checks too that a current
// file that compiles (without imports, so the check needs nothing outside)
// gives a stubbed file that compiles.
//
// Inputs are short on purpose (fuzzMaxInput): the fuzzer minimizes every
// input that finds new code, trying a number of shorter inputs that grows
// with the square of its length, and reports no executions until it is
// done (golang/go#48820). From kilobyte-long inputs each minimization ran
// for the whole of -fuzzminimizetime (60 s by default), both workers at
// once, and the fuzzer seemed to stall. For the same reason each run checks
// only what the input can reach: no type check of a file with imports.
func FuzzStub(f *testing.F) {
	for _, s := range [][2]string{
		{"package x\n\nfunc f() int { return 1 }\n", "package x\n\nimport \"strings\"\n\ntype T struct{}\n\nfunc (T) f() int { return 2 }\nfunc f() int { return 1 }\nfunc G(s string) string { return strings.ToUpper(s) }\n"},
		{"", "package x\n\nfunc F[T any](x T) (T, error) { return x, nil }\n"},
		{"", "package x\n\ntype T int\n\nfunc (int T) A() int { return 0 }\n\nvar V = struct{ F func(T) T }{F: func(T T) T { return T }}\n"},
		{"", "package x\n\nvar Greet = func(name string) string { return name }\n\nvar m = map[string]func() int{\"a\": func() int { return 1 }}\n"},
		{"def f(x):\n    return x\n", "import functools\n\n@functools.cache\ndef f(x):\n    '''Doc.'''\n    return x + 1\n\nclass C:\n    g = lambda self, n: n * 2\n\n    async def h(self): return 1\n"},
		{"", "def f(x):\n\tif x:\n\t\treturn 1\n\ngreet = lambda name: f\"hi {name!r:>{10}}\"\n"},
		{"export function f(a: number): number { return a; }\n", "export function f(a: number): number { return a + 1; }\nexport class C extends B {\n  constructor(x) { super(x); }\n  get n(): number { return 1; }\n  g = (s: string) => s;\n}\n"},
		{"", "export const api = {\n  greet(name) { return name; },\n  total: (xs) => xs.length,\n  nested: { f: function () { return 1; } },\n};\nexport default function () { return 1; }\n"},
	} {
		if len(s[0])+len(s[1]) > fuzzMaxInput {
			f.Fatalf("seed longer than %d bytes: %q", fuzzMaxInput, s[1])
		}
		f.Add(s[0], s[1], s[0] == "")
	}
	f.Fuzz(func(t *testing.T, base, current string, added bool) {
		var b []byte
		if !added {
			b = []byte(base)
		}
		if len(b)+len(current) > fuzzMaxInput {
			return // nothing new: the fuzzer keeps no such input
		}
		for _, c := range [][2]string{{"python", "f.py"}, {"typescript", "f.ts"}, {"javascript", "f.jsx"}} {
			out, names, err := Stub(c[0], c[1], b, []byte(current))
			switch {
			case err != nil:
				if reads(c[0], c[1], []byte(current)) && (b == nil || reads(c[0], c[1], b)) {
					t.Fatalf("Stub failed on files that read: %v", err)
				}
			case names != nil:
				checkUnchangedBut(t, c[0], c[1], []byte(current), out, names)
			}
		}
		out, names, err := Stub("go", "x.go", b, []byte(current))
		if err != nil {
			if parses(current) && (added || parses(base)) {
				t.Fatalf("Stub failed on files that parse: %v", err)
			}
			return
		}
		if names == nil {
			return
		}
		checkUnchangedBut(t, "go", "x.go", []byte(current), out, names)
		if compiles(current) && !compiles(string(out)) {
			t.Fatalf("stubbed file does not compile:\n%s\n--- from:\n%s", out, current)
		}
	})
}

// fuzzMaxInput bounds the bytes FuzzStub reads, base and current together:
// minimizing an input whose bytes all matter then takes seconds. (The
// 808-byte testdata/fuzz/FuzzStub/82b987e850efb59a is such an input: its
// minimization ran for the whole 60 s; now it is read no further.)
const fuzzMaxInput = 300

// checkUnchangedBut fails the test unless out, the file Stub made of
// current when it stubbed names, reads as current does and equals it but
// for the function bodies and what else Stub may change (skeleton).
func checkUnchangedBut(t *testing.T, lang, path string, current, out []byte, names []string) {
	t.Helper()
	before, ok := skeleton(lang, path, current)
	if !ok {
		t.Fatalf("Stub stubbed %v in a file that does not read:\n%q", names, current)
	}
	after, ok := skeleton(lang, path, out)
	if !ok {
		t.Fatalf("the stubbed file does not read:\n%q\n--- from:\n%q", out, current)
	}
	if _, ok := chunk.PythonLines(current); ok && lang == "python" {
		if _, ok := chunk.PythonLines(out); !ok {
			t.Fatalf("the stubbed file does not tokenize for lambdas:\n%q\n--- from:\n%q", out, current)
		}
	}
	if lang == "typescript" && !tsNoCheck.Match(current) {
		after = strings.Replace(after, "// @ts-nocheck\n", "", 1)
	}
	if before != after {
		t.Fatalf("Stub changed more than bodies:\n%q\n--- from:\n%q\n--- skeletons:\n%q\n%q", out, current, after, before)
	}
}

// skeleton returns src with the body of every function Stub may stub
// replaced by "…", as the same readers as Stub's find them; for Go, without
// its import declarations (Stub drops those only stubs used) and with each
// function's results as their types alone (Stub may name them). It reports
// false when src does not read.
func skeleton(lang, path string, src []byte) (string, bool) {
	var spans [][2]int
	switch lang {
	case "go":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return "", false
		}
		off := func(p token.Pos) int { return fset.Position(p).Offset }
		var b strings.Builder
		at := 0
		mask := func(from, to int, text string) {
			b.Write(src[at:from])
			b.WriteString(text)
			at = to
		}
		// The imports, and the blank lines about them, up to the first
		// other declaration.
		end := len(src)
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				continue
			}
			end = off(d.Pos())
			if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
				end = off(gd.Doc.Pos())
			} else if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				end = off(fd.Doc.Pos())
			}
			break
		}
		mask(off(f.Name.End()), end, " … ")
		for _, fn := range goFuncs(f) {
			if res := fn.typ.Results; res != nil {
				var types []string
				for _, field := range res.List {
					for range max(1, len(field.Names)) {
						types = append(types, string(src[off(field.Type.Pos()):off(field.Type.End())]))
					}
				}
				mask(off(res.Pos()), off(res.End()), "("+strings.Join(types, ", ")+")")
			}
			mask(off(fn.body.Lbrace), off(fn.body.Rbrace)+1, "…")
		}
		b.Write(src[at:])
		return b.String(), true
	case "python":
		funcs, ok := chunk.PythonFuncs(src)
		if !ok {
			return "", false
		}
		for _, f := range funcs {
			spans = append(spans, [2]int{f.Colon + 1, f.End})
		}
		for _, l := range pyLambdas(src) {
			spans = append(spans, [2]int{l.body, l.end})
		}
	default:
		funcs, ok := chunk.TypeScriptFuncs(path, src)
		if !ok {
			return "", false
		}
		for _, f := range append(funcs, tsObjectFuncs(lang, path, src)...) {
			spans = append(spans, [2]int{f.Body, f.End})
		}
	}
	var edits []edit
	last := -1
	for _, s := range sortedSpans(spans) {
		if s[0] >= last { // one inside another goes with it
			edits = append(edits, edit{s[0], s[1], "…"})
			last = s[1]
		}
	}
	return string(apply(bytes.Clone(src), edits)), true
}

func sortedSpans(spans [][2]int) [][2]int {
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j][0] < spans[j-1][0]; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	return spans
}

// reads reports whether src reads as a file of lang.
func reads(lang, path string, src []byte) bool {
	_, ok := skeleton(lang, path, src)
	return ok
}

// parses reports whether src is a Go file.
func parses(src string) bool {
	_, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	return err == nil
}

// compiles reports whether src is a Go file without imports that
// type-checks alone. (With imports it could not: the check has no
// importer, and running it would only cost time.)
func compiles(src string) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil || len(f.Imports) > 0 {
		return false
	}
	conf := types.Config{Error: func(error) {}}
	_, err = conf.Check("x", fset, []*ast.File{f}, nil)
	return err == nil
}
