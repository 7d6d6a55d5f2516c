package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A person comments on lines of a spec, GitHub-style, with the keyboard
// (the line numbers are one tab stop per file: arrows move, Shift with an
// arrow selects a range, Enter comments) and with the mouse. The comments
// are drafts kept on the server: a reload with the browser's storage
// emptied finds them, so does a new link after the server restarted, and
// a request refused because a commented line
// changed under them keeps them. Sent with "Request changes", the agent
// receives each with its file, lines, their text and the comment through
// svc_workflow; after its revision the page shows each comment resolved
// (its line changed) or open. Nothing overflows at 390 px; axe-core finds
// nothing, light or dark.
func TestReviewLineComments(t *testing.T) {
	long(t)
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root := newProject(t)
	goProject(t, root)
	c := stdioClient(t, root, "--transport", "dual")
	waitState(t, root, 0)
	id, dir := specAtApproval(t, c, "greeting")
	readme, tasks := dir+"/README.md", dir+"/tasks.md"

	rev := startReview(t, root)
	p := pageDriver{t, reviewBrowser(t)}
	focus := func() string {
		return p.eval("focus", `(function(){ const a = document.activeElement; return a.tagName + " " + (a.getAttribute("aria-label") || (a.tagName === "TEXTAREA" ? a.value : a.textContent.trim())).slice(0, 120) })()`)
	}
	section := func(file string) string { return `//section[@aria-label="` + file + `"]` }
	// waitFor waits for an element the XPath names, up to 30 s; if none
	// comes it says what the page shows instead.
	waitFor := func(what, xpath string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if p.eval(what, `String(document.evaluate(`+"`"+xpath+"`"+`, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue !== null)`) == "true" {
				return
			}
		}
		t.Fatalf("%s: nothing matches %s; the notice says %q", what, xpath, p.eval("notice", `document.getElementById("notice").textContent`))
	}
	p.do("open the session", chromedp.Navigate(rev.url+"#/session/"+id), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))

	// With the keyboard: show README.md as lines, tab into them, select
	// lines 4–5 and comment.
	p.do("show README.md as lines", chromedp.Focus(chromedp.Search(section(readme)+`//button[contains(., "Comment on lines")]`)), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.Search(section(readme)+`//div[@class="lines"]`)))
	if f := focus(); !strings.HasPrefix(f, "BUTTON Show it rendered") {
		t.Errorf("after the toggle the focus is on %q", f)
	}
	p.do("tab into the lines", chromedp.KeyEvent(kb.Tab))
	if f := focus(); f != "BUTTON Comment on line 1" {
		t.Fatalf("Tab from the toggle lands on %q", f)
	}
	p.do("select lines 4–5", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	p.do("extend", chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if sel := p.eval("selected", `Array.from(document.querySelectorAll('section[aria-label$="README.md"] .line.sel')).map(l => l.dataset.line).join(",")`); sel != "4,5" {
		t.Errorf("selected lines: %q", sel)
	}
	p.do("comment on them", chromedp.KeyEvent(kb.Enter))
	if f := focus(); f != "TEXTAREA " {
		t.Fatalf("Enter on a selected range focuses %q", f)
	}
	p.do("type the comment", chromedp.KeyEvent("Say who is greeted."))
	if card := textOf(p, `section[aria-label$="README.md"] .ccard.draft`); !strings.Contains(card, "README.md lines 4–5") {
		t.Errorf("the draft card: %q", card)
	}
	// With the mouse: tasks.md, line 1.
	p.do("show tasks.md as lines", chromedp.Click(chromedp.Search(section(tasks)+`//button[contains(., "Comment on lines")]`)),
		chromedp.Click(chromedp.Search(section(tasks)+`//button[@aria-label="Comment on line 1"]`)),
		chromedp.WaitVisible(chromedp.Search(section(tasks)+`//textarea`)), chromedp.KeyEvent("Name the phases by outcome."))
	if label := textOf(p, `[data-key="request-changes"]`); label != "Request changes with 2 comments on lines" {
		t.Errorf("the request button says %q", label)
	}
	p.do("show the comments", chromedp.Evaluate[chromedp.Void](`document.querySelector('section[aria-label$="README.md"] .ccard.draft').scrollIntoView({block: "center"})`))
	screenshot(t, p.ctx, "line-comments")
	p.fits("comments on lines", axe)
	p.scheme("dark")
	checkAxe(t, p.ctx, axe, "comments on lines, dark")
	p.scheme("light")

	// Kept on the server: the browser's storage emptied, a reload finds them.
	deadline := time.Now().Add(10 * time.Second)
	var kept []string
	for len(kept) == 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		kept, _ = filepath.Glob(filepath.Join(root, ".agentos", ".cache", "review", "drafts", "*", filepath.Base(dir)+".json"))
	}
	if len(kept) == 0 {
		t.Fatal("the drafts are not kept on the server")
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if data, _ := os.ReadFile(kept[0]); strings.Contains(string(data), "Name the phases by outcome.") {
			break
		}
	}
	p.eval("empty the storage", `localStorage.clear(), "ok"`)
	p.do("reload with an empty storage", chromedp.Reload(),
		chromedp.WaitVisible(chromedp.Search(`//button[starts-with(., "Request changes with 2")]`)))
	if v := p.eval("drafts", `Array.from(document.querySelectorAll("textarea[name=line-comment]")).map(t => t.value).join("|")`); v != "Say who is greeted.|Name the phases by outcome." {
		t.Errorf("after a reload with the storage emptied the drafts are %q", v)
	}
	// The server restarts (on another port, maybe: another origin for the
	// browser, whose storage is emptied too); a new link finds the drafts.
	p.eval("empty the storage", `localStorage.clear(), "ok"`)
	c.Close()
	waitGone(t, statePath(root))
	c = stdioClient(t, root, "--transport", "dual")
	waitState(t, root, 0)
	rev = startReview(t, root)
	p.do("open the new link", chromedp.Navigate(rev.url+"#/session/"+id),
		chromedp.WaitVisible(chromedp.Search(`//button[starts-with(., "Request changes with 2")]`)))
	if v := p.eval("drafts", `Array.from(document.querySelectorAll("textarea[name=line-comment]")).map(t => t.value).join("|")`); v != "Say who is greeted.|Name the phases by outcome." {
		t.Errorf("after a restart of the server the drafts are %q", v)
	}

	// The agent rewrites README.md's lines 4–5: the draft says so, and a
	// request is refused, keeping every draft.
	fsWrite(t, c, readme, strings.Replace(greetingReadme, "- People who open", "- Everyone who opens", 1))
	p.do("see the draft out of date", chromedp.WaitVisible(chromedp.Search(`//div[contains(@class, "draft")][contains(., "read otherwise now")]`)))
	p.do("request changes", chromedp.Click(chromedp.Search(`//button[starts-with(., "Request changes with 2")]`)))
	waitFor("refused", `//div[@id="notice" and contains(., "changed since you commented")]`)
	if v := p.eval("drafts", `Array.from(document.querySelectorAll("textarea[name=line-comment]")).map(t => t.value).join("|")`); v != "Say who is greeted.|Name the phases by outcome." {
		t.Errorf("after a refused request the drafts are %q", v)
	}
	// Delete it with the keyboard, comment on line 1 instead, send.
	p.do("delete the out-of-date comment", chromedp.Focus(chromedp.Search(section(readme)+`//button[starts-with(., "Delete")]`)), chromedp.KeyEvent(kb.Enter))
	p.do("comment on line 1", chromedp.Click(chromedp.Search(section(readme)+`//button[@aria-label="Comment on line 1"]`)),
		chromedp.WaitVisible(chromedp.Search(section(readme)+`//textarea`)), chromedp.KeyEvent("A shorter title."))
	p.do("send", chromedp.Click(chromedp.Search(`//button[starts-with(., "Request changes with 2")]`)))
	waitFor("sent", `//div[@id="notice" and contains(., "2 comments on lines")]`)

	// The agent receives them with its next call.
	var out struct {
		NextAction    string `json:"next_action"`
		ChangeRequest *struct {
			Comments []struct {
				File    string `json:"file"`
				Line    int    `json:"line"`
				EndLine int    `json:"end_line"`
				Quote   string `json:"quote"`
				Comment string `json:"comment"`
			} `json:"comments"`
		} `json:"change_request"`
	}
	call(t, c, "svc_workflow", map[string]any{"action": "complete_phase", "session_id": id}, &out)
	if !strings.Contains(out.NextAction, "2 comments on lines") || out.ChangeRequest == nil || len(out.ChangeRequest.Comments) != 2 {
		t.Fatalf("the agent's answer: %+v", out)
	}
	got := map[string]string{}
	for _, cm := range out.ChangeRequest.Comments {
		got[cm.File] = cm.Quote + " | " + cm.Comment
		if cm.Line != 1 || cm.EndLine != 1 {
			t.Errorf("comment on %s at lines %d–%d", cm.File, cm.Line, cm.EndLine)
		}
	}
	if got[readme] != "# Greeting | A shorter title." || got[tasks] != "# Tasks: greeting | Name the phases by outcome." {
		t.Errorf("the agent receives %q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".agentos", ".cache", "review", "drafts", "*", filepath.Base(dir)+".json")); len(left) != 0 {
		t.Errorf("the drafts outlived the request: %v", left)
	}

	// The agent revises the title of tasks.md only: that comment is
	// resolved, the other open.
	tasksNow, err := os.ReadFile(filepath.Join(root, tasks))
	if err != nil {
		t.Fatal(err)
	}
	fsWrite(t, c, tasks, strings.Replace(string(tasksNow), "# Tasks: greeting", "# Tasks of the greeting", 1))
	waitFor("see the comments resolved and open", `//section[@aria-label="Your comments on lines, sent"][contains(., "1 open")][contains(., "1 resolved")]`)
	sent := textOf(p, `section[aria-label="Your comments on lines, sent"]`)
	for _, want := range []string{"README.md line 1", "A shorter title.", "open: the line still reads", "tasks.md line 1", "resolved: the line changed"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the sent comments do not say %q: %s", want, sent)
		}
	}
	if n := p.eval("cards", `String(document.querySelectorAll(".ccard.draft").length)`); n != "0" {
		t.Errorf("%s draft cards after the request went", n)
	}
	p.fits("sent comments", axe)
	p.do("show the sent comments", chromedp.Evaluate[chromedp.Void](`document.querySelector('section[aria-label="Your comments on lines, sent"]').scrollIntoView()`))
	screenshot(t, p.ctx, "line-comments-resolved")
}
