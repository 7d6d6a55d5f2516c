package chunk

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// find returns the chunk with the given symbol, failing the test if absent.
func find(t *testing.T, cs []Chunk, sym string) Chunk {
	t.Helper()
	for _, c := range cs {
		if c.Symbol == sym {
			return c
		}
	}
	var have []string
	for _, c := range cs {
		have = append(have, fmt.Sprintf("%s(%s %d-%d)", c.Symbol, c.Kind, c.StartLine, c.EndLine))
	}
	t.Fatalf("no chunk %q; have %v", sym, have)
	return Chunk{}
}

func TestMarkdownHeadingsKeywordsAndTLDR(t *testing.T) {
	src := `Keywords: retry, backoff, transient failure

# Retrying calls

## TL;DR

Retry idempotent calls with exponential backoff and jitter.

## Purpose

Why retries matter.

### When not to retry

Never retry a non-idempotent write.

` + "```go\n# not a heading\n```\n" + `
## Examples

Example text.
`
	cs := Markdown("universal/retry.md", []byte(src), MarkdownOptions{})
	if len(cs) != 4 {
		t.Fatalf("got %d chunks: %+v", len(cs), cs)
	}
	for _, c := range cs {
		if c.Keywords != "retry, backoff, transient failure" {
			t.Errorf("chunk %v: keywords %q", c.Heading, c.Keywords)
		}
		if c.Summary != "Retry idempotent calls with exponential backoff and jitter." {
			t.Errorf("chunk %v: summary %q", c.Heading, c.Summary)
		}
	}
	got := cs[2]
	if strings.Join(got.Heading, " > ") != "Retrying calls > Purpose > When not to retry" {
		t.Errorf("heading path %q", got.Heading)
	}
	if got.StartLine != 13 || got.EndLine != 19 || !strings.Contains(got.Text, "# not a heading") {
		t.Errorf("section lines %d-%d text %q", got.StartLine, got.EndLine, got.Text)
	}
	if h := strings.Join(cs[3].Heading, " > "); h != "Retrying calls > Examples" {
		t.Errorf("last heading %q", h)
	}
}

func TestMarkdownLongSectionSplitsAtParagraphs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Big\n\n## Long\n\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "Paragraph %d says something about rule number %d in twenty words or so, for the budget.\n\n", i, i)
	}
	cs := Markdown("development/big.md", []byte(b.String()), MarkdownOptions{MaxTokens: 120, OverlapTokens: 30})
	if len(cs) < 5 {
		t.Fatalf("expected the section split, got %d chunks", len(cs))
	}
	for i, c := range cs {
		if Tokens(c.Text) > 150 {
			t.Errorf("piece %d has %d tokens", i, Tokens(c.Text))
		}
		if strings.Join(c.Heading, " > ") != "Big > Long" {
			t.Errorf("piece %d heading %q", i, c.Heading)
		}
		if i > 0 {
			prev := cs[i-1]
			if c.StartLine > prev.EndLine {
				t.Errorf("piece %d starts at %d after previous end %d: no overlap", i, c.StartLine, prev.EndLine)
			}
			if !strings.HasPrefix(strings.TrimSpace(c.Text), "Paragraph") {
				t.Errorf("piece %d does not start at a paragraph: %q", i, c.Text[:20])
			}
		}
	}
	if last := cs[len(cs)-1]; !strings.Contains(last.Text, "Paragraph 29") {
		t.Errorf("last piece misses the end")
	}
}

func TestGoSymbols(t *testing.T) {
	src := `// Package demo shows things.
package demo

import (
	"fmt"
	"strings"
)

// Server serves.
type Server struct{ n int }

// Halt stops the server.
func (s *Server) Halt() error {
	return nil
}

// Glue glues parts.
func Glue(parts []string) string { return strings.Join(parts, fmt.Sprint("")) }

// Limits of the demo.
const (
	// MaxA is a.
	MaxA = 1
	MaxB = 2
)

type (
	// Pair holds two.
	Pair[K comparable, V any] struct{ k K; v V }
	alias = int
)

func (p *Pair[K, V]) Key() K { return p.k }

// NewServer makes a Server.
func NewServer[T any](x T) (*Server, T, error) { return nil, x, nil }
`
	cs := Code("demo/demo.go", "go", []byte(src))
	hdr := find(t, cs, "demo")
	if hdr.Kind != Package || hdr.StartLine != 1 || hdr.EndLine != 7 || !strings.Contains(hdr.Doc, "shows things") {
		t.Errorf("header %+v", hdr)
	}
	m := find(t, cs, "Server.Halt")
	if m.Kind != Method || m.StartLine != 12 || m.DeclLine != 13 || m.EndLine != 15 || !m.Exported ||
		m.Doc != "Halt stops the server.\n" || m.Signature != "func (s *Server) Halt() error" {
		t.Errorf("method %+v", m)
	}
	f := find(t, cs, "Glue")
	if f.Kind != Func || f.StartLine != 17 || f.EndLine != 18 {
		t.Errorf("func %+v", f)
	}
	c := find(t, cs, "MaxA, MaxB")
	if c.Kind != Const || c.StartLine != 20 || c.EndLine != 25 || !strings.Contains(c.Doc, "Limits") || !strings.Contains(c.Doc, "MaxA is a") {
		t.Errorf("const %+v", c)
	}
	p := find(t, cs, "Pair")
	if p.Kind != Type || p.StartLine != 28 || p.EndLine != 29 || p.Doc != "Pair holds two.\n" {
		t.Errorf("type %+v", p)
	}
	if k := find(t, cs, "Pair.Key"); k.Kind != Method {
		t.Errorf("generic method %+v", k)
	}
	if ns := find(t, cs, "NewServer"); !reflect.DeepEqual(ns.Types, []string{"Server"}) {
		t.Errorf("result types %q", ns.Types)
	}
	if m.Types[0] != "Server" {
		t.Errorf("receiver type %q", m.Types)
	}
	if a := find(t, cs, "alias"); a.Exported {
		t.Errorf("alias exported")
	}
	if find(t, cs, "Server").Doc != "Server serves.\n" {
		t.Errorf("type doc")
	}
}

func TestGoUnparsableFallsBackToWindows(t *testing.T) {
	var b strings.Builder
	b.WriteString("package broken\n\nfunc oops( {\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "\tline%d()\n", i)
	}
	cs := Code("broken.go", "go", []byte(b.String()))
	if len(cs) != 2 || cs[0].Kind != Window || cs[0].StartLine != 1 || cs[0].EndLine != 60 ||
		cs[1].StartLine != 51 || cs[1].EndLine != 103 {
		for _, c := range cs {
			t.Logf("%s %d-%d", c.Kind, c.StartLine, c.EndLine)
		}
		t.Fatalf("want two overlapping windows")
	}
}

func TestPython(t *testing.T) {
	src := `"""Module doc."""
import os
from typing import List


# Loads things.
@cache
def load(path: str,
         mode: str = "r") -> List[str]:
    """Read a file.

    Returns lines.
    """
    def inner():
        return 1
    s = """
def not_a_function():
"""
    return open(path).readlines()


class Store(Base):
    """A store."""
    limit = 3

    def get(self, key):
        # inline comment
        return self.d[key]

    async def _put(self, key, value):
        self.d[key] = value

TOP = 1
`
	cs := Code("pkg/store.py", "python", []byte(src))
	hdr := cs[0]
	if hdr.Kind != Package || hdr.StartLine != 1 || hdr.EndLine != 3 || hdr.Doc != "Module doc." {
		t.Errorf("module head %+v", hdr)
	}
	f := find(t, cs, "load")
	if f.Kind != Func || f.StartLine != 6 || f.DeclLine != 8 || f.EndLine != 19 || !strings.HasPrefix(f.Doc, "Loads things.\nRead a file.") {
		t.Errorf("func %+v", f)
	}
	for _, c := range cs {
		if c.Symbol == "not_a_function" || c.Symbol == "inner" || c.Symbol == "load.inner" {
			t.Errorf("found %q", c.Symbol)
		}
	}
	cl := find(t, cs, "Store")
	if cl.Kind != Type || cl.StartLine != 22 || cl.EndLine != 25 || cl.Doc != "A store." {
		t.Errorf("class %+v", cl)
	}
	g := find(t, cs, "Store.get")
	if g.Kind != Method || g.StartLine != 26 || g.EndLine != 28 {
		t.Errorf("method %+v", g)
	}
	p := find(t, cs, "Store._put")
	if p.Exported || p.EndLine != 31 {
		t.Errorf("private method %+v", p)
	}
	last := cs[len(cs)-1]
	if last.Kind != Const || last.Symbol != "TOP" || last.StartLine != 33 {
		t.Errorf("trailing constant %+v", last)
	}
	if got := Code("bad.py", "python", []byte("def f():\n    s = \"\"\"never closed\n")); got[0].Kind != Window {
		t.Errorf("unterminated string: %+v", got)
	}
}

func TestTypeScript(t *testing.T) {
	src := "import { a,\n  b } from './x';\n\n" + `/** Adds numbers. */
export function add(a: number, b: { c: number }): { sum: number } {
  const s = ` + "`${a + b.c} {`" + `;
  const re = /}\{/g;
  return { sum: a + b.c };
}

export const mul = async (x: number, y: number): Promise<number> => {
  function helper() { return 1; }
  return x * y;
};

// A shape.
export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  private r: number;
  constructor(r: number) { this.r = r; }
  /** Area of the circle. */
  area(): number {
    if (this.r > 0) { return 3.14 * this.r * this.r; }
    return 0;
  }
  private secret() { }
  onClick = (e: Event) => { console.log(e); };
}
`
	cs := Code("src/shapes.ts", "typescript", []byte(src))
	if cs[0].Kind != Imports || cs[0].EndLine != 2 {
		t.Errorf("imports %+v", cs[0])
	}
	add := find(t, cs, "add")
	if add.Kind != Func || add.StartLine != 4 || add.DeclLine != 5 || add.EndLine != 9 || add.Doc != "Adds numbers." || !add.Exported {
		t.Errorf("add %+v", add)
	}
	if m := find(t, cs, "mul"); m.EndLine != 14 {
		t.Errorf("mul %+v", m)
	}
	find(t, cs, "Shape")
	c := find(t, cs, "Circle")
	if c.Kind != Type || c.EndLine != 21 {
		t.Errorf("class %+v", c)
	}
	a := find(t, cs, "Circle.area")
	if a.Kind != Method || a.StartLine != 24 || a.EndLine != 28 || a.Doc != "Area of the circle." {
		t.Errorf("method %+v", a)
	}
	find(t, cs, "Circle.constructor")
	if s := find(t, cs, "Circle.secret"); s.Exported {
		t.Errorf("private method exported")
	}
	find(t, cs, "Circle.onClick")
	for _, c := range cs {
		if c.Symbol == "helper" || c.Symbol == "mul.helper" {
			t.Errorf("nested function emitted")
		}
	}
	if got := Code("bad.ts", "typescript", []byte("function f() {\n  if (x) {\n}\n")); got[0].Kind != Window {
		t.Errorf("unbalanced braces: %+v", got)
	}
}

func TestJavaScript(t *testing.T) {
	src := `'use strict';
const fs = require('fs');

/**
 * Reads config.
 */
function readConfig(path) {
  return JSON.parse(fs.readFileSync(path, 'utf8'));
}

class Cache {
  get(key) { return this.m[key]; }
  static create() { return new Cache(); }
}

module.exports = { readConfig, Cache };
`
	cs := Code("lib/config.js", "javascript", []byte(src))
	if cs[0].Kind != Imports {
		t.Errorf("imports %+v", cs[0])
	}
	if f := find(t, cs, "readConfig"); f.StartLine != 4 || f.DeclLine != 7 || f.EndLine != 9 || f.Doc != "Reads config." {
		t.Errorf("func %+v", f)
	}
	find(t, cs, "Cache.get")
	find(t, cs, "Cache.create")
	if last := cs[len(cs)-1]; last.Kind != Module || last.StartLine != 16 {
		t.Errorf("module %+v", last)
	}
}

func TestRust(t *testing.T) {
	src := `use std::fmt;

/// A point.
#[derive(Debug)]
pub struct Point<'a> { x: i32, name: &'a str }

impl<'a> fmt::Display for Point<'a> {
    /// Formats it.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let c = '{';
        let s = r#"}"#;
        write!(f, "{}", self.x)
    }
}

pub fn distance(a: &Point, b: &Point) -> f64 {
    let closure = |x: i32| { x + 1 };
    0.0
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_works() { assert!(true); }
}
`
	cs := Code("src/point.rs", "rust", []byte(src))
	p := find(t, cs, "Point")
	if p.Kind != Type || p.StartLine != 3 || p.DeclLine != 5 || p.Doc != "A point." || !p.Exported {
		t.Errorf("struct %+v", p)
	}
	f := find(t, cs, "Point.fmt")
	if f.Kind != Method || f.StartLine != 8 || f.EndLine != 13 || f.Doc != "Formats it." {
		t.Errorf("impl method %+v", f)
	}
	if d := find(t, cs, "distance"); d.Kind != Func || d.EndLine != 19 || !d.Exported {
		t.Errorf("fn %+v", d)
	}
	if w := find(t, cs, "it_works"); !w.Test {
		t.Errorf("test fn not marked %+v", w)
	}
}

func TestJava(t *testing.T) {
	src := `package com.example;

import java.util.List;

/** Greets people. */
public class Greeter {
    private final String name = "x{";

    public Greeter(String name) { }

    /** Says hello. */
    @Override
    public String greet(List<String> who) throws IllegalStateException {
        Runnable r = () -> { System.out.println("}"); };
        return "hi";
    }

    private static int helper(int a) { return a; }
}
`
	cs := Code("src/main/java/com/example/Greeter.java", "java", []byte(src))
	if cs[0].Kind != Imports || cs[0].EndLine != 3 {
		t.Errorf("imports %+v", cs[0])
	}
	g := find(t, cs, "Greeter")
	if g.Kind != Type || g.StartLine != 5 || !g.Exported || g.Doc != "Greets people." {
		t.Errorf("class %+v", g)
	}
	m := find(t, cs, "Greeter.greet")
	if m.Kind != Method || m.StartLine != 11 || m.EndLine != 16 || m.Doc != "Says hello." || !m.Exported {
		t.Errorf("method %+v", m)
	}
	find(t, cs, "Greeter.Greeter")
	if h := find(t, cs, "Greeter.helper"); h.Exported {
		t.Errorf("private exported")
	}
}

func TestLanguageAndTests(t *testing.T) {
	for p, want := range map[string]string{"a.go": "go", "b.PY": "python", "c.tsx": "typescript", "d.mjs": "javascript",
		"e.rs": "rust", "F.java": "java", "g.md": "markdown", "h.c": ""} {
		if got := LanguageOf(p); got != want {
			t.Errorf("LanguageOf(%q) = %q", p, got)
		}
	}
	for p, want := range map[string]bool{"x_test.go": true, "pkg/test_a.py": true, "a.spec.ts": true,
		"src/__tests__/a.js": true, "FooTest.java": true, "main.go": false, "latest.py": false,
		"conftest.py": true, "app/tests.py": true, "contests.py": false,
		"src/queryClient.test-d.tsx": true, "types.spec-d.ts": true, "src/test-data.ts": false,
		"spec/operators/map-spec.ts": true, "packages/app/e2e/login.ts": true, "pkg/validation/spec/schema.go": false} {
		if IsTestFile(p) != want {
			t.Errorf("IsTestFile(%q) != %v", p, want)
		}
	}
}

func TestIsExampleFile(t *testing.T) {
	for p, want := range map[string]bool{
		"examples/table.py": true, "packages/core/examples/a.ts": true, "docs/source/conf.py": true,
		"benchmarks/bench_text.py": true, "scripts/release.sh": true, "tests/fixtures/a.json": true,
		"src/__mocks__/fs.ts": true, "demo/app.tsx": true, "doc/conf.py": true, "tools/gen.py": true,
		// Further down, doc/ and tools/ are packages of the code itself.
		"go/doc/reader.go": false, "pkg/tools/run.go": false,
		"rich/console.py": false, "src/examplesParser.ts": false, "example.go": false,
	} {
		if IsExampleFile(p) != want {
			t.Errorf("IsExampleFile(%q) != %v", p, want)
		}
	}
}

func TestSourcesOf(t *testing.T) {
	for p, want := range map[string]string{
		"src/a.d.ts": "src/a.ts src/a.tsx", "a.js": "a.ts a.tsx", "a.mjs": "a.mts", "a.d.cts": "a.cts",
		"pkg/m.pyi": "pkg/m.py", "a.ts": "", "m.py": "", "a.jsx": "a.tsx",
	} {
		if got := strings.Join(SourcesOf(p), " "); got != want {
			t.Errorf("SourcesOf(%q) = %q, want %q", p, got, want)
		}
	}
}

// RepeatsOf is SourcesOf the other way round.
func TestRepeatsOf(t *testing.T) {
	for p, want := range map[string]string{
		"src/a.ts": "src/a.d.ts src/a.js", "a.tsx": "a.d.ts a.js a.jsx", "a.mts": "a.d.mts a.mjs",
		"a.cts": "a.d.cts a.cjs", "pkg/m.py": "pkg/m.pyi", "a.d.ts": "", "a.js": "", "m.pyi": "",
	} {
		got := RepeatsOf(p)
		if strings.Join(got, " ") != want {
			t.Errorf("RepeatsOf(%q) = %q, want %q", p, got, want)
		}
		for _, r := range got {
			if !slices.Contains(SourcesOf(r), p) {
				t.Errorf("RepeatsOf(%q) has %q, whose sources %q leave it out", p, r, SourcesOf(r))
			}
		}
	}
}
