package gates

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestEvidence(t *testing.T) {
	root := project(t, map[string]string{"out/report.txt": "ok\n", "out/empty.txt": ""})
	fields := []EvidenceField{
		{Name: "summary", Type: EvidenceString, MinLength: 10, Description: "what changed and why"},
		{Name: "tests_run", Type: EvidenceNumber},
		{Name: "reviewed", Type: EvidenceBoolean},
		{Name: "files", Type: EvidenceList, MinItems: 2},
		{Name: "report", Type: EvidenceFile},
		{Name: "notes", Type: EvidenceString, Required: ptr(false)},
	}
	good := `{"summary": "Added the login endpoint and its tests.", "tests_run": 12, "reviewed": false,
		"files": ["a.go", "b.go"], "report": "out/report.txt"}`
	tests := []struct {
		name     string
		evidence string
		errors   map[string]string // field -> problem substring
		warnings int
	}{
		{name: "valid", evidence: good},
		{name: "optional given", evidence: strings.Replace(good, "{", `{"notes": "n",`, 1)},
		{name: "unused key warns", evidence: strings.Replace(good, "{", `{"approved": true,`, 1), warnings: 1},
		{name: "all missing", evidence: `{}`, errors: map[string]string{"summary": "missing", "tests_run": "missing",
			"reviewed": "missing", "files": "missing", "report": "missing"}},
		{name: "wrong types", evidence: `{"summary": 5, "tests_run": "12", "reviewed": "yes", "files": "a.go", "report": 3}`,
			errors: map[string]string{"summary": "not a string but a number", "tests_run": "not a number but a string",
				"reviewed": "not true or false but a string", "files": "not a list but a string", "report": "not a path but a number"}},
		{name: "too short and padded", evidence: strings.NewReplacer(`"Added the login endpoint and its tests."`, `"   short   "`,
			`["a.go", "b.go"]`, `["a.go", "  ", null]`).Replace(good),
			errors: map[string]string{"summary": "only 5 characters long", "files": "a list of 1 non-blank item"}},
		{name: "short token answer", evidence: strings.Replace(good, `"Added the login endpoint and its tests."`, `"     done.    "`, 1),
			errors: map[string]string{"summary": "only 5 characters long"}},
		{name: "long token answer", evidence: strings.Replace(good, `"Added the login endpoint and its tests."`, `"All tests pass!"`, 1),
			errors: map[string]string{"summary": "a token answer"}},
		{name: "blank", evidence: strings.Replace(good, `"Added the login endpoint and its tests."`, `"  \n\t "`, 1),
			errors: map[string]string{"summary": "blank"}},
		{name: "filler", evidence: strings.Replace(good, `"Added the login endpoint and its tests."`, `"done done done done done done"`, 1),
			errors: map[string]string{"summary": "filler"}},
		{name: "file problems", evidence: strings.Replace(good, `"out/report.txt"`, `"../etc/passwd"`, 1),
			errors: map[string]string{"report": "outside the project"}},
		{name: "empty file", evidence: strings.Replace(good, `"out/report.txt"`, `"out/empty.txt"`, 1),
			errors: map[string]string{"report": "out/empty.txt is empty"}},
		{name: "missing file", evidence: strings.Replace(good, `"out/report.txt"`, `"out/nope.txt"`, 1),
			errors: map[string]string{"report": "out/nope.txt is missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ev map[string]any
			if err := json.Unmarshal([]byte(tt.evidence), &ev); err != nil {
				t.Fatal(err)
			}
			r := runCheck(t, Check{Type: TypeEvidence, Fields: fields}, Env{Root: root, Evidence: ev})
			if r.Passed != (len(tt.errors) == 0) {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			d := r.Details.(EvidenceDetails)
			if len(d.Errors) != len(tt.errors) {
				t.Fatalf("errors %+v, want %v", d.Errors, tt.errors)
			}
			for _, e := range d.Errors {
				if want, ok := tt.errors[e.Field]; !ok || !strings.Contains(e.Problem, want) {
					t.Errorf("field %s: %q, want %q", e.Field, e.Problem, want)
				}
			}
			if len(r.Warnings) != tt.warnings {
				t.Errorf("warnings %q", r.Warnings)
			}
		})
	}
}

func TestEvidenceMessages(t *testing.T) {
	root := project(t, nil)
	fields := []EvidenceField{{Name: "summary", Type: EvidenceString, MinLength: 20, Description: "what changed and why."}}
	r := runCheck(t, Check{Type: TypeEvidence, Fields: fields}, Env{Root: root, Evidence: map[string]any{"summary": "ok"}})
	if r.Message != "The evidence field summary is not acceptable: only 2 characters long." {
		t.Errorf("message %q", r.Message)
	}
	if r.Remediation != "Supply summary as a string of at least 20 characters (what changed and why) (now: only 2 characters long)." {
		t.Errorf("remediation %q", r.Remediation)
	}
	r = runCheck(t, Check{Type: TypeEvidence, Fields: append(fields, EvidenceField{Name: "n", Type: EvidenceNumber})}, Env{Root: root})
	if r.Message != "2 of 2 evidence fields are missing or invalid: summary, n." {
		t.Errorf("message %q", r.Message)
	}
	contains(t, "remediation", r.Remediation, "Supply summary as", "now: missing", "fix the other fields listed in details")
}

func TestCheckText(t *testing.T) {
	for _, s := range []string{"Done!", "N/A", "yes", "LGTM", "all tests pass", "aaaaaaaaaaaaaa", "ok ok ok ok ok ok", "..........."} {
		if checkText(s+strings.Repeat(" ", 10), 3, true) == "" && checkText(s, 10, true) == "" {
			t.Errorf("%q was accepted as a 10-character answer", s)
		}
	}
	for _, s := range []string{"Fixed the race in the session store.", "https://example.com/pr/1", "ok"} {
		if p := checkText(s, 2, true); p != "" {
			t.Errorf("%q refused: %s", s, p)
		}
	}
}

func TestApproval(t *testing.T) {
	root := project(t, nil)
	at := time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)
	c := Check{Type: TypeApproval}

	r := runCheck(t, c, Env{Root: root, Approved: &Approval{By: "ana", At: at, Note: "ship it"}})
	if !r.Passed || r.Message != "Approved by ana on 2026-11-22 10:30 UTC." {
		t.Errorf("%+v", r)
	}
	if d := r.Details.(ApprovalDetails); !d.Approved || d.By != "ana" || d.Note != "ship it" {
		t.Errorf("details %+v", d)
	}
	// Nothing an agent can put in evidence approves a phase.
	for _, ev := range []map[string]any{nil, {"approved": true}, {"approval": map[string]any{"by": "ana", "at": at.String()}}, {"approved_by": "ana"}} {
		r := runCheck(t, c, Env{Root: root, Evidence: ev})
		if r.Passed {
			t.Errorf("evidence %v approved the phase", ev)
		}
		contains(t, "remediation", r.Remediation, "an agent cannot approve it")
	}
}
