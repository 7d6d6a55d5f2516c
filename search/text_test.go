package search

import (
	"slices"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

func TestEmbedPathText(t *testing.T) {
	for p, want := range map[string]string{
		"src/queryClient.ts":      "queryClient",
		"packages/core/src/a.ts":  "packages/core/a",
		"net/http/server.go":      "net/http/server",
		"lib.rs":                  "lib",
		"src/lib/src.py":          "src",
		"rich/console.py":         "rich/console",
		"java/src/main/App.java":  "java/main/App",
		"pkg/store/cache_test.go": "store/cache_test",
	} {
		if got := embedPathText(p); got != want {
			t.Errorf("embedPathText(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestUndocumentedSymbolFoundByItsComments indexes code whose functions say
// what they do only in comments inside their bodies, as much code without
// doc comments does: those words find the function, named as the signal
// "comments", while a documented function is found by its doc comment alone
// and a tool directive is no comment to search.
func TestUndocumentedSymbolFoundByItsComments(t *testing.T) {
	root := writeProject(t, map[string]string{
		"src/sched.ts": `export function schedule(tasks: Task[]) {
  // Run the tasks whose deadline is nearest first; ties keep their order.
  /* A task that throws is retried
   * once with exponential backoff. */
  // eslint-disable-next-line no-console
  return tasks.slice().sort(byDeadline).map(run)
}

/** Returns the tasks that are still waiting. */
export function pending(tasks: Task[]) {
  // Only the unsettled ones matter to the dashboard.
  return tasks.filter((t) => !t.done)
}

export function idle() {
  const url = "http://example.com" // a trailing comment is not read
  return url
}
`,
		"tools/fmt.py": `def tidy(lines):
    # collapse consecutive blank lines into a single one
    out = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return out
`,
	})
	ix := build(t, CodeOptions(root, nil, nil))
	for _, tc := range []struct{ query, symbol string }{
		{"nearest deadline first", "schedule"},
		{"retried with exponential backoff", "schedule"},
		{"collapse consecutive blank lines", "tidy"},
	} {
		rs := search(t, ix, Query{Text: tc.query, Method: Lexical, Limit: 3})
		if len(rs) == 0 || rs[0].Symbol != tc.symbol || !slices.Contains(rs[0].Signals, "comments") {
			t.Errorf("%q: got %v, want %s first, matched in its comments", tc.query, rs, tc.symbol)
		}
	}
	for _, q := range []string{"unsettled dashboard", "eslint console", "trailing comment read"} {
		for _, r := range search(t, ix, Query{Text: q, Method: Lexical, Limit: 3}) {
			if slices.Contains(r.Signals, "comments") {
				t.Errorf("%q: %s matched in comments %v; only an undocumented symbol's own comment lines are", q, r.Symbol, r.Signals)
			}
		}
	}
}

func TestWithoutHTMLComments(t *testing.T) {
	for md, want := range map[string]string{
		"a <!-- check: assume\ntype Order struct{} --> b": "a  b",
		"a <!-- x --> b <!-- y --> c":                     "a  b  c",
		"a <!-- never closed":                             "a ",
		"plain":                                           "plain",
	} {
		if got := withoutHTMLComments(md); got != want {
			t.Errorf("withoutHTMLComments(%q) = %q, want %q", md, got, want)
		}
	}
}

// A symbol marked deprecated in any of the claimed languages is known as
// such; a Python parameter's deprecation, or a word in prose, is not the
// function's.
func TestIsDeprecated(t *testing.T) {
	for _, tc := range []struct {
		path, src, symbol string
		want              bool
	}{
		{"a.go", "package a\n\n// ReadAll reads everything.\n//\n// Deprecated: use io.ReadAll.\nfunc ReadAll() {}\n", "ReadAll", true},
		{"a.go", "package a\n\n// Copy copies; the old Deprecated: form is gone.\nfunc Copy() {}\n", "Copy", false},
		{"a.ts", "/**\n * Retries.\n * @deprecated Use retryWhen.\n */\nexport function retry() {}\n", "retry", true},
		{"A.java", "package a;\n\nclass A {\n    @Deprecated\n    void old() {}\n\n    void now() {}\n}\n", "A.old", true},
		{"A.java", "package a;\n\nclass A {\n    @Deprecated\n    void old() {}\n\n    void now() {}\n}\n", "A.now", false},
		{"a.rs", "#[deprecated(note = \"use b\")]\npub fn a() {}\n", "a", true},
		{"a.py", "def old(g):\n    \"\"\"Returns a recarray.\n\n    .. deprecated:: 2.7\n\n       Use new.\n    \"\"\"\n    return g\n", "old", true},
		{"a.py", "def data(g, attrs=None):\n    \"\"\"Returns data.\n\n    Parameters\n    ----------\n    attrs : dict\n        Names.\n\n        .. deprecated:: 2.8\n    \"\"\"\n    return g\n", "data", false},
		{"a.py", "def outer():\n    \"\"\"Does outer.\"\"\"\n    @deprecated\n    def inner():\n        pass\n    return inner\n", "outer", false},
		{"a.py", "@deprecated(\"use new\")\ndef old():\n    return 1\n", "old", true},
	} {
		lang := chunk.LanguageOf(tc.path)
		found := false
		for _, c := range chunk.Code(tc.path, lang, []byte(tc.src)) {
			if c.Symbol == tc.symbol {
				found = true
				if got := isDeprecated(&c); got != tc.want {
					t.Errorf("%s %s: deprecated %v, want %v", tc.path, tc.symbol, got, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no chunk %s", tc.path, tc.symbol)
		}
	}
}

// A deprecated function ranks below its replacement, unless the query asks
// for what is deprecated.
func TestDeprecatedRanksBelowItsReplacement(t *testing.T) {
	root := writeProject(t, map[string]string{
		"a/slurp.go": "package a\n\n// Slurp reads from r until an error or EOF and returns the data it read.\n//\n// Deprecated: use b.Slurp.\nfunc Slurp(r Reader) ([]byte, error) { return nil, nil }\n",
		"b/slurp.go": "package b\n\n// Slurp reads from r until an error or EOF and returns the data it read.\n//\n// Current: the one to use.\nfunc Slurp(r Reader) ([]byte, error) { return nil, nil }\n",
	})
	ix := build(t, CodeOptions(root, nil, nil))
	for _, tc := range []struct{ query, path string }{
		{"read from a reader until EOF and return the data", "b/slurp.go"},
		{"the deprecated way to read from a reader until EOF", "a/slurp.go"},
	} {
		if rs := search(t, ix, Query{Text: tc.query, Limit: 2}); len(rs) == 0 || rs[0].Path != tc.path {
			t.Errorf("%q: got %v, want %s first", tc.query, symbols(rs), tc.path)
		}
	}
}
