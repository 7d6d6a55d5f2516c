package searchtool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
)

func TestWatcherKeepsTheIndexCurrent(t *testing.T) {
	p := newProject(t)
	writeFiles(t, p.Root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".gitignore": "generated/\n", "generated/.keep": ""})
	e := startService(t, p, config.Default())
	e.waitReady(t)
	found := func(query, path, symbol string) func() bool {
		return func() bool { return hasSymbol(e.searchCode(t, query), path, symbol) }
	}

	// An edited file is searchable once saved.
	writeFiles(t, p.Root, map[string]string{"cart/cart.go": projectFiles["cart/cart.go"] +
		"\n// Empty reports whether the shopper has picked nothing yet.\nfunc (c *Cart) Empty() bool { return len(c.items) == 0 }\n"})
	waitFor(t, "edited file searchable", found("has the shopper picked nothing", "cart/cart.go", "Cart.Empty"))

	// A deleted file is gone.
	if err := os.Remove(filepath.Join(p.Root, "tools", "report.py")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "deleted file gone", func() bool { return !hasPath(e.searchCode(t, "invoice pdf monthly revenue"), "tools/report.py") })

	// A new folder is watched: a file written in it, and one written after.
	writeFiles(t, p.Root, map[string]string{"shipping/rates/rates.go": "package rates\n\n// Parcel prices a parcel by its weight in grams.\nfunc Parcel(grams int) int { return grams / 10 }\n"})
	waitFor(t, "file in a new folder", found("price a parcel by weight", "shipping/rates/rates.go", "Parcel"))
	writeFiles(t, p.Root, map[string]string{"shipping/rates/express.go": "package rates\n\n// Express prices next-day delivery.\nfunc Express(grams int) int { return 2 * Parcel(grams) }\n"})
	waitFor(t, "second file in the new folder", found("next-day delivery price", "shipping/rates/express.go", "Express"))

	// A rename moves the file in the index.
	if err := os.Rename(filepath.Join(p.Root, "shipping", "rates", "express.go"), filepath.Join(p.Root, "shipping", "rates", "fast.go")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "renamed file", func() bool {
		hits := e.searchCode(t, "next-day delivery price")
		return hasPath(hits, "shipping/rates/fast.go") && !hasPath(hits, "shipping/rates/express.go")
	})

	// A removed folder takes its files with it.
	if err := os.RemoveAll(filepath.Join(p.Root, "shipping")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "removed folder", func() bool {
		hits := e.searchCode(t, "price a parcel by weight next-day")
		return !hasPath(hits, "shipping/rates/rates.go") && !hasPath(hits, "shipping/rates/fast.go")
	})

	// Ignored folders are not watched; standards changes reach the standards index.
	for d := range e.watched(t) {
		gitInfo := d == filepath.Join(p.Root, ".git", "info") // for .git/info/exclude
		if strings.Contains(d, "generated") || strings.Contains(d, ".git"+string(filepath.Separator)) && !gitInfo {
			t.Errorf("watching an ignored folder: %s", d)
		}
	}
	writeFiles(t, p.Root, map[string]string{".agentos/standards/universal/logging.md": "Keywords: logging\n\n# Logging\n\n## Structured logs\n\nLog with key-value pairs, never with printf.\n"})
	waitFor(t, "new standard", func() bool {
		out := e.mustCall(t, "search_standards", map[string]any{"query": "structured key-value logs"})
		return hasPath(*out.Results, ".agentos/standards/universal/logging.md")
	})

	// Changes are saved after a quiet time.
	waitFor(t, "save", func() bool { return strings.Contains(e.log.String(), "search index saved") })
}

// A changed .gitignore (the root's, a nested one) or .git/info/exclude
// takes effect at once: newly ignored files leave the index, files no
// longer ignored come back, in folders now watched.
func TestIgnoreRulesReload(t *testing.T) {
	p := newProject(t)
	writeFiles(t, p.Root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "",
		".gitignore": "generated/\n", "generated/gen.go": "package generated\n\n// Zebra stripes are generated.\nfunc Zebra() {}\n"})
	e := startService(t, p, config.Default())
	e.waitReady(t)
	has := func(query, path string) func() bool {
		return func() bool { return hasPath(e.searchCode(t, query), path) }
	}
	not := func(f func() bool) func() bool { return func() bool { return !f() } }
	if has("zebra stripes", "generated/gen.go")() || !has("invoice pdf monthly revenue", "tools/report.py")() ||
		!has("checkout charge cart", "checkout/checkout.go")() || !has("cart total items", "cart/cart.go")() {
		t.Fatal("the index does not start as the ignore rules say")
	}

	writeFiles(t, p.Root, map[string]string{".gitignore": "generated/\ntools/\n"})
	waitFor(t, "a newly ignored folder leaves the index", not(has("invoice pdf monthly revenue", "tools/report.py")))

	writeFiles(t, p.Root, map[string]string{".gitignore": "tools/\n"})
	waitFor(t, "a folder no longer ignored comes back", has("zebra stripes", "generated/gen.go"))
	writeFiles(t, p.Root, map[string]string{"generated/more.go": "package generated\n\n// Okapi is written after the folder came back.\nfunc Okapi() {}\n"})
	waitFor(t, "the folder is watched", has("okapi written after", "generated/more.go"))

	writeFiles(t, p.Root, map[string]string{"checkout/.gitignore": "checkout.go\n"})
	waitFor(t, "a nested .gitignore", not(has("checkout charge cart", "checkout/checkout.go")))

	writeFiles(t, p.Root, map[string]string{".git/info/exclude": "cart/\n"})
	waitFor(t, ".git/info/exclude", not(has("cart total items", "cart/cart.go")))
	if !strings.Contains(e.log.String(), "git ignore rules changed") {
		t.Error("no log line for the reload")
	}
}

// watched returns the folders being watched (read from the watch goroutine's
// map through the fsnotify list, which is safe to call concurrently).
func (e *env) watched(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	e.svc.mu.RLock()
	w := e.svc.w
	e.svc.mu.RUnlock()
	if w == nil {
		t.Fatal("no watcher")
	}
	for _, d := range w.fw.WatchList() {
		out[d] = true
	}
	return out
}

// A change of code.source_paths or code.languages reindexes the code.
func TestConfigChangeReindexes(t *testing.T) {
	p := newProject(t)
	e := startService(t, p, config.Default())
	e.waitReady(t)
	if hits := e.searchCode(t, "cart total"); !hasPath(hits, "cart/cart.go") {
		t.Fatalf("before: %s", symbols(hits))
	}
	cfg := "code:\n  source_paths: [\"tools\"]\n  languages: [python]\nast:\n  source_paths: [\"tools\"]\n  languages: [python]\n"
	writeFiles(t, p.Root, map[string]string{".agentos/config/mcp.yaml": cfg})
	waitFor(t, "code index on the new sources", func() bool {
		st := e.svc.Status()[1]
		if st.State != StateReady {
			return false
		}
		hits := e.searchCode(t, "cart total invoice")
		return !hasPath(hits, "cart/cart.go") && hasPath(hits, "tools/report.py")
	})
	if !strings.Contains(e.log.String(), "reindexing the code") {
		t.Errorf("no log line:\n%s", e.log.String())
	}
	// An invalid file keeps the sources as they are.
	writeFiles(t, p.Root, map[string]string{".agentos/config/mcp.yaml": "code: [oops\n"})
	waitFor(t, "warning", func() bool {
		return strings.Contains(e.log.String(), "cannot be used; the code index keeps its sources")
	})
	if hits := e.searchCode(t, "invoice"); !hasPath(hits, "tools/report.py") {
		t.Errorf("after an invalid config: %s", symbols(hits))
	}
}

// No index ever reads a file outside the project: not a symbolic link there
// at the first build, not one that appears while the server runs (a file, a
// folder, a file replaced by a link), not a second hard link of an outside
// file, in the code index or the standards index.
func TestIndexesNeverReadOutside(t *testing.T) {
	const secret = "ZANZIBARQUUX"
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{
		"leak.go": "package leak\n\n// Zanzibarquux is " + secret + " from outside the project.\nfunc Zanzibarquux() string { return \"" + secret + "\" }\n",
		"leak.md": "Keywords: zanzibarquux\n\n# Zanzibarquux\n\n## " + secret + "\n\nThe " + secret + " standard lives outside the project.\n",
	})
	p := newProject(t)
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(filepath.Join(outside, target), filepath.Join(p.Root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	link("leak.go", "atstart.go")
	link(".", "atstartdir")
	e := startService(t, p, config.Default())
	e.waitReady(t)

	link("leak.go", "cart/leak.go")
	link(".", "leakdir")
	link("leak.md", ".agentos/standards/universal/leak.md")
	link(".", ".agentos/standards/universal/leakdir")
	if err := os.Remove(filepath.Join(p.Root, "cart", "cart.go")); err != nil {
		t.Fatal(err)
	}
	link("leak.go", "cart/cart.go")
	if err := os.Link(filepath.Join(outside, "leak.go"), filepath.Join(p.Root, "cart", "hard.go")); err != nil {
		t.Fatal(err)
	}
	// The watcher handles events in order; once a file written after the
	// links is searchable, the links have been seen.
	writeFiles(t, p.Root, map[string]string{"sentinel/sentinel.go": "package sentinel\n\n// Quokkaflange marks that the watcher caught up.\nfunc Quokkaflange() {}\n"})
	waitFor(t, "a file written after the links", func() bool {
		return hasSymbol(e.searchCode(t, "quokkaflange watcher caught up"), "sentinel/sentinel.go", "Quokkaflange")
	})
	waitFor(t, "cart/cart.go, now a link, dropped", func() bool { return !hasPath(e.searchCode(t, "cart shopper add items total"), "cart/cart.go") })

	leaked := func(hits []Hit) string {
		for _, h := range hits {
			if strings.Contains(h.Content, secret) || strings.Contains(strings.ToLower(h.Symbol), "zanzibarquux") {
				return h.Path
			}
		}
		return ""
	}
	if p := leaked(e.searchCode(t, "Zanzibarquux "+secret+" outside the project")); p != "" {
		t.Errorf("search_code returned the outside file through %s", p)
	}
	out := e.mustCall(t, "search_standards", map[string]any{"query": "zanzibarquux standard outside the project"})
	if p := leaked(*out.Results); p != "" {
		t.Errorf("search_standards returned the outside file through %s", p)
	}
	// A full refresh walks the tree again: still nothing from outside.
	std, code := e.svc.handles()
	std.requestRefresh()
	code.requestRefresh()
	writeFiles(t, p.Root, map[string]string{"sentinel/second.go": "package sentinel\n\n// Wombatgrizzle marks the refresh.\nfunc Wombatgrizzle() {}\n"})
	waitFor(t, "a file written after the refresh", func() bool {
		return hasSymbol(e.searchCode(t, "wombatgrizzle refresh"), "sentinel/second.go", "Wombatgrizzle")
	})
	if p := leaked(e.searchCode(t, "Zanzibarquux "+secret+" outside the project")); p != "" {
		t.Errorf("after a refresh, search_code returned the outside file through %s", p)
	}
}
