package searchtool

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/search"
)

func TestSearchStandardsAndCode(t *testing.T) {
	e := startService(t, newProject(t), config.Default())
	e.waitReady(t)

	out := e.mustCall(t, "search_standards", map[string]any{"query": "how long to wait between retries"})
	if out.Results == nil || len(*out.Results) == 0 {
		t.Fatalf("no standards results: %+v", out)
	}
	top := (*out.Results)[0]
	if top.Path != ".agentos/standards/universal/retries.md" || top.Domain != "universal" || top.Section == "" {
		t.Errorf("top standard: %+v", top)
	}
	if !strings.HasPrefix(top.Content, strconv.Itoa(top.StartLine)+"\t") {
		t.Errorf("content is not numbered from start_line %d: %q", top.StartLine, top.Content)
	}
	if out.IndexStatus == nil || out.IndexStatus.State != StateReady || out.IndexStatus.Index != Standards {
		t.Errorf("index_status: %+v", out.IndexStatus)
	}

	hits := e.searchCode(t, "sum the prices of the items in the cart")
	if len(hits) == 0 || hits[0].Symbol != "Cart.Total" || hits[0].Path != "cart/cart.go" {
		t.Errorf("Go: got %s", symbols(hits))
	}
	hits = e.searchCode(t, "print an invoice as pdf")
	if !hasSymbol(hits[:min(2, len(hits))], "tools/report.py", "InvoicePrinter.render_pdf") &&
		!hasSymbol(hits[:min(2, len(hits))], "tools/report.py", "InvoicePrinter") {
		t.Errorf("Python: got %s", symbols(hits))
	}

	// Filters narrow; method changes the ranking's signals.
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "cart total",
		"filters": map[string]any{"language": "python"}})
	for _, h := range *out.Results {
		if h.Language != "python" {
			t.Errorf("language filter let through %+v", h)
		}
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "Checkout", "method": "lexical"})
	for _, h := range *out.Results {
		for _, s := range h.Signals {
			if s == "vector" {
				t.Errorf("lexical search reports a vector signal: %+v", h)
			}
		}
	}
	if out.Method != "lexical" {
		t.Errorf("method %q", out.Method)
	}

	st := e.mustCall(t, "svc_search_project", map[string]any{"action": "index_status"})
	if st.Indexes == nil || len(*st.Indexes) != 2 || (*st.Indexes)[1].FilesDone != 3 || (*st.Indexes)[1].Symbols == 0 {
		t.Errorf("index_status: %+v", st.Indexes)
	}
	if state, detail := e.svc.Subsystem(); state != StateReady || !strings.Contains(detail, "code ready (3 files)") {
		t.Errorf("subsystem: %s %s", state, detail)
	}
}

// A search during the first build answers from the files indexed so far and
// says so; it is never a silent empty list.
func TestSearchWhileBuilding(t *testing.T) {
	p := newProject(t)
	e := newService(t, p, config.Default())
	reached := make(chan struct{})
	release := make(chan struct{})
	e.svc.code.afterBatch = func(done int) {
		if done == 2 { // cart/cart.go and checkout/checkout.go; not yet tools/report.py
			close(reached)
			<-release
		}
	}
	e.svc.Start(context.Background())
	t.Cleanup(func() { e.svc.Close() })
	<-reached

	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "cart total"})
	st := out.IndexStatus
	if st == nil || st.State != StateBuilding || st.FilesDone != 2 || st.FilesTotal != 3 {
		t.Fatalf("index_status while building: %+v", st)
	}
	if !strings.Contains(out.Notice, "still building: 2 of 3 files") {
		t.Errorf("notice: %q", out.Notice)
	}
	if !hasSymbol(*out.Results, "cart/cart.go", "Cart.Total") {
		t.Errorf("partial results miss an indexed file: %s", symbols(*out.Results))
	}
	out = e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "invoice pdf"})
	if hasPath(*out.Results, "tools/report.py") || out.Notice == "" {
		t.Errorf("a file not indexed yet was found, or no notice: %+v", out)
	}
	if state, detail := e.svc.Subsystem(); state != StateBuilding || !strings.Contains(detail, "code building 2/3 files") {
		t.Errorf("subsystem while building: %s %s", state, detail)
	}
	close(release)
	e.waitReady(t)
	hits := e.searchCode(t, "invoice pdf")
	if !hasPath(hits, "tools/report.py") {
		t.Errorf("after the build: %s", symbols(hits))
	}
	if _, err := os.Stat(filepath.Join(p.IndexDir(Code), search.SnapshotFile)); err != nil {
		t.Errorf("no snapshot after the build: %v", err)
	}
}

// A restart loads the snapshot and reindexes only the files changed since.
func TestRestartReindexesOnlyChanged(t *testing.T) {
	p := newProject(t)
	e := startService(t, p, config.Default())
	e.waitReady(t)
	e.svc.Close()

	writeFiles(t, p.Root, map[string]string{"checkout/refund.go": "package checkout\n\n// Refund returns money to the customer.\nfunc Refund(amount int) int { return -amount }\n"})
	e2 := startService(t, p, config.Default())
	e2.waitReady(t)
	logs := e2.log.String()
	if !strings.Contains(logs, "search index loaded") || !strings.Contains(logs, "reindexed=1") || strings.Contains(logs, "building it") {
		t.Errorf("restart did not reuse the index:\n%s", logs)
	}
	if hits := e2.searchCode(t, "give money back to the customer"); !hasSymbol(hits, "checkout/refund.go", "Refund") {
		t.Errorf("changed file not indexed: %s", symbols(hits))
	}
}

// A corrupt snapshot is detected at start and rebuilt, with a log line.
func TestCorruptSnapshotRebuilt(t *testing.T) {
	p := newProject(t)
	e := startService(t, p, config.Default())
	e.waitReady(t)
	e.svc.Close()

	snap := filepath.Join(p.IndexDir(Code), search.SnapshotFile)
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(snap, data[:len(data)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	e2 := startService(t, p, config.Default())
	e2.waitReady(t)
	if logs := e2.log.String(); !strings.Contains(logs, "cannot be used; rebuilding") || !strings.Contains(logs, "index=code") {
		t.Errorf("no rebuild log line:\n%s", logs)
	}
	if hits := e2.searchCode(t, "cart total"); !hasSymbol(hits, "cart/cart.go", "Cart.Total") {
		t.Errorf("after rebuild: %s", symbols(hits))
	}
}

// While another process holds the index lock the service waits, and says so.
func TestWaitsForTheIndexLock(t *testing.T) {
	p := newProject(t)
	l, err := newIndexLock(p)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := l.try(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	e := startService(t, p, config.Default())
	waitFor(t, "waiting state", func() bool { return e.svc.Status()[1].State == StateWaiting })
	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "cart"})
	if out.Results == nil || len(*out.Results) != 0 || !strings.Contains(out.Notice, "still being opened (waiting)") {
		t.Errorf("search while waiting: %+v", out)
	}
	l.release()
	e.waitReady(t)
}

func TestConfigWithoutSupportedLanguages(t *testing.T) {
	p := newProject(t)
	cfg := config.Default()
	cfg.Code.Languages = []string{"cobol"}
	e := startService(t, p, cfg)
	e.waitReady(t)
	out := e.mustCall(t, "svc_search_project", map[string]any{"action": "search_code", "query": "cart"})
	if out.IndexStatus.State != StateDisabled || !strings.Contains(out.Notice, "cobol") || out.Results == nil {
		t.Errorf("%+v", out)
	}
	if _, te := e.call(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "Total"}); te == nil || te.Code != "BUSINESS_LOGIC_ERROR" {
		t.Errorf("graph on a disabled index: %+v", te)
	}
}

func TestCodeSpecDropsMissingPaths(t *testing.T) {
	p := newProject(t)
	sp := codeSpec(p, config.Sources{SourcePaths: []string{"cart", "nope", "../out"}, Languages: []string{"Go", "cobol"}})
	if sp.disabled != "" || len(sp.opt.Paths) != 1 || sp.opt.Paths[0] != "cart" || len(sp.opt.Languages) != 1 {
		t.Fatalf("%+v", sp)
	}
	if notes := strings.Join(sp.notes, "; "); !strings.Contains(notes, "nope (not found)") || !strings.Contains(notes, "../out (outside the project)") || !strings.Contains(notes, "cobol") {
		t.Errorf("notes: %s", notes)
	}
	if sp := codeSpec(p, config.Sources{SourcePaths: []string{"nope"}}); sp.disabled == "" {
		t.Errorf("no path left, yet enabled")
	}
}

// The temporary files of saves a crash cut short are removed at the next
// start, once the index lock is held (never while another process holds it:
// one of them could be its save under way), and the saved index still loads.
func TestInterruptedSavesRemovedAtStart(t *testing.T) {
	p := newProject(t)
	e := startService(t, p, config.Default())
	e.waitReady(t)
	e.svc.Close()

	var leftovers, kept []string
	plant := func(path string) string {
		if err := os.WriteFile(path, []byte("half a snapshot"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, name := range []string{Standards, Code} {
		dir := p.IndexDir(name)
		leftovers = append(leftovers, plant(filepath.Join(dir, "."+search.SnapshotFile+".tmp-2718281828")))
		kept = append(kept, filepath.Join(dir, search.SnapshotFile),
			plant(filepath.Join(dir, "."+search.SnapshotFile+".tmp-draft")), plant(filepath.Join(dir, "notes.tmp")))
	}

	l, err := newIndexLock(p)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := l.try(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	e2 := startService(t, p, config.Default())
	waitFor(t, "waiting state", func() bool { return e2.svc.Status()[1].State == StateWaiting })
	for _, f := range leftovers {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s removed while another process held the lock: %v", f, err)
		}
	}
	l.release()
	e2.waitReady(t)
	for _, f := range leftovers {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", f, err)
		}
	}
	for _, f := range kept {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s was removed: %v", f, err)
		}
	}
	logs := e2.log.String()
	if !strings.Contains(logs, "removed the temporary files of index saves") || !strings.Contains(logs, "search index loaded") || strings.Contains(logs, "building it") {
		t.Errorf("the saved index was not loaded after the cleanup:\n%s", logs)
	}
	if hits := e2.searchCode(t, "cart total"); !hasSymbol(hits, "cart/cart.go", "Cart.Total") {
		t.Errorf("search after the cleanup: %s", symbols(hits))
	}
}

// A large build is replaced by the snapshot it saved, which packs the index
// as a restart does; searches and the graph answer the same.
func TestBuildReloadsItsSnapshot(t *testing.T) {
	answers := func(reload int) (string, string) {
		old := reloadAfterBuild
		reloadAfterBuild = reload
		t.Cleanup(func() { reloadAfterBuild = old })
		e := newService(t, newProject(t), config.Default())
		var stateUnloaded string
		e.svc.code.unloaded = func() { stateUnloaded = e.svc.code.Status().State }
		e.svc.Start(context.Background())
		t.Cleanup(func() { e.svc.Close() })
		e.waitReady(t)
		// Unloaded, the index is not searchable: searches and graph
		// queries wait for the load rather than find nothing.
		if reload == 1 && searchable(stateUnloaded) {
			t.Errorf("state while unloaded: %q", stateUnloaded)
		}
		reloaded := strings.Contains(e.log.String(), "reloaded from its snapshot")
		if reloaded != (reload == 1) {
			t.Errorf("reloadAfterBuild %d: reloaded %v\n%s", reload, reloaded, e.log.String())
		}
		callers := e.mustCall(t, "svc_search_project", map[string]any{"action": "find_callers", "query": "applyDiscount"})
		return symbols(e.searchCode(t, "cart total after discount")), fmt.Sprint(*callers.Callers)
	}
	hits, callers := answers(1)
	wantHits, wantCallers := answers(math.MaxInt)
	if hits != wantHits || callers != wantCallers || !strings.Contains(callers, "Cart.Total") {
		t.Errorf("after reloading: %s / %s; built only: %s / %s", hits, callers, wantHits, wantCallers)
	}
}
