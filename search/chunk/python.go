package chunk

import (
	"strconv"
	"strings"
)

// The Python recogniser reads the tokenizer's logical lines with their
// indentation. It emits functions, async functions, classes (nested ones
// too), methods qualified by their classes ("Outer.Inner.method"),
// module-level assignments and annotated assignments (constants when the name
// is in capitals) and `type X = …` aliases. A chunk starts at its leading
// comments and first decorator; definitions inside a function stay in it.

// pyBlock is an open compound statement that may hold definitions.
type pyBlock struct {
	indent int
	name   string
	class  bool
	fn     bool
	idx    int // index into the output, or -1
}

var pyKeywords = map[string]bool{"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true, "import": true,
	"in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true}

// Python cuts a Python file into one chunk per definition (see above); the
// lines between them become "imports" and "module" chunks. It reports false
// when the file does not tokenize or its indentation does not nest.
func Python(p string, src []byte) ([]Chunk, bool) {
	text := string(src)
	stmts, comments, err := pyLex(text)
	if err != nil {
		return nil, false
	}
	ls := lines(src)
	exports := pyAll(stmts)
	exported := func(name string, top bool) bool {
		if top && exports != nil {
			return exports[name]
		}
		return !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
	}
	var (
		out       []Chunk
		stack     []pyBlock
		decoStart int  // first line of the decorators above the next statement
		overload  bool // one of those decorators is @overload
		// lastOverload is the index in out of the last definition marked
		// @overload, whose next overload or implementation may follow at
		// the same indentation.
		lastOverload       = -1
		lastOverloadIndent int
		indents            = []int{0}
	)
	for si, st := range stmts {
		// Indentation must return to a level it has been at.
		switch top := indents[len(indents)-1]; {
		case st.indent > top:
			indents = append(indents, st.indent)
		case st.indent < top:
			for len(indents) > 0 && indents[len(indents)-1] > st.indent {
				indents = indents[:len(indents)-1]
			}
			if len(indents) == 0 || indents[len(indents)-1] != st.indent {
				return nil, false
			}
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= st.indent {
			stack = stack[:len(stack)-1]
		}
		for _, b := range stack {
			if b.idx >= 0 {
				out[b.idx].EndLine = max(out[b.idx].EndLine, st.end)
			}
		}
		toks := st.toks
		if toks[0].text == "@" {
			if decoStart == 0 {
				decoStart = st.start
			}
			overload = overload || isOverloadDecorator(toks)
			continue
		}
		deco, isOverload := decoStart, overload
		decoStart, overload = 0, false
		inFunc, prefix := false, ""
		for _, b := range stack {
			inFunc = inFunc || b.fn
			if b.class {
				prefix += b.name + "."
			}
		}
		head := toks
		if len(head) > 1 && head[0].text == "async" {
			head = head[1:]
		}
		isDef := len(head) > 1 && head[0].kind == 'n' && (head[0].text == "def" || head[0].text == "class") && head[1].kind == 'n'
		if isDef {
			name := head[1].text
			b := pyBlock{indent: st.indent, name: name, class: head[0].text == "class", fn: head[0].text == "def", idx: -1}
			if !inFunc {
				kind := Func
				switch {
				case b.class:
					kind = Type
				case len(prefix) > 0:
					kind = Method
				}
				start := st.start
				if deco > 0 {
					start = deco
				}
				c := Chunk{Path: p, Language: "python", Kind: kind, Symbol: prefix + name, StartLine: start,
					DeclLine: head[0].line, EndLine: st.end, Exported: exported(name, prefix == "")}
				colon := pyHeaderColon(toks)
				if colon > 0 {
					c.Signature = collapse(text[toks[0].off:toks[colon].off])
				}
				c.StartLine, c.Doc = pyLeadingComments(comments, c.StartLine, st.indent)
				c.Doc = joinDoc(c.Doc, pyDocstring(toks, colon, stmts, si))
				if kind != Func && len(prefix) > 0 {
					c.Types = []string{strings.TrimSuffix(prefix, ".")}
				}
				if o := lastOverload; o >= 0 && o == len(out)-1 && lastOverloadIndent == st.indent &&
					out[o].Symbol == c.Symbol && out[o].Kind == c.Kind {
					// Overloads and their implementation are one
					// definition, declared where the first begins: it
					// keeps the longest documentation (most often the
					// implementation's) and the implementation's
					// signature, the most general.
					out[o].EndLine = c.EndLine
					if len(c.Doc) > len(out[o].Doc) {
						out[o].Doc = c.Doc
					}
					if !isOverload && c.Signature != "" {
						out[o].Signature = c.Signature
					}
				} else {
					out = append(out, c)
				}
				b.idx = len(out) - 1
				lastOverload = -1
				if isOverload && !b.class {
					lastOverload, lastOverloadIndent = b.idx, st.indent
				}
			}
			stack = append(stack, b)
			continue
		}
		if len(stack) == 0 || !stack[len(stack)-1].fn {
			lastOverload = -1 // a statement between two definitions of one name
		}
		if st.indent == 0 && len(stack) == 0 {
			for _, simple := range pySimpleStatements(st) {
				if c, ok := pyAssignment(p, text, simple, exported); ok {
					c.StartLine, c.Doc = pyLeadingComments(comments, c.StartLine, st.indent)
					out = append(out, c)
				}
			}
		}
	}
	// A class chunk holds its head: the lines before its first member.
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
	covered := make([]bool, len(ls)+2)
	for i := range out {
		for k := out[i].StartLine; k <= out[i].EndLine && k < len(covered); k++ {
			covered[k] = true
		}
		out[i].Text = span(ls, out[i].StartLine, out[i].EndLine)
	}
	mods := moduleChunks(p, "python", ls, covered, isPyImport)
	if len(mods) > 0 && len(stmts) > 0 && mods[0].StartLine <= stmts[0].start {
		if mods[0].Doc = pyDocstring(stmts[0].toks, -1, nil, 0); mods[0].Doc != "" {
			mods[0].Kind = Package
		}
	}
	return mergeByLine(out, mods), true
}

// isOverloadDecorator reports whether a decorator's tokens are typing's
// @overload, under any module prefix (@typing.overload, @t.overload).
func isOverloadDecorator(toks []pyTok) bool {
	n := len(toks)
	return n >= 2 && toks[n-1].text == "overload" && (n == 2 || toks[n-2].text == ".")
}

// pyHeaderColon returns the index of the ":" that ends a compound
// statement's header, or -1.
func pyHeaderColon(toks []pyTok) int {
	depth := 0
	for i, t := range toks {
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// pyDocstring returns the docstring of a definition: the string that is
// the first statement of its body, either after the header's colon on the
// same line or as the next logical line. With colon -1, toks itself is
// the statement to read.
func pyDocstring(toks []pyTok, colon int, stmts []pyStmt, si int) string {
	var body []pyTok
	switch {
	case colon < 0:
		body = toks
	case colon+1 < len(toks):
		body = toks[colon+1:]
	case si+1 < len(stmts) && stmts[si+1].indent > stmts[si].indent:
		body = stmts[si+1].toks
	}
	var sb strings.Builder
	for _, t := range body {
		if t.kind != 's' {
			if t.text == ";" {
				break
			}
			return ""
		}
		s, ok := pyStringValue(t.text)
		if !ok {
			return ""
		}
		sb.WriteString(s)
	}
	return dedent(sb.String())
}

// pyStringValue returns the text of a plain or raw string literal without
// its prefix and quotes; escapes are left as written. Bytes and f-strings
// are not docstrings.
func pyStringValue(lit string) (string, bool) {
	k := strings.IndexAny(lit, `"'`)
	if k < 0 || strings.ContainsAny(strings.ToLower(lit[:k]), "bft") {
		return "", false
	}
	body := lit[k:]
	q := body[:1]
	if strings.HasPrefix(body, strings.Repeat(q, 3)) && len(body) >= 6 {
		q = strings.Repeat(q, 3)
	}
	return body[len(q) : len(body)-len(q)], true
}

// pyLeadingComments extends a chunk starting at line start upwards over the
// comment lines directly above it at the same indentation, returning the new
// start and the comments' text.
func pyLeadingComments(comments map[int]pyComment, start, indent int) (int, string) {
	var doc []string
	for {
		c, ok := comments[start-1]
		if !ok || c.indent != indent {
			break
		}
		doc = append([]string{c.text}, doc...)
		start--
	}
	return start, strings.TrimSpace(strings.Join(doc, "\n"))
}

func joinDoc(a, b string) string { return strings.TrimSpace(a + "\n" + b) }

// pyAssignment recognises a module-level assignment ("X = 1", "X: int = 1",
// "X: int", "a = b = 1") or type alias ("type X = …") and returns its chunk.
func pyAssignment(p, text string, st pyStmt, exported func(string, bool) bool) (Chunk, bool) {
	toks := st.toks
	// A target in parentheses, "(x): int = 5", is still a name.
	parens := 0
	for parens < len(toks) && toks[parens].text == "(" {
		parens++
	}
	if parens > 0 {
		if len(toks) < 2*parens+2 {
			return Chunk{}, false
		}
		for k := parens + 1; k <= 2*parens; k++ {
			if toks[k].text != ")" {
				return Chunk{}, false
			}
		}
		toks = append([]pyTok{toks[parens]}, toks[2*parens+1:]...)
	}
	if len(toks) < 2 || toks[0].kind != 'n' || pyKeywords[toks[0].text] {
		return Chunk{}, false
	}
	name, kind := toks[0].text, Var
	switch {
	case toks[0].text == "type" && toks[1].kind == 'n' && len(toks) > 2 && (toks[2].text == "=" || toks[2].text == "["):
		name, kind = toks[1].text, Type
	case toks[1].text == "=" || toks[1].text == ":":
		if isUpperName(name) {
			kind = Const
		}
	default:
		return Chunk{}, false
	}
	last := st.toks[len(st.toks)-1]
	sig := collapse(text[st.toks[0].off : last.off+len(last.text)])
	if len(sig) > 200 {
		sig = sig[:200] + " …"
	}
	return Chunk{Path: p, Language: "python", Kind: kind, Symbol: name, StartLine: st.start, DeclLine: st.start,
		EndLine: st.end, Signature: sig, Exported: exported(name, true)}, true
}

// pySimpleStatements splits a line of simple statements at its semicolons
// ("A = 1; B = 2"); a compound statement ("if x: a = 1; b = 2") stays whole,
// its body being no module-level code.
func pySimpleStatements(st pyStmt) []pyStmt {
	if pyKeywords[st.toks[0].text] {
		return []pyStmt{st}
	}
	var out []pyStmt
	from := 0
	for i, t := range st.toks {
		if i == len(st.toks)-1 || t.text == ";" { // never inside brackets: Python has no ";" there
			to := i + 1
			if t.text == ";" {
				to = i
			}
			if to > from {
				part := st.toks[from:to]
				out = append(out, pyStmt{toks: part, indent: st.indent, start: part[0].line, end: part[len(part)-1].end})
			}
			from = i + 1
		}
	}
	return out
}

// isUpperName reports whether a name is written as a constant: capitals,
// digits and underscores with at least one capital.
func isUpperName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// pyAll returns the names listed in a module-level `__all__ = [...]` (or
// tuple, or `+=`), or nil when the module has none that can be read.
func pyAll(stmts []pyStmt) map[string]bool {
	var names map[string]bool
	for _, st := range stmts {
		t := st.toks
		if st.indent != 0 || len(t) < 3 || t[0].text != "__all__" || t[1].text != "=" && t[1].text != "+=" {
			continue
		}
		if names == nil || t[1].text == "=" {
			names = map[string]bool{}
		}
		for _, x := range t[2:] {
			switch {
			case x.kind == 's':
				if s, err := strconv.Unquote(strings.TrimLeft(x.text, "uU")); err == nil {
					names[s] = true
				} else if s, ok := pyStringValue(x.text); ok {
					names[s] = true
				}
			case x.text == "[" || x.text == "]" || x.text == "(" || x.text == ")" || x.text == ",":
			default:
				return nil // computed: not readable
			}
		}
	}
	return names
}

func isPyImport(t string) bool {
	return strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") && strings.Contains(t, " import ")
}

func dedent(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(ls, "\n"))
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
