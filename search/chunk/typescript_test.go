package chunk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// symbols lists the chunks that carry a symbol as "kind Symbol start decl end".
func symbols(cs []Chunk) []string {
	var out []string
	for _, c := range cs {
		if c.Symbol != "" {
			out = append(out, fmt.Sprintf("%s %s %d %d %d", c.Kind, c.Symbol, c.StartLine, c.DeclLine, c.EndLine))
		}
	}
	return out
}

var lineEndSemicolon = regexp.MustCompile(`(?m);[ \t]*$`)

// TestTypeScriptDeclarations checks every construct the recogniser knows,
// each written with semicolons and again without (the same lines, so the
// same expected chunks).
func TestTypeScriptDeclarations(t *testing.T) {
	cases := []struct {
		name, file, src string
		want            []string
	}{
		{"functions", "f.ts", `/** Adds. */
export function add(a: number, b: number): number {
  return a + b;
}
async function load(): Promise<void> {}
function* ids() { yield 1; }
export async function* stream() {}
function over(a: string): string;
function over(a: number): number;
function over(a: any): any {
  return a;
}
export default function () {}
`, []string{
			"func add 1 2 4", "func load 5 5 5", "func ids 6 6 6", "func stream 7 7 7",
			"func over 8 8 12", "func default 13 13 13"}},
		{"classes", "c.ts", `@Component({
  selector: 'x',
})
export abstract class Widget<T> extends Base implements A, B {
  static count = 0;
  #secret = 1;
  private readonly name: string;
  [key: string]: unknown;
  /** Made once. */
  constructor(name: string) {
    super();
  }
  @Input() label = 'x';
  get size(): number { return 1; }
  set size(v: number) {}
  static {
    Widget.count = 1;
  }
  abstract render(): void;
  onClick = (e: Event) => {
    console.log(e);
  };
  handle = async function () {};
  async *pages() {}
  resize(w: number): void;
  resize(w: number, h?: number): void {}
  'quoted-name'() {}
  [Symbol.iterator]() {}
}
`, []string{
			"type Widget 1 4 4", "var Widget.count 5 5 5", "var Widget.#secret 6 6 6", "var Widget.name 7 7 7",
			"var Widget.[index] 8 8 8", "method Widget.constructor 9 10 12", "var Widget.label 13 13 13",
			"method Widget.size 14 14 14", "method Widget.size 15 15 15", "method Widget.render 19 19 19",
			"method Widget.onClick 20 20 22", "method Widget.handle 23 23 23", "method Widget.pages 24 24 24",
			"method Widget.resize 25 25 26", "method Widget.quoted-name 27 27 27",
			"method Widget.[Symbol.iterator] 28 28 28"}},
		{"interfaces and types", "i.ts", `export interface Options<T> extends Base {
  /** Where to look. */
  root: string;
  depth?: number;
  filter(name: string): boolean;
  readonly tags: Array<string>;
  on(e: 'a'): void;
  on(e: 'b'): void;
  new (x: number): Options<T>;
  (call: string): void;
}
export type Id = string | number;
export enum Color { Red, Green }
type Union =
  | 'a'
  | 'b';
const enum Flag {
  On = 1,
}
type Props = {
  title: string;
} & Base;
type Mapped = { [K in keyof T]: T[K] };
type Fn = (x: number) => void;
`, []string{
			"type Options 1 1 1", "var Options.root 2 3 3", "var Options.depth 4 4 4",
			"method Options.filter 5 5 5", "var Options.tags 6 6 6", "method Options.on 7 7 8",
			"type Id 12 12 12", "type Color 13 13 13", "type Union 14 14 16", "type Flag 17 17 19",
			"type Props 20 20 20", "var Props.title 21 21 21", "type Mapped 23 23 23", "type Fn 24 24 24"}},
		{"namespaces", "n.ts", `export namespace A.B {
  export function f() {}
  namespace C {
    const x = 1;
  }
}
declare module 'vue' {
  interface Custom {
    $t: string;
  }
}
declare global {
  var DEV: boolean;
}
declare module 'shorthand';
`, []string{
			"container A.B 1 1 1", "func A.B.f 2 2 2", "container A.B.C 3 3 3", "const A.B.C.x 4 4 4",
			"container vue 7 7 7", "type Custom 8 8 8", "var Custom.$t 9 9 9",
			"container global 12 12 12", "var DEV 13 13 13", "container shorthand 15 15 15"}},
		{"variables", "v.ts", `export const f = (x: number) => x + 1;
const g = async (x) =>
  x * 2;
let h = function named() {};
var a = 1, b = () => 2;
const { one, two: renamed, ...rest } = obj;
const [first, , third] = list;
export const Klass = class {};
const generic = <T,>(x: T): T => x;
let later: number;
export const config: Config = {
  debug: true,
};
`, []string{
			"func f 1 1 1", "func g 2 2 3", "func h 4 4 4", "var a 5 5 5", "func b 5 5 5",
			"const one, renamed, rest 6 6 6", "const first, third 7 7 7", "type Klass 8 8 8",
			"func generic 9 9 9", "var later 10 10 10", "const config 11 11 13"}},
		{"export default and re-exports", "d.ts", `export { a as b } from './a';
export * from './b';
export * as ns from './c';
import x, { y } from './d';
export { x };
export default {
  name: 'x',
};
`, []string{"const default 6 6 8"}},
		{"commonjs", "lib/m.js", `'use strict';
module.exports = function createApp(opts) {
  return opts;
};
exports.helper = (x) => x;
exports.VERSION = '1';
module.exports.other = function () {};
App.prototype.listen = function listen(port) {
  return port;
};
App.init = async () => {};
app.count = 3;
var View = require('./view'), join = require('path').join;
const { a, b } = require('./ab');
const debug = require('debug')('app');
var slice = Array.prototype.slice;
`, []string{
			"func createApp 2 2 4", "func helper 5 5 5", "var VERSION 6 6 6", "func other 7 7 7",
			"method App.listen 8 8 10", "method App.init 11 11 11",
			"imports View 13 13 13", "imports join 13 13 13", "imports a, b 14 14 14", "imports debug 15 15 15",
			"var slice 16 16 16"}},
		{"jsx, templates and regular expressions", "ui/App.tsx", "export function App({ items }: Props) {\n" +
			"  const re = /[}{]\\//g;\n" +
			"  const half = items.length / 2 / 1;\n" +
			"  return (\n" +
			"    <ul className={`list ${items.map((i) => `${i.id + `${'}'}`}`).join(' ')}`}>\n" +
			"      {items.map((i) => <li key={i.id}>{i.name} {'{'} don't</li>)}\n" +
			"    </ul>\n" +
			"  );\n" +
			"}\n" +
			"export const Empty = () => <></>;\n" +
			"const id = <T,>(x: T) => x;\n", []string{"func App 1 1 9", "func Empty 10 10 10", "func id 11 11 11"}},
		{"enum after a type alias", "e.ts", `export type Mode = 'a' | 'b';
export enum Level {
  Low,
}
`, []string{"type Mode 1 1 1", "type Level 2 2 4"}},
	}
	for _, tc := range cases {
		for _, semi := range []bool{true, false} {
			src := tc.src
			label := tc.name + "/semicolons"
			if !semi {
				src = lineEndSemicolon.ReplaceAllString(src, "")
				label = tc.name + "/no semicolons"
			}
			t.Run(label, func(t *testing.T) {
				got := symbols(Code(tc.file, LanguageOf(tc.file), []byte(src)))
				if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("got\n  %s\nwant\n  %s\nsource:\n%s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "), src)
				}
			})
		}
	}
}

// TestTypeScriptASI checks statement ends where ECMAScript inserts
// semicolons and where it does not.
func TestTypeScriptASI(t *testing.T) {
	src := `const a = b
(c || d).run()
const e = f
  .g()
const h = i
++j
const k = l
export const m = 1
type T = Set<string>
export const n = 2
`
	want := []string{"const a 1 1 2", "const e 3 3 4", "const h 5 5 5", "const k 7 7 7", "const m 8 8 8",
		"type T 9 9 9", "const n 10 10 10"}
	got := symbols(Code("asi.ts", "typescript", []byte(src)))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestContinues checks the rule of automatic semicolon insertion token by
// token: does next, on a new line after prev, carry on prev's statement?
func TestContinues(t *testing.T) {
	tok := func(k tsTokKind, s string) tsToken { return tsToken{Kind: k, Text: s} }
	id := func(s string) tsToken { return tok(tsIdent, s) }
	p := func(s string) tsToken { return tok(tsPunct, s) }
	for _, tc := range []struct {
		prev, next tsToken
		want       bool
	}{
		{id("a"), id("b"), false},
		{id("a"), p("("), true}, // a\n(b) is a call
		{id("a"), p("["), true},
		{id("a"), tok(tsTemplate, "`t`"), true},
		{id("a"), p("."), true},
		{id("a"), p("+"), true},
		{id("a"), p("++"), false}, // a\n++b
		{id("a"), p("!"), false},
		{id("a"), id("as"), true},
		{id("a"), tok(tsString, "'s'"), false},
		{p("="), id("b"), true},
		{p(","), id("b"), true},
		{p("=>"), p("{"), true},
		{p(")"), p("{"), false},
		{p("}"), id("b"), false},
		{p("}"), p("("), true},
		{p(";"), p("("), false},
		{id("return"), p("("), false},
		{id("throw"), id("err"), false},
		{id("yield"), p("["), false},
		{id("break"), id("label"), false},
		{id("typeof"), id("x"), true},
		{id("void"), id("x"), false}, // void is complete as a type
	} {
		if got := continues(tc.prev, tc.next); got != tc.want {
			t.Errorf("%q then %q on a new line: continues = %v, want %v", tc.prev.Text, tc.next.Text, got, tc.want)
		}
	}
}

func TestTypeScriptDocAndSignature(t *testing.T) {
	src := `// Copyright header.

/**
 * Loads a user.
 * @param id the user's id
 */
// and caches it
export async function loadUser(id: string): Promise<User> {
  return db.get(id)
}
foo() // trailing
export const double = (x: number): number => x * 2
class C {
  private hidden() {}
  _internal() {}
  visible() {}
}
`
	cs := Code("doc.ts", "typescript", []byte(src))
	f := find(t, cs, "loadUser")
	if f.StartLine != 3 || f.DeclLine != 8 || f.Doc != "Loads a user.\n@param id the user's id\nand caches it" ||
		f.Signature != "export async function loadUser(id: string): Promise<User>" || !f.Exported {
		t.Errorf("loadUser %+v", f)
	}
	if d := find(t, cs, "double"); d.Doc != "" || d.StartLine != 12 || d.Signature != "export const double = (x: number): number =>" {
		t.Errorf("double %+v", d)
	}
	for sym, exported := range map[string]bool{"C.hidden": false, "C._internal": false, "C.visible": true, "C": false} {
		if c := find(t, cs, sym); c.Exported != exported {
			t.Errorf("%s exported = %v", sym, c.Exported)
		}
	}
	if v := find(t, cs, "C.visible"); fmt.Sprint(v.Types) != "[C]" {
		t.Errorf("a member's owner: %+v", v)
	}
	if c := find(t, cs, "C"); c.Kind != Type || c.EndLine != 13 {
		t.Errorf("class head %+v", c)
	}
}

// TestTypeScriptOverloadDoc checks that overloads merged with their
// implementation keep the documentation wherever it sits (here on the
// implementation, after a deprecated overload), and that a linter's
// directive and a bundler's annotation are no documentation.
func TestTypeScriptOverloadDoc(t *testing.T) {
	src := `/* tslint:disable:max-line-length */
/** @deprecated Pass an options object. */
export function retry(count?: number): Op;
export function retry(config: Config): Op;

/**
 * Resubscribes to the source when it errors, at most count times.
 */
export function retry(configOrCount: any = Infinity): Op {
  return op
}

// eslint-disable-next-line no-console
export function log(x: string) { console.log(x) }

/** Returns true if the value is a draft. */
/*#__PURE__*/
export function isDraft(x: unknown) { return !!x }
`
	cs := Code("retry.ts", "typescript", []byte(src))
	r := find(t, cs, "retry")
	if r.StartLine != 1 || r.EndLine != 11 || r.Doc != "Resubscribes to the source when it errors, at most count times." {
		t.Errorf("retry %+v", r)
	}
	if l := find(t, cs, "log"); l.StartLine != 13 || l.Doc != "" {
		t.Errorf("log %+v", l)
	}
	if d := find(t, cs, "isDraft"); d.StartLine != 16 || d.Doc != "Returns true if the value is a draft." {
		t.Errorf("isDraft %+v: a bundler's annotation is no documentation", d)
	}
}

// TestJSDocProse checks that a JSDoc comment's code examples, @see lists,
// markup and images are left out of the documentation the index reads.
func TestJSDocProse(t *testing.T) {
	src := "/**\n" +
		" * Emits the latest value after a <b>quiet</b> period, like {@link delay}.\n" +
		" *\n" +
		" * ![](debounce.png)\n" +
		" *\n" +
		" * ```ts\n" +
		" * clicks.pipe(map(x => x)).subscribe()\n" +
		" * ```\n" +
		" * @see {@link throttle}\n" +
		" * @param due how long to wait\n" +
		" * @example\n" +
		" * debounce(10).subscribe()\n" +
		" * @returns the operator\n" +
		" */\n" +
		"export function debounce(due: number) {}\n"
	d := find(t, Code("d.ts", "typescript", []byte(src)), "debounce")
	want := "Emits the latest value after a quiet period, like delay.\n@param due how long to wait\n@returns the operator"
	if d.Doc != want || d.StartLine != 1 {
		t.Errorf("doc %q (from line %d), want %q from line 1", d.Doc, d.StartLine, want)
	}
}

// TestTypeScriptUnreadable checks that a file the lexer cannot follow is
// cut into windows that start where declarations begin.
func TestTypeScriptUnreadable(t *testing.T) {
	var b strings.Builder
	b.WriteString("const s = 'unterminated\n")
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "\n/** Doc %d. */\nexport function f%d() {\n", i, i)
		for j := 0; j < 30; j++ {
			b.WriteString("  work()\n")
		}
		b.WriteString("}\n")
	}
	cs := Code("bad.ts", "typescript", []byte(b.String()))
	var starts []int
	for _, c := range cs {
		if c.Kind != Window {
			t.Fatalf("chunk %+v is not a window", c)
		}
		starts = append(starts, c.StartLine)
	}
	// Line 1 (the bad constant), then each function with its doc comment
	// (lines 3, 37, 71): short sections are joined up to a window's length.
	if fmt.Sprint(starts) != "[1 37 71]" {
		t.Errorf("window starts %v", starts)
	}
	if got := Code("plain.ts", "typescript", []byte(strings.Repeat("'x\n", 100))); len(got) == 0 || got[0].Kind != Window {
		t.Errorf("a file without boundaries: %+v", got)
	}
}

// FuzzTypeScript checks that any input chunks without panicking, and that
// every chunk lies within the file.
func FuzzTypeScript(f *testing.F) {
	for _, s := range []string{
		"export const f = (x) => x + 1\n",
		"class A { m() { return `${`${1}`}` } }\n",
		"const r = /[/]/g; const d = a / b / c\n",
		"<div a={`x${y}`}>{z}</div>\n",
		"namespace A.B { export function f(): void; }\n",
		"@dec() class C { @p() x = 1; get y() { return 1 } }\n",
		"type T = { [K in keyof U]: U[K] }\ninterface I { (x: number): void; new (): I }\n",
		"`${",
		"/*",
		"}}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n := len(lines([]byte(src)))
		for _, name := range []string{"f.ts", "f.tsx", "f.js"} {
			for _, c := range Code(name, LanguageOf(name), []byte(src)) {
				if c.StartLine < 1 || c.StartLine > c.DeclLine || c.DeclLine > c.EndLine || c.EndLine > max(n, 1) {
					t.Fatalf("%s: chunk %s %q lines %d..%d..%d outside 1..%d", name, c.Kind, c.Symbol, c.StartLine, c.DeclLine, c.EndLine, n)
				}
			}
			checkCodeOnly(t, name, LanguageOf(name), []byte(src))
		}
	})
}

// BenchmarkTypeScript chunks the reference fixtures (about 800 kB of
// TypeScript and JavaScript) with the recogniser and, for comparison, with
// the brace scanner it replaced; and blanking their comments and strings for
// the call graph (CodeOnly).
func BenchmarkTypeScript(b *testing.B) {
	root := filepath.Join("testdata", "tsref")
	type file struct {
		path string
		src  []byte
	}
	var files []file
	var size int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || LanguageOf(p) == "" {
			return err
		}
		src, err := os.ReadFile(p)
		files = append(files, file{filepath.ToSlash(p), src})
		size += int64(len(src))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		chunk func(p, lang string, src []byte) []Chunk
	}{{"recogniser", tsChunker}, {"brace", braceChunker}, {"CodeOnly", func(p, lang string, src []byte) []Chunk {
		CodeOnly(p, lang, src)
		return nil
	}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range files {
					bc.chunk(f.path, LanguageOf(f.path), f.src)
				}
			}
		})
	}
}

// BenchmarkTypeScriptPathological chunks inputs shaped to make a careless
// recogniser take quadratic time (deep nesting, statements left open, long
// runs of "<" and ">"); each is about 200 kB and should take about as long
// as as much ordinary code.
func BenchmarkTypeScriptPathological(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"nested parentheses", "const a = " + strings.Repeat("(", 50000) + strings.Repeat(")", 50000)},
		{"nested async arrows", "const a = " + strings.Repeat("async (", 25000) + strings.Repeat(")", 25000)},
		{"open return types", strings.Repeat("const a = (x): b c\n", 10000)},
		{"open type arguments", strings.Repeat("const a = <b\n", 15000)},
		{"nested decorators", strings.Repeat("@a(", 30000) + strings.Repeat(")", 30000)},
		{"angle brackets on lines", "function f(): " + strings.Repeat("a\n>\n", 50000)},
		{"nested object types", strings.Repeat("interface A { m: {", 10000) + strings.Repeat("}", 20000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.src)))
			for b.Loop() {
				Code("f.ts", "typescript", []byte(bc.src))
			}
		})
	}
}
