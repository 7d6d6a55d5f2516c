// Package standards owns the format of an agentos standard: a Markdown file
// whose first line lists search keywords, followed by a title, a TL;DR, the
// required sections (Purpose, Problem, Standard, Examples, Anti-patterns,
// Questions this answers, Checklist) and a version footer. Parse splits a
// standard into those parts; Lint checks a set of files against the format
// and reports each problem as file:line: message; Scaffold renders the
// skeleton of a new standard.
//
// The shipped library lives in package assets; this package only reads it.
package standards

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// Section is one heading of a standard and the text under it, up to the next
// heading of any level.
type Section struct {
	Level int    // 1 for "#", 2 for "##", and so on
	Title string // the heading text, trimmed
	Line  int    // 1-based line of the heading
	Body  string // the lines under the heading, up to the next heading
}

// Footer holds the version fields at the end of a standard, as written. A
// field that is absent is "" and its line 0.
type Footer struct {
	Version, Created, LastUpdated, NextReview                 string
	VersionLine, CreatedLine, LastUpdatedLine, NextReviewLine int
}

// Standard is a parsed standard. Parsing never fails: whatever is malformed
// is left empty for Lint to report.
type Standard struct {
	Path     string    // the name it was parsed under
	Keywords []string  // the terms of the first line, if it is a Keywords line
	Title    string    // the first level-1 heading, if any
	Sections []Section // every heading outside code blocks, in order
	Footer   Footer

	lines      []string // the file's lines, without line endings
	inCode     []bool   // whether each line is inside (or delimits) a fenced code block
	unclosedAt int      // line of a code fence that is never closed; 0 when all are
}

// keywordsPrefix starts the first line of every standard.
const keywordsPrefix = "Keywords:"

var headingRE = regexp.MustCompile(`^(#{1,6})[ \t]+(.*?)[ \t#]*$`)

// Parse splits the Markdown data of the standard at path into its parts.
func Parse(path string, data []byte) *Standard {
	s := &Standard{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		s.lines = append(s.lines, strings.TrimSuffix(sc.Text(), "\r"))
	}
	s.markCode()
	if len(s.lines) > 0 {
		if rest, ok := strings.CutPrefix(s.lines[0], keywordsPrefix); ok {
			s.Keywords = splitKeywords(rest)
		}
	}
	s.splitSections()
	s.readFooter()
	return s
}

// markCode marks the lines that belong to fenced code blocks (``` or ~~~),
// fences included, so that headings and links inside code are not taken for
// the document's own.
func (s *Standard) markCode() {
	s.inCode = make([]bool, len(s.lines))
	var fence string // the opening fence while inside a block
	for i, line := range s.lines {
		trimmed := strings.TrimLeft(line, " ")
		if fence == "" {
			if f := fenceOf(trimmed); f != "" && len(line)-len(trimmed) < 4 {
				fence = f
				s.inCode[i] = true
				s.unclosedAt = i + 1
			}
			continue
		}
		s.inCode[i] = true
		if f := fenceOf(trimmed); f != "" && f[0] == fence[0] && len(f) >= len(fence) &&
			strings.TrimSpace(trimmed[len(f):]) == "" {
			fence = ""
			s.unclosedAt = 0
		}
	}
}

// fenceOf returns the run of backticks or tildes (three or more) a line
// starts with, or "".
func fenceOf(line string) string {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return line[:n]
}

func splitKeywords(list string) []string {
	var out []string
	for _, k := range strings.Split(list, ",") {
		out = append(out, strings.TrimSpace(k))
	}
	if len(out) == 1 && out[0] == "" {
		return []string{}
	}
	return out
}

func (s *Standard) splitSections() {
	var cur *Section
	var body []string
	flush := func() {
		if cur != nil {
			cur.Body = strings.Join(body, "\n")
			s.Sections = append(s.Sections, *cur)
		}
	}
	for i, line := range s.lines {
		if !s.inCode[i] {
			if m := headingRE.FindStringSubmatch(line); m != nil {
				flush()
				cur = &Section{Level: len(m[1]), Title: strings.TrimSpace(m[2]), Line: i + 1}
				body = nil
				if cur.Level == 1 && s.Title == "" {
					s.Title = cur.Title
				}
				continue
			}
		}
		if cur != nil {
			body = append(body, line)
		}
	}
	flush()
}

// footerFields are the footer's keys, matched without regard to case.
var footerFields = []string{"Version", "Created", "Last Updated", "Next review"}

func (s *Standard) readFooter() {
	for i, line := range s.lines {
		if s.inCode[i] {
			continue
		}
		for _, key := range footerFields {
			if len(line) <= len(key) || !strings.EqualFold(line[:len(key)], key) || line[len(key)] != ':' {
				continue
			}
			value := strings.TrimSpace(line[len(key)+1:])
			field, at := s.footerField(key)
			if *at == 0 { // the first occurrence counts
				*field, *at = value, i+1
			}
		}
	}
}

func (s *Standard) footerField(key string) (*string, *int) {
	f := &s.Footer
	switch key {
	case "Version":
		return &f.Version, &f.VersionLine
	case "Created":
		return &f.Created, &f.CreatedLine
	case "Last Updated":
		return &f.LastUpdated, &f.LastUpdatedLine
	default:
		return &f.NextReview, &f.NextReviewLine
	}
}

// Section returns the first level-2 section named name: its heading is the
// name itself or starts with it followed by ":", " -", " —", " –" or " (",
// so that "## Problem: what goes wrong without it" is the Problem section.
// Case does not matter.
func (s *Standard) Section(name string) (Section, bool) {
	for _, sec := range s.Sections {
		if sec.Level == 2 && headingNames(sec.Title, name) {
			return sec, true
		}
	}
	return Section{}, false
}

// Content returns the text of the named level-2 section and of its
// subsections: everything up to the next heading of level 2 or less.
func (s *Standard) Content(name string) (string, bool) {
	start := -1
	for i, sec := range s.Sections {
		if sec.Level == 2 && headingNames(sec.Title, name) {
			start = i
			break
		}
	}
	if start < 0 {
		return "", false
	}
	parts := []string{s.Sections[start].Body}
	for _, sec := range s.Sections[start+1:] {
		if sec.Level <= 2 {
			break
		}
		parts = append(parts, sec.Title, sec.Body)
	}
	return strings.Join(parts, "\n"), true
}

func headingNames(title, name string) bool {
	t, n := strings.ToLower(title), strings.ToLower(name)
	if t == n {
		return true
	}
	rest, ok := strings.CutPrefix(t, n)
	if !ok {
		return false
	}
	for _, sep := range []string{":", " -", " —", " –", " ("} {
		if strings.HasPrefix(rest, sep) {
			return true
		}
	}
	return false
}
