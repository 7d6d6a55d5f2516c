package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/mark3labs/mcp-go/client"
)

// reviewWidths are the windows the page must fit without scrolling
// sideways: a laptop, a narrow desktop window, a phone.
var reviewWidths = []int64{1280, 900, 390}

// pageDriver is a test's hold on the review page in Chromium.
type pageDriver struct {
	t   *testing.T
	ctx context.Context
}

// do runs steps as pageSteps does: again when a live redraw replaced a node
// between finding it and acting on it.
func (p pageDriver) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	pageSteps(p.t, p.ctx)(what, steps...)
}

func (p pageDriver) text(sel string) string {
	p.t.Helper()
	ctx, cancel := pageStep(p.ctx)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("read %s: %v", sel, err)
	}
	return s
}

func (p pageDriver) eval(what, js string) string {
	p.t.Helper()
	ctx, cancel := pageStep(p.ctx)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
	return s
}

func (p pageDriver) scheme(s string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}}); err != nil {
		p.t.Fatal(err)
	}
}

// fits checks, at each width, that nothing is wider than the window: the
// document, and every element inside the view (a table cut off by its
// container scrolls nothing but is no more readable).
func (p pageDriver) fits(what string, axe string) {
	p.t.Helper()
	for _, w := range reviewWidths {
		p.do(fmt.Sprintf("%s at %d px", what, w), chromedp.EmulateViewport(w, 900), chromedp.Sleep(150*time.Millisecond))
		over := p.eval("measure", `(function(){
			const d = document.documentElement, out = [];
			if (d.scrollWidth > d.clientWidth) out.push("the page is " + (d.scrollWidth - d.clientWidth) + " px wider than the window");
			for (const el of document.querySelectorAll("#view *")) {
				const r = el.getBoundingClientRect();
				if (r.width && r.right > d.clientWidth + 1 && !el.closest("pre, .diff, [hidden]")) { out.push(el.tagName + "." + el.className + " ends at " + Math.round(r.right) + " px"); if (out.length > 5) break; }
			}
			return out.join("; ");
		})()`)
		if over != "" {
			p.t.Errorf("%s at %d px: %s", what, w, over)
		}
		if axe != "" && w != 900 {
			checkAxe(p.t, p.ctx, axe, fmt.Sprintf("%s, %d px", what, w))
		}
	}
	p.do("back to 1280 px", chromedp.EmulateViewport(1280, 900))
}

// specAtApprovalAs is specAtApproval for a feature of any name: its
// criteria are named after it.
func specAtApprovalAs(t *testing.T, c *client.Client, feature string) string {
	t.Helper()
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": feature}})
	id, dir := out.Session.ID, out.Session.Vars["spec_dir"]
	for _, f := range []string{"README.md", "srd.md", "specs.md", "tasks.md", "implementation.md"} {
		fsWrite(t, c, dir+"/"+f, strings.ReplaceAll(honestSpec[f], "AC-greeting-", "AC-"+feature+"-"))
	}
	for _, tasks := range [][]string{{"1.1", "1.2", "1.3"}, {"2.1", "2.2"}, {"3.1", "3.2"}} {
		for _, task := range tasks {
			mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
		}
		if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
			t.Fatalf("an honest spec: %+v", out.Gate)
		}
	}
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "4.1"})
	return id
}

// A person opening the page on a project with fifty sessions finds, first,
// the few that wait for them, by their features' names, each with what is
// asked and one link to the decision; everything else below, filterable by
// state, agent and spec. After they request changes the session says it is
// the agent's move, and leaves the inbox. Nothing overflows at 1280, 900 or
// 390 px, even with an agent connected over HTTP (whose audit lines carry a
// long MCP session id); axe-core finds nothing, light or dark.
func TestReviewInbox(t *testing.T) {
	long(t) // the fast run has the page in a browser (TestReviewPage) and the inbox's API in server/review
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root := newProject(t)
	goProject(t, root)
	c := stdioClient(t, root, "--transport", "dual")
	st := waitState(t, root, 0)
	greetID, greetDir := specAtApproval(t, c, "greeting")
	remote := namedHTTPClient(t, st.URL, "remote-agent")
	farewellID := specAtApprovalAs(t, remote, "farewell-with-a-rather-long-feature-name-for-the-layout")
	// Fifty sessions the person need not look at now.
	for i := range 46 {
		mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": fmt.Sprintf("background-%02d", i)}})
	}
	// One changed outside agentos.
	tamperedSession(t, c, root)
	// A spec approved, then edited: its approval is void.
	spec := "2026-01-01-voided"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Voided\n\n## Objectives\nGreet.\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", untickedTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Voided\n\n## Objectives\nGreet, edited after the approval.\n")

	rev := startReview(t, root)
	p := pageDriver{t, reviewBrowser(t)}
	p.do("open the link", chromedp.Navigate(rev.url), chromedp.WaitVisible(chromedp.CSS(`ul.inbox`)))
	items, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("ul.inbox > li")).map(li => li.querySelector("h3").textContent + " | " + li.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"greeting": "awaits approval", "farewell-with-a-rather-long-feature-name-for-the-layout": "awaits approval", "tampered": "changed outside agentos", spec: "approval void"}
	if len(items) != len(want) {
		t.Errorf("the inbox holds %d items, want %d: %q", len(items), len(want), items)
	}
	for name, kind := range want {
		found := false
		for _, it := range items {
			if strings.HasPrefix(it, name+" "+kind) {
				found = true
			}
		}
		if !found {
			t.Errorf("the inbox lacks %s (%s): %q", name, kind, items)
		}
	}
	// The inbox comes first: all of it above the fold, before the list.
	if pos := p.eval("where", `(function(){ const l = document.querySelectorAll("ul.inbox > li"); const last = l[l.length-1].getBoundingClientRect(); const all = document.getElementById("h-sessions").getBoundingClientRect(); return Math.round(last.top) + " " + Math.round(all.top) })()`); func() bool {
		var last, all int
		fmt.Sscan(pos, &last, &all)
		return last > 900 || last > all
	}() {
		t.Errorf("the inbox is not first on the page (last item top, list top): %s", pos)
	}
	// Names first, ids secondary.
	if first := p.text(`table.sessions tbody tr td a`); strings.HasPrefix(first, "spec_creation_v1-") || first == "" {
		t.Errorf("the sessions list leads with %q, not a feature's name", first)
	}
	if n := p.eval("rows", `String(document.querySelectorAll("table.sessions tbody tr").length)`); n != "49" {
		t.Errorf("the list shows %s sessions, want 49", n)
	}
	p.fits("the inbox and 49 sessions", axe)
	p.scheme("dark")
	checkAxe(t, p.ctx, axe, "the inbox, dark")
	p.scheme("light")
	screenshot(t, p.ctx, "inbox")

	// Filter by agent with the keyboard: the remote agent's one session.
	p.do("filter by agent", chromedp.Focus(chromedp.CSS(`#filter-agent`)), chromedp.SetValue(chromedp.CSS(`#filter-agent`), "remote-agent"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("filter-agent").dispatchEvent(new Event("change"))`),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="sessions-shown" and contains(., "1 of 49")]`)))
	if got := p.text(`table.sessions tbody`); !strings.Contains(got, "farewell-with") || strings.Contains(got, "greeting") {
		t.Errorf("filtered by agent: %s", got)
	}
	if f := p.eval("focus", `document.activeElement.id`); f != "filter-agent" {
		t.Errorf("after filtering, the focus is on %q, not the filter", f)
	}
	p.do("filter by state", chromedp.SetValue(chromedp.CSS(`#filter-agent`), ""),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("filter-agent").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`#filter-state`), "awaits your decision"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("filter-state").dispatchEvent(new Event("change"))`),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="sessions-shown" and contains(., "2 of 49")]`)))

	// One click from the inbox to the decision, which takes the focus.
	p.do("go to the decision", chromedp.Click(chromedp.Search(`//ul[@class="inbox"]//a[@class="go"][contains(., "greeting")]`)),
		chromedp.WaitVisible(chromedp.Search(`//button[text()="Request changes"]`)))
	if f := p.eval("focus", `document.activeElement.tagName + " " + document.activeElement.textContent`); f != "H3 Your decision" {
		t.Errorf("the inbox's link lands on %q, not the decision", f)
	}
	if h := p.text(`#h-session`); !strings.HasPrefix(h, "greeting") || !strings.Contains(h, greetID) {
		t.Errorf("the session's heading: %q", h)
	}
	p.do("request changes", chromedp.SendKeys(chromedp.CSS("textarea"), "Greet in French too."), chromedp.KeyEvent(kb.Tab),
		chromedp.Click(chromedp.Search(`//button[text()="Request changes"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "Changes requested")]`)),
		chromedp.WaitVisible(chromedp.Search(`//dd[contains(., "changes requested: the agent has to act")]`)))
	p.do("back to the inbox", chromedp.Navigate(rev.url+"#/sessions"), chromedp.WaitVisible(chromedp.CSS(`ul.inbox`)))
	if got := p.text(`ul.inbox`); strings.Contains(got, "greeting") {
		t.Errorf("after a request for changes the inbox still lists greeting: %s", got)
	}

	// The agent revises: the session waits for the person again, and each
	// file shows what changed against the version they rejected.
	fsWrite(t, c, greetDir+"/specs.md", strings.Replace(honestSpec["specs.md"], "\n", "\nBonjour, in French too.\n", 1))
	p.do("see the revision in the inbox", chromedp.WaitVisible(chromedp.Search(`//ul[@class="inbox"]//h3[contains(., "greeting")]`)))
	p.do("open the spec's page", chromedp.Navigate(rev.url+"#/spec/"+filepath.Base(greetDir)), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	status := p.eval("statuses", `Array.from(document.querySelectorAll("table.binding tbody tr")).map(r => r.cells[0].textContent + " " + r.cells[1].textContent).join(", ")`)
	if status != "README.md unchanged, implementation.md unchanged, specs.md changed since you looked, srd.md unchanged, tasks.md unchanged" {
		t.Errorf("the file index after the revision: %s", status)
	}
	if d := p.text(`section[aria-label$="specs.md"] div.diff`); !strings.Contains(d, "Bonjour, in French too.") {
		t.Errorf("the diff against the rejected version: %s", d)
	}
	if !strings.Contains(p.text(`#view`), "waits for this spec's approval") {
		t.Error("the spec's page does not say which session waits on it")
	}
	// One decision path: approving on the spec's page approves the
	// waiting session.
	p.do("approve on the spec's page", chromedp.Click(chromedp.Search(`//button[text()="Approve this version"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "Approved")]`)))
	if r := runOK(t, root, "workflow", "show", greetID, "--json", "--dir", root); !strings.Contains(r.stdout, `"via": "review page"`) {
		t.Errorf("approving on the spec's page left the session waiting:\n%s", r.stdout)
	}
	p.do("see the history", chromedp.WaitVisible(chromedp.Search(`//section[@aria-label="Decisions on this spec"]/ul/li[1][contains(., "approved")]//details[@open]//div[contains(@class, "diff")][contains(., "Bonjour")]`)))
	if h := p.text(`section[aria-label="Decisions on this spec"]`); !strings.Contains(h, "changes requested") || !strings.Contains(h, "Greet in French too.") {
		t.Errorf("the history lacks the request for changes: %s", h)
	}
	p.fits("a spec with its history", axe)
	p.do("show the history", chromedp.Evaluate[chromedp.Void](`document.querySelector('section[aria-label="Decisions on this spec"]').scrollIntoView()`))
	screenshot(t, p.ctx, "spec-history")

	// The remote agent's session: its history names the agent, not its
	// MCP session id, which stays on hover; nothing overflows.
	p.do("open the remote session", chromedp.Navigate(rev.url+"#/session/"+farewellID), chromedp.WaitVisible(chromedp.Search(`//h3[text()="History"]`)))
	if titles := p.eval("who", `Array.from(document.querySelectorAll("td [title^='remote-agent (mcp-session-']")).length + ""`); titles == "0" {
		t.Errorf("the history shows no remote-agent with its session id on hover: %s", p.text(`table`))
	}
	if owner := p.eval("owner", `(function(){ const dd = Array.from(document.querySelectorAll("dl.kv dt")).find(dt => dt.textContent === "Owner").nextElementSibling; return dd.textContent + " | " + (dd.querySelector("[title]") || {}).title })()`); !strings.HasPrefix(owner, "remote-agent | remote-agent (mcp-session-") {
		t.Errorf("the owner is not shown by its client's name with its session on hover: %q", owner)
	}
	p.fits("a remote agent's session", axe)
	for _, tab := range []string{"specs", "agents", "standards"} {
		p.do("open "+tab, chromedp.Navigate(rev.url+"#/"+tab), chromedp.WaitVisible(chromedp.CSS(`#h-`+tab)))
		p.fits("the "+tab+" tab", "")
	}
	p.scheme("dark")
	checkAxe(t, p.ctx, axe, "a remote agent's session, dark")
	p.scheme("light")
}

// tamperedSession starts a session and moves it to phase 2 by editing its
// state file, as a hand outside agentos would; it returns its id.
func tamperedSession(t *testing.T, c *client.Client, root string) string {
	t.Helper()
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_creation_v1", "options": map[string]any{"feature": "tampered"}}).Session.ID
	statePath := filepath.Join(root, ".agentos", "state", "workflows", id, "state.json")
	data, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(statePath, []byte(strings.Replace(string(data), `"current_phase": 1`, `"current_phase": 2`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return id
}
