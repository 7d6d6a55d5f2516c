package review

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentos-dev/agentos/server/browser"
	"github.com/agentos-dev/agentos/workflow"
)

// BenchmarkFirstRender50Sessions measures what the browser waits for before
// it draws the session list of a project with 50 sessions: the page (one
// request, its script and style inlined) and the overview it fetches, over
// loopback HTTP. Figures: docs/benchmarks.md.
func BenchmarkFirstRender50Sessions(b *testing.B) {
	f := fiftySessions(b) // the first at its approval gate
	l, err := RequestLink(context.Background(), f.srv.URL, "the-key")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	get := func(path string, header ...string) int {
		req, _ := http.NewRequest("GET", f.srv.URL+path, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d", path, resp.StatusCode)
		}
		return int(n)
	}
	tok := token(l)
	var bytes int
	for b.Loop() {
		bytes = get(Prefix+"?t="+tok) + get(apiPrefix+"state", TokenHeader, tok)
	}
	b.ReportMetric(float64(bytes), "bytes/render")
}

// BenchmarkFirstRenderBrowser50Sessions measures the same in a real
// Chromium: ms/first-render is the time from the start of the navigation
// to the page's mark of its first drawn view (the session list, all 50
// rows), as the browser's performance timeline records it; ns/op adds
// chromedp's protocol round trips. It skips when no Chromium or Chrome is
// installed.
func BenchmarkFirstRenderBrowser50Sessions(b *testing.B) {
	f := fiftySessions(b)
	firstRenderInBrowser(b, f, "", chromedp.WaitVisible(chromedp.CSS("#view tbody tr:nth-child(50)")))
}

// BenchmarkFirstRenderBrowserLongSpec measures, as above, the first render
// of a waiting spec of 2,042 lines (a specs.md of 2,000 requirements) with
// its file index and decision bar, in a project of 50 sessions.
func BenchmarkFirstRenderBrowserLongSpec(b *testing.B) {
	f := fiftySessions(b)
	var long strings.Builder
	long.WriteString("# Specifications\n\n")
	for i := range 2000 {
		if i%50 == 0 {
			fmt.Fprintf(&long, "## Part %d\n", i/50+1)
		}
		fmt.Fprintf(&long, "- Requirement %d: the service answers request %d within the agreed time.\n", i, i)
	}
	dir := filepath.Join(f.root, f.session.Vars["spec_dir"])
	write(b, filepath.Join(dir, "specs.md"), long.String())
	firstRenderInBrowser(b, f, "#/spec/"+filepath.Base(dir), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
}

// fiftySessions is the fixture's project with 49 more sessions.
func fiftySessions(b *testing.B) *fixture {
	f := newFixture(b, 0)
	for i := 1; i < 50; i++ {
		if _, err := f.engine.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": fmt.Sprintf("feature-%d", i)}, workflow.Actor{Client: "agent"}); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

// firstRenderInBrowser opens the review link with fragment in Chromium
// until drawn (a wait for the view's last element) is done, b.N times, and reports ms/first-render: from the
// navigation's start to the page's first drawn view. It skips when no
// Chromium or Chrome is installed.
func firstRenderInBrowser(b *testing.B, f *fixture, fragment string, drawn chromedp.Action[chromedp.Void]) {
	exe, err := browser.FindExecutable("")
	if err != nil {
		b.Skipf("no browser: %v", err)
	}
	l, err := RequestLink(context.Background(), f.srv.URL, "the-key")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.UserDataDir(b.TempDir()))...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(l.URL+fragment), drawn); err != nil {
		b.Fatal(err) // the browser started and the page renders
	}
	var total float64
	for b.Loop() {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(l.URL+fragment), drawn); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByName("review-rendered")[0].startTime`))
		if err != nil {
			b.Fatal(err)
		}
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "ms/first-render")
}
