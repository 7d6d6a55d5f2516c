package searchtool

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// files of the small project most tests use.
var projectFiles = map[string]string{
	".agentos/standards/universal/retries.md": `Keywords: retry, backoff, jitter, transient failure

# Retries with backoff

TL;DR: retry transient failures with exponential backoff and jitter, bounded.

## When to retry

Retry only idempotent operations that failed with a transient error.

## Backoff

Wait base * 2^attempt plus random jitter between attempts, capped at a maximum.
`,
	".agentos/standards/development/go-testing.md": `Keywords: go, testing, table tests

# Go testing

## Table tests

Write table-driven tests with t.Run for each case.
`,
	".agentos/workflows/spec_creation_v1.yaml": "name: spec_creation_v1\n",
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"cart/cart.go": `// Package cart keeps a shopper's cart.
package cart

// Cart holds the items a shopper picked.
type Cart struct{ items []Item }

// Item is one product line.
type Item struct {
	SKU   string
	Price int
}

// Add puts an item into the cart.
func (c *Cart) Add(it Item) { c.items = append(c.items, it) }

// Total sums the prices of every item in the cart.
func (c *Cart) Total() int {
	sum := 0
	for _, it := range c.items {
		sum += applyDiscount(it.Price)
	}
	return sum
}

func applyDiscount(p int) int { return p - p/10 }
`,
	"checkout/checkout.go": `// Package checkout turns a cart into an order.
package checkout

import "example.com/shop/cart"

// Checkout charges the cart's total to the customer.
func Checkout(c *cart.Cart) int {
	return charge(c.Total())
}

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

func writeFiles(t *testing.T, root string, files map[string]string) {
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

func newProject(t *testing.T) project.Paths {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, projectFiles)
	os.MkdirAll(filepath.Join(root, ".agentos", "config"), 0o755)
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// logBuffer collects log lines safely.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type env struct {
	svc *Service
	log *logBuffer
	c   *client.Client
	p   project.Paths
}

// newService makes a service for p with short delays, and an in-process MCP
// client with both tools (output schema validation on). It is not started.
func newService(t *testing.T, p project.Paths, cfg config.Config) *env {
	t.Helper()
	lb := &logBuffer{}
	log := slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc := New(Options{Project: p, Config: cfg, Logger: log, Debounce: 20 * time.Millisecond, SaveAfter: 200 * time.Millisecond, StartDelay: -1})
	s := mcpserver.NewMCPServer("t", "1", mcpserver.WithOutputSchemaValidation())
	for _, tool := range []toolkit.Tool{ProjectTool(svc), StandardsTool(svc)} {
		s.AddTool(tool.Def, tool.Handler)
	}
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(context.Background(), mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &env{svc: svc, log: lb, c: c, p: p}
}

func startService(t *testing.T, p project.Paths, cfg config.Config) *env {
	t.Helper()
	e := newService(t, p, cfg)
	e.svc.Start(context.Background())
	t.Cleanup(func() { e.svc.Close() })
	return e
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// Sized for CI's run: the race detector, the other packages' tests at
	// once on 2 cores, cores that slow to half speed at times; building the
	// standards' index outran 10 s there.
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (e *env) waitReady(t *testing.T) {
	t.Helper()
	waitFor(t, "both indexes ready", func() bool {
		for _, st := range e.svc.Status() {
			if st.State != StateReady && st.State != StateDisabled {
				return false
			}
		}
		return true
	})
}

// call invokes a tool; it returns the output, or the error envelope.
func (e *env) call(t *testing.T, tool string, args map[string]any) (Output, *toolkit.Error) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := e.c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	text := res.Content[len(res.Content)-1].(mcp.TextContent).Text
	if res.IsError {
		var te toolkit.Error
		if err := json.Unmarshal([]byte(text), &te); err != nil {
			t.Fatalf("decode error %s: %v", text, err)
		}
		return Output{}, &te
	}
	var out Output
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("decode %s: %v", text, err)
	}
	return out, nil
}

func (e *env) mustCall(t *testing.T, tool string, args map[string]any) Output {
	t.Helper()
	out, te := e.call(t, tool, args)
	if te != nil {
		t.Fatalf("%s %v: %s: %s", tool, args, te.Code, te.Message)
	}
	return out
}

func (e *env) searchCode(t *testing.T, query string) []Hit {
	t.Helper()
	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": query, "n_results": 10})
	if out.Results == nil {
		t.Fatalf("search_code %q: no results list", query)
	}
	return *out.Results
}

func hasSymbol(hits []Hit, path, symbol string) bool {
	for _, h := range hits {
		if h.Path == path && (symbol == "" || h.Symbol == symbol) {
			return true
		}
	}
	return false
}

func hasPath(hits []Hit, path string) bool { return hasSymbol(hits, path, "") }

func symbols(hits []Hit) string {
	var parts []string
	for _, h := range hits {
		parts = append(parts, h.Path+":"+h.Symbol)
	}
	return strings.Join(parts, ", ")
}
