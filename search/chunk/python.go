package chunk

import (
	"regexp"
	"strings"
)

// pyLine is one logical line of a Python file: the physical lines it spans,
// its indentation and its text with strings and comments intact.
type pyLine struct {
	start, end int // 1-based physical lines
	indent     int
	text       string // first physical line, trimmed
}

var (
	pyDef   = regexp.MustCompile(`^(?:async\s+)?def\s+([A-Za-z_]\w*)`)
	pyClass = regexp.MustCompile(`^class\s+([A-Za-z_]\w*)`)
)

// Python cuts a Python file into one chunk per top-level function, class and
// method (nested functions stay in their parent). It reports false when the
// file does not scan: an unterminated string or unbalanced brackets.
func Python(p string, src []byte) ([]Chunk, bool) {
	ls := lines(src)
	logical, ok := pyLogical(ls)
	if !ok {
		return nil, false
	}
	type open struct {
		indent int
		name   string
		class  bool
		idx    int // index into out, or -1 for a nested function (not emitted)
	}
	var (
		out     []Chunk
		stack   []open
		covered = make([]bool, len(ls)+2)
		lastEnd = make(map[int]int) // chunk index -> last non-blank logical line end
	)
	closeTo := func(indent int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
	}
	for li, l := range logical {
		closeTo(l.indent)
		// Every open definition contains this line.
		for _, o := range stack {
			if o.idx >= 0 {
				lastEnd[o.idx] = l.end
			}
		}
		name, isClass := "", false
		if m := pyDef.FindStringSubmatch(l.text); m != nil {
			name = m[1]
		} else if m := pyClass.FindStringSubmatch(l.text); m != nil {
			name, isClass = m[1], true
		}
		if name == "" {
			continue
		}
		// A definition nested in a function is part of that function.
		inFunc := false
		prefix := ""
		for _, o := range stack {
			if !o.class {
				inFunc = true
			}
			prefix += o.name + "."
		}
		if inFunc {
			stack = append(stack, open{indent: l.indent, name: name, class: isClass, idx: -1})
			continue
		}
		start := l.start
		// Decorators and comments directly above belong to the definition.
		var comments []string
		for k := li - 1; k >= 0; k-- {
			pl := logical[k]
			if pl.indent != l.indent || pl.end != start-1 || !(strings.HasPrefix(pl.text, "@")) {
				break
			}
			start = pl.start
		}
		for start > 1 {
			t := strings.TrimSpace(ls[start-2])
			if !strings.HasPrefix(t, "#") {
				break
			}
			comments = append([]string{strings.TrimSpace(strings.TrimPrefix(t, "#"))}, comments...)
			start--
		}
		kind := Func
		switch {
		case isClass:
			kind = Type
		case len(stack) > 0:
			kind = Method
		}
		c := Chunk{Path: p, Language: "python", Kind: kind, Symbol: prefix + name, StartLine: start,
			DeclLine: l.start, EndLine: l.end, Exported: !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")}
		c.Signature = collapse(span(ls, l.start, l.end))
		if li+1 < len(logical) && logical[li+1].indent > l.indent {
			c.Doc = pyDocstring(ls, logical[li+1])
		}
		if len(comments) > 0 {
			c.Doc = strings.TrimSpace(strings.Join(comments, "\n") + "\n" + c.Doc)
		}
		out = append(out, c)
		idx := len(out) - 1
		lastEnd[idx] = l.end
		stack = append(stack, open{indent: l.indent, name: name, class: isClass, idx: idx})
	}
	for idx := range out {
		out[idx].EndLine = max(out[idx].EndLine, lastEnd[idx])
	}
	// A class chunk holds its head: the lines before its first method.
	for i := range out {
		if out[i].Kind != Type {
			continue
		}
		for j := i + 1; j < len(out); j++ {
			if out[j].StartLine > out[i].EndLine {
				break
			}
			if strings.HasPrefix(out[j].Symbol, out[i].Symbol+".") {
				out[i].EndLine = max(out[i].DeclLine, out[j].StartLine-1)
				break
			}
		}
	}
	for i := range out {
		for k := out[i].StartLine; k <= out[i].EndLine; k++ {
			covered[k] = true
		}
		out[i].Text = span(ls, out[i].StartLine, out[i].EndLine)
	}
	mods := moduleChunks(p, "python", ls, covered, isPyImport)
	if len(mods) > 0 && len(logical) > 0 && mods[0].StartLine <= logical[0].start {
		if mods[0].Doc = pyDocstring(ls, logical[0]); mods[0].Doc != "" {
			mods[0].Kind = Package
		}
	}
	return mergeByLine(out, mods), true
}

var pyStringStart = regexp.MustCompile(`^[rRuUbBfF]{0,2}("""|'''|"|')`)

// pyDocstring returns the text of a string literal that opens logical line l,
// or "".
func pyDocstring(ls []string, l pyLine) string {
	m := pyStringStart.FindStringSubmatch(l.text)
	if m == nil {
		return ""
	}
	body := strings.TrimSpace(span(ls, l.start, l.end))
	body = body[len(m[0]):]
	if i := strings.LastIndex(body, m[1]); i >= 0 {
		body = body[:i]
	}
	return dedent(body)
}

func dedent(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(ls, "\n"))
}

func isPyImport(t string) bool {
	return strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") && strings.Contains(t, " import ")
}

// pyLogical groups physical lines into logical lines, following brackets,
// backslash continuations and triple-quoted strings. Blank and comment-only
// lines are left out.
func pyLogical(ls []string) ([]pyLine, bool) {
	var (
		out    []pyLine
		depth  int
		quote  string // open triple or single quote
		cur    *pyLine
		contin bool
	)
	for i, raw := range ls {
		n := i + 1
		if cur == nil {
			t := strings.TrimSpace(raw)
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			out = append(out, pyLine{start: n, end: n, indent: indentOf(raw), text: t})
			cur = &out[len(out)-1]
		}
		cur.end = n
		contin = false
		for k := 0; k < len(raw); k++ {
			c := raw[k]
			if quote != "" {
				if c == '\\' {
					k++
					continue
				}
				if strings.HasPrefix(raw[k:], quote) {
					k += len(quote) - 1
					quote = ""
				}
				continue
			}
			switch c {
			case '#':
				k = len(raw)
			case '"', '\'':
				q := string(c)
				if strings.HasPrefix(raw[k:], strings.Repeat(q, 3)) {
					q = strings.Repeat(q, 3)
				}
				quote = q
				k += len(q) - 1
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if depth < 0 {
					return nil, false
				}
			case '\\':
				if k == len(raw)-1 {
					contin = true
				}
			}
		}
		if len(quote) == 1 { // a single-quoted string does not span lines
			if !contin {
				return nil, false
			}
		}
		if quote == "" && depth == 0 && !contin {
			cur = nil
		}
	}
	if quote != "" || depth != 0 {
		return nil, false
	}
	return out, true
}

func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		default:
			return n
		}
	}
	return n
}

// moduleChunks turns the runs of lines no symbol covers into chunks: "imports"
// when every statement in the run is an import, "module" otherwise. Runs
// longer than a window are cut into windows.
func moduleChunks(p, lang string, ls []string, covered []bool, isImport func(string) bool) []Chunk {
	var out []Chunk
	flush := func(start, end int) {
		// Trim blank lines at both ends.
		for start <= end && isFiller(ls[start-1]) {
			start++
		}
		for end >= start && isFiller(ls[end-1]) {
			end--
		}
		if start > end {
			return
		}
		imports, code := true, false
		for k := start; k <= end; k++ {
			t := strings.TrimSpace(ls[k-1])
			if t == "" || isComment(t) || t == ")" || t == "}" || t == "(" {
				continue
			}
			code = true
			if !isImport(t) {
				imports = false
			}
		}
		if !code {
			return
		}
		kind := Module
		if imports {
			kind = Imports
		}
		for s := start; s <= end; s += WindowLines - WindowOverlap {
			e := min(s+WindowLines-1, end)
			out = append(out, Chunk{Path: p, Language: lang, Kind: kind, StartLine: s, DeclLine: s, EndLine: e,
				Text: span(ls, s, e)})
			if e == end {
				break
			}
		}
	}
	start := -1
	for k := 1; k <= len(ls); k++ {
		if !covered[k] {
			if start < 0 {
				start = k
			}
			continue
		}
		if start > 0 {
			flush(start, k-1)
			start = -1
		}
	}
	if start > 0 {
		flush(start, len(ls))
	}
	return out
}

// isFiller reports whether a line is blank or only closing punctuation.
func isFiller(l string) bool {
	return strings.Trim(l, " \t})];,") == ""
}

func isComment(t string) bool {
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") ||
		strings.HasPrefix(t, "*")
}

// mergeByLine merges two chunk lists by start line.
func mergeByLine(a, b []Chunk) []Chunk {
	out := make([]Chunk, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j >= len(b) || i < len(a) && a[i].StartLine <= b[j].StartLine {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}
