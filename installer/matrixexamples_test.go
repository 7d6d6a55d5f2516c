package installer

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/longtest"
	"github.com/agentos-dev/agentos/standards/examplecheck"
)

// matrixExamples returns the code blocks of a sample's rendered standards
// for the shared example checker, named <sample>/<language>-<topic>.md. Go
// blocks are left out: checkGoExamples builds them at the sample's go line,
// with the declarations in testdata/goexamples.
func matrixExamples(sample, lang string, rendered map[string]string) []examplecheck.Block {
	topics := make([]string, 0, len(rendered))
	for topic := range rendered {
		topics = append(topics, topic)
	}
	sort.Strings(topics)
	var out []examplecheck.Block
	for _, topic := range topics {
		for _, b := range examplecheck.Extract(sample+"/"+lang+"-"+topic+".md", []byte(rendered[topic])) {
			if b.Lang != "go" {
				out = append(out, b)
			}
		}
	}
	return out
}

// checkMatrixExamples checks blocks with the shared checker, one tool run
// per language: Python with py_compile and pyflakes, TypeScript with
// `tsc --strict` and the framework declarations in testdata/tsexamples,
// JavaScript's syntax, SQL and JSON. Tools that are missing skip, unless
// CI=true.
func checkMatrixExamples(t *testing.T, blocks []examplecheck.Block) *examplecheck.Report {
	t.Helper()
	decls, err := filepath.Glob(filepath.Join("testdata", "tsexamples", "*.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	opts := examplecheck.Options{TypeScriptFiles: map[string][]byte{}}
	for _, d := range decls {
		opts.TypeScriptFiles[filepath.Base(d)] = []byte(readTestFile(t, d))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	report, err := examplecheck.Check(ctx, blocks, opts)
	if err != nil {
		t.Fatal(err)
	}
	for lang, why := range report.Skipped {
		if os.Getenv("CI") == "true" {
			t.Errorf("%s examples not checked: %s", lang, why)
		} else {
			t.Logf("SKIP %s examples: %s", lang, why)
		}
	}
	return report
}

// maxMatrixFragments bounds the blocks of the rendered standards marked as
// fragments, which are not checked.
const maxMatrixFragments = 0

// checkAllMatrixExamples checks the examples of the samples rendered by
// TestLanguageMatrix and, when all of them were (complete), that the
// examples of every language were found.
func checkAllMatrixExamples(t *testing.T, blocks []examplecheck.Block, complete bool) {
	// The fast run checks the universal standards' examples
	// (standards/examplecheck); every language's rendered ones take the
	// checkers seconds of CPU.
	longtest.Skip(t)
	report := checkMatrixExamples(t, blocks)
	for _, p := range report.Problems {
		t.Error(p)
	}
	fragments := 0
	for _, n := range report.Fragments {
		fragments += n
	}
	if fragments > maxMatrixFragments {
		t.Errorf("%d blocks are marked as fragments; at most %d may be", fragments, maxMatrixFragments)
	}
	t.Logf("checked %v; fragments %v; not checkable %v", report.Checked, report.Fragments, report.Unchecked)
	for _, lang := range []string{"python", "typescript", "javascript"} {
		if _, skipped := report.Skipped[lang]; complete && !skipped && report.Checked[lang] == 0 {
			t.Errorf("no %s examples were checked: %v", lang, report.Checked)
		}
	}
}

// TestMatrixExamplesFailWhenBroken shows that the matrix check fails a
// broken example of each language it checks, and only that one.
func TestMatrixExamplesFailWhenBroken(t *testing.T) {
	longtest.Skip(t) // standards/examplecheck finds broken examples (TestCheckFindsBrokenExamples)
	samples := []struct {
		lang, topic string
		files       map[string]string
		from, to    string // a line of the rendered example, and its broken form
	}{
		// A TypeScript type error: the total is declared a number.
		{"typescript", "code-quality", map[string]string{"package.json": `{"name": "api"}`, "tsconfig.json": "{}"},
			"return Math.floor(", "return String("},
		// A JavaScript syntax error.
		{"javascript", "concurrency", map[string]string{"package.json": `{"name": "tool"}`},
			"let next = 0;", "let next = ;"},
		// A name pyflakes cannot resolve.
		{"python", "code-quality", map[string]string{"pyproject.toml": "[project]\nname = \"shop\"\nrequires-python = \">=3.12\"\n"},
			"from dataclasses import dataclass\n", ""},
	}
	var blocks []examplecheck.Block
	for _, s := range samples {
		rendered := renderSample(t, s.lang, s.files)
		if !strings.Contains(rendered[s.topic], s.from) {
			t.Fatalf("%s-%s.md no longer contains %q; pick another line to break", s.lang, s.topic, s.from)
		}
		rendered[s.topic] = strings.Replace(rendered[s.topic], s.from, s.to, 1)
		blocks = append(blocks, matrixExamples("broken", s.lang, rendered)...)
	}
	report := checkMatrixExamples(t, blocks)
	failed := map[string]bool{} // the standards with problems, by language-topic
	for _, p := range report.Problems {
		failed[strings.TrimSuffix(filepath.Base(p.Block.Doc), ".md")] = true
		t.Log(p)
	}
	for _, s := range samples {
		if _, skipped := report.Skipped[s.lang]; !skipped && !failed[s.lang+"-"+s.topic] {
			t.Errorf("the broken %s-%s example passed the check", s.lang, s.topic)
		}
	}
	if len(report.Skipped) == 0 && len(failed) != len(samples) {
		t.Errorf("problems in %v; want only in the %d broken examples", failed, len(samples))
	}
}
