package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page keeps the person's place: its 2-second refresh redraws a spec
// the agent changed without moving the keyboard focus, closing what they
// opened or losing what they typed, and without making a screen reader
// read the clock. What they type is a draft kept in the browser, by spec:
// it survives a reload, a refused approval, a closed link and a stopped
// server, where the decisions are disabled with the reason and the view
// stays as it was. Reset asks first.
func TestReviewKeepsPlace(t *testing.T) {
	long(t)
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root := newProject(t)
	goProject(t, root)
	c := stdioClient(t, root, "--transport", "dual")
	waitState(t, root, 0)
	greetID, _ := specAtApproval(t, c, "greeting")
	spec := "2026-01-01-voided"
	readme := ".agentos/specs/" + spec + "/README.md"
	write(t, root, readme, "# Voided\n\n## Objectives\nGreet.\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", untickedTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	write(t, root, readme, "# Voided\n\n## Objectives\nGreet, edited after the approval.\n")
	write(t, root, ".agentos/specs/2026-01-02-unfinished/README.md", "# Unfinished\n\nNo tasks yet.\n")
	tampered := tamperedSession(t, c, root)

	rev := startReview(t, root)
	p := pageDriver{t, reviewBrowser(t)}
	focus := func() string {
		return p.eval("focus", `(function(){ const a = document.activeElement; return a.tagName + " " + (a.tagName === "TEXTAREA" ? a.value : a.textContent.trim()).slice(0, 120) })()`)
	}

	// The status line is not a live region; only changes are announced.
	p.do("open the spec", chromedp.Navigate(rev.url+"#/spec/"+spec), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	if attrs := p.eval("live", `["role", "aria-live"].map(a => document.getElementById("live").getAttribute(a)).join(",")`); attrs != "," {
		t.Errorf("the status line is a live region (%s): a screen reader reads its clock every 2 s", attrs)
	}
	if n := p.eval("announcements", `new Promise(r => { let n = 0; const o = new MutationObserver(m => n += m.length); o.observe(document.getElementById("announce"), {childList: true, characterData: true, subtree: true}); setTimeout(() => { o.disconnect(); r(String(n)) }, 4500) })`); n != "0" {
		t.Errorf("with nothing changing, %s announcements in 4.5 s", n)
	}

	// Open a file with the keyboard, type a draft, and let the agent edit
	// the spec: the page shows the edit in place.
	p.do("open tasks.md", chromedp.Focus(chromedp.Search(`//section[contains(@aria-label, "tasks.md")]//summary`)), chromedp.KeyEvent(kb.Enter))
	p.do("type a draft", chromedp.SendKeys(chromedp.CSS(`textarea`), "Draft: the objectives need a number."))
	p.do("back on the file", chromedp.Focus(chromedp.Search(`//section[contains(@aria-label, "tasks.md")]//summary`)))
	scroll := p.eval("scroll", `String(window.scrollY)`)
	write(t, root, readme, "# Voided\n\n## Objectives\nGreet, edited again while you read.\n")
	p.do("see the edit", chromedp.WaitVisible(chromedp.Search(`//p[contains(., "edited again while you read")]`)))
	if f := focus(); f != "SUMMARY Show the file" {
		t.Errorf("after the spec was redrawn the focus is on %q", f)
	}
	if open := p.eval("open", `String(document.querySelector('section[aria-label$="tasks.md"] details').open)`); open != "true" {
		t.Error("the redraw closed the file the person opened")
	}
	if v := p.eval("draft", `document.querySelector("textarea").value`); v != "Draft: the objectives need a number." {
		t.Errorf("the redraw lost the draft: %q", v)
	}
	if now := p.eval("scroll", `String(window.scrollY)`); now != scroll {
		t.Errorf("the redraw scrolled from %s to %s", scroll, now)
	}
	// Typing when the redraw comes: the caret stays in the comment.
	p.do("type more", chromedp.Focus(chromedp.CSS(`textarea`)), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(" And a date."))
	write(t, root, readme, "# Voided\n\n## Objectives\nGreet, a third version.\n")
	p.do("see the third version", chromedp.WaitVisible(chromedp.Search(`//p[contains(., "a third version")]`)))
	if f := focus(); f != "TEXTAREA Draft: the objectives need a number. And a date." {
		t.Errorf("typing through a redraw: focus %q", f)
	}
	p.do("type on", chromedp.KeyEvent("!"))
	if v := p.eval("caret", `document.querySelector("textarea").value`); v != "Draft: the objectives need a number. And a date.!" {
		t.Errorf("after a redraw, typing goes to %q", v)
	}

	// A reload keeps the draft.
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	if v := p.eval("draft", `document.querySelector("textarea").value`); v != "Draft: the objectives need a number. And a date.!" {
		t.Errorf("after a reload the draft is %q", v)
	}

	// A refused approval keeps what was typed.
	p.do("open the unfinished spec", chromedp.Navigate(rev.url+"#/spec/2026-01-02-unfinished"), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	p.do("approve what cannot be", chromedp.SendKeys(chromedp.CSS(`textarea`), "Looks fine."), chromedp.Click(chromedp.Search(`//button[text()="Approve this version"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "nothing was approved")]`)))
	if v := p.eval("draft", `document.querySelector("textarea").value`); v != "Looks fine." {
		t.Errorf("after a refused approval the comment is %q", v)
	}

	// Reset asks first and says what it discards.
	p.do("open the tampered session", chromedp.Navigate(rev.url+"#/session/"+tampered), chromedp.WaitVisible(chromedp.Search(`//button[text()="Reset it to phase 1"]`)),
		chromedp.Click(chromedp.Search(`//button[text()="Reset it to phase 1"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@aria-label="Confirm the reset"][contains(., "Reset tampered to phase 1?")][contains(., "audit log is kept")]`)))
	if f := focus(); f != "BUTTON Cancel" {
		t.Errorf("the confirmation focuses %q, not Cancel", f)
	}
	checkAxe(t, p.ctx, axe, "the reset confirmation")
	p.do("cancel", chromedp.KeyEvent(kb.Enter))
	if f := focus(); f != "BUTTON Reset it to phase 1" {
		t.Errorf("after Cancel the focus is on %q", f)
	}
	if r := runOK(t, root, "workflow", "list", "--dir", root); !strings.Contains(r.stdout, "changed outside agentos") {
		t.Errorf("one click reset the session:\n%s", r.stdout)
	}

	// The link closes: the view stays, the decisions are disabled with
	// the reason, the draft is kept.
	p.do("back to the spec", chromedp.Navigate(rev.url+"#/spec/"+spec), chromedp.WaitVisible(chromedp.Search(`//p[contains(., "a third version")]`)))
	rev.stop(t)
	p.do("see the link closed", chromedp.WaitVisible(chromedp.Search(`//div[@id="offline" and contains(., "link is closed")]`)))
	if d := p.eval("disabled", `String(document.querySelector(".decision button.primary").disabled)`); d != "true" {
		t.Error("with the link closed, Approve is enabled")
	}
	if v := p.eval("view", `document.getElementById("view").textContent.includes("a third version") + " " + document.querySelector("textarea").value`); v != "true Draft: the objectives need a number. And a date.!" {
		t.Errorf("with the link closed, the view and the draft: %q", v)
	}
	// A new link on the same server: the draft is there, and goes with
	// the approval.
	rev = startReview(t, root)
	p.do("open the new link", chromedp.Navigate(rev.url+"#/spec/"+spec), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	if v := p.eval("draft", `document.querySelector("textarea").value`); v != "Draft: the objectives need a number. And a date.!" {
		t.Errorf("on a new link the draft is %q", v)
	}
	p.do("approve", chromedp.Click(chromedp.Search(`//button[text()="Approve this version"]`)), chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "Approved spec")]`)))
	if n := p.eval("drafts", `String(Object.keys(localStorage).filter(k => k.includes("`+spec+`")).length)`); n != "0" {
		t.Errorf("%s drafts kept after the approval", n)
	}

	// The server stops: the session stays on screen, Approve is disabled
	// and says why; nothing reads "Failed to fetch".
	p.do("open the session", chromedp.Navigate(rev.url+"#/session/"+greetID), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)),
		chromedp.SendKeys(chromedp.CSS(`textarea`), "Typed before the server stopped."))
	c.Close()
	p.do("see the server gone", chromedp.WaitVisible(chromedp.Search(`//div[@id="offline" and (contains(., "unreachable") or contains(., "link is closed"))]`)))
	deadline := time.Now().Add(5 * time.Second)
	for p.eval("disabled", `String(document.querySelector(".decision button.primary").disabled)`) != "true" && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if d := p.eval("disabled", `String(document.querySelector(".decision button.primary").disabled)`); d != "true" {
		t.Error("with the server stopped, Approve is enabled")
	}
	if why := p.text(`.decision .why-off`); !strings.Contains(why, "unreachable") && !strings.Contains(why, "closed") {
		t.Errorf("the disabled decision does not say why: %q", why)
	}
	body := p.text(`#view`)
	if strings.Contains(body, "Failed to fetch") || !strings.Contains(body, "Greeting") {
		t.Errorf("with the server stopped the view is: %s", body)
	}
	if v := p.eval("draft", `document.querySelector("textarea").value`); v != "Typed before the server stopped." {
		t.Errorf("with the server stopped the comment is %q", v)
	}
}
