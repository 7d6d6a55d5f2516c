package search

import (
	"slices"
	"testing"
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
