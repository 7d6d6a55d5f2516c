package baseline

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// pyCompiles fails the test when python3 cannot compile src; it skips the
// check when there is no python3.
func pyCompiles(t *testing.T, src []byte) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3 on PATH: the stubbed source is not compiled")
		return
	}
	p := filepath.Join(t.TempDir(), "m.py")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "-m", "py_compile", p).CombinedOutput(); err != nil {
		t.Fatalf("stubbed source does not compile: %v\n%s\n--- source:\n%s", err, out, src)
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
