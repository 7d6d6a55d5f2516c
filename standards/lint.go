package standards

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Problem is one way a standard breaks the format.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"` // 1-based
	Message string `json:"message"`
}

// String formats the problem as file:line: message, the form editors and
// CI logs link to.
func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message) }

// RequiredSections are the level-2 sections every standard has, in the
// order the format recommends.
var RequiredSections = []string{
	"TL;DR",
	"Questions this answers",
	"Purpose",
	"Problem",
	"Standard",
	"Examples",
	"Anti-patterns",
	"Checklist",
}

// Limits of the format.
const (
	MinKeywords  = 3
	MinQuestions = 5
	MaxQuestions = 8
	// Placeholder opens a part of a scaffolded standard still to be written;
	// Lint reports every one left.
	Placeholder = "[[fill:"
	// DateLayout is the layout of the footer's dates.
	DateLayout = "2006-01-02"
)

var versionRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// Lint checks the standards at the given paths on disk and returns their
// problems, ordered by file and line. Relative links are resolved against
// each file's folder.
func Lint(files []string) []Problem {
	var out []Problem
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			out = append(out, Problem{File: name, Line: 1, Message: readError(err)})
			continue
		}
		out = append(out, LintData(name, data, func(target string) bool {
			_, err := os.Stat(filepath.Join(filepath.Dir(name), filepath.FromSlash(target)))
			return err == nil
		})...)
	}
	sortProblems(out)
	return out
}

// LintFS is Lint over a file system, for example the embedded library; names
// are slash-separated paths within fsys.
func LintFS(fsys fs.FS, files []string) []Problem {
	var out []Problem
	for _, name := range files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			out = append(out, Problem{File: name, Line: 1, Message: readError(err)})
			continue
		}
		out = append(out, LintData(name, data, func(target string) bool {
			p := path.Join(path.Dir(name), target)
			if !fs.ValidPath(p) {
				return false // a link that leaves the file system
			}
			_, err := fs.Stat(fsys, p)
			return err == nil
		})...)
	}
	sortProblems(out)
	return out
}

func readError(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "cannot read: " + pe.Err.Error()
	}
	return "cannot read: " + err.Error()
}

// LintData checks one standard, named name, whose content is data. exists
// reports whether a relative link target (slash-separated, relative to the
// standard's folder) exists; nil skips the link check.
func LintData(name string, data []byte, exists func(target string) bool) []Problem {
	s := Parse(name, data)
	l := &linter{s: s}
	l.keywords()
	l.structure()
	l.questions()
	l.checklist()
	l.examples()
	l.footer()
	l.placeholders()
	if exists != nil {
		l.links(exists)
	}
	if s.unclosedAt > 0 {
		l.add(s.unclosedAt, "code block opened here is never closed")
	}
	sortProblems(l.problems)
	return l.problems
}

func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
}

type linter struct {
	s        *Standard
	problems []Problem
}

func (l *linter) add(line int, format string, args ...any) {
	if line < 1 {
		line = 1
	}
	l.problems = append(l.problems, Problem{File: l.s.Path, Line: line, Message: fmt.Sprintf(format, args...)})
}

// lastLine is where problems about something missing are reported.
func (l *linter) lastLine() int { return max(len(l.s.lines), 1) }

func (l *linter) keywords() {
	s := l.s
	if len(s.lines) == 0 {
		l.add(1, "empty file; a standard starts with a %q line", keywordsPrefix+" a, b, c")
		return
	}
	if s.Keywords == nil {
		l.add(1, "first line must list search keywords: %q", keywordsPrefix+" term, term, term")
		return
	}
	var n int
	for _, k := range s.Keywords {
		if k == "" {
			l.add(1, "empty keyword in the keywords line (a doubled or trailing comma?)")
			continue
		}
		n++
	}
	if n < MinKeywords {
		l.add(1, "list at least %d search keywords on the first line, not %d", MinKeywords, n)
	}
}

// structure checks the title, the order of TL;DR and that every required
// section is present once and says something.
func (l *linter) structure() {
	s := l.s
	if len(s.Sections) == 0 || s.Sections[0].Level != 1 {
		line := 2
		if len(s.Sections) > 0 {
			line = s.Sections[0].Line
		}
		l.add(line, "a title (\"# ...\") must follow the keywords line")
	}
	for _, sec := range s.Sections {
		if sec.Level == 2 {
			if !headingNames(sec.Title, "TL;DR") {
				l.add(sec.Line, "the first section must be \"## TL;DR\", not %q", sec.Title)
			}
			break
		}
	}
	for _, name := range RequiredSections {
		var found []Section
		for _, sec := range s.Sections {
			if sec.Level == 2 && headingNames(sec.Title, name) {
				found = append(found, sec)
			}
		}
		if len(found) == 0 {
			l.add(l.lastLine(), "missing required section \"## %s\"", name)
			continue
		}
		for _, dup := range found[1:] {
			l.add(dup.Line, "section %q appears twice (first at line %d)", name, found[0].Line)
		}
		if start, end := l.span(found[0]); !l.hasText(start, end) {
			l.add(found[0].Line, "section %q is empty", name)
		}
	}
}

// span returns the 0-based line range [start, end) of a level-2 section's
// content, subsections included.
func (l *linter) span(sec Section) (start, end int) {
	start, end = sec.Line, len(l.s.lines)
	for _, other := range l.s.Sections {
		if other.Line > sec.Line && other.Level <= sec.Level {
			end = other.Line - 1
			break
		}
	}
	return start, end
}

// hasText reports whether lines [start, end) hold anything but blank lines,
// rules and footer fields.
func (l *linter) hasText(start, end int) bool {
	for i := start; i < end; i++ {
		t := strings.TrimSpace(l.s.lines[i])
		if t != "" && t != "---" && !l.isFooterLine(i+1) {
			return true
		}
	}
	return false
}

func (l *linter) isFooterLine(line int) bool {
	f := l.s.Footer
	return line == f.VersionLine || line == f.CreatedLine || line == f.LastUpdatedLine || line == f.NextReviewLine
}

var listItemRE = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+(.*)$`)

func (l *linter) questions() {
	sec, ok := l.s.Section("Questions this answers")
	if !ok {
		return
	}
	headings := map[string]bool{}
	for _, h := range l.s.Sections {
		headings[normalizeQuestion(h.Title)] = true
	}
	start, end := l.span(sec)
	n := 0
	for i := start; i < end; i++ {
		if l.s.inCode[i] {
			continue
		}
		m := listItemRE.FindStringSubmatch(l.s.lines[i])
		if m == nil {
			continue
		}
		n++
		q := strings.TrimSpace(m[1])
		if !strings.HasSuffix(q, "?") {
			l.add(i+1, "write each item of \"Questions this answers\" as a question, ending with \"?\"")
		}
		if headings[normalizeQuestion(q)] {
			l.add(i+1, "question %q copies a heading; ask it the way a person would", q)
		}
	}
	if n < MinQuestions || n > MaxQuestions {
		l.add(sec.Line, "\"Questions this answers\" lists %d questions; write %d to %d", n, MinQuestions, MaxQuestions)
	}
}

func normalizeQuestion(s string) string {
	return strings.TrimSpace(strings.TrimRight(strings.ToLower(s), "?. "))
}

var checkboxRE = regexp.MustCompile(`^\s*[-*+]\s+\[[ xX]\]\s+\S`)

func (l *linter) checklist() {
	sec, ok := l.s.Section("Checklist")
	if !ok {
		return
	}
	start, end := l.span(sec)
	for i := start; i < end; i++ {
		if !l.s.inCode[i] && checkboxRE.MatchString(l.s.lines[i]) {
			return
		}
	}
	l.add(sec.Line, "the checklist needs at least one item written \"- [ ] ...\"")
}

func (l *linter) examples() {
	sec, ok := l.s.Section("Examples")
	if !ok {
		return
	}
	start, end := l.span(sec)
	for i := start; i < end; i++ {
		if l.s.inCode[i] {
			return
		}
	}
	l.add(sec.Line, "the Examples section needs at least one fenced code block")
}

func (l *linter) footer() {
	f := l.s.Footer
	if f.VersionLine == 0 {
		l.add(l.lastLine(), "missing footer line \"Version: <major>.<minor>.<patch>\"")
	} else if !versionRE.MatchString(f.Version) {
		l.add(f.VersionLine, "version %q is not <major>.<minor>.<patch>, e.g. 1.0.0", f.Version)
	}
	dates := []struct {
		key   string
		value string
		line  int
		t     time.Time
	}{
		{"Created", f.Created, f.CreatedLine, time.Time{}},
		{"Last Updated", f.LastUpdated, f.LastUpdatedLine, time.Time{}},
		{"Next review", f.NextReview, f.NextReviewLine, time.Time{}},
	}
	valid := true
	for i := range dates {
		d := &dates[i]
		if d.line == 0 {
			l.add(l.lastLine(), "missing footer line \"%s: YYYY-MM-DD\"", d.key)
			valid = false
			continue
		}
		t, err := time.Parse(DateLayout, d.value)
		if err != nil {
			l.add(d.line, "%s date %q is not a valid YYYY-MM-DD date", d.key, d.value)
			valid = false
			continue
		}
		d.t = t
	}
	if !valid {
		return
	}
	if dates[1].t.Before(dates[0].t) {
		l.add(dates[1].line, "Last Updated (%s) is before Created (%s)", dates[1].value, dates[0].value)
	}
	if !dates[2].t.After(dates[1].t) {
		l.add(dates[2].line, "Next review (%s) must be after Last Updated (%s)", dates[2].value, dates[1].value)
	}
	// The footer closes the file: nothing but blank lines may follow it.
	last := max(f.VersionLine, f.CreatedLine, f.LastUpdatedLine, f.NextReviewLine)
	first := min(f.VersionLine, f.CreatedLine, f.LastUpdatedLine, f.NextReviewLine)
	for _, sec := range l.s.Sections {
		if sec.Line > first {
			l.add(first, "the footer must be the last lines of the file; %q follows it", sec.Title)
			return
		}
	}
	if last-first != 3 {
		l.add(first, "write the four footer lines together: Version, Created, Last Updated, Next review")
	}
}

// placeholders reports every "[[fill: ...]]" left, in prose and in code
// blocks alike; one quoted in a code span (`[[fill: ...]]`) is an example.
func (l *linter) placeholders() {
	for i, line := range l.s.lines {
		if !l.s.inCode[i] {
			line = codeSpanRE.ReplaceAllString(line, "")
		}
		if strings.Contains(line, Placeholder) {
			l.add(i+1, "unfilled placeholder: %s", placeholderText(line))
		}
	}
}

// placeholderText returns the first placeholder on the line, "[[fill: ...]]".
func placeholderText(line string) string {
	i := strings.Index(line, Placeholder)
	rest := line[i:]
	if j := strings.Index(rest, "]]"); j >= 0 {
		return rest[:j+2]
	}
	return rest
}

var (
	inlineLinkRE = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	refLinkRE    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	codeSpanRE   = regexp.MustCompile("`+[^`]*`+")
	schemeRE     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

func (l *linter) links(exists func(string) bool) {
	for i, line := range l.s.lines {
		if l.s.inCode[i] {
			continue
		}
		line = codeSpanRE.ReplaceAllString(line, "")
		var targets []string
		for _, m := range inlineLinkRE.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refLinkRE.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			l.link(i+1, target, exists)
		}
	}
}

func (l *linter) link(line int, target string, exists func(string) bool) {
	if target == "" || strings.HasPrefix(target, "#") || schemeRE.MatchString(target) {
		return
	}
	p := target
	if i := strings.IndexAny(p, "#?"); i >= 0 {
		p = p[:i]
	}
	if unescaped, err := url.PathUnescape(p); err == nil {
		p = unescaped
	}
	if strings.HasPrefix(p, "/") {
		l.add(line, "link %q is absolute; link to other files relative to this one", target)
		return
	}
	if !exists(p) {
		l.add(line, "link %q does not resolve to a file", target)
	}
}

// isStandardName reports whether a file of this name is a standard: a
// Markdown file, but not a folder's README.md.
func isStandardName(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".md") && !strings.EqualFold(name, "README.md")
}

// Files expands paths into the standards to lint: a file is taken as it is,
// a folder gives every .md file below it except README.md files, which index
// a folder rather than state a standard. The result is sorted within each
// folder.
func Files(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such file or folder", p)
			}
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name != p && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if isStandardName(d.Name()) {
				out = append(out, name)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FilesFS is Files over a file system: every .md file below root except
// README.md files, sorted.
func FilesFS(fsys fs.FS, root string) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isStandardName(d.Name()) {
			out = append(out, name)
		}
		return nil
	})
	return out, err
}
