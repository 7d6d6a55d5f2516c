package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// A 2,000-line spec: the file index lists every file with its status and
// length and takes the keyboard to it, and the decision stays on screen
// wherever the person is in the spec, at 1280, 900 and 390 px. The first
// render of that page is measured and logged (goal: 300 ms or less; a
// timing, not an assertion).
func TestReviewLongSpec(t *testing.T) {
	long(t)
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root := newProject(t)
	goProject(t, root)
	stdioClient(t, root, "--transport", "dual")
	waitState(t, root, 0)
	spec := "2026-01-01-long"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Long\n\n## Objectives\nA long spec.\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", untickedTasks)
	var long strings.Builder
	long.WriteString("# Specifications\n\n")
	for i := range 2000 {
		if i%50 == 0 {
			fmt.Fprintf(&long, "## Part %d\n", i/50+1)
		}
		fmt.Fprintf(&long, "- Requirement %d: the service answers request %d within the agreed time.\n", i, i)
	}
	write(t, root, ".agentos/specs/"+spec+"/specs.md", long.String())

	rev := startReview(t, root)
	p := pageDriver{t, reviewBrowser(t)}
	p.do("open the spec", chromedp.Navigate(rev.url+"#/spec/"+spec), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	t.Logf("first render of a 2,000-line spec: %s ms", p.eval("render", `String(Math.round(performance.getEntriesByName("review-rendered")[0].startTime))`))
	if idx := p.eval("index", `Array.from(document.querySelectorAll("table.binding tbody tr")).map(r => Array.from(r.cells).map(c => c.textContent).join(" ")).join(" | ")`); !strings.Contains(idx, "specs.md new 2042 ") || !strings.HasPrefix(idx, "README.md new 4 ") {
		t.Errorf("the file index: %s", idx)
	}
	for _, w := range reviewWidths {
		p.do(fmt.Sprintf("%d px", w), chromedp.EmulateViewport(w, 844))
		for _, at := range []float64{0, 0.5, 0.9} {
			p.do("scroll", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.scrollTo(0, %f * document.documentElement.scrollHeight)`, at)), chromedp.Sleep(50))
			if on := p.eval("approve on screen", `(function(){ const r = Array.from(document.querySelectorAll("button")).find(b => b.textContent === "Approve this version").getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight ? "yes" : "at " + Math.round(r.top) + " of " + window.innerHeight })()`); on != "yes" {
				t.Errorf("at %d px, %.0f%% down the page, Approve is %s", w, at*100, on)
			}
		}
		// It must leave most of the window to the spec.
		if share := p.eval("bar height", `String(Math.round(100 * document.querySelector(".decision.dbar").getBoundingClientRect().height / window.innerHeight))`); atoi(share) > 30 {
			t.Errorf("at %d px the decision bar takes %s%% of the window", w, share)
		}
	}
	p.do("1280 px", chromedp.EmulateViewport(1280, 900), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	p.do("go to specs.md", chromedp.Click(chromedp.Search(`//table[contains(@class, "binding")]//a[text()="specs.md"]`)))
	if f := p.eval("focus", `document.activeElement.getAttribute("aria-label") || document.activeElement.tagName`); !strings.HasSuffix(f, "/specs.md") {
		t.Errorf("the index's link takes the focus to %q", f)
	}
	p.fits("a 2,000-line spec", axe)
	screenshot(t, p.ctx, "long-spec")

	// Read, not decided: marked as seen, the next look shows what changed
	// since, file by file.
	p.do("mark as seen", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Click(chromedp.CSS(`[data-key="mark-seen"]`)),
		chromedp.WaitVisible(chromedp.Search(`//*[contains(., "Marked as seen")]`)))
	write(t, root, ".agentos/specs/"+spec+"/specs.md", strings.Replace(long.String(), "Requirement 7:", "Requirement 7 (revised):", 1))
	p.do("look again", chromedp.Reload(), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	if idx := p.eval("index after seen", `Array.from(document.querySelectorAll("table.binding tbody tr")).map(r => Array.from(r.cells).map(c => c.textContent).join(" ")).join(" | ")`); !strings.Contains(idx, "specs.md changed since you looked") || !strings.Contains(idx, "README.md unchanged") {
		t.Errorf("the file index after marking as seen and a revision: %s", idx)
	}
	if got := p.eval("diff", `Array.from(document.querySelectorAll(".diff")).map(d => d.textContent).join(" ")`); !strings.Contains(got, "Requirement 7 (revised)") {
		t.Errorf("no diff against the version seen: %.300s", got)
	}
}
