package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
)

const specTasks = `# Tasks

## Phase 1: Greeting

- [ ] 1.1 Write the greeting function
  - Add Greet to greet.go
  - Estimate: 1h
  - Acceptance criteria:
    - [ ] AC-1.1.1: Greet returns "hello, NAME"
`

// fixture is a project with a spec_creation_v1 session at its approval
// gate, and a review handler over it behind an httptest server.
type fixture struct {
	root    string
	engine  *workflow.Engine
	session *workflow.Session
	handler *Handler
	srv     *httptest.Server
}

func newFixture(t testing.TB, lifetime time.Duration) *fixture {
	t.Helper()
	root := t.TempDir()
	e := engineAt(t, root, "go test ./...")
	agent := workflow.Actor{Client: "claude-code"}
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "greet"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, s.Vars["spec_dir"], "tasks.md"), specTasks)
	write(t, filepath.Join(root, s.Vars["spec_dir"], "README.md"), "# Greet\n\nCoverage threshold: 80%\n")
	if s, err = e.Store().Update(s.ID, func(s *workflow.Session) error {
		for i := range s.Phases {
			s.Phases[i].Status = workflow.Done
		}
		s.Current = 4
		s.Phases[3].Status = workflow.Active
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f := &fixture{root: root, session: s}
	f.serve(t, e, lifetime)
	return f
}

// engineAt is the engine of a project at root, sessions signed with a
// test key, gates running testCommand.
func engineAt(t testing.TB, root, testCommand string) *workflow.Engine {
	t.Helper()
	p, _ := project.At(root)
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := workflow.LoadLibrary(builtin, nil)
	if err != nil {
		t.Fatal(err)
	}
	return workflow.NewEngine(lib, workflow.Settings{Root: root, StateDir: p.StateDir(), TestCommand: testCommand, CoverageFile: "c.out",
		Key: machinekey.New(bytes.Repeat([]byte{7}, 32))})
}

// serve puts a review handler over e behind a new test server.
func (f *fixture) serve(t testing.TB, e *workflow.Engine, lifetime time.Duration) {
	p, _ := project.At(f.root)
	f.engine = e
	f.handler = New(Options{Project: p, Engine: e, Key: "the-key", LinkLifetime: lifetime})
	f.srv = httptest.NewServer(f.handler)
	t.Cleanup(f.srv.Close)
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// link opens a review link for the test's duration.
func (f *fixture) link(t *testing.T) *Link {
	t.Helper()
	l, err := RequestLink(context.Background(), f.srv.URL, "the-key")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func token(l *Link) string { return l.URL[strings.Index(l.URL, "?t=")+3:] }

// page loads the page under l and returns its CSRF token.
func (f *fixture) page(t *testing.T, l *Link) string {
	t.Helper()
	resp, err := http.Get(f.srv.URL + Prefix + "?t=" + token(l))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("page: %d %s", resp.StatusCode, body)
	}
	const meta = `<meta name="review-csrf" content="`
	i := bytes.Index(body, []byte(meta))
	if i < 0 {
		t.Fatal("no CSRF token in the page")
	}
	return string(body[i+len(meta) : i+len(meta)+64])
}

type call struct {
	method, path, token, csrf, origin, site, ctype string
	body                                           any
}

func (f *fixture) do(t *testing.T, c call) (int, map[string]any) {
	t.Helper()
	var body io.Reader
	if c.body != nil {
		data, _ := json.Marshal(c.body)
		body = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(c.method, f.srv.URL+c.path, body)
	for k, v := range map[string]string{TokenHeader: c.token, CSRFHeader: c.csrf, "Origin": c.origin, "Sec-Fetch-Site": c.site, "Content-Type": c.ctype} {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// post sends a change the way the page does.
func (f *fixture) post(t *testing.T, tok, csrf, action string, body any) (int, map[string]any) {
	return f.do(t, call{method: "POST", path: apiPrefix + action, token: tok, csrf: csrf, origin: f.srv.URL, site: "same-origin", ctype: "application/json", body: body})
}

// Without a live token every path answers 401 and says nothing of the
// project; a link dies with the request that holds it.
func TestNoTokenNothingRevealed(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	if l.ExpiresAt.After(time.Now().Add(MaxGrantLifetime)) || l.ExpiresAt.Before(time.Now().Add(MaxGrantLifetime-time.Minute)) {
		t.Errorf("expires at %v, want 12 h from now", l.ExpiresAt)
	}
	for _, c := range []call{
		{method: "GET", path: Prefix},
		{method: "GET", path: Prefix + "?t=" + strings.Repeat("0", 64)},
		{method: "GET", path: apiPrefix + "state"},
		{method: "GET", path: apiPrefix + "state", token: "guess"},
		{method: "GET", path: apiPrefix + "session?id=" + f.session.ID, token: strings.ToUpper(token(l))},
		{method: "GET", path: Prefix + "elsewhere"},
		{method: "POST", path: apiPrefix + "approve", body: map[string]any{"session": f.session.ID}},
	} {
		code, out := f.do(t, c)
		msg, _ := out["error"].(string)
		if code != http.StatusUnauthorized || strings.Contains(msg, f.session.ID) || strings.Contains(msg, filepath.Base(f.root)) {
			t.Errorf("%s %s (token %q): %d %v", c.method, c.path, c.token, code, out)
		}
	}
	if code, out := f.do(t, call{method: "GET", path: apiPrefix + "state", token: token(l)}); code != 200 || len(out["sessions"].([]any)) != 1 {
		t.Fatalf("with the token: %d %v", code, out)
	}
	l.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, _ := f.do(t, call{method: "GET", path: apiPrefix + "state", token: token(l)})
		if code == http.StatusUnauthorized {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the token outlived its command: %d", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A link is asked for only with the key, never by a page, and ends on its
// own when its lifetime has passed.
func TestGrantNeedsKeyAndExpires(t *testing.T) {
	f := newFixture(t, 300*time.Millisecond)
	if _, err := RequestLink(context.Background(), f.srv.URL, "wrong"); err == nil || !strings.Contains(err.Error(), "auth token") {
		t.Errorf("wrong key: %v", err)
	}
	req, _ := http.NewRequest("POST", f.srv.URL+GrantPath, nil)
	req.Header.Set("Authorization", "Bearer the-key")
	req.Header.Set("Origin", f.srv.URL)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a page asking for a link: %v %v", resp, err)
	}
	if code, _ := f.do(t, call{method: "GET", path: GrantPath}); code != http.StatusMethodNotAllowed {
		t.Errorf("GET grant: %d", code)
	}
	l := f.link(t)
	if ended := l.Wait(); ended != GrantExpired {
		t.Errorf("Wait = %q, want %q", ended, GrantExpired)
	}
	if f.handler.grants.valid(token(l)) {
		t.Error("an expired token is still valid")
	}
}

func TestGrantsCapAndExpiry(t *testing.T) {
	now := time.Unix(1000, 0)
	g := newGrants(func() time.Time { return now })
	tok, exp, others, err := g.mint(24 * time.Hour)
	if err != nil || !exp.Equal(now.Add(MaxGrantLifetime)) || others != 0 {
		t.Fatalf("mint: %v %v", exp, err)
	}
	csrf, ok := g.newPage(tok)
	if !ok || !g.pageValid(tok, csrf) || g.pageValid(tok, "x"+csrf[1:]) || g.pageValid("other", csrf) {
		t.Error("page tokens")
	}
	for i := 1; i < maxGrants; i++ {
		if _, _, others, err := g.mint(time.Hour); err != nil || others != i {
			t.Fatalf("mint %d: %d others, %v", i, others, err)
		}
	}
	if _, _, _, err := g.mint(time.Hour); err == nil {
		t.Error("more than maxGrants links")
	}
	now = now.Add(MaxGrantLifetime)
	if g.valid(tok) || g.pageValid(tok, csrf) {
		t.Error("valid after 12 hours")
	}
	if _, _, _, err := g.mint(time.Hour); err != nil {
		t.Errorf("expired links still count: %v", err)
	}
}

// A change needs the page's CSRF token under the same live token, the
// page's own origin, and JSON; each alone is refused and changes nothing.
func TestChangesNeedCSRFAndSameOrigin(t *testing.T) {
	f := newFixture(t, 0)
	l, other := f.link(t), f.link(t)
	if l.OtherLinks != 0 || other.OtherLinks != 1 {
		t.Errorf("other links: %d, %d", l.OtherLinks, other.OtherLinks)
	}
	csrf, otherCSRF := f.page(t, l), f.page(t, other)
	body := map[string]any{"session": f.session.ID, "comment": "more tests"}
	good := call{method: "POST", path: apiPrefix + "request-changes", token: token(l), csrf: csrf, origin: f.srv.URL, site: "same-origin", ctype: "application/json", body: body}
	bad := map[string]func(c *call){
		"no CSRF token":             func(c *call) { c.csrf = "" },
		"another page's CSRF token": func(c *call) { c.csrf = otherCSRF },
		"no Origin":                 func(c *call) { c.origin = "" },
		"another loopback origin":   func(c *call) { c.origin = "http://127.0.0.1:1" },
		"a foreign origin":          func(c *call) { c.origin = "https://evil.example" },
		"a cross-site fetch":        func(c *call) { c.site = "cross-site" },
		"a form post":               func(c *call) { c.ctype = "application/x-www-form-urlencoded" },
		"the token of another link": func(c *call) { c.token = token(other) },
	}
	for name, spoil := range bad {
		c := good
		spoil(&c)
		if code, out := f.do(t, c); code != http.StatusForbidden {
			t.Errorf("%s: %d %v", name, code, out)
		}
	}
	if s, _ := f.engine.Get(f.session.ID); s.Changes != nil {
		t.Fatal("a refused request changed the session")
	}
	if code, out := f.do(t, good); code != 200 {
		t.Fatalf("the page's own request: %d %v", code, out)
	}
	if s, _ := f.engine.Get(f.session.ID); s.Changes == nil || s.Changes.Reason != "more tests" {
		t.Errorf("change request: %+v", s.Changes)
	}
}

// Approving from the page binds exactly what it showed: a spec changed
// since is refused, and the new version is what the page gets next; the
// approval recorded holds the hashes shown, made through the engine's
// approval (the terminal's), and keeps the bytes for the next diff.
func TestApproveBindsWhatWasShown(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	view := func() *sessionView {
		resp, _ := http.NewRequest("GET", f.srv.URL+apiPrefix+"session?id="+f.session.ID, nil)
		resp.Header.Set(TokenHeader, tok)
		r, err := http.DefaultClient.Do(resp)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var v sessionView
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil || v.Pending == nil {
			t.Fatalf("session view: %v %+v", err, v)
		}
		return &v
	}
	shown := view()
	readme := filepath.Join(f.root, f.session.Vars["spec_dir"], "README.md")
	write(t, readme, "# Greet\n\nCoverage threshold: 10%\n")
	code, out := f.post(t, tok, csrf, "approve", actionInput{Session: f.session.ID, Shown: shown.Pending.Binding})
	if code != http.StatusConflict || !strings.Contains(out["error"].(string), "README.md changed") {
		t.Fatalf("approve a stale view: %d %v", code, out)
	}
	if s, _ := f.engine.Get(f.session.ID); s.Approval != nil {
		t.Fatal("approved what was not shown")
	}
	shown = view()
	var text string
	for _, fv := range shown.Pending.Files {
		if strings.HasSuffix(fv.Path, "README.md") {
			text = fv.Text
		}
	}
	if !strings.Contains(text, "10%") {
		t.Fatalf("the page does not get the new version: %q", text)
	}
	if code, out := f.post(t, tok, csrf, "approve", map[string]any{"session": f.session.ID}); code != http.StatusBadRequest {
		t.Errorf("approve without what was shown: %d %v", code, out)
	}
	if code, out := f.post(t, tok, csrf, "approve", actionInput{Session: f.session.ID, Shown: shown.Pending.Binding, Comment: "ok"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	s, _ := f.engine.Get(f.session.ID)
	if s.Approval == nil || s.Approval.Via != workflow.ViaReviewPage || s.Approval.Note != "ok" || len(s.Binding.Changes(shown.Pending.Binding)) != 0 {
		t.Fatalf("recorded approval: %+v %+v", s.Approval, s.Binding)
	}
	audit, _ := f.engine.Store().ReadAudit(s.ID)
	if last := audit[len(audit)-1]; last.Action != "approve" || last.Actor != "agentos-review" {
		t.Errorf("audit: %+v", last)
	}

	// The next review shows the change against what was approved.
	write(t, readme, "# Greet\n\nCoverage threshold: 20%\n")
	spec, err := f.handler.spec(s.Vars["spec_dir"], s)
	if err != nil {
		t.Fatal(err)
	}
	for _, fv := range spec.Files {
		want := "unchanged"
		if strings.HasSuffix(fv.Path, "README.md") {
			want = "changed"
			if got, _ := json.Marshal(fv.Diff); !strings.Contains(string(got), `{"op":"-","text":"Coverage threshold: 10%"},{"op":"+","text":"Coverage threshold: 20%"}`) {
				t.Errorf("diff: %s (%s)", got, fv.Note)
			}
		}
		if fv.Status != want {
			t.Errorf("%s: %s, want %s", fv.Path, fv.Status, want)
		}
	}
}

// The overview lists the session with what waits for a person, and the
// standards with their keywords.
func TestOverview(t *testing.T) {
	f := newFixture(t, 0)
	write(t, filepath.Join(f.root, ".agentos", "standards", "development", "api.md"), "Keywords: api, versioning\n\n# API versioning\n")
	ov, err := f.handler.overview()
	if err != nil {
		t.Fatal(err)
	}
	if len(ov.Sessions) != 1 || ov.Sessions[0].Attention != needsApproval || ov.Sessions[0].Owner != "claude-code" {
		t.Errorf("sessions: %+v", ov.Sessions)
	}
	if len(ov.Standards) != 1 || ov.Standards[0].Title != "API versioning" || strings.Join(ov.Standards[0].Keywords, ",") != "api,versioning" {
		t.Errorf("standards: %+v", ov.Standards)
	}
	if len(ov.Specs) != 1 || ov.Specs[0].State != "not approved" {
		t.Errorf("specs: %+v", ov.Specs)
	}
	if ov.Settings != "" {
		t.Errorf("a project without a config has settings waiting: %s", ov.Settings)
	}
	// A config the person has not trusted is named on the page.
	t.Setenv("AGENTOS_CONFIG_HOME", t.TempDir())
	write(t, filepath.Join(f.root, ".agentos", "config", "mcp.yaml"), "server:\n  auth: none\n")
	if ov, err = f.handler.overview(); err != nil || !strings.Contains(ov.Settings, "server.auth in .agentos/config/mcp.yaml is not trusted") {
		t.Errorf("settings waiting for trust: %q %v", ov.Settings, err)
	}
}

func TestDiffLines(t *testing.T) {
	var old, now strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&old, "l%d\n", i)
		if i == 5 {
			now.WriteString("L5\n")
		} else {
			fmt.Fprintf(&now, "l%d\n", i)
		}
	}
	now.WriteString("l21\n")
	got, note := diffLines(old.String(), now.String())
	var b strings.Builder
	for _, l := range got {
		b.WriteString(l.Op + l.Text + "|")
	}
	if want := "…1 unchanged line|=l2|=l3|=l4|-l5|+L5|=l6|=l7|=l8|…9 unchanged lines|=l18|=l19|=l20|+l21|"; b.String() != want || note != "" {
		t.Errorf("diff = %s, want %s", b.String(), want)
	}
	if _, note := diffLines(strings.Repeat("x\n", 3000), strings.Repeat("y\n", 3000)); note == "" {
		t.Error("no note for a diff too large")
	}
	// A line changed in a 3,000-line file: only what lies between the
	// lines both versions begin and end with is diffed.
	var long strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&long, "r%d\n", i)
	}
	got, note = diffLines(long.String(), strings.Replace(long.String(), "r1500\n", "R1500\n", 1))
	b.Reset()
	for _, l := range got {
		b.WriteString(l.Op + l.Text + "|")
	}
	if want := "…1497 unchanged lines|=r1497|=r1498|=r1499|-r1500|+R1500|=r1501|=r1502|=r1503|…1496 unchanged lines|"; b.String() != want || note != "" {
		t.Errorf("a line changed in a long file: %s (%s)", b.String(), note)
	}
}

// A session changed outside agentos is accepted, or reset, from the page;
// rules changed under a session are confirmed as the page showed them.
func TestAcceptResetAndConfirmRules(t *testing.T) {
	f := newFixture(t, 0)
	id := f.session.ID
	edit := func(from, to int) {
		t.Helper()
		path := filepath.Join(f.root, ".agentos", "state", "workflows", id, "state.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(data), fmt.Sprintf(`"current_phase": %d`, from), fmt.Sprintf(`"current_phase": %d`, to), 1)
		if edited == string(data) {
			t.Fatalf("state.json has no current_phase %d", from)
		}
		write(t, path, edited)
	}
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	edit(4, 3)
	if v, err := f.handler.session(id); err != nil || v.Integrity == nil {
		t.Fatalf("an edited session: %v %+v", err, v)
	}
	if ov, _ := f.handler.overview(); ov.Sessions[0].Attention != needsIntegrity {
		t.Errorf("attention: %q", ov.Sessions[0].Attention)
	}
	if code, out := f.post(t, tok, csrf, "accept", actionInput{Session: id}); code != 200 {
		t.Fatalf("accept: %d %v", code, out)
	}
	if s, _ := f.engine.Get(id); s.Integrity != nil || s.Current != 3 {
		t.Errorf("after accept: %+v, phase %d", s.Integrity, s.Current)
	}
	if code, out := f.post(t, tok, csrf, "accept", actionInput{Session: id}); code != http.StatusConflict {
		t.Errorf("accepting an intact session: %d %v", code, out)
	}
	edit(3, 2)
	if code, out := f.post(t, tok, csrf, "reset", actionInput{Session: id}); code != 200 {
		t.Fatalf("reset: %d %v", code, out)
	}
	if s, _ := f.engine.Get(id); s.Integrity != nil || s.Current != 1 {
		t.Errorf("after reset: %+v, phase %d", s.Integrity, s.Current)
	}

	// The test command changes under the session.
	f.serve(t, engineAt(t, f.root, "true"), 0)
	l = f.link(t)
	tok, csrf = token(l), f.page(t, l)
	v, err := f.handler.session(id)
	if err != nil || v.Rules == nil || !strings.Contains(strings.Join(v.Rules.Changes, " "), "test_command") {
		t.Fatalf("rules changed: %v %+v", err, v)
	}
	stale := *v.Rules.Binding
	stale.SettingsSHA256 = strings.Repeat("0", 64)
	if code, out := f.post(t, tok, csrf, "confirm-rules", actionInput{Session: id, Shown: &stale}); code != http.StatusConflict || !strings.Contains(out["error"].(string), "nothing was confirmed") {
		t.Errorf("confirming rules not shown: %d %v", code, out)
	}
	if code, out := f.post(t, tok, csrf, "confirm-rules", actionInput{Session: id, Shown: v.Rules.Binding}); code != 200 {
		t.Fatalf("confirm-rules: %d %v", code, out)
	}
	if s, _ := f.engine.Get(id); s.RulesChanged != "" {
		t.Errorf("after confirming: %s", s.RulesChanged)
	}
	// Each is audited as the review page's, not the terminal's.
	audit, _ := f.engine.Store().ReadAudit(id)
	actors := map[string]string{}
	for _, l := range audit {
		actors[l.Action] = l.Actor
	}
	for _, action := range []string{"accept", "reset", "confirm_rules"} {
		if actors[action] != workflow.ReviewActor.String() {
			t.Errorf("%s is audited as %q", action, actors[action])
		}
	}
}

// While a gate of the project runs — here in another process, which holds
// its lock file — the page approves, confirms and accepts nothing, and
// leaves each attempt, as the review page's, for that process to audit.
func TestActionsRefusedWhileAGateRuns(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	v, err := f.handler.session(f.session.ID)
	if err != nil || v.Pending == nil {
		t.Fatalf("pending: %v %+v", err, v)
	}
	p, _ := project.At(f.root)
	lockPath := filepath.Join(p.Cache(), "gates", "spec-execution-20260101-abcdef")
	write(t, lockPath, "")
	gate := flock.New(lockPath)
	if err := gate.Lock(); err != nil {
		t.Fatal(err)
	}
	for _, action := range []string{"approve", "confirm-rules", "accept"} {
		code, out := f.post(t, tok, csrf, action, actionInput{Session: f.session.ID, Shown: v.Pending.Binding})
		if msg, _ := out["error"].(string); code != http.StatusForbidden || !strings.Contains(msg, "the gate of session spec-execution-20260101-abcdef is running") {
			t.Errorf("%s while a gate runs: %d %v", action, code, out)
		}
	}
	spool, _ := os.ReadFile(lockPath + ".refused")
	if n := strings.Count(string(spool), `"actor":"`+workflow.ReviewActor.String()+`"`); n != 3 {
		t.Errorf("%d refusals left as the review page's: %s", n, spool)
	}
	gate.Unlock()
	if code, out := f.post(t, tok, csrf, "approve", actionInput{Session: f.session.ID, Shown: v.Pending.Binding}); code != 200 {
		t.Fatalf("approving once the gate ended: %d %v", code, out)
	}
}

// A spec folder written without a session is approved from its own page,
// through the terminal's `--spec` approval, bound to what the page showed.
func TestApproveSpecFolder(t *testing.T) {
	f := newFixture(t, 0)
	write(t, filepath.Join(f.root, ".agentos", "specs", "billing", "README.md"), "# Billing\n\nCoverage threshold: 85%\n")
	write(t, filepath.Join(f.root, ".agentos", "specs", "billing", "tasks.md"), specTasks)
	write(t, filepath.Join(f.root, ".agentos", "specs", "billing", "z-huge.md"), strings.Repeat("x", maxShownBytes+1))
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	v, err := f.handler.specByName("billing")
	if err != nil || len(v.Files) != 3 || v.Files[0].Status != "new" || !strings.Contains(v.Describe, "85%") {
		t.Fatalf("spec view: %v %+v", err, v)
	}
	if huge := v.Files[2]; huge.Text != "" || !strings.Contains(huge.Note, "too large to show") || huge.SHA256 == "" {
		t.Errorf("a huge file: %+v", huge.Note)
	}
	if code, out := f.post(t, tok, csrf, "approve", actionInput{Spec: "../billing", Shown: v.Binding}); code != http.StatusBadRequest {
		t.Errorf("a path for a spec name: %d %v", code, out)
	}
	code, out := f.post(t, tok, csrf, "approve", actionInput{Spec: "billing", Shown: v.Binding})
	if code != 200 || !strings.Contains(out["message"].(string), "85%") {
		t.Fatalf("approve: %d %v", code, out)
	}
	rec, err := f.engine.SpecApproval("billing")
	if err != nil || rec == nil || rec.Via != workflow.ViaReviewPage || len(rec.Binding.Changes(v.Binding)) != 0 {
		t.Fatalf("record: %v %+v", err, rec)
	}
	if ov, _ := f.handler.overview(); len(ov.Specs) != 2 || ov.Specs[1].Name != "billing" || ov.Specs[1].State != "approved" {
		t.Errorf("specs: %+v", ov.Specs)
	}
}

// The page is whole under its Content-Security-Policy: every script and
// style carries the response's nonce, and nothing is loaded from elsewhere
// — its icon included, a data: image the policy's img-src allows.
func TestPageRunsUnderItsPolicy(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	resp, err := http.Get(f.srv.URL + Prefix + "?t=" + token(l))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	nonce := regexp.MustCompile(`'nonce-([0-9a-f]+)'`).FindStringSubmatch(csp)
	if nonce == nil || !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "img-src 'self' data:") {
		t.Fatalf("policy: %q", csp)
	}
	page := string(body)
	for _, tag := range regexp.MustCompile(`<(script|style)\b[^>]*>`).FindAllString(page, -1) {
		if !strings.Contains(tag, `nonce="`+nonce[1]+`"`) {
			t.Errorf("%s runs without the nonce", tag)
		}
	}
	for _, m := range regexp.MustCompile(`\b(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if u := m[1]; !strings.HasPrefix(u, "#") && !strings.HasPrefix(u, "data:image/svg+xml,") {
			t.Errorf("the page loads %q", u)
		}
	}
	if !regexp.MustCompile(`<link rel="icon" href="data:image/svg\+xml,`).MatchString(page) {
		t.Error("the page has no icon")
	}
}
