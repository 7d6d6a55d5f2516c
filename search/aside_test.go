package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A repository's checkout: the library, its tests and an example that
// repeats the library's words.
var checkout = map[string]string{
	"src/render/table.py": `def draw_table(rows):
    """Draw rows of cells as a table with borders."""
    return "\n".join(rows)
`,
	"examples/table_demo.py": `def show_table_with_borders(rows):
    """Draw rows of cells as a table with borders, for the demo."""
    return draw_table(rows)
`,
	"tests/test_table.py": `def test_draw_table():
    assert draw_table(["a"]) == "a"
`,
}

// Code in examples/ ranks below the library's unless the query asks for an
// example; markdown in docs/ is not code and keeps its rank.
func TestExamplesRankBelowTheLibrary(t *testing.T) {
	root := writeProject(t, checkout)
	score := func(factor float64, query, symbol string) float64 {
		for _, r := range searchTuned(t, root, []string{"python"}, func(tu *Tuning) { tu.ExampleFactor = factor }, query) {
			if r.Symbol == symbol {
				return r.Score
			}
		}
		t.Fatalf("%q not found for %q", symbol, query)
		return 0
	}
	if on, off := score(0.5, "draw a table with borders", "show_table_with_borders"),
		score(1, "draw a table with borders", "show_table_with_borders"); on >= off {
		t.Errorf("example scored %v with the factor, %v without", on, off)
	}
	if on, off := score(0.5, "an example that draws a table", "show_table_with_borders"),
		score(1, "an example that draws a table", "show_table_with_borders"); on != off {
		t.Errorf("asked for an example: scored %v with the factor, %v without", on, off)
	}
	rs := search(t, build(t, CodeOptions(root, nil, []string{"python"})), Query{Text: "draw a table with borders", ContentBudget: -1})
	if len(rs) == 0 || rs[0].Symbol != "draw_table" {
		t.Errorf("first result %v, want the library's draw_table", symbols(rs))
	}
}

// The lexical statistics count the code's chunks, not the tests' and
// examples', through updates, removals and a reload of the snapshot.
func TestAsideCount(t *testing.T) {
	root := writeProject(t, checkout)
	opt := CodeOptions(root, nil, []string{"python"})
	opt.Dir = filepath.Join(root, ".agentos", "index")
	ctx := context.Background()
	ix, _, err := Open(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	count := func(ix *Index) (counted, want int) {
		ix.mu.RLock()
		defer ix.mu.RUnlock()
		for _, m := range ix.st.metas {
			if m != nil && !m.aside() {
				want++
			}
		}
		return ix.st.lex.Counted(), want
	}
	if got, want := count(ix); got != want || ix.st.lex.Len()-want != 2 {
		t.Errorf("counted %d, want %d of %d", got, want, ix.st.lex.Len())
	}
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	q := Query{Text: "draw rows as a table", ContentBudget: -1}
	before := search(t, ix, q)
	ix2, rep, err := Open(ctx, opt)
	if err != nil || !rep.Loaded {
		t.Fatalf("reopen: %+v %v", rep, err)
	}
	if after := search(t, ix2, q); !reflect.DeepEqual(after, before) {
		t.Errorf("results differ after load:\n%v\n%v", after, before)
	}
	if got, want := count(ix2); got != want || ix2.st.lex.Len()-want != 2 {
		t.Errorf("after load: counted %d, want %d of %d", got, want, ix2.st.lex.Len())
	}
	if err := os.Remove(filepath.Join(root, "examples", "table_demo.py")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix2.UpdateFile(ctx, "examples/table_demo.py"); err != nil {
		t.Fatal(err)
	}
	if got, want := count(ix2); got != want || ix2.st.lex.Len()-want != 1 {
		t.Errorf("after removal: counted %d, want %d of %d", got, want, ix2.st.lex.Len())
	}
}

// Compiler output and stubs beside their sources are left out: the
// source's definitions are the ones to find. Without a source they stay.
func TestCompiledBesideSourceLeftOut(t *testing.T) {
	root := writeProject(t, map[string]string{
		"src/client.ts":    "export function connect(url: string): void {}\n",
		"src/client.d.ts":  "export declare function connect(url: string): void;\n",
		"src/client.js":    "export function connect(url) {}\n",
		"src/ambient.d.ts": "declare function hello(): void;\n",
		"lib/store.py":     "def save(x):\n    return x\n",
		"lib/store.pyi":    "def save(x: int) -> int: ...\n",
		"lib/native.pyi":   "def load() -> bytes: ...\n",
	})
	ix := build(t, CodeOptions(root, nil, []string{"typescript", "javascript", "python"}))
	for rel, want := range map[string]bool{"src/client.ts": true, "src/client.d.ts": false, "src/client.js": false,
		"src/ambient.d.ts": true, "lib/store.py": true, "lib/store.pyi": false, "lib/native.pyi": true} {
		if ix.hasFile(rel) != want {
			t.Errorf("%s indexed: %v, want %v", rel, !want, want)
		}
	}
	rs := search(t, ix, Query{Text: "connect", ContentBudget: -1})
	n := 0
	for _, r := range rs {
		if r.Symbol == "connect" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("connect found %d times, want once: %v", n, symbols(rs))
	}
}

// When a source goes, the compiler output and stubs it kept out are indexed
// as it is updated, and left out again when it comes back, without waiting
// for the next refresh.
func TestCompiledBesideSourceFollowsIt(t *testing.T) {
	root := writeProject(t, map[string]string{
		"src/client.ts":   "export function connect(url: string): void {}\n",
		"src/client.d.ts": "export declare function connect(url: string): void;\n",
		"src/client.js":   "export function connect(url) {}\n",
		"lib/store.py":    "def save(x):\n    return x\n",
		"lib/store.pyi":   "def save(x: int) -> int: ...\n",
	})
	ix := build(t, CodeOptions(root, nil, []string{"typescript", "javascript", "python"}))
	ctx := context.Background()
	check := func(when string, want map[string]bool) {
		t.Helper()
		for rel, w := range want {
			if ix.hasFile(rel) != w {
				t.Errorf("%s: %s indexed: %v, want %v", when, rel, !w, w)
			}
		}
	}
	for _, rel := range []string{"src/client.ts", "lib/store.py"} {
		if err := os.Remove(filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
		if changed, err := ix.UpdateFile(ctx, rel); err != nil || !changed {
			t.Fatalf("UpdateFile(%s) after removing it: %v, %v", rel, changed, err)
		}
	}
	check("sources removed", map[string]bool{"src/client.ts": false, "src/client.d.ts": true, "src/client.js": true,
		"lib/store.py": false, "lib/store.pyi": true})
	if changed, err := ix.UpdateFile(ctx, "src/client.ts"); err != nil || changed {
		t.Errorf("UpdateFile of a source still gone: changed %v, %v; want nothing to change", changed, err)
	}
	for rel, text := range map[string]string{"src/client.ts": "export function connect(url: string): void {}\n",
		"lib/store.py": "def save(x):\n    return x\n"} {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if changed, err := ix.UpdateFile(ctx, rel); err != nil || !changed {
			t.Fatalf("UpdateFile(%s) after writing it back: %v, %v", rel, changed, err)
		}
	}
	check("sources back", map[string]bool{"src/client.ts": true, "src/client.d.ts": false, "src/client.js": false,
		"lib/store.py": true, "lib/store.pyi": false})
}
