package baseline

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// pyCompiles fails the test when python3 cannot compile each of srcs; it
// skips the check when there is no python3.
func pyCompiles(t *testing.T, srcs ...[]byte) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3 on PATH: the stubbed source is not compiled")
		return
	}
	dir := t.TempDir()
	args := []string{"-m", "py_compile"}
	for i, src := range srcs {
		p := filepath.Join(dir, fmt.Sprintf("m%d.py", i))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	if out, err := exec.Command(py, args...).CombinedOutput(); err != nil {
		t.Fatalf("stubbed source does not compile: %v\n%s", err, out)
	}
}

const pyBase = `import functools


def unchanged(a, b=2):
    """Adds."""
    return a + b  # a comment


class Basket:
    size = 3

    def add(self, item):
        self.items.append(item)
`

const pyCurrent = `import functools


def unchanged(a, b=2):
    """Adds."""
    # a new comment changes no code
    return a + b


class Basket:
    size = 3
    label: str = "basket"

    def add(self, item, *, times=1):
        self.items.extend([item] * times)

    @functools.cache
    @staticmethod
    def empty(x=[1, 2]):
        '''Says whether x is empty.

        At length.
        '''
        def inner():
            return not x
        return inner()

    async def fetch(self, url: str) -> bytes:
        async with self.session.get(url) as r:
            return await r.read()

    def gen(self):
        yield from self.items

    class Inner:
        def deep(self): return 1


def one_line(x): return x * 2
def one_line_doc(x): "Doubles."; return x * 2
`

func TestPythonStubs(t *testing.T) {
	out, names, err := Stub("", "pkg/m.py", []byte(pyBase), []byte(pyCurrent))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Basket.add", "Basket.empty", "Basket.fetch", "Basket.gen", "Basket.Inner.deep", "one_line", "one_line_doc"}
	if !slices.Equal(names, want) {
		t.Errorf("stubbed %v, want %v", names, want)
	}
	wantOut := `import functools


def unchanged(a, b=2):
    """Adds."""
    # a new comment changes no code
    return a + b


class Basket:
    size = 3
    label: str = "basket"

    def add(self, item, *, times=1):
        return None

    @functools.cache
    @staticmethod
    def empty(x=[1, 2]):
        '''Says whether x is empty.

        At length.
        '''
        return None

    async def fetch(self, url: str) -> bytes:
        return None

    def gen(self):
        return None

    class Inner:
        def deep(self): return None


def one_line(x): return None
def one_line_doc(x): "Doubles."; return None
`
	if string(out) != wantOut {
		t.Errorf("stubbed source:\n%s\n--- want:\n%s", out, wantOut)
	}
	pyCompiles(t, out)
}

func TestPythonIndentationKept(t *testing.T) {
	// Tabs, CRLF line ends and a body deeper than four columns keep
	// their exact indentation.
	src := "class A:\r\n\tif True:\r\n\t\tdef m(self):\r\n\t\t\t\"\"\"Doc.\"\"\"\r\n\t\t\tx = 1\r\n\t\t\treturn x\r\n\tdef n(self):\r\n\t\t\t\tpass\r\n"
	out, names, err := Stub("python", "a.py", nil, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "class A:\r\n\tif True:\r\n\t\tdef m(self):\r\n\t\t\t\"\"\"Doc.\"\"\"\r\n\t\t\treturn None\r\n\tdef n(self):\r\n\t\t\t\treturn None\r\n"
	if string(out) != want || !slices.Equal(names, []string{"A.m", "A.n"}) {
		t.Errorf("got %q (%v), want %q", out, names, want)
	}
	pyCompiles(t, out)
}

func TestPythonNotDocstrings(t *testing.T) {
	// An f-string or a string in an expression is no docstring: it goes.
	src := "def f(x):\n    f\"{x}\"\n    return x\n\ndef g(x):\n    \"a\" + x\n"
	out, _, err := Stub("python", "a.py", nil, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := "def f(x):\n    return None\n\ndef g(x):\n    return None\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if _, _, err := Stub("python", "a.py", nil, []byte("def f(:\n    '''never closed\n")); err == nil {
		t.Error("no error for a file that does not tokenize")
	}
}

// TestPythonShapes stubs each shape of Python function the session may add
// or change, and keeps byte for byte those it did not.
func TestPythonShapes(t *testing.T) {
	var outs [][]byte
	for _, c := range []struct {
		name, base, current, want string
		stubbed                   []string
	}{{
		name:    "lambdas at module and class level",
		current: "greet = lambda name: 'hi ' + name\n\nclass C:\n    twice = lambda self, x: x * 2\n    typed: Callable[[int], int] = lambda x, *a, k=1, **kw: x + k\n",
		want:    "greet = lambda name: None\n\nclass C:\n    twice = lambda self, x: None\n    typed: Callable[[int], int] = lambda x, *a, k=1, **kw: None\n",
		stubbed: []string{"greet", "C.twice", "C.typed"},
	}, {
		name:    "an unchanged lambda, comments and layout aside",
		base:    "greet = lambda name: 'hi ' + name\nshout = lambda s: s + '!'\n",
		current: "# greets\ngreet = lambda name : 'hi ' + \\\n    name  # same code\nshout = lambda s: s + '!!'\n",
		want:    "# greets\ngreet = lambda name : 'hi ' + \\\n    name  # same code\nshout = lambda s: None\n",
		stubbed: []string{"shout"},
	}, {
		name:    "lambdas in parentheses, tuples, nested and after a semicolon",
		current: "f = (lambda x:\n     x + 1)\npair = lambda x: x, 1\ncurry = lambda x: lambda y, z: x + y + z\ndefault = lambda g=lambda: 1: g()\na = 1; b = lambda: {'k': 2}\nif DEBUG:\n    log = lambda *a: print(*a)\n",
		want:    "f = (lambda x:\n     None)\npair = lambda x: None, 1\ncurry = lambda x: None\ndefault = lambda g=lambda: 1: None\na = 1; b = lambda: None\nif DEBUG:\n    log = lambda *a: None\n",
		stubbed: []string{"f", "pair", "curry", "default", "b", "log"},
	}, {
		name:    "not lambdas: strings, comments, calls, other targets",
		current: "doc = 'f = lambda: 1'\n# g = lambda: 2\nkey = sorted(xs, key=lambda x: x)\nself.h = lambda: 3\nd['k'] = lambda: 4\ny = x == (lambda: 5)\nt = f\"{(lambda: 6)()}\"\n",
		want:    "doc = 'f = lambda: 1'\n# g = lambda: 2\nkey = sorted(xs, key=lambda x: x)\nself.h = lambda: 3\nd['k'] = lambda: 4\ny = x == (lambda: 5)\nt = f\"{(lambda: 6)()}\"\n",
	}, {
		name:    "a lambda in a function goes with its body",
		current: "def outer():\n    inner = lambda: 3\n    return inner\n",
		want:    "def outer():\n    return None\n",
		stubbed: []string{"outer"},
	}, {
		name:    "a changed nested def empties its outer function",
		base:    "def outer(x):\n    def inner():\n        return x\n    return inner\n\ndef same():\n    def inner():\n        return 1\n    return inner\n",
		current: "def outer(x):\n    def inner():\n        return x + 1\n    return inner\n\ndef same():\n    def inner():\n        return 1\n    return inner\n",
		want:    "def outer(x):\n    return None\n\ndef same():\n    def inner():\n        return 1\n    return inner\n",
		stubbed: []string{"outer"},
	}, {
		name:    "decorated functions and methods keep their decorators",
		base:    "@cache\ndef f(x):\n    return x\n",
		current: "@cache\ndef f(x):\n    return x * 2\n\nclass C:\n    @property\n    def p(self):\n        return 1\n\n    @staticmethod\n    @other(1)\n    def s(a): return a\n",
		want:    "@cache\ndef f(x):\n    return None\n\nclass C:\n    @property\n    def p(self):\n        return None\n\n    @staticmethod\n    @other(1)\n    def s(a): return None\n",
		stubbed: []string{"f", "C.p", "C.s"},
	}, {
		name:    "async defs and async methods",
		current: "async def fetch(url):\n    async with open(url) as r:\n        return await r.read()\n\nclass C:\n    async def m(self):\n        await other()\n",
		want:    "async def fetch(url):\n    return None\n\nclass C:\n    async def m(self):\n        return None\n",
		stubbed: []string{"fetch", "C.m"},
	}, {
		name:    "f-strings with fields, and strings of every kind",
		current: "s = f\"{x!r:>{w}} {'}'} {d['k']}\"\nr = rb'\\''\nm = '''a\nb = lambda: 1\n'''\ng = lambda: f\"\"\"{\n    1\n}\"\"\"\nh = lambda: 'a\\\nb'\n",
		want:    "s = f\"{x!r:>{w}} {'}'} {d['k']}\"\nr = rb'\\''\nm = '''a\nb = lambda: 1\n'''\ng = lambda: None\nh = lambda: None\n",
		stubbed: []string{"g", "h"},
	}, {
		name:    "CRLF line ends and tabs",
		current: "greet = lambda n: \\\r\n\t'hi ' + n\r\nclass C:\r\n\tf = lambda self: 'a'\r\n",
		want:    "greet = lambda n: \\\r\n\tNone\r\nclass C:\r\n\tf = lambda self: None\r\n",
		stubbed: []string{"greet", "C.f"},
	}} {
		ok := t.Run(c.name, func(t *testing.T) {
			var b []byte
			if c.base != "" {
				b = []byte(c.base)
			}
			out, names, err := Stub("python", "m.py", b, []byte(c.current))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("stubbed source:\n%s\n--- want:\n%s", out, c.want)
			}
			if !slices.Equal(names, c.stubbed) {
				t.Errorf("stubbed %v, want %v", names, c.stubbed)
			}
		})
		if ok {
			outs = append(outs, []byte(c.want))
		}
	}
	pyCompiles(t, outs...) // in one run of python3, whose start is slow
}
