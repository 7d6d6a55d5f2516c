package chunk

import (
	"regexp"
	"strings"
)

// A file that does not parse is still cut where its declarations seem to
// begin, so that a window holds one declaration from its first line rather
// than the end of one and the start of the next. The patterns below only
// find boundaries; they decide nothing about a file that parses.

// declStart matches a line that begins a declaration, by language.
var declStart = map[string]*regexp.Regexp{
	"python": regexp.MustCompile(`^(?:\s*(?:@|(?:async\s+)?def\s+\w|class\s+\w)|[A-Za-z_]\w*\s*(?::[^=]*)?=[^=])`),
	"rust": regexp.MustCompile(`^\s*(?:#!?\[|(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:default|const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*` +
		`(?:fn|struct|enum|union|trait|impl|mod|type|const|static|macro_rules!)\b)`),
	"java": regexp.MustCompile(`^\s*(?:@\w|(?:(?:public|protected|private|static|final|abstract|sealed|synchronized|native|default)\s+)*` +
		`(?:class|interface|enum|record|@interface)\s+\w|(?:(?:public|protected|private|static|final|abstract|synchronized|native|default)\s+)+[\w<>\[\],.?\s]+\(` +
		`)`),
}

// commentStart matches a line of comment or doc comment that may lead a
// declaration.
var commentStart = regexp.MustCompile(`^\s*(?:#[^!\[]|#$|//|/\*|\*)`)

// declWindows cuts a file that did not parse into windows starting at the
// lines that seem to begin declarations (with the comments directly above
// them), each at most WindowLines long; a language without boundary
// patterns gets plain overlapping windows.
func declWindows(p, lang string, src []byte) []Chunk {
	re := declStart[lang]
	if re == nil {
		return Windows(p, lang, src, 0, 0)
	}
	ls := lines(src)
	starts := []int{1}
	for i := range ls {
		// Decorators, annotations and attributes start the window of the
		// declaration they precede.
		if !re.MatchString(ls[i]) || i > 0 && isDecoration(ls[i-1]) {
			continue
		}
		first := i
		for first > 0 && commentStart.MatchString(ls[first-1]) {
			first--
		}
		if first+1 > starts[len(starts)-1] {
			starts = append(starts, first+1)
		}
	}
	var out []Chunk
	for k, s := range starts {
		end := len(ls)
		if k+1 < len(starts) {
			end = starts[k+1] - 1
		}
		for w := s; w <= end; w += WindowLines - WindowOverlap {
			e := min(w+WindowLines-1, end)
			if text := span(ls, w, e); !isBlank(text) {
				out = append(out, Chunk{Path: p, Language: lang, Kind: Window, StartLine: w, DeclLine: w, EndLine: e, Text: text})
			}
			if e == end {
				break
			}
		}
	}
	return out
}

// isDecoration reports whether a line is a decorator, an annotation or an
// attribute.
func isDecoration(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[")
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' {
			return false
		}
	}
	return true
}
