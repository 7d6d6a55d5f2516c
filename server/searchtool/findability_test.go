package searchtool

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/standards"
)

// TestStandardsFindability asks search_standards every question the shipped
// standards say they answer ("Questions this answers") and counts how often
// the standard itself is among the first three results. The goal is 95%; the
// share is logged so `go test -v -run Findability` reports it.
func TestStandardsFindability(t *testing.T) {
	p := newProject(t)
	type question struct{ text, file string }
	var questions []question
	err := fs.WalkDir(assets.FS(), assets.UniversalStandards, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := fs.ReadFile(assets.FS(), name)
		rel := ".agentos/standards/universal/" + strings.TrimPrefix(name, assets.UniversalStandards+"/")
		target := filepath.Join(p.Root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(target), 0o755)
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
		body, _ := standards.Parse(rel, data).Content("Questions this answers")
		for _, line := range strings.Split(body, "\n") {
			if q, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				questions = append(questions, question{q, rel})
			}
		}
		return nil
	})
	if err != nil || len(questions) < 100 {
		t.Fatalf("%d questions (%v)", len(questions), err)
	}
	e := startService(t, p, config.Default())
	e.waitReady(t)
	found := 0
	for _, q := range questions {
		out := e.mustCall(t, "search_standards", map[string]any{"query": q.text, "n_results": 3})
		hit := false
		if out.Results != nil {
			for _, h := range *out.Results {
				hit = hit || h.Path == q.file
			}
		}
		if hit {
			found++
		} else {
			t.Logf("not in the top 3: %q (%s)", q.text, path.Base(q.file))
		}
	}
	share := float64(found) / float64(len(questions))
	t.Logf("findability: %d of %d questions (%.1f%%) find their standard in the top 3", found, len(questions), 100*share)
	if share < 0.95 {
		t.Errorf("findability %.1f%% is below the 95%% goal", 100*share)
	}
}
