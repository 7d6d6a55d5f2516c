package review

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
)

// After a request for changes and the agent's revision, each file shows
// what changed against the version the person rejected; approving keeps a
// history (who, when, how, the hashes) whose newest entry still shows the
// diff just approved. The spec's page names the session waiting on it, so
// its Approve is the session's.
func TestChangesSinceYouLooked(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	id, dir := f.session.ID, f.session.Vars["spec_dir"]
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
	var first specView
	get("spec?name="+filepath.Base(dir), &first)
	if first.Waiting != id {
		t.Errorf("the spec's page does not name the session waiting on it: %q", first.Waiting)
	}
	for _, fv := range first.Files {
		if fv.Status != "new" {
			t.Errorf("before any decision %s is %s", fv.Path, fv.Status)
		}
	}
	if code, out := f.post(t, tok, csrf, "request-changes", actionInput{Session: id, Shown: first.Binding, Comment: "Threshold 90."}); code != 200 {
		t.Fatalf("request changes: %d %v", code, out)
	}
	readme := filepath.Join(f.root, dir, "README.md")
	write(t, readme, "# Greet\n\nCoverage threshold: 90%\n")

	var sv sessionView
	get("session?id="+id, &sv)
	if sv.Pending == nil || !strings.Contains(sv.Pending.Against, "the version you asked changes on") {
		t.Fatalf("after the revision the spec is compared with %+v", sv.Pending)
	}
	for _, fv := range sv.Pending.Files {
		want := "unchanged"
		if strings.HasSuffix(fv.Path, "README.md") {
			want = "changed"
			if got, _ := json.Marshal(fv.Diff); !strings.Contains(string(got), `{"op":"-","text":"Coverage threshold: 80%"},{"op":"+","text":"Coverage threshold: 90%"}`) {
				t.Errorf("the diff against the rejected version: %s (%s)", got, fv.Note)
			}
		}
		if fv.Status != want {
			t.Errorf("after the revision %s is %s, want %s", fv.Path, fv.Status, want)
		}
	}

	if code, out := f.post(t, tok, csrf, "approve", actionInput{Session: id, Shown: sv.Pending.Binding, Comment: "Good."}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	var after specView
	get("spec?name="+filepath.Base(dir), &after)
	for _, fv := range after.Files {
		if fv.Status != "unchanged" {
			t.Errorf("after the approval %s is %s", fv.Path, fv.Status)
		}
	}
	if len(after.History) != 2 {
		t.Fatalf("history: %+v", after.History)
	}
	approved, rejected := after.History[0], after.History[1]
	if approved.Action != decidedApproved || approved.Via != "review page" || approved.Comment != "Good." || approved.By == "" || len(approved.Files) != 2 {
		t.Errorf("the approval in the history: %+v", approved)
	}
	if len(approved.Changed) != 1 || !strings.HasSuffix(approved.Changed[0].Path, "README.md") || len(approved.Changed[0].Diff) == 0 {
		t.Errorf("the approval's entry does not show the diff it approved: %+v", approved.Changed)
	}
	if rejected.Action != decidedChanges || rejected.Comment != "Threshold 90." || len(rejected.Changed) != 2 {
		t.Errorf("the request for changes in the history: %+v", rejected)
	}
	if after.Waiting != id {
		t.Errorf("approved but not completed: the session still waits (%q)", after.Waiting)
	}
}

// Marking a version as seen is no decision: it leaves the drafts and the
// session as they are, and the next look compares each file with it. A
// version that changed since the page showed it is not marked.
func TestMarkedAsSeen(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	tok, csrf := token(l), f.page(t, l)
	dir := f.session.Vars["spec_dir"]
	name := filepath.Base(dir)
	spec := func() specView {
		t.Helper()
		req, _ := http.NewRequest("GET", f.srv.URL+apiPrefix+"spec?name="+name, nil)
		req.Header.Set(TokenHeader, tok)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var v specView
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	draft := []lineComment{{ID: "c1", LineComment: workflow.LineComment{File: dir + "/README.md", Line: 1, EndLine: 1, Text: "Name it."}}}
	if code, out := f.post(t, tok, csrf, "draft", actionInput{Spec: name, Comments: draft, UpdatedAt: 1}); code != 200 {
		t.Fatalf("draft: %d %v", code, out)
	}
	shown := spec()
	readme := filepath.Join(f.root, dir, "README.md")
	write(t, readme, "# Greet\n\nCoverage threshold: 85%\n")
	if code, out := f.post(t, tok, csrf, "seen", actionInput{Spec: name, Shown: shown.Binding}); code != http.StatusConflict || !strings.Contains(out["error"].(string), "changed since the page showed it") {
		t.Fatalf("a version changed since it was shown was marked as seen: %d %v", code, out)
	}
	shown = spec()
	if code, out := f.post(t, tok, csrf, "seen", actionInput{Spec: name, Shown: shown.Binding}); code != 200 || !strings.Contains(out["message"].(string), "Marked as seen") {
		t.Fatalf("seen: %d %v", code, out)
	}
	write(t, readme, "# Greet\n\nCoverage threshold: 90%\n")
	after := spec()
	if !strings.HasPrefix(after.Against, "the version you marked as seen") {
		t.Errorf("compared with %q", after.Against)
	}
	for _, fv := range after.Files {
		want := "unchanged"
		if strings.HasSuffix(fv.Path, "README.md") {
			want = "changed"
			if got, _ := json.Marshal(fv.Diff); !strings.Contains(string(got), `{"op":"-","text":"Coverage threshold: 85%"},{"op":"+","text":"Coverage threshold: 90%"}`) {
				t.Errorf("the diff against the version seen: %s (%s)", got, fv.Note)
			}
		}
		if fv.Status != want {
			t.Errorf("%s is %s, want %s", fv.Path, fv.Status, want)
		}
	}
	if len(after.History) != 1 || after.History[0].Action != decidedSeen {
		t.Errorf("history: %+v", after.History)
	}
	if d, err := f.handler.drafts.of(name); err != nil || len(d.Comments) != 1 {
		t.Errorf("marking as seen emptied the drafts: %+v %v", d, err)
	}
	if s, err := f.engine.Store().Get(f.session.ID); err != nil || s.Changes != nil || s.Approval != nil {
		t.Errorf("marking as seen decided something: %v %+v", err, s)
	}
}

// Decisions made in the terminal join the page's history, once each: a
// request for changes, then the approval, which the spec's approval
// record also holds.
func TestTerminalDecisionsInTheHistory(t *testing.T) {
	f := newFixture(t, 0)
	l := f.link(t)
	tok := token(l)
	dir := f.session.Vars["spec_dir"]
	p, _ := project.At(f.root)
	ann := workflow.Approver{By: "ann", Via: workflow.ViaTerminal, Actor: workflow.CLIActor}
	if _, err := f.engine.Reject(f.session.ID, ann, "Threshold 90."); err != nil {
		t.Fatal(err)
	}
	if err := RecordTerminalDecision(p, f.engine, dir, false, ann, "Threshold 90.", f.session.ID, nil); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.root, dir, "README.md"), "# Greet\n\nCoverage threshold: 90%\n")
	shown, err := f.engine.BindingFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.engine.ApproveSpec(filepath.Base(dir), ann, "Good.", shown); err != nil {
		t.Fatal(err)
	}
	if err := RecordTerminalDecision(p, f.engine, dir, true, ann, "Good.", "", shown); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", f.srv.URL+apiPrefix+"spec?name="+filepath.Base(dir), nil)
	req.Header.Set(TokenHeader, tok)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var v specView
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	if len(v.History) != 2 {
		t.Fatalf("history: %+v", v.History)
	}
	approved, rejected := v.History[0], v.History[1]
	if approved.Action != decidedApproved || approved.Via != workflow.ViaTerminal || approved.By != "ann" || approved.Comment != "Good." {
		t.Errorf("the terminal's approval: %+v", approved)
	}
	if len(approved.Changed) != 1 || !strings.HasSuffix(approved.Changed[0].Path, "README.md") || len(approved.Changed[0].Diff) == 0 {
		t.Errorf("the approval's entry does not show what changed since the request: %+v", approved.Changed)
	}
	if rejected.Action != decidedChanges || rejected.Comment != "Threshold 90." || rejected.Via != workflow.ViaTerminal {
		t.Errorf("the terminal's request for changes: %+v", rejected)
	}
}
