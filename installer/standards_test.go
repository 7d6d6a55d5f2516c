package installer

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/project"
)

func shipped(t *testing.T, root string) []standardFile {
	t.Helper()
	p, _ := project.At(root)
	files, err := shippedFiles(assets.UniversalStandards, filepath.Join(p.Standards(), "universal"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 24 {
		t.Fatalf("only %d universal standards ship", len(files))
	}
	return files
}

func standardSteps(r *Report) map[string]Step {
	steps := map[string]Step{}
	for _, s := range r.Steps {
		if s.Kind == StepStandard {
			steps[s.Path] = s
		}
	}
	return steps
}

func TestUniversalStandardsInstalled(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	report := install(t, root, binary)
	files := shipped(t, root)
	steps := standardSteps(report)
	for _, f := range files {
		if got := readTestFile(t, f.target); got != string(f.data) {
			t.Errorf("%s differs from the shipped standard", f.target)
		}
		rel, _ := filepath.Rel(root, f.target)
		if s := steps[filepath.ToSlash(rel)]; s.Action != Created {
			t.Errorf("step for %s = %+v", rel, s)
		}
	}
	for _, domain := range []string{"concurrency", "architecture", "testing", "failure-modes", "security", "database"} {
		if fi, err := os.Stat(filepath.Join(root, ".agentos", "standards", "universal", domain)); err != nil || !fi.IsDir() {
			t.Errorf("domain folder %s missing: %v", domain, err)
		}
	}
	out := printed(report)
	wantContains(t, out, "created    .agentos/standards/universal/ (")
	if strings.Contains(out, "configuration.md") {
		t.Errorf("each standard listed:\n%s", out)
	}
}

func TestEditedStandardKept(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	install(t, root, binary)
	files := shipped(t, root)
	edited, removed, crlf := files[0], files[1], files[2]

	const mine = "Keywords: mine\n\nOur own take.\n"
	writeTestFile(t, edited.target, mine)
	if err := os.Remove(removed.target); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, crlf.target, strings.ReplaceAll(string(crlf.data), "\n", "\r\n"))
	own := filepath.Join(root, ".agentos", "standards", "universal", "testing", "our-extra.md")
	writeTestFile(t, own, "ours\n")

	report := install(t, root, binary)
	if got := readTestFile(t, edited.target); got != mine {
		t.Errorf("edited standard overwritten: %q", got)
	}
	if got := readTestFile(t, removed.target); got != string(removed.data) {
		t.Errorf("removed standard not restored")
	}
	if got := readTestFile(t, own); got != "ours\n" {
		t.Errorf("the user's own standard changed: %q", got)
	}
	p, _ := project.At(root)
	steps := standardSteps(report)
	if s := steps[p.Rel(edited.target)]; s.Action != Kept || !strings.Contains(s.Detail, "kept") {
		t.Errorf("edited step = %+v", s)
	}
	if s := steps[p.Rel(removed.target)]; s.Action != Created {
		t.Errorf("removed step = %+v", s)
	}
	if s := steps[p.Rel(crlf.target)]; s.Action != Unchanged {
		t.Errorf("CRLF checkout step = %+v; line endings alone are not an edit", s)
	}
	out := printed(report)
	wantContains(t, out, "kept (edited) "+p.Rel(edited.target))
	wantContains(t, out, "created    .agentos/standards/universal/: 1 of ")
	wantContains(t, out, strings.TrimPrefix(p.Rel(removed.target), ".agentos/standards/universal/"))

	// Nothing left to do: up to date, and the kept file is still mentioned.
	report = install(t, root, binary)
	if report.Changed {
		t.Errorf("third run changed something: %+v", report.Steps)
	}
	out = printed(report)
	wantContains(t, out, "nothing changed")
	wantContains(t, out, "kept (edited) "+p.Rel(edited.target))
}

func TestStandardPathBlockedWritesNothing(t *testing.T) {
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	files := shipped(t, root)
	if err := os.MkdirAll(files[0].target, 0o755); err != nil { // a folder where a standard goes
		t.Fatal(err)
	}
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, Yes: true, BinaryPath: binary})
	if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Fatalf("err = %v", err)
	}
	assertSameTree(t, before, snapshot(t, root))
}

// TestGitignoreStandardMatchesBlock keeps the .gitignore standard and the
// block the installer writes in step.
func TestGitignoreStandardMatchesBlock(t *testing.T) {
	t.Parallel()
	data, err := assets.Read(assets.UniversalStandards + "/project/gitignore.md")
	if err != nil {
		t.Fatal(err)
	}
	block := strings.Join(gitignoreBlockLines(), "\n")
	if !strings.Contains(string(data), block) {
		t.Errorf("the gitignore standard does not show the managed block:\n%s", block)
	}
	for _, line := range gitignoreBlockLines()[1 : len(gitignoreBlockLines())-1] {
		if !strings.Contains(string(data), "| `"+line+"` |") {
			t.Errorf("the gitignore standard's table lacks %s", line)
		}
	}
}

func TestSymlinkedStandardFollowed(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	files := shipped(t, root)
	shared := filepath.Join(t.TempDir(), "shared.md")
	writeTestFile(t, shared, string(files[0].data))
	if err := os.MkdirAll(filepath.Dir(files[0].target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, files[0].target); err != nil {
		t.Fatal(err)
	}
	p, _ := project.At(root)
	if s := standardSteps(install(t, root, binary))[p.Rel(files[0].target)]; s.Action != Unchanged {
		t.Errorf("symlink to the shipped text: step = %+v", s)
	}
	if fi, err := os.Lstat(files[0].target); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
}
