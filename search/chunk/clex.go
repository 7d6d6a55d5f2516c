package chunk

import (
	"fmt"
	"sort"
	"strings"
)

// The C-family lexer tokenizes Rust and Java for their declaration
// recognisers (rust.go, java.go). It knows each language's comments (Rust's
// nest; doc comments are kept with their lines), strings (Rust's raw and
// byte strings, Java's text blocks), character literals (told apart from
// Rust's lifetimes and labels) and numbers, so that no brace inside them is
// counted.

// cTok is one token.
type cTok struct {
	kind byte   // 'i' identifier or keyword, 's' string or character literal, '0' number, 'l' lifetime, 'p' punctuation
	text string // source text; a Rust raw identifier without its "r#"
	off  int    // byte offset
	line int    // 1-based
}

// cComment is one comment and the lines it spans.
type cComment struct {
	start, end int
	text       string // without its markers
	inner      bool   // a Rust inner doc comment (//! or /*!): documents the enclosing module
}

// cLexer holds the state of one file's tokenization.
type cLexer struct {
	src      string
	lang     string // "rust" or "java"
	i, line  int
	toks     []cTok
	comments []cComment
}

// cLex tokenizes a Rust or Java file. It fails on an unterminated string,
// character literal or comment.
func cLex(src, lang string) ([]cTok, []cComment, error) {
	// About one token for every six bytes of real code: grow once at most.
	lx := &cLexer{src: src, lang: lang, line: 1, toks: make([]cTok, 0, len(src)/6+16)}
	if strings.HasPrefix(src, "\ufeff") { // a byte order mark is not text
		lx.i = len("\ufeff")
	}
	for lx.i < len(src) {
		if err := lx.next(); err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", lx.line, err)
		}
	}
	return lx.toks, lx.comments, nil
}

// advance moves to offset j, counting newlines.
func (lx *cLexer) advance(j int) {
	lx.line += strings.Count(lx.src[lx.i:j], "\n")
	lx.i = j
}

func (lx *cLexer) emit(kind byte, j int) {
	lx.toks = append(lx.toks, cTok{kind: kind, text: lx.src[lx.i:j], off: lx.i, line: lx.line})
	lx.advance(j)
}

func (lx *cLexer) next() error {
	src, i := lx.src, lx.i
	c := src[i]
	rust := lx.lang == "rust"
	switch {
	case c == '\n':
		lx.line++
		lx.i++
	case c == ' ' || c == '\t' || c == '\r' || c == '\f':
		lx.i++
	case strings.HasPrefix(src[i:], "//"):
		j := lineEnd(src, i)
		lx.comments = append(lx.comments, cComment{start: lx.line, end: lx.line, text: strings.TrimSpace(strings.TrimLeft(src[i+2:j], "/!")),
			inner: rust && strings.HasPrefix(src[i:], "//!")})
		lx.i = j
	case strings.HasPrefix(src[i:], "/*"):
		j, ok := skipBlockComment(src, i, rust)
		if !ok {
			return fmt.Errorf("unterminated block comment")
		}
		start := lx.line
		lx.advance(j)
		lx.comments = append(lx.comments, cComment{start: start, end: lx.line, text: blockCommentText(src[i:j]),
			inner: rust && strings.HasPrefix(src[i:], "/*!")})
	case c == '"':
		j, err := lx.quoted(i)
		if err != nil {
			return err
		}
		lx.emit('s', j)
	case c == '\'':
		return lx.quote(i)
	case rust && (c == 'r' || c == 'b' || c == 'c'):
		if j, ok := rustPrefixedLiteral(src, i); ok {
			lx.emit('s', j)
			return nil
		} else if rustLiteralPrefix(src, i) {
			return fmt.Errorf("unterminated string")
		}
		if strings.HasPrefix(src[i:], "b'") {
			lx.i = i + 1
			if err := lx.quote(i + 1); err != nil {
				return err
			}
			last := &lx.toks[len(lx.toks)-1]
			last.off, last.text = i, src[i:lx.i]
			return nil
		}
		if strings.HasPrefix(src[i:], "r#") && i+2 < len(src) && isIdentByte(src[i+2]) {
			j := i + 2
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			lx.toks = append(lx.toks, cTok{kind: 'i', text: src[i+2 : j], off: i, line: lx.line})
			lx.i = j
			return nil
		}
		lx.ident()
	case c >= '0' && c <= '9':
		j := i + 1
		for j < len(src) && (isIdentByte(src[j]) || src[j] == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9' ||
			(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(src[i:], "0x")) {
			j++
		}
		lx.emit('0', j)
	case isIdentByte(c) && !(rust && c == '$'):
		lx.ident()
	default:
		j := i + 1
		for _, op := range []string{"::", "->", "=>"} {
			if strings.HasPrefix(src[i:], op) {
				j = i + len(op)
			}
		}
		lx.emit('p', j)
	}
	return nil
}

func (lx *cLexer) ident() {
	j := lx.i
	for j < len(lx.src) && isIdentByte(lx.src[j]) && !(lx.lang == "rust" && lx.src[j] == '$') {
		j++
	}
	lx.emit('i', j)
}

// quoted scans a double-quoted string (or a Java text block) from i and
// returns the offset after it.
func (lx *cLexer) quoted(i int) (int, error) {
	src := lx.src
	if lx.lang == "java" && strings.HasPrefix(src[i:], `"""`) {
		for j := i + 3; j < len(src); j++ {
			switch {
			case src[j] == '\\':
				j++
			case strings.HasPrefix(src[j:], `"""`):
				return j + 3, nil
			}
		}
		return 0, fmt.Errorf("unterminated text block")
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		case '\n':
			if lx.lang == "java" {
				return 0, fmt.Errorf("unterminated string")
			}
		}
	}
	return 0, fmt.Errorf("unterminated string")
}

// quote scans what a single quote at i begins: a character literal, or in
// Rust a lifetime or loop label ('a, 'static) when no closing quote follows
// one character.
func (lx *cLexer) quote(i int) error {
	src := lx.src
	j := i + 1
	if j < len(src) && src[j] == '\\' {
		if j+2 > len(src) {
			return fmt.Errorf("unterminated character literal")
		}
		k := strings.IndexAny(src[j+2:min(len(src), j+14)], "'\n")
		if k < 0 || src[j+2+k] != '\'' {
			return fmt.Errorf("unterminated character literal")
		}
		lx.emit('s', j+2+k+1)
		return nil
	}
	// One character, perhaps of several bytes.
	k := j
	if k < len(src) {
		k++
		for k < len(src) && src[k]&0xC0 == 0x80 {
			k++
		}
	}
	if k < len(src) && src[k] == '\'' && src[j] != '\n' {
		lx.emit('s', k+1)
		return nil
	}
	if lx.lang == "rust" && j < len(src) && isIdentByte(src[j]) {
		k = j
		for k < len(src) && isIdentByte(src[k]) {
			k++
		}
		lx.emit('l', k)
		return nil
	}
	return fmt.Errorf("unterminated character literal")
}

// rustPrefixedLiteral scans a raw, byte or C string at i (r"…", r#"…"#,
// b"…", br"…", c"…", cr#"…"#) and returns the offset after it.
func rustPrefixedLiteral(s string, i int) (int, bool) {
	j := i
	if j < len(s) && (s[j] == 'b' || s[j] == 'c') {
		j++
	}
	raw := j < len(s) && s[j] == 'r'
	if raw {
		j++
	}
	if i > 0 && isIdentByte(s[i-1]) || j == i {
		return 0, false
	}
	if !raw {
		if j >= len(s) || s[j] != '"' {
			return 0, false
		}
		for k := j + 1; k < len(s); k++ {
			switch s[k] {
			case '\\':
				k++
			case '"':
				return k + 1, true
			}
		}
		return 0, false
	}
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

// rustLiteralPrefix reports whether a raw, byte or C string begins at i.
func rustLiteralPrefix(s string, i int) bool {
	j := i
	if j < len(s) && (s[j] == 'b' || s[j] == 'c') {
		j++
	}
	if j < len(s) && s[j] == 'r' {
		j++
		for j < len(s) && s[j] == '#' {
			j++
		}
	}
	return j > i && j < len(s) && s[j] == '"'
}

// blockCommentText strips a block comment's markers and the leading "*" of
// its lines.
func blockCommentText(c string) string {
	c = strings.TrimPrefix(c, "/*")
	c = strings.TrimSuffix(c, "*/")
	ls := strings.Split(c, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "*!"))
	}
	return strings.TrimSpace(strings.Join(ls, "\n"))
}

// cCursor walks a token list for the recognisers.
type cCursor struct {
	toks []cTok
	i    int
	bad  bool // a bracket group did not close: the file does not parse
}

func (c *cCursor) done() bool { return c.i >= len(c.toks) }

func (c *cCursor) peek(k int) cTok {
	if c.i+k < len(c.toks) {
		return c.toks[c.i+k]
	}
	return cTok{}
}

func (c *cCursor) is(k int, text string) bool {
	t := c.peek(k)
	return t.kind != 's' && t.kind != 0 && t.text == text
}

// skipGroup moves past the balanced bracket group that opens at the cursor
// and returns the index of its closing token, or -1 when it does not close
// or a bracket closes one of another kind.
func (c *cCursor) skipGroup() int {
	var open []string
	for ; c.i < len(c.toks); c.i++ {
		t := c.toks[c.i]
		if t.kind != 'p' {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			open = append(open, t.text)
		case ")", "]", "}":
			if len(open) == 0 || closing[open[len(open)-1]] != t.text {
				c.bad = true
				return -1
			}
			open = open[:len(open)-1]
			if len(open) == 0 {
				c.i++
				return c.i - 1
			}
		}
	}
	c.bad = true
	return -1
}

var closing = map[string]string{"(": ")", "[": "]", "{": "}"}

// skipUntil moves to the first of the given punctuation at bracket depth 0
// (skipping whole groups, not stopping inside them) and returns its text,
// or "" at the end of the tokens or at an unmatched closing bracket.
func (c *cCursor) skipUntil(stops ...string) string {
	for c.i < len(c.toks) {
		t := c.toks[c.i]
		if t.kind == 'p' {
			for _, s := range stops {
				if t.text == s {
					return s
				}
			}
			switch t.text {
			case "(", "[", "{":
				if c.skipGroup() < 0 {
					return ""
				}
				continue
			case ")", "]", "}":
				return ""
			}
		}
		c.i++
	}
	return ""
}

// cLeading returns the first line of the comments directly above line
// (contiguous, ending on the line before it) and their text.
func cLeading(comments []cComment, line int) (int, string) {
	k := sort.Search(len(comments), func(i int) bool { return comments[i].end >= line })
	var doc []string
	start := line
	for k--; k >= 0 && comments[k].end == start-1; k-- {
		doc = append([]string{comments[k].text}, doc...)
		start = comments[k].start
	}
	return start, strings.TrimSpace(strings.Join(doc, "\n"))
}

// finishBlocks completes the chunks a recogniser found: containers and types
// hold only their head (the lines before their first member), every chunk
// gets its text, and the lines no chunk covers become "imports" and "module"
// chunks.
func finishBlocks(p, lang string, ls []string, out []Chunk, isImport func(string) bool) []Chunk {
	sort.SliceStable(out, func(a, b int) bool { return out[a].StartLine < out[b].StartLine })
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
		out[k].EndLine = min(max(out[k].EndLine, out[k].DeclLine), len(ls))
		out[k].Text = span(ls, out[k].StartLine, out[k].EndLine)
		for l := out[k].StartLine; l <= out[k].EndLine; l++ {
			covered[l] = true
		}
	}
	return mergeByLine(out, moduleChunks(p, lang, ls, covered, isImport))
}
