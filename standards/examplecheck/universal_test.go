package examplecheck_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/standards/examplecheck"
)

// maxFragments bounds the blocks marked as fragments: a fragment is not
// checked, so there must be few.
const maxFragments = 3

// TestUniversalStandardsExamples checks every code block of every shipped
// universal standard with its language's tools. Go needs only Go; the
// others skip when their tool is missing (scripts/install-checkers.sh
// installs them), unless CI=true.
func TestUniversalStandardsExamples(t *testing.T) {
	var blocks []examplecheck.Block
	err := fs.WalkDir(assets.FS(), assets.UniversalStandards, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".md") {
			return err
		}
		data, err := fs.ReadFile(assets.FS(), name)
		blocks = append(blocks, examplecheck.Extract(strings.TrimPrefix(name, assets.UniversalStandards+"/"), data)...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	report, err := examplecheck.Check(ctx, blocks, checkOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range report.Problems {
		t.Error(p)
	}
	fragments := 0
	for _, n := range report.Fragments {
		fragments += n
	}
	t.Logf("checked %v; fragments %v; not checkable %v", report.Checked, report.Fragments, report.Unchecked)
	if fragments > maxFragments {
		t.Errorf("%d blocks are marked as fragments; at most %d may be", fragments, maxFragments)
	}
	if report.Checked["go"] < 20 || report.Checked["json"] == 0 {
		t.Errorf("checked %v: the Go and JSON examples were not all found", report.Checked)
	}
	for lang, why := range report.Skipped {
		if os.Getenv("CI") == "true" {
			t.Errorf("%s examples not checked: %s", lang, why)
		} else {
			t.Logf("SKIP %s examples: %s", lang, why)
		}
	}
}

// checkOptions lets Go examples import the modules agentos itself
// requires.
func checkOptions(t *testing.T) examplecheck.Options {
	t.Helper()
	root := filepath.Join("..", "..")
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	return examplecheck.Options{GoMod: mod, GoSum: sum}
}
