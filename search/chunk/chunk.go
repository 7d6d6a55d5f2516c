// Package chunk cuts files into the units a search indexes and returns.
//
// Markdown is cut at its H1–H3 headings, each chunk carrying its heading path
// and its file's keywords line and TL;DR; a section longer than a token budget
// is split at paragraph boundaries with a small overlap. Source code is cut one
// chunk per symbol (function, method, type, class, constant or variable group)
// with its doc comment and signature: Go through go/parser;
// TypeScript/JavaScript, Python, Rust and Java through a lexer and a
// declaration recogniser each (typescript.go, python.go, rust.go, java.go).
// The lines between symbols (package clauses, imports, top-level statements)
// become "imports" or "module" chunks. A file that does not parse is cut into
// windows of lines that start where its declarations seem to begin, so
// nothing in it is lost to search.
package chunk

import (
	"bytes"
	"path"
	"strings"
)

// Kind says what a chunk holds.
type Kind string

// Kinds of chunk.
const (
	Section   Kind = "section"   // a markdown section
	Func      Kind = "func"      // a function
	Method    Kind = "method"    // a method (Symbol is "Recv.Name")
	Type      Kind = "type"      // a type, struct, class, interface, trait or enum
	Const     Kind = "const"     // a constant or a group of them
	Var       Kind = "var"       // a variable or a group of them
	Package   Kind = "package"   // a file's package clause and package documentation
	Imports   Kind = "imports"   // import statements and nothing else
	Module    Kind = "module"    // other top-level statements
	Window    Kind = "window"    // a window of lines of a file that did not parse
	Container Kind = "container" // the head of an impl block, namespace or module
)

// Chunk is one indexed unit of a file.
type Chunk struct {
	Path      string // slash-separated, relative to the index root
	Language  string // "go", "python", "typescript", "javascript", "rust", "java" or "markdown"
	Kind      Kind
	Symbol    string   // "Name", "Recv.Name", "Class.method"; empty for sections and windows
	Heading   []string // markdown heading path, outermost first
	StartLine int      // first line, 1-based, including the doc comment
	DeclLine  int      // line of the declaration or heading itself
	EndLine   int      // last line, inclusive
	Doc       string   // doc comment or docstring, as text
	Signature string   // the declaration without its body, whitespace collapsed
	Text      string   // the source of lines StartLine..EndLine
	Keywords  string   // markdown: the file's keywords line, without "Keywords:"
	Summary   string   // markdown: the file's TL;DR
	Exported  bool     // public by the language's rules
	Test      bool     // comes from a test file
	// Types are the types the symbol belongs to or makes: a method's
	// receiver or class first, then a function's result types declared in
	// the same package.
	Types []string
}

// Languages maps the languages this package understands to their file
// extensions.
var Languages = map[string][]string{
	"go":         {".go"},
	"python":     {".py", ".pyi"},
	"typescript": {".ts", ".tsx", ".mts", ".cts"},
	"javascript": {".js", ".jsx", ".mjs", ".cjs"},
	"rust":       {".rs"},
	"java":       {".java"},
	"markdown":   {".md", ".markdown"},
}

// LanguageOf returns the language of a file by its extension, or "".
func LanguageOf(name string) string {
	ext := strings.ToLower(path.Ext(name))
	for lang, exts := range Languages {
		for _, e := range exts {
			if e == ext {
				return lang
			}
		}
	}
	return ""
}

// IsTestFile reports whether a source file is a test by its language's naming
// conventions.
func IsTestFile(p string) bool {
	base := path.Base(p)
	lb := strings.ToLower(base)
	switch {
	case strings.HasSuffix(lb, "_test.go"),
		strings.HasPrefix(lb, "test_") && strings.HasSuffix(lb, ".py"),
		strings.HasSuffix(lb, "_test.py"),
		// pytest's fixtures and hooks, and Django's per-app test module.
		lb == "conftest.py", lb == "tests.py",
		strings.Contains(lb, ".test.") || strings.Contains(lb, ".spec."),
		// Vitest's and tsd's type tests: a.test-d.ts, a.spec-d.ts.
		strings.Contains(lb, ".test-d.") || strings.Contains(lb, ".spec-d."),
		strings.HasSuffix(base, "Test.java") || strings.HasSuffix(base, "Tests.java"):
		return true
	}
	lang := LanguageOf(p)
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch seg {
		case "__tests__", "tests", "test", "testdata", "e2e":
			return true
		case "spec", "specs":
			// Jasmine's and Mocha's layout (rxjs keeps its tests in
			// spec/); elsewhere a spec package is as often code (an
			// OpenAPI spec in Go).
			if lang == "typescript" || lang == "javascript" {
				return true
			}
		}
	}
	return false
}

// SourcesOf returns the files a source file repeats when it sits beside one
// of them: TypeScript's compiler output (a.js, a.d.ts beside a.ts or a.tsx;
// a.mjs, a.d.mts beside a.mts; a.cjs, a.d.cts beside a.cts) and a Python
// stub beside its module (a.pyi beside a.py). Such a file declares again
// what its source defines, so indexing it would list each definition twice.
func SourcesOf(p string) []string {
	lp := strings.ToLower(p)
	for _, r := range repeats {
		if strings.HasSuffix(lp, r.ext) {
			stem := p[:len(p)-len(r.ext)]
			out := make([]string, len(r.sources))
			for i, e := range r.sources {
				out[i] = stem + e
			}
			return out
		}
	}
	return nil
}

// RepeatsOf returns the files that would repeat a source file if they sat
// beside it (the other way round from SourcesOf): a.js, a.d.ts beside
// a.ts, a.pyi beside a.py. Whether they are indexed changes when it
// appears or goes.
func RepeatsOf(p string) []string {
	lp := strings.ToLower(p)
	var out []string
	for _, r := range repeats {
		for _, e := range r.sources {
			if strings.HasSuffix(lp, e) && !strings.HasSuffix(lp, ".d"+e) {
				out = append(out, p[:len(p)-len(e)]+r.ext)
			}
		}
	}
	return out
}

// repeats lists, for each kind of file that repeats another, the sources it
// repeats, by extension.
var repeats = []struct {
	ext     string
	sources []string
}{
	{".d.ts", []string{".ts", ".tsx"}}, {".d.mts", []string{".mts"}}, {".d.cts", []string{".cts"}},
	{".js", []string{".ts", ".tsx"}}, {".jsx", []string{".tsx"}}, {".mjs", []string{".mts"}},
	{".cjs", []string{".cts"}}, {".pyi", []string{".py"}},
}

// IsExampleFile reports whether a source file sits beside a project's code
// rather than in it: examples, demos, documentation, benchmarks, scripts and
// test fixtures, as a repository's checkout has them next to its library
// (examples/, docs/, benchmarks/, scripts/, fixtures/, …). Their code shows or
// exercises the library, so a question about what the library does is
// answered by the library first. doc/ and tools/ count only at the top of
// the tree: further down they are as often packages of the code itself (Go's
// go/doc, a tools subpackage).
func IsExampleFile(p string) bool {
	segs := strings.Split(path.Dir(p), "/")
	for i, seg := range segs {
		switch strings.ToLower(seg) {
		case "examples", "example", "_examples", "demo", "demos", "samples",
			"docs", "docs_src", "benchmarks", "benchmark", "benches",
			"scripts", "fixtures", "__fixtures__", "__mocks__":
			return true
		case "doc", "tools":
			if i == 0 {
				return true
			}
		}
	}
	return false
}

// IsGenerated reports whether a source file says it was generated by a tool:
// Go's "Code generated … DO NOT EDIT." line, or "@generated", "DO NOT EDIT",
// "auto-generated" or "autogenerated" in its first lines.
func IsGenerated(src []byte) bool {
	head := src[:min(len(src), 2048)]
	n := 0
	for len(head) > 0 && n < 12 {
		line := head
		if k := bytes.IndexByte(head, '\n'); k >= 0 {
			line, head = head[:k], head[k+1:]
		} else {
			head = nil
		}
		n++
		l := strings.ToLower(string(line))
		if strings.Contains(l, "do not edit") || strings.Contains(l, "@generated") ||
			strings.Contains(l, "auto-generated") || strings.Contains(l, "autogenerated") ||
			strings.HasPrefix(l, "// code generated ") {
			return true
		}
	}
	return false
}

// Code chunks a source file of the given language. A file that does not parse
// is cut into line windows; Code never fails.
func Code(p, lang string, src []byte) []Chunk {
	var (
		cs []Chunk
		ok bool
	)
	switch lang {
	case "go":
		fset, f, err := ParseGo(p, src)
		if err == nil {
			cs, ok = GoChunks(p, src, fset, f), true
		}
	case "python":
		cs, ok = Python(p, src)
	case "typescript", "javascript":
		cs, ok = TypeScript(p, lang, src), true
	case "rust":
		cs, ok = Rust(p, src)
	case "java":
		cs, ok = Java(p, src)
	}
	if !ok {
		cs = declWindows(p, lang, src)
	}
	test := IsTestFile(p)
	for i := range cs {
		cs[i].Test = cs[i].Test || test
	}
	return cs
}

// Default window size and overlap, in lines.
const (
	WindowLines   = 60
	WindowOverlap = 10
)

// Windows cuts src into windows of size lines overlapping by overlap lines
// (defaults when zero).
func Windows(p, lang string, src []byte, size, overlap int) []Chunk {
	if size <= 0 {
		size = WindowLines
	}
	if overlap <= 0 || overlap >= size {
		overlap = WindowOverlap
		if overlap >= size {
			overlap = size / 4
		}
	}
	ls := lines(src)
	var out []Chunk
	for start := 0; start < len(ls); start += size - overlap {
		end := min(start+size, len(ls))
		text := strings.Join(ls[start:end], "\n")
		if strings.TrimSpace(text) != "" {
			out = append(out, Chunk{
				Path: p, Language: lang, Kind: Window,
				StartLine: start + 1, DeclLine: start + 1, EndLine: end, Text: text,
			})
		}
		if end == len(ls) {
			break
		}
	}
	return out
}

// lines splits src into lines without their terminators; a final newline does
// not make an extra empty line.
func lines(src []byte) []string {
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// span returns lines [start, end] (1-based, inclusive) of ls joined.
func span(ls []string, start, end int) string {
	if start < 1 {
		start = 1
	}
	if end > len(ls) {
		end = len(ls)
	}
	if start > end {
		return ""
	}
	return strings.Join(ls[start-1:end], "\n")
}

// collapse folds runs of white space into single spaces.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
