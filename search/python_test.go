package search

import (
	"math"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

func TestPySignatureNames(t *testing.T) {
	for sig, want := range map[string]string{
		`def status(self, status: RenderableType, *, spinner: str = "dots", speed: float = 1.0,) -> "Status"`: `def status(self, status, spinner, speed)`,
		`def f(a, b=(1, 2), *args, **kw)`:                            `def f(a, b, args, kw)`,
		`async def g(x: Dict[str, int] = {}, /, y=lambda: 0) -> int`: `async def g(x, y)`,
		`def h(s: str = "a,b)", t: str = '\'') -> None`:              `def h(s, t)`,
		`class Confirm(PromptBase[bool])`:                            `class Confirm(PromptBase)`,
		`class Plain`:                                                `class Plain`,
	} {
		if got := pySignatureNames(sig); got != want {
			t.Errorf("pySignatureNames(%q) = %q, want %q", sig, got, want)
		}
	}
}

func TestPyDocProse(t *testing.T) {
	numpy := `Compute shortest paths in the graph.

Parameters
----------
G : NetworkX graph

source : node, optional
    Starting node for path.

Returns
-------
path: list

Examples
--------
>>> G = nx.path_graph(5)

Notes
-----
There may be more than one shortest path.

References
----------
.. [1] A paper.`
	google := `Get the number of cells required to display text.

Args:
    text (str): Text to display.

Returns:
    int: The number of cells.`
	sphinx := `Send a request.

:param url: where to send it,
    over several lines.
:rtype: Response

Follows redirects.`
	for doc, want := range map[string]string{
		numpy: "Compute shortest paths in the graph.\n\nExamples\n--------\n>>> G = nx.path_graph(5)\n\nNotes\n-----\n" +
			"There may be more than one shortest path.",
		google: "Get the number of cells required to display text.",
		sphinx: sphinx, // Sphinx fields are sentences about the parameters: they stay
		"":     "",
	} {
		if got := pyDocProse(doc); got != want {
			t.Errorf("pyDocProse(%q) = %q, want %q", doc, got, want)
		}
	}
}

// A Python symbol's vector text has its parameters' names and its
// docstring's prose; a Go symbol's is as written.
func TestEmbedTextPython(t *testing.T) {
	ix := &Index{opt: Options{}}
	ix.opt.normalize()
	py := chunk.Chunk{Language: "python", Kind: chunk.Func, Symbol: "cell_len", Path: "cells.py",
		Signature: "def cell_len(text: str, cache: Optional[Cache] = None) -> int",
		Doc:       "Get the number of cells.\n\nArgs:\n    text (str): Text to display."}
	got := ix.embedText(&py, func() string { return innerComments(&py) })
	if !strings.Contains(got, "def cell_len(text, cache)\nGet the number of cells.\ncells") {
		t.Errorf("python: %q", got)
	}
	golang := chunk.Chunk{Language: "go", Kind: chunk.Func, Symbol: "Len", Path: "a/a.go",
		Signature: "func Len(s string) int", Doc: "Len returns the length.\n\nArgs:\n    none"}
	if got := ix.embedText(&golang, func() string { return innerComments(&golang) }); !strings.Contains(got, "func Len(s string) int\nLen returns the length.\n\nArgs:\n    none") {
		t.Errorf("go: %q", got)
	}
}

// A Python class takes ClassFactor instead of TypeFactor: it is called to
// make its objects, and answers "what does …" as a function does.
func TestPythonClassFactor(t *testing.T) {
	root := writeProject(t, map[string]string{
		"srv/srv.py": `class Server:
    """Serves requests."""


def serve():
    """Serves requests."""
`,
		"srv/srv.go": `package srv

// Handler serves requests.
type Handler struct{}
`})
	scores := func(class float64) map[string]float64 {
		out := map[string]float64{}
		for _, r := range searchTuned(t, root, nil, func(tu *Tuning) { tu.TypeFactor, tu.ClassFactor = 0.5, class }, "serve requests") {
			out[r.Symbol] = r.Score
		}
		return out
	}
	on, off := scores(0.25), scores(1)
	if on["serve"] != off["serve"] || on["Handler"] != off["Handler"] || math.Abs(on["Server"]-off["Server"]/4) > 1e-5 {
		t.Errorf("with the class factor %v, without %v", on, off)
	}
}
