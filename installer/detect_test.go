package installer

import (
	"context"
	"slices"
	"testing"
)

func TestDetectMarkers(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, map[string]string{
		"svc/main.go":           "package main\n",
		"go.mod":                "module x\n",
		"ui/package.json":       "{}",
		"ui/tsconfig.json":      "{}",
		"tools/package.json":    "{}",
		"lib/Cargo.toml":        "",
		"docs/requirements.txt": "",
	})
	d, err := Detect(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	// Source files rank first; languages named only by a build file follow, by name.
	want := []string{"go", "javascript", "python", "rust", "typescript"}
	if !slices.Equal(d.Languages, want) || !slices.Equal(d.SourcePaths, []string{"svc"}) {
		t.Errorf("detected %v in %v, want %v in [svc]", d.Languages, d.SourcePaths, want)
	}
	if d.FileCounts["go"] != 1 || d.FileCounts["rust"] != 0 {
		t.Errorf("counts = %v", d.FileCounts)
	}
}

func TestDetectGitignoreNegationAndHidden(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, map[string]string{
		".gitignore":      "# comment\r\n*.py\r\n!keep.py\r\nout/\r\n",
		"a/skip.py":       "",
		"a/keep.py":       "",
		"out/gen.go":      "",
		".hidden/h.go":    "",
		"b/.config/c.rb":  "",
		"target/t.rs":     "",
		"b/venv/lib/v.py": "",
	})
	d, err := Detect(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Languages, []string{"python"}) || d.FileCounts["python"] != 1 || !slices.Equal(d.SourcePaths, []string{"a"}) {
		t.Errorf("detected %+v", d)
	}
}

func TestDetectCap(t *testing.T) {
	old := maxScannedFiles
	maxScannedFiles = 3
	t.Cleanup(func() { maxScannedFiles = old })
	root, _ := newProject(t, map[string]string{
		"a/1.go": "", "a/2.go": "", "a/3.go": "", "a/4.go": "", "a/5.go": "",
	})
	d, err := Detect(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Truncated || d.FilesScanned != 3 || d.FileCounts["go"] != 3 {
		t.Errorf("detected %+v", d)
	}
	wantContains(t, describeDetection(d), "stopped after 3 files")
}
