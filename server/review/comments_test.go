package review

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/workflow"
)

// The person's comments on lines are drafts kept on the server, per spec,
// until they go with a request for changes: a refused request keeps them,
// a new handler (a restarted server) finds them. Sent, they reach the
// session's change request quoted, the drafts are emptied, and the spec's
// next revision shows each comment open (its line still reads so, maybe
// moved) or resolved (changed or gone).
func TestCommentsOnLines(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	id, dir := f.session.ID, f.session.Vars["spec_dir"]
	spec := filepath.Base(dir)
	readme, tasks := dir+"/README.md", dir+"/tasks.md"
	get := func(path string, v any) {
		t.Helper()
		req, _ := http.NewRequest("GET", f.srv.URL+apiPrefix+path, nil)
		req.Header.Set(TokenHeader, tok)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		if err := json.NewDecoder(r.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	drafted := func() *draft {
		t.Helper()
		var out struct{ Draft *draft }
		get("drafts?spec="+spec, &out)
		return out.Draft
	}
	c := func(id, file string, line, end int, quote, text string) lineComment {
		return lineComment{ID: id, LineComment: workflow.LineComment{File: file, Line: line, EndLine: end, Quote: quote, Text: text}}
	}
	comments := []lineComment{
		c("a", readme, 3, 0, "Coverage threshold: 80%", "Why 80?"),
		c("b", tasks, 5, 6, "- [ ] 1.1 Write the greeting function\n  - Add Greet to greet.go", "Split it."),
		c("c", tasks, 1, 0, "# Tasks", "Keep this title."),
	}
	if code, out := f.post(t, tok, csrf, "draft", actionInput{Spec: spec, Comment: "See the lines.", Comments: comments, UpdatedAt: 42}); code != 200 {
		t.Fatalf("keep a draft: %d %v", code, out)
	}
	if code, _ := f.post(t, tok, csrf, "draft", actionInput{Spec: "../x", Comment: "no"}); code != 400 {
		t.Errorf("a draft on a spec named ../x: %d", code)
	}
	// A restarted server finds the drafts.
	f.serve(t, f.engine, 0)
	l = f.link(t)
	tok, csrf = token(l), f.page(t, l)
	if d := drafted(); d == nil || d.UpdatedAt != 42 || d.Comment != "See the lines." || len(d.Comments) != 3 || d.Comments[1].EndLine != 6 {
		t.Fatalf("after a restart the drafts are %+v", d)
	}

	var sv sessionView
	get("session?id="+id, &sv)
	// A comment on a line that reads otherwise now: nothing is sent, the
	// drafts stay.
	stale := append([]lineComment{c("d", readme, 1, 0, "# Hello", "Title?")}, comments...)
	if code, out := f.post(t, tok, csrf, "request-changes", actionInput{Session: id, Shown: sv.Pending.Binding, Comment: "See the lines.", Comments: stale}); code != 409 || !strings.Contains(out["error"].(string), "changed since you commented") {
		t.Fatalf("a stale comment: %d %v", code, out)
	}
	if s, _ := f.engine.Get(id); s.Changes != nil || drafted() == nil {
		t.Fatalf("a refused request changed something: %+v", s.Changes)
	}
	if code, out := f.post(t, tok, csrf, "request-changes", actionInput{Session: id, Shown: sv.Pending.Binding, Comments: comments}); code != 200 || !strings.Contains(out["message"].(string), "3 comments on lines") {
		t.Fatalf("request changes: %d %v", code, out)
	}
	s, _ := f.engine.Get(id)
	if s.Changes == nil || len(s.Changes.Comments) != 3 || s.Changes.Comments[1].Quote != comments[1].Quote || s.Changes.Comments[0].Text != "Why 80?" {
		t.Fatalf("the session's change request: %+v", s.Changes)
	}
	if d := drafted(); d != nil {
		t.Errorf("the drafts outlived the request: %+v", d)
	}

	// Before the revision every comment is open; after it, the changed
	// line is resolved, the moved one open at its new place.
	var before specView
	get("spec?name="+spec, &before)
	if len(before.Comments) != 3 || !before.Comments[0].Open || !before.Comments[1].Open || before.Commented == nil {
		t.Fatalf("before the revision: %+v", before.Comments)
	}
	write(t, filepath.Join(f.root, readme), "# Greet\n\nCoverage threshold: 90%\n")
	write(t, filepath.Join(f.root, tasks), "# Tasks\n\nIntro.\n\n## Phase 1: Greeting\n\n- [ ] 1.1 Write the greeting function\n  - Add Greet to greet.go\n")
	var after specView
	get("spec?name="+spec, &after)
	want := []struct {
		open bool
		now  int
		why  string
	}{{false, 0, whyChanged}, {true, 7, whyMoved + "7"}, {true, 1, whyOpen}}
	for i, w := range want {
		if got := after.Comments[i]; got.Open != w.open || got.Now != w.now || got.Why != w.why {
			t.Errorf("comment %d after the revision: %+v, want %+v", i, got, w)
		}
	}
	if len(after.History) == 0 || len(after.History[0].Comments) != 3 {
		t.Errorf("the history does not keep the comments: %+v", after.History)
	}
}

func TestResolve(t *testing.T) {
	lc := func(line, end int, quote string) workflow.LineComment {
		return workflow.LineComment{File: "f", Line: line, EndLine: end, Quote: quote}
	}
	text := "a\nb\nc\nb\n"
	for _, c := range []struct {
		c    workflow.LineComment
		open bool
		now  int
	}{
		{lc(2, 2, "b"), true, 2},
		{lc(3, 3, "b"), true, 2}, // the nearest, above first
		{lc(9, 9, "c"), true, 3}, // past the end
		{lc(1, 2, "a\nb"), true, 1},
		{lc(1, 2, "a\nc"), false, 0},
		{lc(1, 1, "a…"), true, 1}, // cut short: only its place
		{lc(2, 2, "a…"), false, 0},
	} {
		got := resolve([]workflow.LineComment{c.c}, map[string]string{"f": text})[0]
		if got.Open != c.open || got.Now != c.now {
			t.Errorf("%+v: open %v at %d", c.c, got.Open, got.Now)
		}
	}
	if got := resolve([]workflow.LineComment{lc(1, 1, "a")}, nil)[0]; got.Open || got.Why != whyVanished {
		t.Errorf("in a file gone: %+v", got)
	}
}
