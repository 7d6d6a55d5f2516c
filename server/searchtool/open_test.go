package searchtool

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
)

// savedIndexProject builds the project's indexes once and saves them, as a
// server that ran before leaves them.
func savedIndexProject(t *testing.T) *env {
	t.Helper()
	p := newProject(t)
	first := newService(t, p, config.Default())
	first.svc.Start(context.Background())
	first.waitReady(t)
	first.svc.Close()
	// The next server's service, not started yet.
	return newService(t, p, config.Default())
}

// A search right after a start with a saved index waits for it to load and
// answers from it, instead of answering nothing.
func TestSearchJustAfterStartWaitsForTheSavedIndex(t *testing.T) {
	e := savedIndexProject(t)
	e.svc.opts.StartDelay = 300 * time.Millisecond // the index opens after the first requests
	e.svc.Start(context.Background())
	t.Cleanup(func() { e.svc.Close() })

	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "cart total price", "n_results": 5})
	if out.Results == nil || !hasSymbol(*out.Results, "cart/cart.go", "Cart.Total") {
		t.Errorf("search_code just after the start: %v (notice %q)", out.Results, out.Notice)
	}
	if strings.Contains(out.Notice, "still being opened") {
		t.Errorf("notice %q", out.Notice)
	}
	graph := e.mustCall(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "applyDiscount"})
	if graph.Notice != "" && strings.Contains(graph.Notice, "still") {
		t.Errorf("find_callers just after the start: notice %q", graph.Notice)
	}
}

// When the index takes longer than the wait, the answer says so.
func TestSearchSaysWhenItGaveUpWaiting(t *testing.T) {
	defer func(w time.Duration) { openWait = w }(openWait)
	openWait = 200 * time.Millisecond
	e := savedIndexProject(t)
	e.svc.opts.StartDelay = time.Minute // not opened within the wait
	e.svc.Start(context.Background())
	t.Cleanup(func() { e.svc.Close() })

	start := time.Now()
	out := e.mustCall(t, "search_standards", map[string]any{"query": "retry backoff"})
	if out.Results == nil || len(*out.Results) != 0 || !strings.Contains(out.Notice, "still being opened (starting) after a wait of 200ms") {
		t.Errorf("results %v, notice %q", out.Results, out.Notice)
	}
	if waited := time.Since(start); waited < openWait {
		t.Errorf("answered after %s, before the wait of %s ran out", waited, openWait)
	}
	_, te := e.call(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "applyDiscount"})
	if te == nil || !strings.Contains(te.Message, "after a wait of 200ms") {
		t.Errorf("find_callers before the index opened: %+v", te)
	}
}
