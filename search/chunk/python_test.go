package chunk

import (
	"strings"
	"testing"
)

// TestPythonConstructs: decorators (the chunk starts at the first), async
// defs, nested classes, methods qualified by every enclosing class,
// properties, one-line defs, defs under if/try, module-level assignments
// with their comments, annotated assignments, type aliases, __all__ deciding
// what is exported; strings of every kind (f-strings with nested quotes,
// bytes, raw, triple-quoted) and continuations hide no declaration; nested
// functions stay in their function.
func TestPythonConstructs(t *testing.T) {
	cs := checkConstructs(t, "constructs.py", []string{
		"var __all__ 4 4 4",
		"const LIMIT 6 8 8 exported",
		"var _cache 9 9 9",
		"type Pair 10 10 10",
		"var x 11 11 11",
		"var y 12 12 14",
		"var total 15 15 16",
		"func load 19 23 30 exported",
		"type Store 33 33 36 exported",
		"type Store.Inner 37 37 37 exported",
		"method Store.Inner.method 38 38 40 exported",
		"method Store.size 42 43 44 exported",
		"method Store.one 46 46 46 exported",
		"method Store.typed 49 49 49 exported",
		"func fast 55 55 55",
		"func _private 61 61 61",
	})
	if c := cs[0]; c.Kind != Package || c.Doc != "Module docstring." {
		t.Errorf("module head %+v", c)
	}
	if c := bySymbol(cs, "LIMIT"); c.Doc != "How many to keep.\nAt most." || c.Signature != "LIMIT: int = 10" {
		t.Errorf("constant %+v", c)
	}
	if c := bySymbol(cs, "load"); c.Doc != "Load a file." || c.Signature != `async def load(path: str, mode="r") -> bytes` ||
		!strings.HasPrefix(c.Text, "@decorator(") {
		t.Errorf("decorated async def %+v", c)
	}
	if c := bySymbol(cs, "Store"); c.Doc != "A store." || c.Signature != "class Store(Base, metaclass=Meta)" {
		t.Errorf("class %+v", c)
	}
}

func TestPythonDoesNotParse(t *testing.T) {
	for name, src := range map[string]string{
		"unterminated triple quote": "def f():\n    s = \"\"\"never closed\n",
		"unclosed bracket":          "x = [1,\n",
		"stray closing bracket":     "x = 1)\n",
		"bad dedent":                "def f():\n        a = 1\n    b = 2\n",
		"newline in a string":       "s = 'abc\ndef'\n",
		"unterminated f-string":     "s = f'{x'\n",
	} {
		if _, ok := Python("bad.py", []byte(src)); ok {
			t.Errorf("%s: parsed", name)
		}
	}
}
