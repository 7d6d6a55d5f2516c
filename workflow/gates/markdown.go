package gates

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"unicode"
)

// maxDocBytes caps the markdown files the checks read.
const maxDocBytes = 8 << 20

// mdLine is one line of a markdown file, classified.
type mdLine struct {
	num     int    // 1-based
	text    string // the line with HTML comments removed (code lines as written)
	code    bool   // inside a fenced code block
	fence   bool   // an opening or closing fence
	level   int    // heading level 1-6, 0 if not a heading
	heading string // heading text, without the # marks
	// setext marks an underline (=== or ---) that made the line before it a heading.
	setext bool
}

// splitMarkdown classifies the lines of src: fenced code, HTML comments
// (removed), ATX and setext headings.
func splitMarkdown(src []byte) []mdLine {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	raw := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	lines := make([]mdLine, 0, len(raw))
	var fenceChar byte
	fenceLen := 0
	inComment := false
	for i, t := range raw {
		l := mdLine{num: i + 1, text: t}
		trimmed := strings.TrimLeft(t, " ")
		indent := len(t) - len(trimmed)
		if fenceLen > 0 {
			l.code = true
			if indent < 4 && isFence(trimmed, fenceChar, fenceLen) && strings.TrimSpace(strings.TrimLeft(trimmed, string(fenceChar))) == "" {
				l.fence = true
				fenceLen = 0
			}
			lines = append(lines, l)
			continue
		}
		if !inComment && indent < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			fenceChar = trimmed[0]
			fenceLen = len(trimmed) - len(strings.TrimLeft(trimmed, string(fenceChar)))
			l.code, l.fence = true, true
			lines = append(lines, l)
			continue
		}
		l.text, inComment = stripComments(t, inComment)
		if h, lvl := atxHeading(l.text); lvl > 0 {
			l.level, l.heading = lvl, h
		} else if lvl := setextLevel(l.text); lvl > 0 && len(lines) > 0 {
			prev := &lines[len(lines)-1]
			if prev.level == 0 && !prev.code && isParagraphText(prev.text) {
				prev.level, prev.heading = lvl, strings.TrimSpace(prev.text)
				l.setext = true
			}
		}
		lines = append(lines, l)
	}
	return lines
}

func isFence(s string, c byte, n int) bool {
	return len(s) >= n && strings.Count(s[:n], string(c)) == n
}

// stripComments removes HTML comments from a line; inComment says whether the
// line starts inside one, and the result whether the next does.
func stripComments(t string, inComment bool) (string, bool) {
	var b strings.Builder
	for {
		if inComment {
			end := strings.Index(t, "-->")
			if end < 0 {
				return b.String(), true
			}
			t = t[end+3:]
			inComment = false
			continue
		}
		start := strings.Index(t, "<!--")
		if start < 0 {
			b.WriteString(t)
			return b.String(), false
		}
		b.WriteString(t[:start])
		t = t[start+4:]
		inComment = true
	}
}

var atxRe = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)

func atxHeading(t string) (string, int) {
	m := atxRe.FindStringSubmatch(t)
	if m == nil {
		return "", 0
	}
	h := strings.TrimSpace(m[2])
	// A closing run of #s is not part of the heading.
	if trimmed := strings.TrimRight(h, "#"); trimmed != h && (trimmed == "" || strings.HasSuffix(trimmed, " ")) {
		h = strings.TrimSpace(trimmed)
	}
	return h, len(m[1])
}

var setextRe = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)

func setextLevel(t string) int {
	m := setextRe.FindStringSubmatch(t)
	if m == nil {
		return 0
	}
	if m[1][0] == '=' {
		return 1
	}
	return 2
}

// isParagraphText reports whether a line is plain paragraph text, the only kind
// a setext underline turns into a heading.
func isParagraphText(t string) bool {
	s := strings.TrimSpace(t)
	if s == "" || strings.HasPrefix(s, ">") || strings.HasPrefix(s, "|") || listItemRe.MatchString(t) {
		return false
	}
	return len(t)-len(strings.TrimLeft(t, " ")) < 4
}

var (
	numberingRe = regexp.MustCompile(`^(?:\d+(?:\.\d+)*[.)]?|[ivxIVX]+[.)]|[a-zA-Z][.)])\s+`)
	anchorRe    = regexp.MustCompile(`\s*\{#[^}]*\}\s*$`)
)

// normalizeHeading reduces a heading or a required section name to the form
// they are compared in: lower case, single spaces, without emphasis, leading
// numbering ("1.", "2.1", "A)"), leading symbols, an {#anchor} or trailing
// punctuation.
func normalizeHeading(s string) string {
	s = anchorRe.ReplaceAllString(s, "")
	s = strings.NewReplacer("**", "", "__", "", "`", "", "*", "").Replace(s)
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	s = numberingRe.ReplaceAllString(s, "")
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

var (
	listItemRe    = regexp.MustCompile(`^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$`)
	checkboxRe    = regexp.MustCompile(`^\[([ xX])\](?:[ \t]+(.*))?$`)
	fillRe        = regexp.MustCompile(`\[\[[^\]]*\]\]`)
	tableSepRe    = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)
	placeholderRe = regexp.MustCompile(`(?i)^(?:(?:todo|tbd|tbc|fixme)(?:\b.*)?|xxx+|n/?a|placeholder|coming soon|fill (?:me )?in|to be (?:decided|determined|written|defined)|lorem ipsum\b.*)$`)
)

// contentLines returns the lines that hold real content: not blank lines,
// headings, comments, fences, blockquotes (template guidance), table headers
// and separators, lines with [[fill]] placeholders, bare labels or TODO/TBD
// lines.
func contentLines(lines []mdLine) []mdLine {
	var out []mdLine
	for i, l := range lines {
		if l.fence || l.level > 0 || l.setext {
			continue
		}
		s := strings.TrimSpace(l.text)
		if s == "" {
			continue
		}
		if l.code {
			if strings.TrimSpace(fillRe.ReplaceAllString(s, "")) != "" {
				out = append(out, l)
			}
			continue
		}
		if strings.HasPrefix(s, ">") || (tableSepRe.MatchString(s) && strings.Contains(s, "-")) {
			continue
		}
		if strings.HasPrefix(s, "|") && i+1 < len(lines) && tableSepRe.MatchString(lines[i+1].text) && strings.Contains(lines[i+1].text, "-") {
			continue // a table's header row
		}
		if !placeholderOnly(s) {
			out = append(out, l)
		}
	}
	return out
}

// blockKind says what a block of a section's content is.
type blockKind int

const (
	blockParagraph blockKind = iota // prose lines joined up to a blank line
	blockItem                       // a list item with its continuation lines
	blockRow                        // a table row
	blockCode                       // the lines of one fenced code block
)

// block is the unit a section's sentences are judged in: editors and
// formatters wrap a sentence across lines, so a line alone says nothing about
// where one ends.
type block struct {
	kind  blockKind
	text  string // prose: the lines joined by spaces, list marker and checkbox removed; code: the lines as written
	first int    // line number of the block's first line
	last  int    // and of its last
}

// blocks groups content lines (as contentLines keeps them) into paragraphs,
// list items, table rows and code blocks. A prose line continues the block
// before it when it directly follows a paragraph or list item line; a blank
// line, a heading, a fence, a list item, a table row or a line contentLines
// dropped (an HTML comment, a template's [[fill: …]] marker) ends a block.
func blocks(lines []mdLine) []block {
	var out []block
	for _, l := range lines {
		var prev *block
		if n := len(out); n > 0 && out[n-1].last == l.num-1 {
			prev = &out[n-1]
		}
		if l.code {
			if prev != nil && prev.kind == blockCode {
				prev.text += "\n" + l.text
				prev.last = l.num
				continue
			}
			out = append(out, block{kind: blockCode, text: l.text, first: l.num, last: l.num})
			continue
		}
		text := strings.TrimSpace(l.text)
		switch m := listItemRe.FindStringSubmatch(text); {
		case m != nil:
			text = m[3]
			if m := checkboxRe.FindStringSubmatch(strings.TrimSpace(text)); m != nil {
				text = m[2]
			}
			out = append(out, block{kind: blockItem, text: text, first: l.num, last: l.num})
		case strings.HasPrefix(text, "|"):
			out = append(out, block{kind: blockRow, text: text, first: l.num, last: l.num})
		case prev != nil && (prev.kind == blockParagraph || prev.kind == blockItem):
			prev.text += " " + text
			prev.last = l.num
		default:
			out = append(out, block{kind: blockParagraph, text: text, first: l.num, last: l.num})
		}
	}
	return out
}

// placeholderOnly reports whether a line says nothing: it holds a [[fill]]
// template placeholder, is a bare label ("FR-1:"), is a TODO/TBD line, or is
// empty once list markers, checkboxes, table pipes and emphasis are removed.
func placeholderOnly(s string) bool {
	if m := listItemRe.FindStringSubmatch(s); m != nil {
		s = m[3]
	}
	if m := checkboxRe.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		s = m[2]
	}
	if fillRe.MatchString(s) {
		return true // a line still holding a template placeholder is not filled in
	}
	s = strings.NewReplacer("|", " ", "**", "", "__", "", "*", "", "`", "").Replace(s)
	if t := strings.TrimSpace(s); strings.HasSuffix(t, ":") && len(strings.Fields(t)) <= 4 {
		return true // a bare label such as "FR-1:" or "Acceptance:"
	}
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) })
	if s == "" {
		return true
	}
	return placeholderRe.MatchString(s)
}

// MarkdownDetails is the Details of a markdown_sections result.
type MarkdownDetails struct {
	File    string         `json:"file"`
	Missing []SectionIssue `json:"missing,omitempty"`
	Empty   []SectionIssue `json:"empty,omitempty"`
	// Weak holds the sections with content that does not count as written:
	// too short, the template's guidance, or filler.
	Weak []SectionIssue `json:"weak,omitempty"`
}

// SectionIssue is a required section that is missing, empty or weak.
type SectionIssue struct {
	Section string `json:"section"`
	// Line is the heading's line for an empty section; for a missing one, the
	// line of the closest heading, if one is close (then Closest names it).
	Line    int    `json:"line,omitempty"`
	Closest string `json:"closest,omitempty"`
	// EndLine is the last line of an empty section.
	EndLine int `json:"end_line,omitempty"`
	// Problem says what is wrong with a weak section (ProblemShort …);
	// Words and MinWords are its word count and the minimum.
	Problem  string `json:"problem,omitempty"`
	Words    int    `json:"words,omitempty"`
	MinWords int    `json:"min_words,omitempty"`
}

func (c Check) runMarkdownSections(ctx context.Context, env Env) Result {
	src, rel, res, ok := c.readDoc(env, "markdown_sections")
	if !ok {
		return res
	}
	lines := splitMarkdown(src)
	d := MarkdownDetails{File: rel}
	var template map[string]bool
	if c.Template != "" {
		tsrc, err := specTemplate(c.Template)
		if err != nil {
			return failf(c.Type, "Fix this check in the workflow definition.", "The gate check is invalid: %s.", trimDot(err.Error()))
		}
		template = templateShingles(tsrc)
	}
	var weakWhat, weakFix []string
	for _, want := range c.Sections {
		if ctx.Err() != nil {
			return failf(c.Type, "Run the gate again.", "The markdown_sections check was cancelled.")
		}
		norm := normalizeHeading(want)
		first, found := 0, false
		filled := false
		var emptyIssue SectionIssue
		for i, l := range lines {
			if l.level == 0 || normalizeHeading(l.heading) != norm {
				continue
			}
			end := i + 1
			for end < len(lines) && (lines[end].level == 0 || lines[end].level > l.level) {
				end++
			}
			if content := contentLines(lines[i+1 : end]); len(content) > 0 {
				filled = true
				minWords := cmp.Or(c.MinWords[want], DefaultMinWords)
				sub := measure(content, template)
				if problem, what, fix := sub.weakness(want, l.num, minWords); problem != "" {
					d.Weak = append(d.Weak, SectionIssue{Section: want, Line: l.num, EndLine: lines[end-1].num, Problem: problem, Words: sub.words, MinWords: minWords})
					weakWhat, weakFix = append(weakWhat, what), append(weakFix, fix)
				}
				break
			}
			if !found {
				first, found = l.num, true
				emptyIssue = SectionIssue{Section: want, Line: first, EndLine: lines[end-1].num}
			}
		}
		switch {
		case filled:
		case found:
			d.Empty = append(d.Empty, emptyIssue)
		default:
			issue := SectionIssue{Section: want}
			if h, line := closestHeading(norm, lines); line > 0 {
				issue.Closest, issue.Line = h, line
			}
			d.Missing = append(d.Missing, issue)
		}
	}
	if len(d.Missing) == 0 && len(d.Empty) == 0 && len(d.Weak) == 0 {
		r := pass(c.Type, "%s has %s.", rel, every(len(c.Sections), "required section, with content of its own", "required sections, each with content of its own"))
		r.Details = d
		return r
	}
	var parts, fixes []string
	if len(d.Missing) > 0 {
		var names []string
		for _, m := range d.Missing {
			names = append(names, m.Section)
		}
		parts = append(parts, fmt.Sprintf("is missing %s (%s)", plural(len(d.Missing), "section", "sections"), listNames(names, 5)))
		fix := fmt.Sprintf("add a \"## %s\" section", d.Missing[0].Section)
		if d.Missing[0].Closest != "" {
			fix = fmt.Sprintf("add a \"## %s\" section (the heading %q at line %d does not match)", d.Missing[0].Section, d.Missing[0].Closest, d.Missing[0].Line)
		}
		fixes = append(fixes, fix)
	}
	if len(d.Empty) > 0 {
		var names []string
		for _, e := range d.Empty {
			names = append(names, fmt.Sprintf("%s at line %d", e.Section, e.Line))
		}
		parts = append(parts, fmt.Sprintf("has %s with no real content (%s)", plural(len(d.Empty), "empty section", "empty sections"), listNames(names, 5)))
		fixes = append(fixes, fmt.Sprintf("write real content under %s (line %d) in place of placeholders, comments and TODOs", d.Empty[0].Section, d.Empty[0].Line))
	}
	if len(d.Weak) > 0 {
		what := strings.Join(weakWhat[:min(3, len(weakWhat))], "; ")
		if len(weakWhat) > 3 {
			what += fmt.Sprintf("; and %d more", len(weakWhat)-3)
		}
		parts = append(parts, fmt.Sprintf("has %s without enough content of its own: %s", plural(len(d.Weak), "section", "sections"), what))
		fixes = append(fixes, weakFix[0])
	}
	r := failf(c.Type, upperFirst(strings.Join(fixes, ", and ")+"."), "%s %s.", rel, strings.Join(parts, " and "))
	r.Details = d
	return r
}

// closestHeading returns the heading most like norm, if it is close: a small
// edit distance or one containing the other.
func closestHeading(norm string, lines []mdLine) (string, int) {
	best, bestLine, bestD := "", 0, 1<<30
	for _, l := range lines {
		if l.level == 0 {
			continue
		}
		h := normalizeHeading(l.heading)
		if h == "" {
			continue
		}
		d := editDistance(norm, h)
		if strings.Contains(h, norm) || strings.Contains(norm, h) {
			d = min(d, 2)
		}
		if d <= max(2, len(norm)/4) && d < bestD {
			best, bestLine, bestD = strings.TrimSpace(l.heading), l.num, d
		}
	}
	return best, bestLine
}

// readDoc reads the check's file (placeholders expanded, confined to the
// project). When it cannot, ok is false and res is the failed result.
func (c Check) readDoc(env Env, what string) (src []byte, rel string, res Result, ok bool) {
	abs, rel, err := resolve(env.Root, c.File, env.Vars)
	if err != nil {
		return nil, rel, failf(c.Type, "Point the check at a file inside the project.", "The %s check cannot use %s: %s.", what, c.File, trimDot(err.Error())), false
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, rel, failf(c.Type, fmt.Sprintf("Create %s, then run the gate again.", rel), "%s does not exist.", rel), false
	case err != nil:
		return nil, rel, failf(c.Type, fmt.Sprintf("Make %s readable, then run the gate again.", rel), "%s cannot be read.", rel), false
	case !fi.Mode().IsRegular():
		return nil, rel, failf(c.Type, fmt.Sprintf("Make %s a regular file.", rel), "%s is not a regular file.", rel), false
	case fi.Size() > maxDocBytes:
		return nil, rel, failf(c.Type, fmt.Sprintf("Shorten %s.", rel), "%s is larger than %d MiB.", rel, maxDocBytes>>20), false
	}
	src, err = os.ReadFile(abs)
	if err != nil {
		return nil, rel, failf(c.Type, fmt.Sprintf("Make %s readable, then run the gate again.", rel), "%s cannot be read.", rel), false
	}
	return src, rel, Result{}, true
}
