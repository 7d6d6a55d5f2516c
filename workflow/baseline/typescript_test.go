package baseline

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

const tsBase = `import { join } from "path";

export function unchanged(a: number, b = 2): number {
  return a + b;
}

export class Cart extends Base {
  items: string[] = [];
  constructor(private readonly id: string) {
    super(id);
  }
  add(item: string): void {
    this.items.push(item);
  }
}
`

const tsCurrent = `import { join } from "path";

export function unchanged(a: number, b = 2): number {
  // a comment changes no code
  return a + b;
}

export class Cart extends Base {
  items: string[] = [];
  total = 0;
  constructor(private readonly id: string, n = 1) {
    super(id, n);
    this.total = n;
  }
  add(item: string, times = 1): void {
    for (let i = 0; i < times; i++) this.items.push(item);
  }
  @memo()
  static empty<T>(xs: T[]): boolean {
    return xs.length === 0;
  }
  async fetch(url: string): Promise<string> {
    return (await fetch(join(url))).text();
  }
  get size(): number { return this.items.length; }
  set size(n: number) { this.items.length = n; }
  onClick = (e: Event) => { this.total++; };
  *ids(): Generator<string> { yield this.id; }
}

export const double = (x: number): number => x * 2;
export const load = async (u: string) => { return u; };
const fn = function named(this: unknown) { return 1; };
export default function (): never { throw new Error("x"); }
`

const tsWant = `// @ts-nocheck
import { join } from "path";

export function unchanged(a: number, b = 2): number {
  // a comment changes no code
  return a + b;
}

export class Cart extends Base {
  items: string[] = [];
  total = 0;
  constructor(private readonly id: string, n = 1) { super(id, n); }
  add(item: string, times = 1): void { return undefined as any; }
  @memo()
  static empty<T>(xs: T[]): boolean { return undefined as any; }
  async fetch(url: string): Promise<string> { return undefined as any; }
  get size(): number { return undefined as any; }
  set size(n: number) {}
  onClick = (e: Event) => { return undefined as any; };
  *ids(): Generator<string> { return undefined as any; }
}

export const double = (x: number): number => undefined as any;
export const load = async (u: string) => { return undefined as any; };
const fn = function named(this: unknown) { return undefined as any; };
export default function (): never { throw undefined; }
`

func TestTypeScriptStubs(t *testing.T) {
	out, names, err := Stub("", "src/cart.ts", []byte(tsBase), []byte(tsCurrent))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Cart.constructor", "Cart.add", "Cart.empty", "Cart.fetch", "Cart.size", "Cart.size",
		"Cart.onClick", "Cart.ids", "double", "load", "fn", "default"}
	if !slices.Equal(names, want) {
		t.Errorf("stubbed %v, want %v", names, want)
	}
	if string(out) != tsWant {
		t.Errorf("stubbed source:\n%s\n--- want:\n%s", out, tsWant)
	}
	// No TypeScript compiler here: the project's own reader must read the
	// output whole, and find the same functions in it.
	funcs, ok := chunk.TypeScriptFuncs("src/cart.ts", out)
	if !ok || len(funcs) != 13 {
		t.Errorf("stubbed source read back: ok %v, %d functions, want 13", ok, len(funcs))
	}
}

const jsCurrent = `#!/usr/bin/env node
"use strict";
class Shape {
  constructor(n) { this.n = n; }
  area() { return this.n * this.n; }
}
class Square extends Shape {
  constructor(n) {
    const m = n * 2;
    super(n);
    this.m = m;
  }
}
function area(s) { return s.area(); }
const half = (x) => x / 2, third = x => x / 3;
exports.perimeter = function (s) { return s.n * 4; };
Shape.prototype.scale = function (k) { this.n *= k; return this; };
module.exports.render = (s) => <div>{s.n}</div>;
`

const jsWant = `#!/usr/bin/env node
"use strict";
class Shape {
  constructor(n) {}
  area() { return undefined; }
}
class Square extends Shape {
  constructor(n) { super(n); }
}
function area(s) { return undefined; }
const half = (x) => undefined, third = x => undefined;
exports.perimeter = function (s) { return undefined; };
Shape.prototype.scale = function (k) { return undefined; };
module.exports.render = (s) => undefined;
`

func TestJavaScriptStubs(t *testing.T) {
	out, names, err := Stub("", "lib/shape.jsx", nil, []byte(jsCurrent))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Shape.constructor", "Shape.area", "Square.constructor", "area", "half", "third", "perimeter", "Shape.scale", "render"}
	if !slices.Equal(names, want) {
		t.Errorf("stubbed %v, want %v", names, want)
	}
	if string(out) != jsWant {
		t.Errorf("stubbed source:\n%s\n--- want:\n%s", out, jsWant)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("no node on PATH: the stubbed JavaScript is not checked")
		return
	}
	// node reads no JSX: check the file without its last line.
	js := out[:len(out)-len("module.exports.render = (s) => undefined;\n")]
	p := filepath.Join(t.TempDir(), "shape.js")
	if err := os.WriteFile(p, js, 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := exec.Command(node, "--check", p).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s", err, res)
	}
}

func TestTypeScriptUnchangedFileAndErrors(t *testing.T) {
	out, names, err := Stub("typescript", "a.ts", []byte(tsBase), []byte(tsBase))
	if err != nil || string(out) != tsBase || names != nil {
		t.Errorf("an unchanged file changed: %v %v", names, err)
	}
	if _, _, err := Stub("typescript", "a.ts", nil, []byte("function f() { `never closed")); err == nil {
		t.Error("no error for a file that does not lex")
	}
	if _, _, err := Stub("rust", "a.rs", nil, []byte("fn f() {}")); err == nil {
		t.Error("no error for a language without stubs")
	}
}

// nodeChecks fails the test when node --check refuses src; it skips the
// check when there is no node on PATH.
func nodeChecks(t *testing.T, src []byte) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("no node on PATH: the stubbed JavaScript is not checked")
		return
	}
	p := filepath.Join(t.TempDir(), "m.js")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", p).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s\n--- source:\n%s", err, out, src)
	}
}

// tsCompiles fails the test when tsc --strict refuses src, a module of its
// own, the // @ts-nocheck mark taken away so that the stubs are checked
// too; it skips the check when there is no tsc on PATH.
func tsCompiles(t *testing.T, src []byte) {
	t.Helper()
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Log("no tsc on PATH: the stubbed TypeScript is not type-checked")
		return
	}
	p := filepath.Join(t.TempDir(), "m.ts")
	src = []byte(strings.Replace(string(src), "// @ts-nocheck\n", "", 1))
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2020", "--lib", "es2020", p).CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict: %v\n%s\n--- source:\n%s", err, out, src)
	}
}

// TestTypeScriptShapes stubs each shape of TypeScript and JavaScript
// function the session may add or change, and keeps byte for byte those it
// did not.
func TestTypeScriptShapes(t *testing.T) {
	for _, c := range []struct {
		name, path, base, current, want string
		stubbed                         []string
	}{{
		name: "methods and function properties of an object literal",
		path: "api.ts",
		current: `export const api = {
  greet(name: string): string { return "hi " + name; },
  total: (xs: number[]): number => xs.reduce((a, b) => a + b, 0),
  async load(u: string): Promise<string> { return u; },
  *ids(): Generator<number> { yield 1; },
  get size(): number { return 1; },
  set size(n: number) { console.log(n); },
  "a key"(x: number): number { return x; },
  [Symbol.iterator]: function* () { yield 2; },
  nested: { deep: function (a: number): number { return a * 2; }, n: 3 },
  fail(): never { throw new Error("x"); },
  constructor(): number { return 1; },
  plain: 3,
  ...{ spread: () => 4 },
};
`,
		want: `// @ts-nocheck
export const api = {
  greet(name: string): string { return undefined as any; },
  total: (xs: number[]): number => undefined as any,
  async load(u: string): Promise<string> { return undefined as any; },
  *ids(): Generator<number> { return undefined as any; },
  get size(): number { return undefined as any; },
  set size(n: number) {},
  "a key"(x: number): number { return undefined as any; },
  [Symbol.iterator]: function* () { return undefined as any; },
  nested: { deep: function (a: number): number { return undefined as any; }, n: 3 },
  fail(): never { throw undefined; },
  constructor(): number { return undefined as any; },
  plain: 3,
  ...{ spread: () => 4 },
};
`,
		stubbed: []string{"api.greet", "api.total", "api.load", "api.ids", "api.size", "api.size", `api["a key"]`,
			"api[Symbol.iterator]", "api.nested.deep", "api.fail", "api.constructor"},
	}, {
		name:    "only the changed member of an object",
		path:    "api.ts",
		base:    "export const api = {\n  greet(name: string) { return \"hi \" + name; },\n  total: (xs: number[]) => xs.length,\n};\n",
		current: "export const api = {\n  // greets\n  greet(name: string) {\n    return \"hi \" + name;\n  },\n  total: (xs: number[]) => xs.length + 1,\n  added: () => 1,\n};\n",
		want:    "// @ts-nocheck\nexport const api = {\n  // greets\n  greet(name: string) {\n    return \"hi \" + name;\n  },\n  total: (xs: number[]) => undefined as any,\n  added: () => undefined as any,\n};\n",
		stubbed: []string{"api.total", "api.added"},
	}, {
		name: "typed bindings, several declarators, default export",
		path: "m.ts",
		current: "const typed: Record<string, () => number> = { one: () => 1 }, other = { two() { return 2; } };\n" +
			"export default { run(): number { return 42; } };\nlet x: { f(): void } = { f() { return; } };\n",
		want: "// @ts-nocheck\nconst typed: Record<string, () => number> = { one: () => undefined as any }, other = { two() { return undefined as any; } };\n" +
			"export default { run(): number { return undefined as any; } };\nlet x: { f(): void } = { f() { return undefined as any; } };\n",
		stubbed: []string{"typed.one", "other.two", "default.run", "x.f"},
	}, {
		name:    "CommonJS exports",
		path:    "m.js",
		current: "module.exports = {\n  greet(n) { return 'hi ' + n; },\n  total: xs => xs.length,\n};\nexports.util = { f: function () { return 1; } };\nmodule.exports.more = { g: async () => { await 1; } };\n",
		want:    "module.exports = {\n  greet(n) { return undefined; },\n  total: xs => undefined,\n};\nexports.util = { f: function () { return undefined; } };\nmodule.exports.more = { g: async () => { return undefined; } };\n",
		stubbed: []string{"exports.greet", "exports.total", "util.f", "more.g"},
	}, {
		name: "class property arrows, accessors, export default function",
		path: "k.ts",
		current: "export class K {\n  x = 0;\n  greet = (n: string): string => \"hi \" + n;\n  get v(): number { return this.x; }\n  set v(x: number) { this.x = x; }\n}\n" +
			"export default function (): number { return 1; }\n",
		want: "// @ts-nocheck\nexport class K {\n  x = 0;\n  greet = (n: string): string => undefined as any;\n  get v(): number { return undefined as any; }\n  set v(x: number) {}\n}\n" +
			"export default function (): number { return undefined as any; }\n",
		stubbed: []string{"K.greet", "K.v", "K.v", "default"},
	}, {
		name: "objects that are no top-level binding's",
		path: "m.ts",
		current: "type T = { f(): void };\ninterface I { g(): void }\nregister({ h() { return 1; } });\n" +
			"for (const o = { i() { return 1; } }; ;) break;\nconst n = 1 + { j() { return 1; } }.j();\nconst k = { l: 1 }, s = 'm() { return 1; }';\n",
		want: "type T = { f(): void };\ninterface I { g(): void }\nregister({ h() { return 1; } });\n" +
			"for (const o = { i() { return 1; } }; ;) break;\nconst n = 1 + { j() { return 1; } }.j();\nconst k = { l: 1 }, s = 'm() { return 1; }';\n",
	}, {
		name:    "JSX text with a lone bracket: objects are left, the rest stubbed",
		path:    "v.jsx",
		current: "const View = () => <p>:) {1}</p>;\nexport const api = { f() { return 1; } };\nfunction g() { return 2; }\n",
		want:    "const View = () => undefined;\nexport const api = { f() { return 1; } };\nfunction g() { return undefined; }\n",
		stubbed: []string{"View", "g"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			var b []byte
			if c.base != "" {
				b = []byte(c.base)
			}
			out, names, err := Stub("", c.path, b, []byte(c.current))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("stubbed source:\n%s\n--- want:\n%s", out, c.want)
			}
			if !slices.Equal(names, c.stubbed) {
				t.Errorf("stubbed %v, want %v", names, c.stubbed)
			}
			switch {
			case names == nil:
			case strings.HasSuffix(c.path, ".ts"):
				tsCompiles(t, out)
			case strings.HasSuffix(c.path, ".js"):
				nodeChecks(t, out)
			}
		})
	}
}
