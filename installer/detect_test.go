package installer

import (
	"context"
	"fmt"
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
	wantContains(t, describeDetection(d), "stopped reading after 3 files")
}

// Over the cap, detection stops reading files but still lists every
// top-level folder: each one the walk did not reach gets a quick look, and
// the report says what was left out and why.
func TestDetectCapListsEveryTopLevelFolder(t *testing.T) {
	oldCap, oldPeek := maxScannedFiles, peekFiles
	maxScannedFiles, peekFiles = 40, 5
	t.Cleanup(func() { maxScannedFiles, peekFiles = oldCap, oldPeek })
	files := map[string]string{
		".gitignore":              "gen/\n",
		"assets/a.md":             "",
		"gen/g.go":                "",
		"node_modules/x/index.js": "",
		"rust/Cargo.toml":         "",
		"web/src/app.ts":          "",
		"zz/notes.txt":            "",
		".github/ci.yml":          "",
	}
	for i := range 60 { // more than the cap: the walk stops in "core"
		files[fmt.Sprintf("core/f%02d.go", i)] = ""
	}
	for i := range 10 { // the quick look gives up before the .py file
		files[fmt.Sprintf("tail/n%02d.txt", i)] = ""
	}
	files["tail/zz.py"] = ""
	root, _ := newProject(t, files)
	d, err := Detect(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Truncated || d.FilesScanned != 40 {
		t.Errorf("truncated %v after %d files", d.Truncated, d.FilesScanned)
	}
	if !slices.Equal(d.SourcePaths, []string{"core", "rust", "web"}) || !slices.Equal(d.Peeked, []string{"rust", "web"}) {
		t.Errorf("source paths %v, peeked %v", d.SourcePaths, d.Peeked)
	}
	if !slices.Contains(d.Languages, "typescript") || !slices.Contains(d.Languages, "rust") {
		t.Errorf("languages %v", d.Languages)
	}
	want := []LeftOut{
		{"assets", reasonNoSource}, // read to the end: before "core"
		{"gen", reasonIgnored},
		{"node_modules", reasonDeps},
		{"tail", reasonNotSeen(5)},
		{"zz", reasonNotSeen(5)},
	}
	if !slices.Equal(d.LeftOut, want) {
		t.Errorf("left out %+v, want %+v", d.LeftOut, want)
	}
	desc := describeDetection(d)
	for _, s := range []string{"stopped reading after 40 files", "(rust, web hold source)",
		"Left out: assets (no source files); gen (ignored by .gitignore); node_modules (dependencies or build output); tail, zz (no source or build file among the first 5 files looked at after the cap)."} {
		wantContains(t, desc, s)
	}
}

// A source file at the root the capped walk never reached still makes the
// root the source path.
func TestDetectCapSeesRootFiles(t *testing.T) {
	old := maxScannedFiles
	maxScannedFiles = 3
	t.Cleanup(func() { maxScannedFiles = old })
	root, _ := newProject(t, map[string]string{"a/1.txt": "", "a/2.txt": "", "a/3.txt": "", "a/4.txt": "", "main.go": ""})
	d, err := Detect(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.SourcePaths, []string{"."}) || d.FileCounts["go"] != 1 || d.LeftOut != nil {
		t.Errorf("detected %+v", d)
	}
}
