package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A finished spec on the review page: the Specs list gives its state, the
// spec's page its evidence and history; "Check it now" runs its traced
// tests on the code as it is, and a real regression makes it drifted,
// naming the criterion, the test and its failure, and puts it in the inbox.
func TestReviewFinishedSpec(t *testing.T) {
	long(t)
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root, c, spec := finishGreeting(t)
	c.Close()
	stdioClient(t, root, "--transport", "dual")
	waitState(t, root, 0)

	rev := startReview(t, root)
	p := pageDriver{t, reviewBrowser(t)}
	p.do("open the specs", chromedp.Navigate(rev.url+"#/specs"), chromedp.WaitVisible(chromedp.Search(`//tr[contains(., "`+spec+`")]//span[contains(@class, "badge")][text()="unchecked"]`)))
	p.do("open the spec", chromedp.Navigate(rev.url+"#/spec/"+spec), chromedp.WaitVisible(chromedp.Search(`//section[@aria-label="The finished spec"]//h3[contains(., "unchecked")]`)))
	if hist := textOf(p, `section[aria-label="The finished spec"] ul.decisions`); !strings.Contains(hist, "completed") || !strings.Contains(hist, "spec-execution-") {
		t.Errorf("the history: %q", hist)
	}
	// With the keyboard: check it; it holds.
	p.do("check it", chromedp.Focus(chromedp.CSS(`button[data-key="check-spec"]`)), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "Checked `+spec+`: holding")]`)),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-label="The finished spec"]//h3[contains(., "holding")]`)))

	// A real regression: drifted, with the criterion, the test, its failure;
	// the inbox lists it.
	write(t, root, "greet.go", greetBroken)
	p.do("check again", chromedp.Click(chromedp.CSS(`button[data-key="check-spec"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "drifted")]`)))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(textOf(p, `section[aria-label="The finished spec"]`), "want hello, world") && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	living := textOf(p, `section[aria-label="The finished spec"]`)
	for _, want := range []string{"drifted", "AC-greeting-1.2.1", "TestGreetEmpty (greet_test.go:", "failed", "want hello, world", "agentos specs converge " + spec} {
		if !strings.Contains(living, want) {
			t.Errorf("the drifted spec does not say %q: %s", want, living)
		}
	}
	p.do("show the finished spec", chromedp.Evaluate[chromedp.Void](`document.querySelector('section[aria-label="The finished spec"]').scrollIntoView()`))
	screenshot(t, p.ctx, "finished-spec")
	p.fits("a drifted spec", axe)
	p.scheme("dark")
	checkAxe(t, p.ctx, axe, "a drifted spec, dark")
	p.scheme("light")
	p.do("the inbox", chromedp.Navigate(rev.url+"#/sessions"),
		chromedp.WaitVisible(chromedp.Search(`//ul[@class="inbox"]//li[contains(., "spec drifted")][contains(., "`+spec+`")]`)))
	p.do("see what broke", chromedp.Click(chromedp.Search(`//a[contains(., "See what broke")]`)),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-label="The finished spec"]//h3[contains(., "drifted")]`)))
	if f := p.eval("focus", `document.activeElement.textContent`); !strings.HasPrefix(f, "Finished spec") {
		t.Errorf("the inbox's link lands on %q", f)
	}
}

// textOf is the text of the element sel selects, read in one step: the
// page may redraw it between a lookup and a read.
func textOf(p pageDriver, sel string) string {
	p.t.Helper()
	return p.eval("read "+sel, `(document.querySelector('`+sel+`') || {textContent: ""}).textContent`)
}
