package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadSet(t *testing.T, path string) questionSet {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var qs questionSet
	if err := json.Unmarshal(data, &qs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(qs.Queries) == 0 {
		t.Fatalf("%s has no questions", path)
	}
	return qs
}

// The held-out sets are measured, never tuned on: none of their questions
// is in a tuning set, and none appears in the product's code or data (its
// synonym tables, vocabulary, examples). Everything outside bench/, docs/
// and the tests is the product.
func TestEvaluationSetIsHeldOut(t *testing.T) {
	heldOut := []string{"testdata/eval-questions.json", "testdata/python-heldout-questions.json", "testdata/typescript-heldout-questions.json"}
	queries := map[string]string{} // question → its set
	for _, set := range heldOut {
		for _, q := range loadSet(t, set).Queries {
			queries[strings.ToLower(q.Query)] = set
		}
	}
	tunings, err := filepath.Glob("testdata/*-questions.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tuning := range tunings {
		if slices.Contains(heldOut, filepath.ToSlash(tuning)) {
			continue
		}
		for _, q := range loadSet(t, tuning).Queries {
			if set, ok := queries[strings.ToLower(q.Query)]; ok {
				t.Errorf("%s asks the question %q of the held-out %s", tuning, q.Query, set)
			}
		}
	}

	root := filepath.Join("..", "..")
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "bench" || rel == "docs" || rel == "e2e" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, "_test.go") || strings.Contains(rel, "/testdata/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		text := strings.ToLower(string(data))
		for q, set := range queries {
			if strings.Contains(text, q) {
				t.Errorf("%s holds the question %q of the held-out %s", rel, q, set)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the module root %s?", checked, root)
	}
}
