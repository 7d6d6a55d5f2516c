package review

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/agentos-dev/agentos/workflow"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// The page shows a test file a gate's proof names, to read beside the
// criterion it proves, and no other file of the project.
func TestTestSourceOnlyWhatAProofNames(t *testing.T) {
	f := newFixture(t, 0)
	write(t, filepath.Join(f.root, "greet_test.go"), "package greet\n\n// AC-1\nfunc TestGreet(t *testing.T) {}\n")
	write(t, filepath.Join(f.root, "secret.txt"), "no\n")
	proof := gates.Result{Type: "acceptance_criteria", Details: gates.CriteriaDetails{Proofs: []gates.Proof{{ID: "AC-1", Test: "TestGreet (greet_test.go:4)", Before: "failed", After: "pass", Proven: true}}}}
	if _, err := f.engine.Store().Update(f.session.ID, func(s *workflow.Session) error {
		s.EarlierGates = map[int][]workflow.GateReport{1: {{Checks: []gates.Result{proof}}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	l := f.link(t)
	tok := token(l)
	for file, want := range map[string]int{"greet_test.go": 200, "secret.txt": 404, "../greet_test.go": 404} {
		code, out := f.do(t, call{method: "GET", path: apiPrefix + "source?session=" + f.session.ID + "&file=" + file, token: tok})
		if code != want {
			t.Errorf("%s: %d %v, want %d", file, code, out, want)
		}
		if code == http.StatusOK && out["text"] != "package greet\n\n// AC-1\nfunc TestGreet(t *testing.T) {}\n" {
			t.Errorf("%s: %v", file, out)
		}
	}
}
