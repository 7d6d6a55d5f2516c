package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
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

// The evaluation set is measured, never tuned on: none of its questions is
// in a tuning set, and none appears in the product's code or data (its
// synonym tables, vocabulary, examples). Everything outside bench/, docs/
// and the tests is the product.
func TestEvaluationSetIsHeldOut(t *testing.T) {
	eval := loadSet(t, "testdata/eval-questions.json")
	queries := map[string]bool{}
	for _, q := range eval.Queries {
		queries[strings.ToLower(q.Query)] = true
	}
	for _, tuning := range []string{"testdata/dev-questions.json", "testdata/validation-questions.json"} {
		for _, q := range loadSet(t, tuning).Queries {
			if queries[strings.ToLower(q.Query)] {
				t.Errorf("%s asks the evaluation question %q", tuning, q.Query)
			}
		}
	}

	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		for q := range queries {
			if strings.Contains(text, q) {
				t.Errorf("%s holds the evaluation question %q", rel, q)
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
