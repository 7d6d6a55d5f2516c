package chunk

import (
	"regexp"
	"sort"
	"strings"
)

// The brace scanner chunked TypeScript, JavaScript, Rust and Java before
// their lexers and declaration recognisers (typescript.go, rust.go,
// java.go). It stays here, in the tests only, as the baseline the
// before/after figures of docs/benchmarks.md are measured against
// (TestTSReferenceLong, the chunking benchmarks). It lexes just enough to
// skip comments, strings, template literals, character literals and regular
// expressions, matches braces, and classifies the text in front of each
// block-opening brace (the "header") with a few patterns per language.

type braceBlock struct {
	expr     bool // a brace inside parentheses or a type: an expression, not a block
	symbol   int  // index into the output, or -1
	function bool // the block is a function body: what is inside stays inside
	within   bool // inside a function or an expression: definitions are not emitted
	prefix   string
	test     bool
}

type braceScanner struct {
	src   string
	lang  string
	lines []int // byte offset of each line's start
}

func (s *braceScanner) lineOf(off int) int {
	return sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off })
}

// Brace cuts a TypeScript, JavaScript, Rust or Java file into one chunk per
// function, method, class, interface, struct, enum, trait and impl block head.
// It reports false when braces, strings or comments do not balance.
func Brace(p, lang string, src []byte) ([]Chunk, bool) {
	s := &braceScanner{src: string(src), lang: lang, lines: []int{0}}
	for i := 0; i < len(s.src); i++ {
		if s.src[i] == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	ls := lines(src)
	var (
		out      []Chunk
		stack    []braceBlock
		hdr      strings.Builder
		hdrStart = -1 // byte offset of the header's first significant byte
		parens   int
		prevSig  byte   // last significant byte, for telling regexes from division
		prevWord string // last identifier, for the same
	)
	reset := func() { hdr.Reset(); hdrStart = -1 }
	mark := func(i int) {
		if hdrStart < 0 {
			hdrStart = i
		}
	}
	src2 := s.src
	n := len(src2)
	// Template literals: a stack of brace depths at which a ${ … } returns
	// to the template text.
	var tmpl []int
	braceDepth := 0
	i := 0
	for i < n {
		c := src2[i]
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			if hdr.Len() > 0 {
				hdr.WriteByte(' ')
			}
			i++
			continue
		case c == '/' && i+1 < n && src2[i+1] == '/':
			j := strings.IndexByte(src2[i:], '\n')
			if j < 0 {
				i = n
			} else {
				i += j
			}
			continue
		case c == '/' && i+1 < n && src2[i+1] == '*':
			j, ok := skipBlockComment(src2, i, lang == "rust")
			if !ok {
				return nil, false
			}
			i = j
			continue
		}
		mark(i)
		switch {
		case c == '"' || c == '\'' || c == '`':
			j, ok := s.skipQuoted(i)
			if !ok {
				return nil, false
			}
			if j < 0 { // a Rust lifetime, not a literal
				hdr.WriteByte(c)
				i++
				continue
			}
			if c == '`' && lang != "rust" && lang != "java" && j > 0 && src2[j-1] != '`' {
				// Stopped at "${": the template continues after the
				// matching brace.
				hdr.WriteString(src2[i:j])
				tmpl = append(tmpl, braceDepth)
				braceDepth++
				i = j
				prevSig = '{'
				continue
			}
			hdr.WriteString(src2[i:j])
			i = j
			prevSig = '"'
			continue
		case c == 'r' && lang == "rust" && i+1 < n && (src2[i+1] == '"' || src2[i+1] == '#') && !isIdentByte(prevByte(src2, i)):
			if j, ok := skipRustRaw(src2, i); ok {
				hdr.WriteString(src2[i:j])
				i = j
				prevSig = '"'
				continue
			}
		case c == '/' && (lang == "javascript" || lang == "typescript") && regexAllowed(prevSig, prevWord):
			j, ok := skipRegex(src2, i)
			if ok {
				hdr.WriteString(src2[i:j])
				i = j
				prevSig = '"'
				continue
			}
		}
		if isIdentByte(c) {
			j := i
			for j < n && isIdentByte(src2[j]) {
				j++
			}
			prevWord = src2[i:j]
			hdr.WriteString(prevWord)
			prevSig = 'a'
			i = j
			continue
		}
		prevWord = ""
		prevSig = c
		switch c {
		case '(', '[':
			parens++
			hdr.WriteByte(c)
		case ')', ']':
			parens--
			if parens < 0 {
				return nil, false
			}
			hdr.WriteByte(c)
		case ';':
			if parens == 0 {
				reset()
			} else {
				hdr.WriteByte(c)
			}
		case '{':
			braceDepth++
			h := strings.TrimSpace(hdr.String())
			parent := braceBlock{symbol: -1}
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			if parens > 0 || (lang == "typescript" && (strings.HasSuffix(h, ":") || strings.HasSuffix(h, "|") || strings.HasSuffix(h, "&") || strings.HasSuffix(h, "<"))) {
				stack = append(stack, braceBlock{expr: true, symbol: -1, within: true, prefix: parent.prefix, test: parent.test})
				hdr.WriteByte(c)
				i++
				continue
			}
			// Definitions inside a function, an expression or an
			// unnamed block (an object literal, a control statement)
			// belong to it; only top-level ones and container members are
			// emitted.
			within := len(stack) > 0 && (parent.within || parent.function || parent.symbol < 0)
			b := braceBlock{symbol: -1, within: within, prefix: parent.prefix, test: parent.test}
			if !within && hdrStart >= 0 && !isControlHeader(h) {
				ch := h
				if lang == "rust" {
					ch = strings.TrimSpace(reRustAttr.ReplaceAllString(h, ""))
				}
				if kind, name, container, exported, fn := classify(lang, ch, parent.symbol >= 0 && parent.prefix != ""); kind != "" {
					declLine := s.declLine(hdrStart, i, name)
					start, doc, attrs := docAbove(ls, s.lineOf(hdrStart))
					attrs += "\n" + h
					sym := name
					if kind == Method || (kind == Func && parent.prefix != "") {
						sym = parent.prefix + name
						kind = Method
					}
					test := parent.test || strings.Contains(attrs, "#[test") || strings.Contains(attrs, "cfg(test)") ||
						strings.Contains(attrs, "@Test")
					out = append(out, Chunk{Path: p, Language: lang, Kind: kind, Symbol: sym, StartLine: start,
						DeclLine: declLine, Doc: doc, Signature: collapse(ch), Exported: exported, Test: test})
					b.symbol = len(out) - 1
					b.function = fn
					b.test = test
					if container {
						b.prefix = parent.prefix + name + "."
					}
				}
			}
			stack = append(stack, b)
			reset()
		case '}':
			if len(tmpl) > 0 && tmpl[len(tmpl)-1] == braceDepth-1 {
				// End of a ${ … } in a template literal: resume the
				// template text.
				tmpl = tmpl[:len(tmpl)-1]
				braceDepth--
				j, ok := s.skipTemplateRest(i + 1)
				if !ok {
					return nil, false
				}
				if j > 0 && src2[j-1] != '`' {
					tmpl = append(tmpl, braceDepth)
					braceDepth++
				}
				i = j
				prevSig = '"'
				continue
			}
			braceDepth--
			if len(stack) == 0 {
				return nil, false
			}
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if b.symbol >= 0 {
				out[b.symbol].EndLine = s.lineOf(i)
			}
			if b.expr {
				hdr.WriteByte(c)
			} else {
				reset()
			}
		default:
			hdr.WriteByte(c)
		}
		i++
	}
	if len(stack) != 0 || parens != 0 || len(tmpl) != 0 {
		return nil, false
	}
	// Containers hold their head: the lines before their first member.
	for k := range out {
		if out[k].Kind != Container && out[k].Kind != Type {
			continue
		}
		for j := k + 1; j < len(out); j++ {
			if out[j].StartLine > out[k].EndLine {
				break
			}
			if out[j].StartLine > out[k].DeclLine {
				out[k].EndLine = out[j].StartLine - 1
				break
			}
		}
	}
	covered := make([]bool, len(ls)+2)
	for k := range out {
		if out[k].EndLine < out[k].DeclLine {
			out[k].EndLine = out[k].DeclLine
		}
		out[k].Text = span(ls, out[k].StartLine, out[k].EndLine)
		for l := out[k].StartLine; l <= out[k].EndLine && l < len(covered); l++ {
			covered[l] = true
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].StartLine < out[b].StartLine })
	mods := moduleChunks(p, lang, ls, covered, importTest(lang))
	return mergeByLine(out, mods), true
}

func prevByte(s string, i int) byte {
	if i == 0 {
		return ' '
	}
	return s[i-1]
}

// skipQuoted returns the offset after the string, character or template
// literal opening at i. For a template literal it stops after "${" when one
// comes first. It returns -1 for a Rust lifetime.
func (s *braceScanner) skipQuoted(i int) (int, bool) {
	src, q := s.src, s.src[i]
	if q == '\'' && s.lang == "rust" {
		// 'a' or '\n' is a character; 'a without a closing quote is a lifetime.
		j := i + 1
		if j < len(src) && src[j] == '\\' {
			k := strings.IndexByte(src[j+1:], '\'')
			if k < 0 || k > 10 {
				return 0, false
			}
			return j + 1 + k + 1, true
		}
		// One character, possibly several bytes.
		k := j
		for k < len(src) && k-j < 4 && src[k] != '\'' && src[k] != '\n' {
			k++
		}
		if k < len(src) && src[k] == '\'' && k > j && (k-j == 1 || src[j] >= 0x80) {
			return k + 1, true
		}
		return -1, true
	}
	if q == '"' && s.lang == "java" && strings.HasPrefix(src[i:], `"""`) {
		k := strings.Index(src[i+3:], `"""`)
		if k < 0 {
			return 0, false
		}
		return i + 3 + k + 3, true
	}
	if q == '`' {
		return s.skipTemplateRest(i + 1)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1, true
		case '\n':
			if s.lang != "rust" { // Rust strings may span lines
				return 0, false
			}
		}
	}
	return 0, false
}

// skipTemplateRest scans template text from i to the closing backquote
// (returning the offset after it) or to "${" (returning the offset after it).
func (s *braceScanner) skipTemplateRest(i int) (int, bool) {
	src := s.src
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1, true
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				return j + 2, true
			}
		}
	}
	return 0, false
}

func skipRustRaw(s string, i int) (int, bool) {
	j := i + 1
	hashes := 0
	for j < len(s) && s[j] == '#' {
		hashes++
		j++
	}
	if j >= len(s) || s[j] != '"' {
		return 0, false
	}
	end := `"` + strings.Repeat("#", hashes)
	k := strings.Index(s[j+1:], end)
	if k < 0 {
		return 0, false
	}
	return j + 1 + k + len(end), true
}

var regexKeywords = map[string]bool{"return": true, "typeof": true, "case": true, "do": true, "else": true,
	"in": true, "of": true, "new": true, "delete": true, "void": true, "throw": true, "yield": true, "await": true}

func regexAllowed(prev byte, word string) bool {
	if word != "" {
		return regexKeywords[word]
	}
	switch prev {
	case 0, '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^':
		return true
	}
	return false
}

// skipRegex skips a regular expression literal; false when it is not one
// (no closing slash on the line).
func skipRegex(s string, i int) (int, bool) {
	class := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(s) && isIdentByte(s[j]) {
					j++
				}
				return j, true
			}
		case '\n':
			return 0, false
		}
	}
	return 0, false
}

func isControlHeader(h string) bool {
	if h == "static" || h == "unsafe" || h == "async" || h == "async move" {
		return true
	}
	w := h
	if k := strings.IndexAny(w, " ({"); k >= 0 {
		w = w[:k]
	}
	switch w {
	case "if", "else", "for", "while", "do", "switch", "try", "catch", "finally", "loop", "match":
		return true
	}
	return false
}

var reRustAttr = regexp.MustCompile(`#!?\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]\s*`)

// declLine returns the line of the first whole-word occurrence of name in
// src[from:to], or the line of from.
func (s *braceScanner) declLine(from, to int, name string) int {
	if name != "" && to <= len(s.src) {
		h := s.src[from:to]
		for k := 0; k < len(h); {
			j := strings.Index(h[k:], name)
			if j < 0 {
				break
			}
			a, b := k+j, k+j+len(name)
			if (a == 0 || !isIdentByte(h[a-1])) && (b >= len(h) || !isIdentByte(h[b])) {
				return s.lineOf(from + a)
			}
			k = b
		}
	}
	return s.lineOf(from)
}

var (
	reAnnot    = regexp.MustCompile(`@[\w.]+(?:\s*\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*`)
	reGenerics = regexp.MustCompile(`<[^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>[^<>]*)*>`)

	reJSClass     = regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+([\w$]+)`)
	reJSIface     = regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?interface\s+([\w$]+)`)
	reJSEnum      = regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([\w$]+)`)
	reJSType      = regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?type\s+([\w$]+)\s*(?:<.*>)?\s*=`)
	reJSNamespace = regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+([\w$.]+)`)
	reJSFunc      = regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([\w$]*)\s*[(<]`)
	reJSArrow     = regexp.MustCompile(`^(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[\w$]+)\s*(?::[^=]+)?=>)`)
	reJSMethod    = regexp.MustCompile(`^(?:(?:public|private|protected|static|async|readonly|override|abstract|declare|get|set|accessor)\s+)*\*?\s*(#?[\w$]+)\s*\??\s*(?:<.*>)?\s*\(`)
	reJSPropFunc  = regexp.MustCompile(`^(?:(?:public|private|protected|static|readonly|override)\s+)*(#?[\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[\w$]+)\s*(?::[^=]+)?=>)`)

	reRustFn     = regexp.MustCompile(`^(?:pub(?:\s*\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+(?:"[^"]*"\s+)?)?fn\s+(\w+)`)
	reRustType   = regexp.MustCompile(`^(?:pub(?:\s*\([^)]*\))?\s+)?(struct|enum|union)\s+(\w+)`)
	reRustTrait  = regexp.MustCompile(`^(?:pub(?:\s*\([^)]*\))?\s+)?(?:unsafe\s+)?(?:auto\s+)?trait\s+(\w+)`)
	reRustImpl   = regexp.MustCompile(`^(?:unsafe\s+)?impl\b\s*(?:<>)?\s*(?:(?:[\w:]+)\s+for\s+)?&?(?:mut\s+)?(?:dyn\s+)?([\w:]+)`)
	reRustMod    = regexp.MustCompile(`^(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)`)
	reRustMacro  = regexp.MustCompile(`^macro_rules!\s*(\w+)`)
	reJavaType   = regexp.MustCompile(`(?:^|\s)(class|interface|enum|record|@interface)\s+(\w+)`)
	reJavaMethod = regexp.MustCompile(`([\w$]+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:throws\s+[\w.,\s]+)?$`)
)

var javaNotMethod = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"synchronized": true, "try": true, "new": true, "return": true, "else": true, "do": true, "super": true, "this": true}

// classify decides what a block header defines. inContainer says the block is
// directly inside a class, interface, impl, trait or namespace.
func classify(lang, h string, inContainer bool) (kind Kind, name string, container, exported, function bool) {
	switch lang {
	case "typescript", "javascript":
		h = strings.TrimSpace(reAnnot.ReplaceAllString(h, ""))
		exp := strings.HasPrefix(h, "export")
		if m := reJSClass.FindStringSubmatch(h); m != nil {
			return Type, m[1], true, exp, false
		}
		if m := reJSIface.FindStringSubmatch(h); m != nil {
			return Type, m[1], false, exp, false
		}
		if m := reJSEnum.FindStringSubmatch(h); m != nil {
			return Type, m[1], false, exp, false
		}
		if m := reJSType.FindStringSubmatch(h); m != nil {
			return Type, m[1], false, exp, false
		}
		if m := reJSNamespace.FindStringSubmatch(h); m != nil {
			return Container, m[1], true, exp, false
		}
		if m := reJSFunc.FindStringSubmatch(h); m != nil {
			name := m[1]
			if name == "" {
				name = "default"
			}
			return Func, name, false, exp, true
		}
		if m := reJSArrow.FindStringSubmatch(h); m != nil {
			return Func, m[1], false, exp, true
		}
		if inContainer {
			priv := strings.Contains(h, "private ") || strings.Contains(h, "#")
			if m := reJSPropFunc.FindStringSubmatch(h); m != nil {
				return Method, m[1], false, !priv, true
			}
			if m := reJSMethod.FindStringSubmatch(h); m != nil && !javaNotMethod[m[1]] && m[1] != "function" {
				return Method, m[1], false, !priv && !strings.HasPrefix(m[1], "_"), true
			}
		}
	case "rust":
		h = strings.TrimSpace(h)
		exp := strings.HasPrefix(h, "pub")
		if m := reRustFn.FindStringSubmatch(h); m != nil {
			return Func, m[1], false, exp || inContainer, true
		}
		if m := reRustType.FindStringSubmatch(h); m != nil {
			return Type, m[2], false, exp, false
		}
		if m := reRustTrait.FindStringSubmatch(h); m != nil {
			return Type, m[1], true, exp, false
		}
		if strings.HasPrefix(h, "impl") || strings.HasPrefix(h, "unsafe impl") {
			hh := reGenerics.ReplaceAllString(h, "<>")
			if m := reRustImpl.FindStringSubmatch(hh); m != nil {
				name := m[1]
				if k := strings.LastIndex(name, "::"); k >= 0 {
					name = name[k+2:]
				}
				return Container, name, true, true, false
			}
		}
		if m := reRustMod.FindStringSubmatch(h); m != nil {
			return Container, m[1], false, exp, false
		}
		if m := reRustMacro.FindStringSubmatch(h); m != nil {
			return Func, m[1], false, true, true
		}
	case "java":
		clean := strings.TrimSpace(reAnnot.ReplaceAllString(h, ""))
		exp := strings.Contains(" "+clean+" ", " public ") || strings.Contains(" "+clean+" ", " protected ")
		if m := reJavaType.FindStringSubmatch(clean); m != nil && !strings.Contains(clean, "=") && !strings.Contains(clean, "new ") {
			return Type, m[2], true, exp, false
		}
		if inContainer && !strings.Contains(clean, "=") && !strings.Contains(clean, "->") {
			if m := reJavaMethod.FindStringSubmatch(clean); m != nil && !javaNotMethod[m[1]] {
				return Method, m[1], false, exp, true
			}
		}
	}
	return "", "", false, false, false
}

// docAbove returns the first line of the comments and attributes directly
// above line decl, their text as documentation, and the attribute lines.
func docAbove(ls []string, decl int) (start int, doc, attrs string) {
	start = decl
	var docs, ats []string
	for k := decl - 1; k >= 1; k-- {
		t := strings.TrimSpace(ls[k-1])
		switch {
		case strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "#!["):
			ats = append(ats, t)
		case strings.HasPrefix(t, "@"):
			ats = append(ats, t)
		case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"), strings.HasPrefix(t, "*"):
			t = strings.TrimLeft(t, "/*!")
			t = strings.TrimSuffix(strings.TrimSpace(t), "*/")
			docs = append(docs, strings.TrimSpace(t))
		default:
			k = 0
			continue
		}
		start = k
	}
	for a, b := 0, len(docs)-1; a < b; a, b = a+1, b-1 {
		docs[a], docs[b] = docs[b], docs[a]
	}
	return start, strings.TrimSpace(strings.Join(docs, "\n")), strings.Join(ats, "\n")
}
