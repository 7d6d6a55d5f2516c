package searchtool

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
)

func TestGraphActions(t *testing.T) {
	p := newProject(t)
	writeFiles(t, p.Root, map[string]string{
		"invoice/invoice.go": "package invoice\n\n// Total is an invoice's amount.\nfunc Total(lines []int) int { return len(lines) }\n",
		"invoice/draft.go":   "package invoice\n\nimport \"example.com/shop/cart\"\n\n// Draft is an invoice being written.\ntype Draft struct {\n\tcart.Cart\n}\n",
	})
	e := startService(t, p, config.Default())
	e.waitReady(t)

	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "applyDiscount"})
	if out.Symbol == nil || out.Symbol.Path != "cart/cart.go" || out.Callers == nil || len(*out.Callers) != 1 ||
		(*out.Callers)[0].Symbol != "cart.Cart.Total" || (*out.Callers)[0].CallLine == 0 {
		t.Errorf("callers: %+v %+v", out.Symbol, out.Callers)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "find_dependencies", "query": "checkout.Checkout"})
	if out.Dependencies == nil || !strings.Contains(fmt.Sprint(*out.Dependencies), "checkout.charge") {
		t.Errorf("dependencies: %+v", out.Dependencies)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "Checkout"})
	if out.Callers == nil || len(*out.Callers) != 0 || !strings.Contains(out.Notice, "No callers") {
		t.Errorf("no callers: %+v", out)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "cart.Cart"})
	if out.Callers == nil || len(*out.Callers) != 1 || (*out.Callers)[0].Symbol != "invoice.Draft" || !(*out.Callers)[0].Embeds ||
		(*out.Callers)[0].CallLine != 7 {
		t.Errorf("types embedding Cart: %+v", out.Callers)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "find_call_paths", "query": "Cart.Total", "to_symbol": "applyDiscount"})
	if out.Paths == nil || len(*out.Paths) != 1 || len((*out.Paths)[0].Steps) != 2 || (*out.Paths)[0].Steps[0].CallLine == 0 {
		t.Errorf("paths: %+v", out.Paths)
	}

	// Unknown: NOT_FOUND with close names; ambiguous: the candidates.
	_, te := e.call(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "applyDiscont"})
	if te == nil || te.Code != "NOT_FOUND" || !strings.Contains(fmt.Sprint(te.Details), "applyDiscount") {
		t.Errorf("unknown symbol: %+v", te)
	}
	_, te = e.call(t, "svc_search_project", map[string]any{"action": "find_call_paths", "query": "Checkout", "to_symbol": "Nowhere"})
	if te == nil || te.Code != "NOT_FOUND" || te.Details.(map[string]any)["field"] != "to_symbol" {
		t.Errorf("unknown to_symbol: %+v", te)
	}
	_, te = e.call(t, "svc_search_project", map[string]any{"action": "find_dependencies", "query": "Total"})
	if te == nil || te.Code != "BUSINESS_LOGIC_ERROR" || !strings.Contains(fmt.Sprint(te.Details), "invoice/invoice.go") ||
		!strings.Contains(fmt.Sprint(te.Details), "cart/cart.go") {
		t.Errorf("ambiguous symbol: %+v", te)
	}
}

func TestBadInputNamesTheField(t *testing.T) {
	e := startService(t, newProject(t), config.Default())
	e.waitReady(t)
	cases := []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"svc_search_project", map[string]any{"action": "fly"}, "action"},
		{"svc_search_project", map[string]any{"action": "search_code"}, "query"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "   "}, "query"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": strings.Repeat("x", 2001)}, "query"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "n_results": 0}, "n_results"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "n_results": 51}, "n_results"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "n_results": "five"}, "n_results"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "method": "fuzzy"}, "method"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "filters": map[string]any{"language": "cobol"}}, "filters.language"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "filters": map[string]any{"lang": "go"}}, "filters.lang"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "filters": map[string]any{"kind": "lambda"}}, "filters.kind"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "filters": map[string]any{"domain": "universal"}}, "filters.domain"},
		{"svc_search_project", map[string]any{"action": "search_standards", "query": "x", "filters": map[string]any{"domain": "galaxy"}}, "filters.domain"},
		{"svc_search_project", map[string]any{"action": "search_code", "query": "x", "filters": map[string]any{"path": 3}}, "filters.path"},
		{"svc_search_project", map[string]any{"action": "find_callers", "query": "Total", "max_depth": 7}, "max_depth"},
		{"svc_search_project", map[string]any{"action": "find_callers", "query": "Total", "max_depth": 0}, "max_depth"},
		{"svc_search_project", map[string]any{"action": "find_call_paths", "query": "Checkout"}, "to_symbol"},
		{"svc_search_project", map[string]any{"action": "find_call_paths", "query": "Checkout", "to_symbol": "charge", "n_results": 21}, "n_results"},
		{"svc_search_project", map[string]any{"action": "find_callers", "query": "Total", "filters": map[string]any{"path": "cart"}}, "filters"},
		{"search_standards", map[string]any{"query": ""}, "query"},
		{"search_standards", map[string]any{"query": "retries", "n_results": 99}, "n_results"},
	}
	for _, tc := range cases {
		_, te := e.call(t, tc.tool, tc.args)
		if te == nil {
			t.Errorf("%s %v: no error", tc.tool, tc.args)
			continue
		}
		field, _ := te.Details.(map[string]any)["field"].(string)
		if te.Code != "VALIDATION_ERROR" || field != tc.field {
			t.Errorf("%s %v: %s field %q (want %q): %s", tc.tool, tc.args, te.Code, field, tc.field, te.Message)
		}
	}
}

// One answer never exceeds MaxResultBytes, and says where it cut.
func TestAnswersAreBounded(t *testing.T) {
	p := newProject(t)
	files := map[string]string{}
	for i := range 30 {
		var b strings.Builder
		fmt.Fprintf(&b, "package big\n\n// Widget%d renders a widget of the dashboard.\nfunc Widget%d() string {\n", i, i)
		for k := range 80 {
			fmt.Fprintf(&b, "\t_ = \"widget dashboard render line %d of a long function body\"\n", k)
		}
		b.WriteString("\treturn \"\"\n}\n")
		files[fmt.Sprintf("big/w%02d.go", i)] = b.String()
	}
	writeFiles(t, p.Root, files)
	e := startService(t, p, config.Default())
	e.waitReady(t)
	for _, n := range []int{5, 20, 50} {
		out := e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "render a widget of the dashboard", "n_results": n})
		body, _ := json.Marshal(out)
		if len(body) > MaxResultBytes {
			t.Errorf("n=%d: %d bytes", n, len(body))
		}
		hits := *out.Results
		if len(hits) == 0 {
			t.Fatalf("n=%d: no results", n)
		}
		if !hits[0].Truncated || !strings.Contains(hits[0].Content, "not shown") {
			t.Errorf("n=%d: long content not marked as cut: %q", n, hits[0].Content[max(0, len(hits[0].Content)-80):])
		}
		if len(hits) < min(n, 30) && (!out.Truncated || !strings.Contains(out.Notice, "cut at 24 KiB")) {
			t.Errorf("n=%d: %d results without saying it cut: %q", n, len(hits), out.Notice)
		}
	}
}

func TestNumbered(t *testing.T) {
	if got := numbered("a\nb", 9); got != "9\ta\n10\tb" {
		t.Errorf("%q", got)
	}
	if got := numbered("", 3); got != "" {
		t.Errorf("%q", got)
	}
}

func TestFitCutsGraphAnswers(t *testing.T) {
	nodes := make([]GraphNode, 400)
	for i := range nodes {
		nodes[i] = GraphNode{Symbol: strings.Repeat("s", 80), Kind: "func", Path: strings.Repeat("p", 60), Depth: 1, Via: "x"}
	}
	out := Output{Action: "find_callers", Callers: &nodes}
	fit(&out)
	body, _ := json.Marshal(out)
	if len(body) > MaxResultBytes || !out.Truncated || !strings.Contains(out.Notice, "of 400 shown") {
		t.Errorf("%d bytes, truncated %v, %q", len(body), out.Truncated, out.Notice)
	}
}

// find_implementations lists the types implementing a Go interface, and
// find_callers on the interface's method who calls through it.
func TestFindImplementations(t *testing.T) {
	p := newProject(t)
	writeFiles(t, p.Root, map[string]string{
		"pay/pay.go": "package pay\n\n// Charger takes a payment.\ntype Charger interface {\n\tCharge(cents int) error\n}\n\n" +
			"// Card charges a card.\ntype Card struct{}\n\nfunc (c Card) Charge(cents int) error { return nil }\n\n" +
			"// Bill pays through any Charger.\nfunc Bill(c Charger) error { return c.Charge(100) }\n",
	})
	e := startService(t, p, config.Default())
	e.waitReady(t)

	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "find_implementations", "query": "Charger"})
	if out.Implementations == nil || len(*out.Implementations) != 1 || (*out.Implementations)[0].Symbol != "pay.Card" {
		t.Errorf("implementations: %+v", out.Implementations)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "find_implementations", "query": "Charger.Charge"})
	if out.Implementations == nil || len(*out.Implementations) != 1 || (*out.Implementations)[0].Symbol != "pay.Card.Charge" {
		t.Errorf("implementations of the method: %+v", out.Implementations)
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "Charger.Charge"})
	if out.Callers == nil || len(*out.Callers) != 1 || (*out.Callers)[0].Symbol != "pay.Bill" {
		t.Errorf("callers through the interface: %+v", out.Callers)
	}
	_, te := e.call(t, "svc_search_project", map[string]any{"action": "find_implementations", "query": "Card"})
	if te == nil || te.Code != "VALIDATION_ERROR" || !strings.Contains(te.Message, "not a Go interface") {
		t.Errorf("not an interface: %+v", te)
	}
}
