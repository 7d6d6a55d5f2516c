package codegraph

import (
	"fmt"
	"strings"
	"testing"
)

// callersOf lists who calls name as "Symbol@line", one level up.
func callersOf(t *testing.T, g *Graph, name string) string {
	t.Helper()
	return callerList(t, g, name, nil)
}

// Outside Go, a variable's initialiser and a file's top-level statements
// call too: a store made by a factory, a test's describe and it callbacks, a
// script's main(). A file's top-level statements are one caller, <module>,
// listed once however long they run (its chunks are windows that overlap),
// with the line of each call; they are tests' calls in a test file, which
// the ranking's use counts leave out. A call to a name no function has goes
// to a variable of that name.
func TestVariablesAndTopLevelStatementsCall(t *testing.T) {
	var long strings.Builder
	long.WriteString("import { createStore } from '../src/store'\n\ndescribe('store', () => {\n")
	for i := range 150 {
		fmt.Fprintf(&long, "  it('case %d', () => {\n    expect(1).toBe(1)\n  })\n", i)
	}
	long.WriteString("  it('makes a store', () => {\n    createStore()\n  })\n})\n")
	callLine := 4 + 150*3 + 1
	files := map[string]string{
		"src/store.ts":        "export function createStore() {\n  return {}\n}\n\nexport const store = createStore()\n",
		"src/app/main.ts":     "import { createStore } from '../store'\n\nexport const appStore = createStore()\nexport const client = createApi()\n",
		"src/api.ts":          "function buildCreateApi() {\n  return () => ({})\n}\n\nexport const createApi = buildCreateApi()\n",
		"src/old/store.ts":    "export const createStore = { legacy: true }\n",
		"tests/store.test.ts": long.String(),
		"tools/run.py":        "def main():\n    return 0\n\n\nif __name__ == \"__main__\":\n    main()\n",
	}
	g := chunkGraph(files)
	if got, want := callersOf(t, g, "src/store.ts:createStore"), fmt.Sprintf("main.appStore@3 store.store@5 store.test.<module>@%d", callLine); got != want {
		t.Errorf("callers of createStore: %q, want %q", got, want)
	}
	if got, want := callersOf(t, g, "main"), "run.<module>@6"; got != want {
		t.Errorf("callers of main: %q, want %q", got, want)
	}
	// A variable called holds a function (here one another made); a
	// function of the same name is preferred to a variable of it.
	if got, want := callersOf(t, g, "api.createApi"), "main.client@4"; got != want {
		t.Errorf("callers of createApi: %q, want %q", got, want)
	}
	// The name an answer displays finds the symbol again, dots in its
	// file's name and all.
	w, err := g.Callees("store.test.<module>", 1, 0)
	if err != nil || len(w.Nodes) != 1 || w.Nodes[0].Symbol.Name != "createStore" {
		t.Errorf("store.test.<module> calls %+v (%v), want createStore", w.Nodes, err)
	}
	uses := g.Uses()
	if u := uses["src/store.ts"]["createStore"]; u.CallerPkgs != 1 {
		t.Errorf("createStore's use: %+v, want callers in one other folder (src/app; the test's do not count)", u)
	}
}

// Callers come in the order a person weighing a change reads them: the
// project's code, then its tests, then its examples, whatever their paths
// sort as; a list cut at its limit keeps the code's.
func TestCallersCodeFirst(t *testing.T) {
	files := map[string]string{
		"app/echo.py":           "def echo(x):\n    return x\n",
		"examples/a_demo.py":    "from app.echo import echo\n\n\ndef demo():\n    echo(1)\n",
		"tests/test_echo.py":    "from app.echo import echo\n\n\ndef test_echo():\n    echo(2)\n",
		"zzz/main.py":           "from app.echo import echo\n\n\ndef run():\n    echo(3)\n",
		"benchmarks/b_bench.py": "from app.echo import echo\n\n\ndef bench():\n    echo(4)\n",
	}
	g := chunkGraph(files)
	if got, want := callersOf(t, g, "echo"), "main.run@5 test_echo.test_echo@5 b_bench.bench@5 a_demo.demo@5"; got != want {
		t.Errorf("callers of echo: %q, want %q", got, want)
	}
	w, err := g.Callers("echo", 1, 1)
	if err != nil || len(w.Nodes) != 1 || w.Nodes[0].Symbol.Name != "run" || !w.Truncated {
		t.Errorf("callers of echo, one at most: %+v (%v), want main.run and truncated", w, err)
	}
}
