package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A quick change and a bug fix, once complete, are living specs like a
// finished spec_execution_v1: their criteria, read from change.md or
// bug.md, are traced to the tests that proved them, `agentos specs` lists
// them, a check finds them holding, and a real regression drifts them.

func TestLightPathsLiveOnQuickChange(t *testing.T) {
	long(t) // the fast run has a living spec end to end (TestLivingSpecImpactAndForgedEvidence)
	t.Parallel()
	root, c, passed, answer := quickRun(t, goLight(), greetGo)
	if !passed {
		t.Fatalf("the quick change did not complete: %s", answer)
	}
	spec := filepath.Base(filepath.Dir(mustGlob(t, filepath.Join(root, ".agentos", "specs", "*", "change.md"))))
	lightEvidence(t, root, spec, "quick_change_v1", "change.md", "AC-greet-empty-1", "TestGreetEmpty")

	// Converge repairs a spec through tasks.md; this one has none.
	if _, errText := wf(t, c, map[string]any{"action": "converge_spec", "options": map[string]any{"spec": spec}}); !strings.Contains(errText, "start bugfix_v1") {
		t.Fatalf("converge of a quick change: %q", errText)
	}
}

func TestLightPathsLiveOnBugfix(t *testing.T) {
	long(t) // the fast run has a living spec end to end (TestLivingSpecImpactAndForgedEvidence)
	t.Parallel()
	root := bugfixHonest(t, goLight(), false)
	spec := filepath.Base(filepath.Dir(mustGlob(t, filepath.Join(root, ".agentos", "specs", "*", "bug.md"))))
	lightEvidence(t, root, spec, "bugfix_v1", "bug.md", "AC-empty-name-1", "TestGreetEmpty")
}

// lightEvidence checks the record of a finished light path and its life:
// listed, holding, then drifted by putting greet.go back as it was.
func lightEvidence(t *testing.T, root, spec, workflow, source, id, test string) {
	t.Helper()
	var rec struct {
		Workflow string `json:"workflow"`
		Source   string `json:"source"`
		Criteria []struct {
			ID    string `json:"id"`
			Tests []struct {
				Name, File string
				Proven     bool
			} `json:"tests"`
		} `json:"criteria"`
	}
	data := readFile(t, filepath.Join(root, ".agentos", "state", "living", spec+".json"))
	if err := json.Unmarshal([]byte(data), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Workflow != workflow || rec.Source != source || len(rec.Criteria) != 1 || rec.Criteria[0].ID != id ||
		len(rec.Criteria[0].Tests) != 1 || rec.Criteria[0].Tests[0].Name != test || !rec.Criteria[0].Tests[0].Proven {
		t.Fatalf("evidence of %s: %s", spec, data)
	}
	specs, _ := specsJSON(t, root)
	if len(specs) != 1 || specs[0].Spec != spec || specs[0].State != "unchecked" {
		t.Fatalf("agentos specs after completion: %+v", specs)
	}
	checkSpecs(t, root, "holding", "an untouched "+workflow)
	write(t, root, "greet.go", goLight().files["greet.go"])
	specs = checkSpecs(t, root, "drifted", "a regression of "+workflow)
	if st, tc, failure := criterion(t, specs[0], id); st != "drifted" || !strings.Contains(tc, test) || !strings.Contains(failure, "want the world") {
		t.Fatalf("%s: %s / %s / %s", id, st, tc, failure)
	}
}

func mustGlob(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) != 1 {
		t.Fatalf("%s: %v %v", pattern, m, err)
	}
	return m[0]
}
