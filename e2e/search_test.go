package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// searchFiles is a small Go and Python project.
var searchFiles = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"cart/cart.go": `// Package cart keeps a shopper's cart.
package cart

// Cart holds the items a shopper picked.
type Cart struct{ prices []int }

// Add puts a price into the cart.
func (c *Cart) Add(p int) { c.prices = append(c.prices, p) }

// Total sums the prices of every item in the cart after the discount.
func (c *Cart) Total() int {
	sum := 0
	for _, p := range c.prices {
		sum += applyDiscount(p)
	}
	return sum
}

func applyDiscount(p int) int { return p - p/10 }
`,
	"checkout/checkout.go": `// Package checkout turns a cart into an order.
package checkout

import "example.com/shop/cart"

// Checkout charges the cart's total to the customer.
func Checkout(c *cart.Cart) int { return charge(c.Total()) }

func charge(amount int) int { return amount }
`,
	"tools/report.py": `"""Sales reports."""


def monthly_revenue(orders):
    """Sum the revenue of a month's orders."""
    return sum(o.amount for o in orders)


class InvoicePrinter:
    """Prints invoices as PDF files."""

    def render_pdf(self, invoice):
        return b"%PDF" + invoice.encode()
`,
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type searchHit struct {
	Path      string   `json:"path"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Symbol    string   `json:"symbol"`
	Section   string   `json:"section"`
	Content   string   `json:"content"`
	Signals   []string `json:"signals"`
}

type indexStatus struct {
	Index      string `json:"index"`
	State      string `json:"state"`
	FilesDone  int    `json:"files_done"`
	FilesTotal int    `json:"files_total"`
}

type graphNode struct {
	Symbol   string `json:"symbol"`
	Path     string `json:"path"`
	CallLine int    `json:"call_line"`
	Value    bool   `json:"value"`
}

type searchOut struct {
	Results         []searchHit   `json:"results"`
	Notice          string        `json:"notice"`
	IndexStatus     *indexStatus  `json:"index_status"`
	Indexes         []indexStatus `json:"indexes"`
	Callers         []graphNode   `json:"callers"`
	Dependencies    []graphNode   `json:"dependencies"`
	Implementations []graphNode   `json:"implementations"`
	Paths           []struct {
		Steps []graphNode `json:"steps"`
	} `json:"paths"`
}

type toolErr struct {
	Code    string         `json:"error_code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// searchCall calls svc_search_project (or search_standards when args has no
// action) and returns its output or its error envelope.
func searchCall(t *testing.T, c *client.Client, args map[string]any) (searchOut, *toolErr) {
	t.Helper()
	tool := "svc_search_project"
	if _, ok := args["action"]; !ok {
		tool = "search_standards"
	}
	var out searchOut
	res := call(t, c, tool, args, &out)
	if res.IsError {
		var te toolErr
		json.Unmarshal([]byte(res.Content[len(res.Content)-1].(mcp.TextContent).Text), &te)
		return out, &te
	}
	return out, nil
}

func mustSearch(t *testing.T, c *client.Client, args map[string]any) searchOut {
	t.Helper()
	out, te := searchCall(t, c, args)
	if te != nil {
		t.Fatalf("%v: %s %s", args, te.Code, te.Message)
	}
	return out
}

func found(hits []searchHit, path, symbol string) bool {
	for _, h := range hits {
		if h.Path == path && (symbol == "" || h.Symbol == symbol) {
			return true
		}
	}
	return false
}

// eventually polls cond every 20 ms for up to 20 s (the race detector and
// parallel tests slow everything down; a pass takes well under a second).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitIndexes(t *testing.T, c *client.Client) []indexStatus {
	t.Helper()
	var last []indexStatus
	eventually(t, "indexes ready", func() bool {
		last = mustSearch(t, c, map[string]any{"action": "index_status"}).Indexes
		return len(last) == 2 && last[0].State == "ready" && last[1].State == "ready"
	})
	return last
}

func serveSearch(t *testing.T, root string) (*serverProc, *client.Client) {
	t.Helper()
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)
	return p, httpClient(t, st.URL, nil)
}

func TestSearchE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, searchFiles)
	_, c := serveSearch(t, root)

	// The server answers at once; the status says how far the indexes are.
	first := mustSearch(t, c, map[string]any{"action": "index_status"})
	for _, st := range first.Indexes {
		if !strings.Contains("starting waiting loading building refreshing ready", st.State) {
			t.Errorf("unexpected state %+v", st)
		}
	}
	sts := waitIndexes(t, c)
	if sts[1].Index != "code" || sts[1].FilesDone != 3 || sts[1].FilesTotal != 3 {
		t.Errorf("code index status: %+v", sts[1])
	}

	// search_standards finds a standard install copied.
	out := mustSearch(t, c, map[string]any{"query": "retry transient failures with exponential backoff and jitter"})
	if !found(out.Results, ".agentos/standards/universal/failure-modes/retries-with-backoff.md", "") {
		t.Errorf("standards: %+v", out.Results)
	}
	h := out.Results[0]
	if h.StartLine < 1 || h.EndLine < h.StartLine || h.Section == "" || !strings.HasPrefix(h.Content, fmt.Sprint(h.StartLine)+"\t") {
		t.Errorf("a standards hit lacks its lines or section: %+v", h)
	}

	// search_code finds the right symbol, in Go and in Python.
	out = mustSearch(t, c, map[string]any{"action": "search_code", "query": "sum the prices in the cart after the discount"})
	if len(out.Results) == 0 || out.Results[0].Symbol != "Cart.Total" || out.Results[0].Path != "cart/cart.go" {
		t.Errorf("Go: %+v", out.Results)
	}
	out = mustSearch(t, c, map[string]any{"action": "search_code", "query": "print an invoice as pdf", "n_results": 3})
	if !found(out.Results, "tools/report.py", "InvoicePrinter.render_pdf") && !found(out.Results, "tools/report.py", "InvoicePrinter") {
		t.Errorf("Python: %+v", out.Results)
	}

	// The call graph.
	out = mustSearch(t, c, map[string]any{"action": "find_callers", "query": "applyDiscount"})
	if len(out.Callers) != 1 || out.Callers[0].Symbol != "cart.Cart.Total" {
		t.Errorf("callers: %+v", out.Callers)
	}
	out = mustSearch(t, c, map[string]any{"action": "find_dependencies", "query": "Checkout"})
	if !strings.Contains(fmt.Sprint(out.Dependencies), "checkout.charge") {
		t.Errorf("dependencies: %+v", out.Dependencies)
	}
	out = mustSearch(t, c, map[string]any{"action": "find_call_paths", "query": "Cart.Total", "to_symbol": "applyDiscount"})
	if len(out.Paths) != 1 || len(out.Paths[0].Steps) != 2 {
		t.Errorf("paths: %+v", out.Paths)
	}
	if _, te := searchCall(t, c, map[string]any{"action": "find_callers", "query": "applyDiscont"}); te == nil || te.Code != "NOT_FOUND" ||
		!strings.Contains(fmt.Sprint(te.Details["suggestions"]), "applyDiscount") {
		t.Errorf("unknown symbol: %+v", te)
	}
	if _, te := searchCall(t, c, map[string]any{"action": "find_callers", "query": "Add", "max_depth": 2}); te != nil {
		t.Errorf("Cart.Add is the only Add: %+v", te)
	}

	// Bad input names the field.
	for _, tc := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"action": "search_code", "query": ""}, "query"},
		{map[string]any{"action": "search_code", "query": "x", "n_results": 51}, "n_results"},
		{map[string]any{"action": "find_callers", "query": "Total", "max_depth": 9}, "max_depth"},
		{map[string]any{"action": "teleport", "query": "x"}, "action"},
		{map[string]any{"action": "search_code", "query": "x", "filters": map[string]any{"language": "klingon"}}, "filters.language"},
		{map[string]any{"query": "   "}, "query"},
	} {
		_, te := searchCall(t, c, tc.args)
		if te == nil || te.Code != "VALIDATION_ERROR" || te.Details["field"] != tc.field {
			t.Errorf("%v: %+v", tc.args, te)
		}
	}

	// get_server_info shows the search subsystem.
	var si struct {
		Subsystems []struct{ Name, State, Detail string } `json:"subsystems"`
	}
	call(t, c, "get_server_info", nil, &si)
	if !strings.Contains(fmt.Sprint(si.Subsystems), "{search ready standards ready") {
		t.Errorf("subsystems: %+v", si.Subsystems)
	}
}

// The watcher: an edit is searchable within a bounded wait, a delete is gone,
// a new folder is picked up.
func TestSearchWatcherE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, searchFiles)
	_, c := serveSearch(t, root)
	waitIndexes(t, c)
	codeHas := func(query, path, symbol string) bool {
		return found(mustSearch(t, c, map[string]any{"action": "search_code", "query": query, "n_results": 10}).Results, path, symbol)
	}

	writeTree(t, root, map[string]string{"cart/cart.go": searchFiles["cart/cart.go"] +
		"\n// Empty reports whether the shopper has picked nothing yet.\nfunc (c *Cart) Empty() bool { return len(c.prices) == 0 }\n"})
	eventually(t, "edit searchable", func() bool { return codeHas("has the shopper picked nothing yet", "cart/cart.go", "Cart.Empty") })

	if err := os.Remove(filepath.Join(root, "tools", "report.py")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "deleted file gone", func() bool { return !codeHas("print an invoice as pdf monthly revenue", "tools/report.py", "") })

	writeTree(t, root, map[string]string{"shipping/rates/rates.go": "package rates\n\n// Parcel prices a parcel by its weight in grams.\nfunc Parcel(grams int) int { return grams / 10 }\n"})
	eventually(t, "new folder", func() bool { return codeHas("price a parcel by its weight", "shipping/rates/rates.go", "Parcel") })
}

// A crash leaves the saved index as it was; a corrupt one is detected at the
// next start, logged and rebuilt; a restart reuses a good one.
func TestSearchIndexRecoveryE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, searchFiles)
	p, c := serveSearch(t, root)
	waitIndexes(t, c)
	p.signal(t, syscall.SIGKILL)
	p.exitCode(t)

	snap := filepath.Join(root, ".agentos", ".cache", "indexes", "code", "index.snapshot")
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(snap, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p2, c2 := serveSearch(t, root)
	waitIndexes(t, c2)
	if !p2.logged("cannot be used; rebuilding") {
		t.Errorf("no rebuild log line:\n%s", p2.stderr)
	}
	if log, _ := os.ReadFile(filepath.Join(root, ".agentos", ".cache", "logs", "server.log")); !strings.Contains(string(log), "cannot be used; rebuilding") {
		t.Errorf("server.log lacks the rebuild line")
	}
	out := mustSearch(t, c2, map[string]any{"action": "search_code", "query": "sum the prices in the cart"})
	if !found(out.Results, "cart/cart.go", "Cart.Total") {
		t.Errorf("after the rebuild: %+v", out.Results)
	}
	p2.signal(t, syscall.SIGTERM)
	p2.exitCode(t)

	// A clean restart loads the index.
	p3, c3 := serveSearch(t, root)
	waitIndexes(t, c3)
	if !p3.logged("search index loaded") || strings.Contains(p3.stderr.String(), "rebuilding") {
		t.Errorf("restart did not reuse the index:\n%s", p3.stderr)
	}
}

// TestFirstSearchAfterRestartE2E: the first search_code an agent sends
// right after its IDE started the server over stdio, with an index saved by
// an earlier run, answers from that index instead of answering nothing
// while it loads.
func TestFirstSearchAfterRestartE2E(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, searchFiles)
	runOK(t, root, "index", "--dir", root) // saves the indexes, as a server that ran before did

	c := stdioClient(t, root, "--transport", "stdio")
	out := mustSearch(t, c, map[string]any{"action": "search_code", "query": "monthly revenue of orders"})
	if !found(out.Results, "tools/report.py", "monthly_revenue") {
		t.Errorf("the first search after the start: %+v, notice %q", out.Results, out.Notice)
	}
}
