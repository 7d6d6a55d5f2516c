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

// TestPythonOverloads: @overload signatures and the implementation after
// them are one definition, from the first decorator to the implementation's
// end, declared at the first def, with the implementation's docstring and
// signature; under any module prefix, in a class too. A statement between
// two definitions, another name, or a definition without @overload before
// it keeps them apart.
func TestPythonOverloads(t *testing.T) {
	src := `import typing
from typing import overload


@overload
def get(key: int) -> int: ...
@overload
def get(key: str) -> str: ...
def get(key):
    """Return the value stored under key."""
    return store[key]


class Cache:
    @typing.overload
    def pop(self, key: int) -> int:
        ...

    @typing.overload
    def pop(self, key: str) -> str:
        """The string form."""
        ...

    def pop(self, key):
        return self.data.pop(key)


@overload
def stub(x: int) -> int: ...
@overload
def stub(x: str) -> str: ...
X = 1
def stub(x):
    return x


def plain(a): ...
@overload
def plain(a: int) -> int: ...
`
	cs := Code("over.py", "python", []byte(src))
	var got []string
	for _, c := range cs {
		if c.Symbol != "" {
			got = append(got, describe(c))
		}
	}
	want := []string{
		"func get 5 6 11 exported",
		"type Cache 14 14 14 exported",
		"method Cache.pop 15 16 25 exported",
		"func stub 28 29 31 exported",
		"const X 32 32 32 exported",
		"func stub 33 33 34 exported",
		"func plain 37 37 37 exported",
		"func plain 38 39 39 exported",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("symbols:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	if c := bySymbol(cs, "get"); c.Doc != "Return the value stored under key." || c.Signature != "def get(key)" ||
		!strings.HasPrefix(c.Text, "@overload\ndef get(key: int)") {
		t.Errorf("overloaded function %+v", c)
	}
	if c := bySymbol(cs, "Cache.pop"); c.Doc != "The string form." || c.Signature != "def pop(self, key)" {
		t.Errorf("overloaded method %+v", c)
	}
}

// Literals and layouts that must neither fail nor hide the function after
// them.
func TestPythonLexes(t *testing.T) {
	for name, src := range map[string]string{
		"byte order mark":             "\ufeffimport os\n",
		"named escape in an f-string": "s = f\"\\N{BULLET} {x}\"\n",
		"raw f-string brace":          "s = rf\"\\{x}\" + fR'{y!r:>{w}}'\n",
		"template string":             "s = t\"{x}\"\n",
		"nested f-string quotes":      "s = f'{\", \".join(f'{a}' for a in b)}'\n",
		"multi-line field":            "s = f\"\"\"{\n  x  # comment\n}\"\"\"\n",
		"continued string":            "s = 'a\\\nb'\n",
		"crlf and tabs":               "if x:\r\n\ty = 1\r\n",
		"walrus and ellipsis":         "if (n := len(a)) > 1: ...\n",
		"form feed":                   "\fx = 1\n",
	} {
		cs, ok := Python("ok.py", []byte(src+"\n\ndef after():\n    pass\n"))
		if !ok {
			t.Errorf("%s: did not parse", name)
			continue
		}
		if c := bySymbol(cs, "after"); c.Kind != Func {
			t.Errorf("%s: function after it not found: %+v", name, cs)
		}
	}
}

// Simple statements share a line: each assignment is a symbol.
func TestPythonSemicolons(t *testing.T) {
	cs, ok := Python("a.py", []byte("A = 1; B = (2,\n  3);\nif x: c = 1; d = 2\n"))
	var got []string
	for _, c := range cs {
		if c.Symbol != "" {
			got = append(got, describe(c))
		}
	}
	if !ok || strings.Join(got, ", ") != "const A 1 1 1 exported, const B 1 1 2 exported" {
		t.Errorf("got %v", got)
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

// A byte order mark before the first declaration hides nothing.
func TestByteOrderMark(t *testing.T) {
	for name, want := range map[string]string{"a.py": "def first():\n    pass\n", "a.rs": "fn first() {}\n", "A.java": "class first {}\n"} {
		cs := Code(name, LanguageOf(name), []byte("\ufeff"+want))
		if c := bySymbol(cs, "first"); c.DeclLine != 1 {
			t.Errorf("%s: %+v", name, cs)
		}
	}
}
