// Package baseline makes the "before" source of a fail-before/pass-after
// gate: the code at the base of a session, carrying the session's API but
// none of its behaviour.
//
// A criterion is proven only by a test that fails on the base and passes on
// the current code. On the bare base a test of a function the session added
// fails because the name is missing, which proves nothing: a test that calls
// the function and asserts nothing would pass as well. So the before-run
// uses, for each source file the session touched, the current file with every
// function that is new or whose code changed since the base stubbed: its
// signature kept, its body returning zero values. Types, constants,
// variables, imports still in use and unchanged functions stay as they are
// now. A test must then fail on that source by its assertions.
//
// Go files are read with go/parser; Python and TypeScript/JavaScript files
// with the lexers and recognisers of search/chunk (PythonFuncs,
// TypeScriptFuncs, CodeOnly), and Python's lambdas with a tokenizer of this
// package's own (pylambda.go). This package also owns the rule that says
// which files are tests (IsTestFile), which the gates share.
package baseline

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/agentos-dev/agentos/search/chunk"
)

// ErrUnsupported is returned by Stub for a language it cannot stub.
var ErrUnsupported = errors.New("no stubs for this language")

// Stub returns the before-source of one file: current with every function
// or method that is new since base, or whose code changed (comments and
// layout aside), given an empty body that returns zero values, and the
// names of those functions ("f", "Recv.m", "Class.m") in source order.
// base is the file at the base, nil when the session added it; current is
// the file now. lang is "go", "python", "typescript" or "javascript" (as
// chunk.LanguageOf names them), or "" to take it from path's extension.
//
// The functions, by language:
//   - Go: declared functions and methods, and the function literals in
//     package-level variables' values (var F = func…, a struct's field
//     V.F, a map's or a slice's element V["k"] and V[0], elsewhere
//     V.func1).
//   - Python: defs and async defs at module level, in classes and in the
//     compound statements among them (a def nested in another goes with
//     its body), and lambdas bound there (f = lambda x: …, C.f).
//   - TypeScript and JavaScript: what chunk.TypeScriptFuncs finds
//     (declarations, class methods, accessors, constructors and property
//     arrows, functions and arrows bound to variables, exports and
//     prototypes, export default functions), and the methods and
//     function-valued properties of object literals bound at the top level
//     (const api = { greet() {…}, total: (xs) => … }: api.greet,
//     api.total; export default { … }: default.m; module.exports = { … }:
//     exports.m).
//
// The bodies, by language:
//   - Go: "return" with named results, "var r0 T; return r0" without, laid
//     out as gofmt lays out a body. When a parameter shadows a name the
//     unnamed results' types use (func Parse(url string) (*url.URL,
//     error)), the results are named in the signature (r0 *url.URL, r1
//     error) and the body returns bare. An import only the stubbed bodies
//     used is removed, with its line.
//   - Python: the docstring, if any, then "return None"; decorators kept,
//     functions nested in a stubbed one gone with its body. A lambda keeps
//     its parameters, its body becomes None.
//   - TypeScript: { return undefined as any; }, an arrow's expression body
//     "undefined as any"; constructors keep only their super(…) call,
//     setters are empty and a function declared to return never throws.
//     A file with stubs is marked // @ts-nocheck, so that a compiler that
//     checks types (ts-jest) does not refuse the parameters and imports the
//     stubs left unused.
//   - JavaScript: the same, without types.
//
// Nothing else in the file changes: outside the stubbed bodies every byte
// is current's, but for the Go imports and results said above and the
// TypeScript mark.
//
// Stub fails when current (or base, when not nil) does not parse, when the
// stubbed file would not (which no input is known to cause: a stub must
// never make the before-run fail for a reason of its own), and with
// ErrUnsupported for another language. A file with nothing to stub is
// returned as it is.
func Stub(lang, path string, base, current []byte) ([]byte, []string, error) {
	if lang == "" {
		lang = chunk.LanguageOf(path)
	}
	if base != nil && bytes.Equal(base, current) && supported(lang) {
		return current, nil, nil
	}
	switch lang {
	case "go":
		return stubGo(path, base, current)
	case "python":
		return stubPython(base, current)
	case "typescript", "javascript":
		return stubTS(lang, path, base, current)
	}
	return nil, nil, fmt.Errorf("%s (%q): %w", path, lang, ErrUnsupported)
}

// Supports reports whether Stub can stub the source file at path.
func Supports(path string) bool { return supported(chunk.LanguageOf(path)) }

func supported(lang string) bool {
	switch lang {
	case "go", "python", "typescript", "javascript":
		return true
	}
	return false
}

// codes is a multiset of functions' code by name: a function of the current
// file is unchanged when the base held one of the same name and code.
type codes map[string]map[string]int

func (c codes) add(name, code string) {
	if c[name] == nil {
		c[name] = map[string]int{}
	}
	c[name][code]++
}

// take reports whether the base held the function, and uses up that copy,
// so two current functions of one name (Go's init) cannot both match one.
func (c codes) take(name, code string) bool {
	if c[name][code] == 0 {
		return false
	}
	c[name][code]--
	return true
}

// edit replaces src[from:to] with text.
type edit struct {
	from, to int
	text     string
}

// apply makes the edits, which must not overlap, on a copy of src.
func apply(src []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.from])
		out.WriteString(e.text)
		at = e.to
	}
	out.Write(src[at:])
	return out.Bytes()
}
