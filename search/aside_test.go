package search

import "testing"

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
		tu := DefaultTuning()
		tu.ExampleFactor = factor
		opt := CodeOptions(root, nil, []string{"python"})
		opt.Tuning = &tu
		for _, r := range search(t, build(t, opt), Query{Text: query, ContentBudget: -1}) {
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
