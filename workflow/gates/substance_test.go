package gates

import (
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/workflow/gates/internal/english"
)

// fixtureSections splits a fixture file into its "## Heading" sections.
func fixtureSections(t *testing.T, file string) (names []string, lines []int, bodies [][]mdLine) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	all := splitMarkdown(src)
	for i, l := range all {
		if l.level != 2 {
			continue
		}
		end := i + 1
		for end < len(all) && all[end].level != 2 {
			end++
		}
		names, lines, bodies = append(names, l.heading), append(lines, l.num), append(bodies, contentLines(all[i+1:end]))
	}
	return names, lines, bodies
}

// allTemplates is the 5-grams of every spec template: a fixture's guidance may
// come from any of them.
func allTemplates(t *testing.T) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	for _, name := range TemplateNames() {
		src, err := specTemplate(name)
		if err != nil {
			t.Fatal(err)
		}
		maps.Copy(set, templateShingles(src))
	}
	return set
}

// fixtureMinWords mirrors the minimums of spec_creation_v1's workflow.yaml.
var fixtureMinWords = map[string]int{"Objectives": 12, "Functional requirements": 20, "Constraints": 3, "Overview": 20,
	"Components and data flow": 15, "Failure handling": 15, "Testing strategy": 15, "Approach": 15}

// TestSubstanceFixtures checks the thresholds on honest and cheating sections:
// the tune set they were chosen on, and a held-out set written after and never
// tuned on.
func TestSubstanceFixtures(t *testing.T) {
	template := allTemplates(t)
	for _, set := range []string{"tune", "heldout"} {
		for _, kind := range []string{"honest", "cheat"} {
			file := "testdata/substance/" + set + "-" + kind + ".md"
			names, lines, bodies := fixtureSections(t, file)
			if len(names) < 8 {
				t.Fatalf("%s has only %d sections", file, len(names))
			}
			right := 0
			for i, name := range names {
				s := measure(bodies[i], template)
				minWords := fixtureMinWords[name]
				if minWords == 0 {
					minWords = DefaultMinWords
				}
				problem, what, _ := s.weakness(name, lines[i], minWords)
				if (problem == "") == (kind == "honest") {
					right++
				} else if kind == "honest" {
					t.Errorf("%s: an honest section was refused: %s", file, what)
				} else {
					t.Errorf("%s: the cheat %s at line %d passed: %+v", file, name, lines[i], s)
				}
			}
			t.Logf("%s %s: %d of %d sections judged right", set, kind, right, len(names))
		}
	}
}

func TestEnglishWords(t *testing.T) {
	for _, w := range []string{"the", "retries", "retried", "caching", "accidentally", "endpoint", "idempotency", "deduplicates", "customer", "partitions"} {
		if !english.Known(w) {
			t.Errorf("%q is not known", w)
		}
	}
	for _, w := range []string{"lorem", "ipsum", "dolor", "consectetur", "adipiscing", "eiusmod", "incididunt", "asdf", "qwer"} {
		if english.Known(w) {
			t.Errorf("%q is known", w)
		}
	}
	data, err := os.ReadFile("internal/english/words.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= 40<<10 || strings.Count(string(data), "\n") < 4000 {
		t.Errorf("words.txt has %d bytes and %d words; keep it under 40 KB with the common words in it", len(data), strings.Count(string(data), "\n"))
	}
}

func TestClassify(t *testing.T) {
	for tok, want := range map[string]wordClass{
		"retries": wordKnown, "Customer": wordKnown, "read-only": wordKnown, "don't": wordKnown,
		"lorem": wordUnknown, "qwer": wordUnknown,
		"Grafana": wordName, "HTTP": wordNeutral, "OAuth": wordNeutral, "userID": wordNeutral, "p95": wordNeutral,
		"s3://bucket": wordNeutral, "greet.go": wordNeutral, "snake_case": wordNeutral, "800": wordNeutral,
	} {
		if got := classify(tok); got != want {
			t.Errorf("classify(%q) = %d, want %d", tok, got, want)
		}
	}
}
