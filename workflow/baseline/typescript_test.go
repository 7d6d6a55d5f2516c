package baseline

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
