package standards

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agentos-dev/agentos/assets"
)

// minPerDomain is the fewest standards each universal domain ships.
const minPerDomain = 4

// TestShippedLibraryIsClean lints every standard the binary ships.
func TestShippedLibraryIsClean(t *testing.T) {
	files, err := FilesFS(assets.FS(), assets.UniversalStandards)
	if err != nil {
		t.Fatal(err)
	}
	domains := map[string]int{}
	for _, f := range files {
		domains[path.Base(path.Dir(f))]++
	}
	for _, d := range []string{"concurrency", "architecture", "testing", "failure-modes", "security", "database"} {
		if domains[d] < minPerDomain {
			t.Errorf("domain %s has %d standards, want at least 4", d, domains[d])
		}
	}
	for _, name := range []string{"api-error-responses", "writing-standards", "gitignore"} {
		if !slices.Contains(files, path.Join(assets.UniversalStandards, "project", name+".md")) {
			t.Errorf("project standard %s is missing", name)
		}
	}
	for _, p := range LintFS(assets.FS(), files) {
		t.Error(p)
	}
}

// TestShippedLibraryShape checks what Lint does not: length, a footer whose
// dates follow the release's (created on or after the library's first day,
// updated on or after that, reviewed six months after the update), and the
// kebab case of each file name.
func TestShippedLibraryShape(t *testing.T) {
	files, err := FilesFS(assets.FS(), assets.UniversalStandards)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := fs.ReadFile(assets.FS(), f)
		if err != nil {
			t.Fatal(err)
		}
		s := Parse(f, data)
		if n := len(s.lines); n < 80 || n > 200 {
			t.Errorf("%s: %d lines, want 80 to 200", f, n)
		}
		if CheckName(strings.TrimSuffix(path.Base(f), ".md")) != nil {
			t.Errorf("%s: file name is not kebab-case", f)
		}
		created, err1 := time.Parse(DateLayout, s.Footer.Created)
		updated, err2 := time.Parse(DateLayout, s.Footer.LastUpdated)
		review, err3 := time.Parse(DateLayout, s.Footer.NextReview)
		if err := errors.Join(err1, err2, err3); err != nil || created.Before(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)) ||
			updated.Before(created) || !review.Equal(updated.AddDate(0, 6, 0)) || !versionRE.MatchString(s.Footer.Version) {
			t.Errorf("%s: footer = %+v (%v)", f, s.Footer, err)
		}
	}
}

// good is a minimal standard that passes every rule; each rule's test
// breaks it in one place.
const good = `Keywords: alpha, beta, gamma

# A good standard

## TL;DR
Do the thing.

## Questions this answers
- How do I do the thing?
- When should I not do the thing?
- Why does the thing matter?
- What breaks without the thing?
- Who reviews the thing?

## Purpose
Why it exists. See [the other](other.md#top) and [the web](https://example.com).

## Problem: what happens without it
Things break.

## Standard
### Do it well
Like this.

## Examples
` + "```go\nfmt.Println(\"## not a heading\")\n```" + `

## Anti-patterns
- Doing it badly.

## Checklist
- [ ] The thing is done.

---
Version: 1.0.0
Created: 2026-11-22
Last Updated: 2026-11-22
Next review: 2027-05-22
`

func lintString(t *testing.T, doc string) []Problem {
	t.Helper()
	return LintData("x.md", []byte(doc), func(target string) bool { return target == "other.md" })
}

func TestGoodStandardIsClean(t *testing.T) {
	for _, p := range lintString(t, good) {
		t.Error(p)
	}
	s := Parse("x.md", []byte(good))
	if s.Title != "A good standard" || len(s.Keywords) != 3 || s.Footer.Version != "1.0.0" || s.Footer.NextReviewLine != 40 {
		t.Errorf("parsed = %+v %+v", s.Title, s.Footer)
	}
	body, ok := s.Content("Standard")
	if !ok || !strings.Contains(body, "Do it well") || !strings.Contains(body, "Like this.") {
		t.Errorf("Content(Standard) = %q, %v", body, ok)
	}
	if sec, ok := s.Section("problem"); !ok || sec.Line != 18 {
		t.Errorf("Section(problem) = %+v, %v", sec, ok)
	}
}

func TestLintRules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		old     string // replaced in good
		new     string
		line    int
		message string
	}{
		{"keywords missing", "Keywords: alpha, beta, gamma\n", "Search: alpha\n", 1, "first line must list search keywords"},
		{"too few keywords", "alpha, beta, gamma", "alpha, beta", 1, "at least 3 search keywords"},
		{"empty keyword", "alpha, beta, gamma", "alpha, , beta, gamma", 1, "empty keyword"},
		{"no title", "# A good standard\n", "", 4, "a title"},
		{"TL;DR not first", "## TL;DR\nDo the thing.\n\n## Questions", "## Questions", 5, `first section must be "## TL;DR"`},
		{"missing Purpose", "## Purpose\n", "## Intent\n", 40, `missing required section "## Purpose"`},
		{"missing Anti-patterns", "## Anti-patterns\n", "## Pitfalls\n", 40, `missing required section "## Anti-patterns"`},
		{"duplicate section", "## Anti-patterns\n", "## Checklist\n- [ ] x\n\n## Anti-patterns\n", 36, `"Checklist" appears twice`},
		{"empty section", "Things break.\n", "\n", 18, `section "Problem" is empty`},
		{"too few questions", "- Who reviews the thing?\n", "", 8, "lists 4 questions; write 5 to 8"},
		{"too many questions", "- Who reviews the thing?\n", strings.Repeat("- Who reviews the thing?\n", 5), 8, "lists 9 questions"},
		{"not a question", "- Who reviews the thing?", "- Reviewing the thing.", 13, `ending with "?"`},
		{"question copies heading", "- Who reviews the thing?", "- Do it well?", 13, "copies a heading"},
		{"empty checklist", "- [ ] The thing is done.", "The thing is done.", 33, "at least one item"},
		{"examples without code", "```go\nfmt.Println(\"## not a heading\")\n```", "Just prose.", 25, "fenced code block"},
		{"unclosed code block", "fmt.Println(\"## not a heading\")\n```", "fmt.Println(\"x\")\n", 26, "never closed"},
		{"bad version", "Version: 1.0.0", "Version: 1.0", 37, `version "1.0" is not <major>.<minor>.<patch>`},
		{"leading zero version", "Version: 1.0.0", "Version: 01.0.0", 37, "is not <major>.<minor>.<patch>"},
		{"missing version", "Version: 1.0.0\n", "", 39, `missing footer line "Version`},
		{"bad date", "Created: 2026-11-22", "Created: 2026-13-01", 38, `Created date "2026-13-01" is not a valid`},
		{"missing next review", "Next review: 2027-05-22\n", "", 39, `missing footer line "Next review`},
		{"updated before created", "Last Updated: 2026-11-22", "Last Updated: 2026-01-01", 39, "is before Created"},
		{"review not after update", "Next review: 2027-05-22", "Next review: 2026-11-22", 40, "must be after Last Updated"},
		{"footer not last", "Next review: 2027-05-22\n", "Next review: 2027-05-22\n\n## Appendix\nMore.\n", 37, `footer must be the last lines of the file; "Appendix" follows it`},
		{"broken link", "[the other](other.md#top)", "[the other](missing.md)", 16, `link "missing.md" does not resolve`},
		{"absolute link", "[the other](other.md#top)", "[the other](/etc/other.md)", 16, "is absolute"},
		{"reference link", "Things break.\n", "Things break.\n\n[ref]: gone.md\n", 21, `link "gone.md" does not resolve`},
		{"placeholder", "Like this.", "Like [[fill: an example]].", 23, "unfilled placeholder: [[fill: an example]]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(good, tc.old, tc.new, 1)
			if doc == good {
				t.Fatalf("%q not found in the good standard", tc.old)
			}
			problems := lintString(t, doc)
			found := false
			for _, p := range problems {
				if p.Line == tc.line && strings.Contains(p.Message, tc.message) {
					found = true
				}
			}
			if !found {
				t.Errorf("want line %d: %q; got %v", tc.line, tc.message, problems)
			}
		})
	}
}

func TestCodeIsNotStructure(t *testing.T) {
	// Headings, links and footer fields inside code blocks and code spans are
	// examples, not the document's own.
	doc := strings.Replace(good, "Like this.", "Like `[x](nowhere.md)` this.\n\n```md\n# Title\nVersion: bad\n[y](gone.md)\n```", 1)
	for _, p := range lintString(t, doc) {
		t.Error(p)
	}
}

func TestProblemString(t *testing.T) {
	p := Problem{File: "a/b.md", Line: 7, Message: "bad"}
	if p.String() != "a/b.md:7: bad" {
		t.Errorf("String = %q", p.String())
	}
}

func TestLintOnDisk(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a/x.md", good)
	write("a/other.md", strings.Replace(good, "(other.md#top)", "(sub/x.md)", 1))
	write("a/sub/x.md", strings.Replace(good, "(other.md#top)", "(../other.md)", 1))
	write("a/README.md", "index, not a standard\n")
	write("a/.hidden/y.md", "not linted\n")
	write("a/notes.txt", "not linted\n")
	bad := write("b/bad.md", strings.Replace(good, "(other.md#top)", "(nope.md)", 1))

	files, err := Files(filepath.Join(dir, "a"), bad)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files = %v", files)
	}
	problems := Lint(files)
	if len(problems) != 1 || problems[0].File != bad || problems[0].Line != 16 {
		t.Errorf("problems = %v", problems)
	}
	if _, err := Files(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Files(missing) error = %v", err)
	}
	if p := Lint([]string{filepath.Join(dir, "gone.md")}); len(p) != 1 || p[0].Message != "no such file" {
		t.Errorf("Lint(gone) = %v", p)
	}
}

func TestLintFSLinksStayInside(t *testing.T) {
	fsys := fstest.MapFS{
		"lib/x.md":     {Data: []byte(strings.Replace(good, "(other.md#top)", "(../../outside.md)", 1))},
		"lib/other.md": {Data: []byte(good)},
	}
	problems := LintFS(fsys, []string{"lib/x.md", "lib/other.md"})
	if len(problems) != 1 || problems[0].File != "lib/x.md" || !strings.Contains(problems[0].Message, "does not resolve") {
		t.Errorf("problems = %v", problems)
	}
}

func TestScaffold(t *testing.T) {
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	data, err := Scaffold("api-versioning", day)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"Keywords: api versioning, ", "# Api versioning\n", "Created: 2026-11-30\n", "Last Updated: 2026-11-30\n", "Next review: 2027-05-30\n", "Version: 1.0.0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("scaffold lacks %q:\n%s", want, text)
		}
	}
	// The skeleton passes every rule; only the parts to fill are reported.
	problems := LintData("api-versioning.md", data, func(string) bool { return false })
	if len(problems) == 0 {
		t.Fatal("the scaffold reports no placeholders")
	}
	for _, p := range problems {
		if !strings.HasPrefix(p.Message, "unfilled placeholder") {
			t.Errorf("scaffold problem that is not a placeholder: %v", p)
		}
	}
	filled := strings.NewReplacer("[[fill:", "filled:", "]]", "").Replace(text)
	for _, p := range LintData("api-versioning.md", []byte(filled), nil) {
		t.Errorf("filled scaffold: %v", p)
	}

	for _, bad := range []string{"", "Api", "a_b", "a--b", "-a", "a.md", "../x"} {
		if _, err := Scaffold(bad, day); err == nil {
			t.Errorf("Scaffold(%q) accepted", bad)
		}
	}
}

// List reads regular standards only: not README.md, not a hidden folder,
// not through a link; a missing folder holds none.
func TestList(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"a/one.md":     "Keywords: one, first\n# One\n",
		"a/README.md":  "# Readme\n",
		".hidden/x.md": "# Hidden\n",
		"b/two.MD":     "# Two\n",
		"notes.txt":    "# Not a standard\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("# Secret\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "a", "link.md")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	got, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Listed{{Path: "a/one.md", Title: "One", Keywords: []string{"one", "first"}}, {Path: "b/two.MD", Title: "Two"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("List = %+v, want %+v", got, want)
	}
	if got, err := List(filepath.Join(root, "missing")); err != nil || len(got) != 0 {
		t.Errorf("a missing folder: %v, %v", got, err)
	}
}
