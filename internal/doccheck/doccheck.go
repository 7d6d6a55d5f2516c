// Package doccheck owns the checks of the project's documentation: that every
// relative link in README.md and docs/ leads to a file that exists and, when
// it names a #fragment of a markdown file, to a heading of that file (by
// GitHub's rules for heading anchors). Its test runs them on this repository.
package doccheck

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// A Link is one link found in a markdown file.
type Link struct {
	File   string // the markdown file, slash-separated, relative to the root
	Line   int
	Target string // as written
}

// A Problem is a link that leads nowhere.
type Problem struct {
	Link
	Why string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Target, p.Why)
}

// Files lists README.md and every .md file under docs/ of root, slash-separated
// and sorted.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files[1:])
	return files, err
}

// Check reads each of files (slash-separated, relative to root) and returns
// every relative link that does not lead to an existing file, or to an
// existing heading of a markdown file.
func Check(root string, files []string) ([]Problem, error) {
	anchors := map[string]map[string]bool{} // markdown file → its anchors
	anchorsOf := func(rel string) (map[string]bool, error) {
		if a, ok := anchors[rel]; ok {
			return a, nil
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		a := Anchors(string(data))
		anchors[rel] = a
		return a, nil
	}
	var problems []Problem
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		for _, l := range Links(f, string(data)) {
			target, fragment, _ := strings.Cut(l.Target, "#")
			if isExternal(target) {
				continue
			}
			rel := f
			if target != "" {
				if strings.HasPrefix(target, "/") {
					problems = append(problems, Problem{l, "an absolute path; link relative to the file"})
					continue
				}
				rel = path.Clean(path.Join(path.Dir(f), target))
				if rel == ".." || strings.HasPrefix(rel, "../") {
					problems = append(problems, Problem{l, "leads outside the repository"})
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
					problems = append(problems, Problem{l, "no such file: " + rel})
					continue
				}
			}
			if fragment == "" || !strings.EqualFold(path.Ext(rel), ".md") {
				continue
			}
			a, err := anchorsOf(rel)
			if err != nil {
				return nil, err
			}
			if !a[fragment] {
				problems = append(problems, Problem{l, fmt.Sprintf("%s has no heading with the anchor #%s", rel, fragment)})
			}
		}
	}
	return problems, nil
}

// isExternal reports whether a link target has a scheme (https:, mailto:).
func isExternal(target string) bool { return scheme.MatchString(target) }

var (
	scheme     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	inlineLink = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+"[^"]*")?\s*\)`)
	refDef     = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	codeSpan   = regexp.MustCompile("(`+)[^`]*?(`+)")
)

// Links returns the links of a markdown document: inline links and images and
// link reference definitions, outside code blocks and code spans.
func Links(file, doc string) []Link {
	var links []Link
	var fence fences
	for i, line := range strings.Split(doc, "\n") {
		if fence.in(line) {
			continue
		}
		line = codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
		if m := refDef.FindStringSubmatch(line); m != nil {
			links = append(links, Link{file, i + 1, m[1]})
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			if m[1] != "" {
				links = append(links, Link{file, i + 1, m[1]})
			}
		}
	}
	return links
}

// fences follows fenced code blocks line by line: in reports whether a line
// opens, closes or lies inside one.
type fences struct{ open string }

func (f *fences) in(line string) bool {
	t := strings.TrimLeft(line, " ")
	fence := ""
	if len(line)-len(t) <= 3 {
		for _, c := range []string{"`", "~"} {
			if n := len(t) - len(strings.TrimLeft(t, c)); n >= 3 {
				fence = t[:n]
			}
		}
	}
	switch {
	case f.open == "":
		f.open = fence
		return fence != ""
	case fence != "" && fence[0] == f.open[0] && len(fence) >= len(f.open) && strings.TrimSpace(t[len(fence):]) == "":
		f.open = ""
	}
	return true
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"`)
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// Anchors returns the anchors GitHub gives a markdown document's headings
// (see Slug; a repeated slug gets -1, -2 … in order), and the ids and names
// of its HTML anchors.
func Anchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	var fence fences
	for _, line := range strings.Split(doc, "\n") {
		if fence.in(line) {
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := Slug(m[1])
		if n := seen[slug]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors
}

// Slug is the anchor GitHub gives a heading: the heading's text as it renders
// (links by their text, without HTML tags), lower
// case, with every character that is not a letter, a digit, a space, a hyphen
// or an underscore removed, and spaces turned into hyphens.
func Slug(heading string) string {
	text := mdLink.ReplaceAllString(heading, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
