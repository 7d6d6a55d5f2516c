package review

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// A gate's proofs and regressions reach the page with each criterion's
// text, looked up in the spec's tasks.md when the proofs do not carry it,
// and as JSON in which nothing an agent wrote is HTML: a failure line with
// a <script> arrives escaped, and the page puts it in as text.
func TestGateEvidenceReachesThePage(t *testing.T) {
	f := newFixture(t, 0)
	tasks := f.session.Vars["spec_dir"] + "/tasks.md"
	const attack = `greet_test.go:8: Greet("") = "", want "<script>alert(1)</script>"`
	report := &workflow.GateReport{At: time.Now(), Checks: []gates.Result{
		{Type: "command", Message: "1 earlier test no longer holds.", Details: gates.CommandDetails{Command: "go test ./...", Earlier: 2, Regressions: []gates.Regression{
			{Test: "TestOld</td><img src=x>", Now: "fails now", Failure: attack},
		}}},
		{Type: "acceptance_criteria", Message: "1 of 3 criteria proven.", Details: gates.CriteriaDetails{File: tasks, Criteria: 3,
			Untraced: []gates.CriterionRef{{Task: "9.9", ID: "AC-9.9.9", Text: "as the gate read it", Line: 3}},
			Proofs: []gates.Proof{
				{ID: "AC-1.1.1", Test: "TestGreet (greet_test.go:6)", Before: "failed", Failure: attack, After: gates.TestPassed, Proven: true},
				{ID: "AC-9.9.9", Test: "TestNine (nine_test.go:3)", Before: "passed", After: gates.TestPassed},
				{ID: "AC-7.7.7", Test: "TestSeven (seven_test.go:3)", Before: "did not run (it did not build, or was not collected)", After: gates.TestPassed},
			},
			Emptied: []string{"greet.go: Greet"}}},
	}}
	if _, err := f.engine.Store().Update(f.session.ID, func(s *workflow.Session) error {
		s.Phases[0].LastGate = report
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	l := f.link(t)
	req, _ := http.NewRequest("GET", f.srv.URL+apiPrefix+"session?id="+f.session.ID, nil)
	req.Header.Set(TokenHeader, token(l))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("session: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	for _, raw := range []string{"<script>", "</td>", "<img"} {
		if strings.Contains(string(body), raw) {
			t.Errorf("the session view carries %q unescaped", raw)
		}
	}
	if !strings.Contains(string(body), `\u003cscript\u003ealert(1)\u003c/script\u003e`) {
		t.Errorf("the failure line is not in the view, escaped: %s", body)
	}
	var v sessionView
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"ac-1.1.1": `Greet returns "hello, NAME"`, "ac-9.9.9": "as the gate read it"}
	if len(v.Criteria) != len(want) {
		t.Errorf("criteria texts: %q, want %q", v.Criteria, want)
	}
	for id, text := range want {
		if v.Criteria[id] != text {
			t.Errorf("criterion %s: %q, want %q", id, v.Criteria[id], text)
		}
	}
	got, _ := json.Marshal(v.Session.Phases[0].LastGate.Checks)
	for _, s := range []string{`"failure":` + jsonString(attack), `"earlier_tests":2`, `"now":"fails now"`, `"proven":true`, `"emptied":["greet.go: Greet"]`} {
		if !strings.Contains(string(got), s) {
			t.Errorf("the checks lack %s: %s", s, got)
		}
	}

	// The page shows them: the table, the marks, the earlier tests, and
	// nothing from the server goes in as HTML.
	page, err := pageFS.ReadFile("page/review.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"proofsView", `"failed before"`, `"passes now"`, `"✓ proven"`, `"✗ not proven"`, "Earlier tests that no longer hold", `" earlier tests still hold"`, "Functions emptied"} {
		if !strings.Contains(string(page), s) {
			t.Errorf("review.js lacks %s", s)
		}
	}
	for _, s := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser", "createContextualFragment"} {
		if strings.Contains(string(page), s) {
			t.Errorf("review.js uses %s: text from the server must go in as text", s)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The criteria's texts are read only from a regular file inside the
// project: not through a path out of it, nor a link.
func TestProjectFileStaysInside(t *testing.T) {
	f := newFixture(t, 0)
	outside := filepath.Join(t.TempDir(), "tasks.md")
	write(t, outside, specTasks)
	write(t, filepath.Join(f.root, "in.md"), specTasks)
	if err := os.Symlink(outside, filepath.Join(f.root, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(f.root, "dirlink")); err != nil {
		t.Fatal(err)
	}
	if f.handler.projectFile("in.md") == nil {
		t.Error("a file inside the project is not read")
	}
	rel, _ := filepath.Rel(f.root, outside)
	for _, p := range []string{rel, outside, "link.md", "dirlink/tasks.md", ".", ""} {
		if f.handler.projectFile(p) != nil {
			t.Errorf("%s is read", p)
		}
	}
}
