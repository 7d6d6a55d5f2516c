package e2e

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/agentos-dev/agentos/server/browser"
)

// reviewCmd is a running `agentos review --no-open`.
type reviewCmd struct {
	cmd  *exec.Cmd
	url  string
	out  *syncBuffer
	done chan error
}

// startReview runs `agentos review --no-open` for root and returns once it
// printed its link; the test ends it (Ctrl-C) with stop, or Cleanup does.
func startReview(t *testing.T, root string) *reviewCmd {
	t.Helper()
	cmd := exec.Command(binary, "review", "--no-open", "--dir", root)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &reviewCmd{cmd: cmd, out: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = r.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			r.out.Write([]byte(line + "\n"))
			if u, ok := strings.CutPrefix(strings.TrimSpace(line), "http://"); ok {
				urls <- "http://" + u
			}
		}
		r.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-r.done
	})
	select {
	case r.url = <-urls:
	case <-r.done:
		t.Fatalf("agentos review ended: %s", r.out)
	case <-time.After(30 * time.Second):
		t.Fatalf("agentos review printed no link: %s", r.out)
	}
	return r
}

// stop presses Ctrl-C and returns the exit code.
func (r *reviewCmd) stop(t *testing.T) int {
	t.Helper()
	r.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-r.done:
		r.done <- err
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		return 0
	case <-time.After(20 * time.Second):
		t.Fatalf("agentos review did not end on Ctrl-C: %s", r.out)
		return -1
	}
}

// axeSource is axe-core as scripts/install-axe.sh installs it; "" when it
// is not installed.
func axeSource(t *testing.T) string {
	dir := os.Getenv("AGENTOS_AXE_CACHE")
	if dir == "" {
		cache, _ := os.UserCacheDir()
		dir = filepath.Join(cache, "agentos-axe")
	}
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but axe-core is not installed (%v): run scripts/install-axe.sh", err)
		}
		return ""
	}
	return string(data)
}

type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		HTML string `json:"html"`
	} `json:"nodes"`
}

// checkAxe runs axe-core on the page as it is now: 0 violations.
func checkAxe(t *testing.T, ctx context.Context, axe, what string) {
	t.Run("axe "+what, func(t *testing.T) {
		if axe == "" {
			t.Skip("SKIPPING ACCESSIBILITY CHECK — axe-core is not installed: run scripts/install-axe.sh")
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.axe ? true : (function(){`+axe+`; return true})()`)); err != nil {
			t.Fatalf("load axe-core: %v", err)
		}
		violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range violations {
			var nodes []string
			for _, n := range v.Nodes {
				nodes = append(nodes, n.HTML)
			}
			t.Errorf("%s (%s): %s\n  %s", v.ID, v.Impact, v.Help, strings.Join(nodes, "\n  "))
		}
	})
}

// screenshot saves the page to $AGENTOS_REVIEW_SCREENSHOTS/name.png when
// that is set (scripts/review-screenshots.sh sets it to docs/review).
func screenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("AGENTOS_REVIEW_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pageSteps returns a function that runs browser steps on the review
// page and fails t, saying what they were for, when they fail. A live
// update can redraw the view between finding a node and acting on it
// ("Could not find node with given id"): the steps are tried again then,
// up to three more times. The action that failed did nothing, but those
// before it in the same call run again: a call's steps must bear that.
func pageSteps(t *testing.T, ctx context.Context) func(what string, steps ...chromedp.Action[chromedp.Void]) {
	return func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		do := func() error {
			ctx, cancel := pageStep(ctx)
			defer cancel()
			return chromedp.Do(ctx, steps...)
		}
		err := do()
		for try := 0; try < 3 && err != nil && strings.Contains(err.Error(), "Could not find node with given id"); try++ {
			err = do()
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
}

// reviewBrowser starts the installed Chromium for the test, at 1280×900;
// it is killed when the test ends.
func reviewBrowser(t *testing.T) context.Context {
	t.Helper()
	exe, err := browser.FindExecutable("")
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	// A deadline for a hung browser: the page's tests run gates between
	// their looks at the page, each up to callDeadline on a cold machine.
	ctx, cancel := context.WithTimeout(ctx, 3*callDeadline)
	t.Cleanup(func() { cancel(); cancelCtx(); cancelAlloc() })
	// Started here, on the test's context, whose deadline is the
	// browser's: chromedp ties the browser to the context of the first
	// call, and made on a step's context it would stop with the step.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// pageStepDeadline bounds one action on or look at the review page. A step
// waiting for what never comes (a click a live redraw swallowed) then fails
// naming itself, where it held the test until the browser's own deadline,
// three times callDeadline.
const pageStepDeadline = 2 * time.Minute

// pageStep is the context of one step on the page of reviewBrowser's ctx.
func pageStep(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, pageStepDeadline)
}

func sha256File(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// A person reviews and approves a spec from the page alone, in a real
// browser, with the keyboard; the approval records the hashes the page
// showed. Without the link's token the page reveals nothing, svc_browser
// cannot open it, and the link dies with the command.
func TestReviewPage(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root := newProject(t)
	goProject(t, root)
	c := stdioClient(t, root, "--transport", "dual")
	st := waitState(t, root, 0)
	id, dir := specAtApproval(t, c, "greeting")
	base := fmt.Sprintf("http://127.0.0.1:%d", st.Port)

	rev := startReview(t, root)
	if !strings.HasPrefix(rev.url, base+"/review/?t=") {
		t.Fatalf("link %q is not on the server's port %d", rev.url, st.Port)
	}
	tok := rev.url[strings.Index(rev.url, "t=")+2:]

	// The agent's side: svc_browser is refused the server's own origin,
	// and nothing an MCP client sees carries the token.
	out, res := browse(t, c, map[string]any{"action": "navigate", "url": rev.url})
	if !res.IsError || !strings.Contains(fmt.Sprint(res.Content), "agentos server itself") {
		t.Errorf("svc_browser opened the review page: %+v %v", out, res.Content)
	}
	// Nor can a page it opens script its way in: every request to the
	// server's port fails, while another loopback port answers.
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>app</title><p>the agent's app</p>")
	}))
	defer app.Close()
	browseOK(t, c, map[string]any{"action": "navigate", "url": app.URL})
	reach := func(url string) any {
		return browseOK(t, c, map[string]any{"action": "evaluate", "script": `fetch("` + url + `", {mode: "no-cors"}).then(() => "reached", () => "blocked")`}).Result
	}
	if got := reach(rev.url); got != "blocked" {
		t.Errorf("a page's fetch of the review link: %v", got)
	}
	if got := reach(base + "/mcp"); got != "blocked" {
		t.Errorf("a page's fetch of the MCP endpoint: %v", got)
	}
	if got := reach(app.URL + "/other"); got != "reached" {
		t.Errorf("a page's fetch of its own app: %v", got)
	}
	info := call(t, c, "get_server_info", map[string]any{}, nil)
	if data, _ := json.Marshal(info); strings.Contains(string(data), tok) {
		t.Error("get_server_info shows the review token")
	}

	ctx := reviewBrowser(t)
	do := pageSteps(t, ctx)
	text := func(sel string) string {
		t.Helper()
		return pageDriver{t, ctx}.text(sel)
	}
	colors := func(scheme string) {
		t.Helper()
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
	}

	// Without the token: 401, nothing revealed.
	do("open without the token", chromedp.Navigate(base+"/review/"))
	if body := text("body"); !strings.Contains(body, "not valid") || strings.Contains(body, id) {
		t.Errorf("without the token: %q", body)
	}

	// With it: the session list, live.
	sessionLink := chromedp.CSS(`a[href="#/session/` + id + `"]`)
	do("open the link", chromedp.Navigate(rev.url), chromedp.WaitVisible(sessionLink))
	body := text("#view")
	for _, want := range []string{"stdio-test", "awaits approval", "spec_creation_v1"} {
		if !strings.Contains(body, want) {
			t.Errorf("the session list lacks %q: %s", want, body)
		}
	}
	checkAxe(t, ctx, axe, "sessions")
	screenshot(t, ctx, "sessions")

	// The session: its spec rendered, what an approval binds, the history.
	do("open the session", chromedp.Click(sessionLink), chromedp.WaitVisible(chromedp.Search(`//button[text()="Approve this version"]`)))
	body = text("#view")
	for _, junk := range []string{"null", "undefined", "[object", "NaN"} {
		if i := strings.Index(body, junk); i >= 0 {
			t.Errorf("the session view shows %q: …%s…", junk, body[max(0, i-200):min(len(body), i+100)])
		}
	}
	for _, want := range []string{"Spec awaiting your approval: " + dir, "Greeting", "History", "complete_phase", "Test command:"} {
		if !strings.Contains(body, want) {
			t.Errorf("the session view lacks %q", want)
		}
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries(Array.from(document.querySelectorAll("section[aria-label] > p.hash")).map(p => [p.parentElement.getAttribute("aria-label"), p.textContent.replace("SHA-256 ", "")]))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"README.md", "srd.md", "specs.md", "tasks.md", "implementation.md"} {
		if got, want := shown[dir+"/"+f], sha256File(t, filepath.Join(root, dir, f)); got != want {
			t.Errorf("the page shows %s as %q, the file's SHA-256 is %s", f, got, want)
		}
	}
	checkAxe(t, ctx, axe, "session, light")
	do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	screenshot(t, ctx, "session")
	colors("dark")
	checkAxe(t, ctx, axe, "session, dark")
	screenshot(t, ctx, "session-dark")
	colors("light")

	// Usable at 900 px: nothing wider than the window.
	do("900 px", chromedp.EmulateViewport(900, 900), chromedp.Sleep(100*time.Millisecond))
	if overflow, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`)); err != nil || overflow > 0 {
		t.Errorf("at 900 px the page is %d px wider than the window (%v)", overflow, err)
	}
	do("back to 1280 px", chromedp.EmulateViewport(1280, 900))

	// Request changes: the owning agent reads the comment at its next call.
	do("request changes", chromedp.SendKeys(chromedp.CSS("textarea"), "Add a test for an empty name."),
		chromedp.Click(chromedp.Search(`//button[text()="Request changes"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "Changes requested")]`)))
	if out := mustWF(t, c, map[string]any{"action": "get_state", "session_id": id}); !strings.Contains(out.NextAction, "Add a test for an empty name.") {
		t.Errorf("the agent's next call does not carry the comment: %s", out.NextAction)
	}

	// Approve with the keyboard alone: Tab to the comment, type, Tab to
	// the button, Enter.
	focused := func() string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.activeElement.tagName + " " + document.activeElement.textContent).trim()`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for i := 0; focused() != "TEXTAREA"; i++ {
		if i == 200 {
			t.Fatal("Tab never reached the comment box")
		}
		do("Tab", chromedp.KeyEvent(kb.Tab))
	}
	do("type a note", chromedp.KeyEvent("Reviewed on the page."))
	// A live refresh that fails (the session busy for a moment) keeps the
	// view, the focus and the typing: the page's next request for the
	// session answers changed content, the one after it 409 — the redraw's,
	// or the next poll's when a redraw was already on its way.
	do("make a refresh fail", chromedp.Evaluate[chromedp.Void](`(() => {
		const real = window.fetch; let n = 0;
		window.fetch = async (u, o) => {
			if (!String(u).includes("/api/session?")) return real(u, o);
			const res = await real(u, o);
			if (++n === 1) return new Response((await res.text()) + " ", { status: 200 });
			window.fetch = real;
			return new Response(JSON.stringify({ error: "the session is busy" }), { status: 409 });
		};
	})()`))
	// The page polls every 2 s. This step failed twice on loaded machines,
	// once after 2 minutes: polls overlapped when the server answered
	// slowly, and a poll's own failed request for the session was dropped
	// without a word. The page now polls one at a time and says so.
	do("see the refresh fail", chromedp.WaitVisible(chromedp.Search(`//*[@id="live" and contains(., "could not be refreshed: the session is busy")]`)))
	if f := focused(); f != "TEXTAREA" {
		t.Fatalf("after a failed refresh, the focus is on %q, not the comment being typed", f)
	}
	if typed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.value`)); err != nil || typed != "Reviewed on the page." {
		t.Fatalf("after a failed refresh, the comment reads %q (%v)", typed, err)
	}
	do("tab to approve", chromedp.KeyEvent(kb.Tab))
	if f := focused(); f != "BUTTON Approve this version" {
		t.Fatalf("after the comment, Tab focuses %q", f)
	}
	do("approve", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.Search(`//div[@id="notice" and contains(., "Approved")]`)))

	// The recorded approval: a person, via the page, bound to the hashes shown.
	r := runOK(t, root, "workflow", "show", id, "--json", "--dir", root)
	var rec struct {
		Session struct {
			Approval struct{ By, Via, Note string } `json:"approval"`
			Binding  struct {
				Files map[string]string `json:"files"`
			} `json:"approval_binding"`
		} `json:"session"`
		Audit []struct{ Action, Actor, Detail string } `json:"audit"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatal(err)
	}
	a := rec.Session.Approval
	if a.Via != "review page" || a.Note != "Reviewed on the page." || a.By == "" {
		t.Errorf("approval: %+v", a)
	}
	if len(rec.Session.Binding.Files) != 5 {
		t.Errorf("the approval binds %d files: %v", len(rec.Session.Binding.Files), rec.Session.Binding.Files)
	}
	for f, sum := range rec.Session.Binding.Files {
		if shown[f] != sum {
			t.Errorf("approval binds %s as %s; the page showed %q", f, sum, shown[f])
		}
	}
	if last := rec.Audit[len(rec.Audit)-1]; last.Action != "approve" || last.Actor != "agentos-review" || !strings.Contains(last.Detail, "via review page") {
		t.Errorf("audit: %+v", last)
	}

	// The agent finishes; a later edit of the spec shows as a diff against
	// what was approved.
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); !out.Gate.Passed {
		t.Fatalf("the approval gate after approving on the page: %+v", out.Gate)
	}
	fsWrite(t, c, dir+"/specs.md", strings.Replace(honestSpec["specs.md"], "\n", "\nAn edit made after the approval.\n", 1))
	do("open the spec", chromedp.Navigate(rev.url+"#/spec/"+filepath.Base(dir)), chromedp.WaitVisible(chromedp.CSS(`div.diff`)))
	if body := text("#view"); !strings.Contains(body, "An edit made after the approval.") || !strings.Contains(body, "changed") {
		t.Errorf("the spec view does not show the edit as a change: %s", body)
	}
	checkAxe(t, ctx, axe, "spec diff")
	do("show the diff", chromedp.Evaluate[chromedp.Void](`document.querySelector("div.diff").closest("section").scrollIntoView()`))
	screenshot(t, ctx, "spec-diff")
	for _, tab := range []string{"indexes", "standards", "agents"} {
		do("open "+tab, chromedp.Navigate(rev.url+"#/"+tab), chromedp.WaitVisible(chromedp.CSS(`#h-`+tab)))
		checkAxe(t, ctx, axe, tab)
	}
	if body := text("#view"); !strings.Contains(body, "stdio-test") || !strings.Contains(body, "stdio") {
		t.Errorf("the agents view: %s", body)
	}
	screenshot(t, ctx, "agents")

	// Ctrl-C ends the command, and the link with it.
	if code := rev.stop(t); code != 0 || !strings.Contains(rev.out.String(), "Review link closed") {
		t.Errorf("review after Ctrl-C: exit %d\n%s", code, rev.out)
	}
	// The server notices the closed connection at once; give it a moment
	// on a loaded machine.
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(rev.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the link still answers %d after its command ended", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The gates' evidence on the page, live: a failing test, an earlier test
// that no longer holds, then coverage per file as bars, the criteria not
// yet checked, and each criterion's proof (its text, its test failing
// before the change with the runner's line, shown as text, and passing
// now), each appearing in the open page as the agent's gate runs; in both
// themes, and at 390 px wide.
func TestReviewGateEvidence(t *testing.T) {
	long(t)
	t.Parallel()
	needBrowser(t)
	axe := axeSource(t)
	root := newProject(t)
	goProject(t, root)
	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 90%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", untickedTasks)
	c := stdioClient(t, root, "--transport", "dual")
	waitState(t, root, 0)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}

	rev := startReview(t, root)
	ctx := reviewBrowser(t)
	do := pageSteps(t, ctx)
	do("open the session", chromedp.Navigate(rev.url+"#/session/"+id), chromedp.WaitVisible(chromedp.Search(`//p[contains(., "No gate has run yet")]`)))

	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hi, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); out.Gate.Passed {
		t.Fatal("a failing test passed the gate")
	}
	// The failed test's own failure line is next to it, first in its check.
	do("see the failed test", chromedp.WaitVisible(chromedp.Search(`//div[@class="failed-tests"]//li[contains(., "TestGreet")]/code[@class="line bad"][contains(., "greet_test.go:8: wrong")]`)))
	// The session changes the greeting and rewrites TestGreet to match: it
	// passes now only as rewritten, so an earlier test no longer holds.
	write(t, root, "greet.go", strings.Replace(greetGo, "\"hello, \" + name", "\"hi, \" + name", 1))
	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hi, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); out.Gate.Passed {
		t.Fatal("a test weakened by the session passed the gate")
	}
	do("see the earlier test that no longer holds", chromedp.WaitVisible(chromedp.Search(`//div[@class="regressions"][contains(., "Earlier tests that no longer hold")]//li[contains(., "TestGreet")][contains(., "passes now only as the session changed it")][contains(., "greet_test.go:8: wrong")]`)))

	// Then it changes Greet without changing what it does, and the test,
	// whose failure line is HTML: on the code before the change the test
	// fails, and the page shows that line as text.
	write(t, root, "greet.go", strings.Replace(greetGo, "\"hello, \" + name", "\"hello, \" + string([]rune(name))", 1))
	write(t, root, "greet_test.go", "package greet\n\nimport \"testing\"\n\n// AC-greeting-1.1.1 AC-greeting-1.2.1\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"<b>wrong</b>\")\n\t}\n}\n")
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); out.Gate.Passed {
		t.Fatal("coverage below the threshold passed the gate")
	}
	do("see the third attempt", chromedp.WaitVisible(chromedp.Search(`//h4[contains(., "attempt 3")]`)))
	do("see coverage per file", chromedp.WaitVisible(chromedp.Search(`//div[contains(@class, "bar")][contains(., "greet.go")]`)))
	// Each bar has the threshold's line; one below it is in the warning
	// colour and says so.
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){ const bars = Array.from(document.querySelectorAll(".bar")); const below = bars.filter(b => b.classList.contains("below")); return bars.filter(b => b.querySelector(".threshold")).length + " " + below.length + " " + below.every(b => b.querySelector(".fill.low") && b.textContent.includes("below the threshold")) })()`)); err != nil || !strings.HasSuffix(got, " true") || strings.HasPrefix(got, "0 ") || strings.Contains(got, " 0 ") {
		t.Errorf("bars with a threshold line, below it, marked: %q (%v)", got, err)
	}
	// The execution session links to its spec.
	do("see the spec's link", chromedp.WaitVisible(chromedp.Search(`//dd/a[@href="#/spec/`+spec+`"]`)))
	proof := `//table[@class="proofs"]//tr[contains(., "AC-greeting-1.1.1")][contains(., 'Greet returns "hello, NAME"')][contains(., "TestGreet")][contains(., "passes now")][contains(., "✓ proven")]`
	do("see the criterion proven", chromedp.WaitVisible(chromedp.Search(proof)))
	line, err := chromedp.Run(ctx, chromedp.Text(chromedp.Search(proof+`//code[@class="line"]`)))
	if err != nil || !strings.Contains(line, "<b>wrong</b>") {
		t.Errorf("the failure line before the change: %q (%v)", line, err)
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#view table.proofs b").length`)); err != nil || n != 0 {
		t.Errorf("the failure line went in as HTML: %d <b> elements (%v)", n, err)
	}
	do("see what was emptied", chromedp.Evaluate[chromedp.Void](`document.querySelector("details.emptied").open = true`),
		chromedp.WaitVisible(chromedp.Search(`//details[@class="emptied"]//code[contains(., "greet.go: Greet")]`)))
	do("see the earlier test holds again", chromedp.WaitVisible(chromedp.Search(`//div[contains(., "1 earlier test still holds")]`)))
	if overflow, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`)); err != nil || overflow > 0 {
		t.Errorf("at 1280 px the page is %d px wider than the window (%v)", overflow, err)
	}
	bars, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".bar [role=meter]")).map(m => m.getAttribute("aria-label") + " " + m.getAttribute("aria-valuenow") + " " + m.firstChild.style.width)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(bars) < 2 || !slices.ContainsFunc(bars, func(b string) bool { return strings.HasPrefix(b, "total coverage") }) {
		t.Errorf("coverage bars: %q", bars)
	}
	for _, b := range bars {
		f := strings.Fields(b)
		if n := len(f); n < 3 || f[n-1] != f[n-2]+"%" {
			t.Errorf("a bar's width is not its value: %q", b)
		}
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#view")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"acceptance criteria checked", "Not ticked in tasks.md:", "go test", "Exit code", "attempt 3 of 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("the evidence lacks %q", want)
		}
	}
	for _, junk := range []string{"null", "undefined", "[object", "NaN"} {
		if strings.Contains(text, junk) {
			t.Errorf("the evidence shows %q: %s", junk, text)
		}
	}
	checkAxe(t, ctx, axe, "gate evidence")
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	checkAxe(t, ctx, axe, "gate evidence, dark")
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
	// Every attempt is kept: the first, chosen with the keyboard, shows its
	// failed test and failure line again; a criterion its failing test
	// names is not one "no test names".
	do("choose the first attempt", chromedp.Focus(chromedp.CSS(`select[data-key="attempt:1"]`)), chromedp.KeyEvent(kb.Home),
		chromedp.WaitVisible(chromedp.Search(`//h4[contains(., "attempt 1 of 3")]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[@class="failed-tests"]//li[contains(., "TestGreet")]/code[contains(., "greet_test.go:8: wrong")]`)))
	if rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.attempts-table tbody tr").length`)); err != nil || rows != 3 {
		t.Errorf("the attempts table has %d rows (%v)", rows, err)
	}
	if text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#view"))); err != nil || strings.Contains(text, "Not named by any test") || !strings.Contains(text, "named only by tests that failed") {
		t.Errorf("attempt 1's criteria: %v\n%s", err, text)
	}
	checkAxe(t, ctx, axe, "an earlier attempt")
	do("back to the last attempt", chromedp.Focus(chromedp.CSS(`select[data-key="attempt:1"]`)), chromedp.KeyEvent(kb.End),
		chromedp.WaitVisible(chromedp.Search(`//h4[contains(., "attempt 3 of 3")]`)))
	// The test that proves a criterion links to its source, on its line.
	do("open the proving test", chromedp.Click(chromedp.Search(proof+`//a[contains(., "greet_test.go:")]`)),
		chromedp.WaitVisible(chromedp.Search(`//h2[contains(., "Test source: greet_test.go")]`)))
	if f, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id + " " + document.activeElement.textContent`)); err != nil || !strings.HasPrefix(f, "src-line ") || !strings.Contains(f, "func TestGreet") {
		t.Errorf("the test's source focuses %q (%v)", f, err)
	}
	checkAxe(t, ctx, axe, "a test's source")
	do("back to the session", chromedp.Navigate(rev.url+"#/session/"+id), chromedp.WaitVisible(chromedp.Search(`//h4[contains(., "attempt 3 of 3")]`)))
	// On a phone, long test names and failure lines wrap.
	do("390 px", chromedp.EmulateViewport(390, 844), chromedp.Sleep(100*time.Millisecond))
	if overflow, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`)); err != nil || overflow > 0 {
		t.Errorf("at 390 px the page is %d px wider than the window (%v)", overflow, err)
	}
	checkAxe(t, ctx, axe, "gate evidence, 390 px")
	do("back to 1280 px", chromedp.EmulateViewport(1280, 900))
	do("show the evidence", chromedp.Evaluate[chromedp.Void](`document.querySelector(".bar").closest(".panel").scrollIntoView()`))
	screenshot(t, ctx, "evidence")
}
