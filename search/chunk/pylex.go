package chunk

import (
	"fmt"
	"strings"
)

// The Python tokenizer turns a file into logical lines of tokens, following
// the language's lexical rules closely enough that no string, comment or
// bracket can hide or fake a declaration: string literals of every kind
// (prefixes r, b, u, f, t in any case and combination, single- and
// triple-quoted, f-strings whose replacement fields hold nested strings with
// the same quotes as Python 3.12 allows), comments, backslash continuations
// and brackets spanning lines.

// pyTok is one token: a name, a string, a number or an operator.
type pyTok struct {
	kind      byte   // 'n' name, 's' string, '0' number, 'o' operator
	text      string // the token's source
	off       int    // byte offset of its first byte
	line, end int    // first and last physical line, 1-based
}

// pyStmt is one logical line.
type pyStmt struct {
	toks       []pyTok
	indent     int // columns, tabs to multiples of 8
	start, end int // physical lines
	from       int // index of its first token in the lexer's list
}

// pyComment is a line holding nothing but a comment.
type pyComment struct {
	indent int
	text   string // without the "#"
}

type pyLexer struct {
	src      string
	i        int
	line     int
	stmts    []pyStmt
	toks     []pyTok // every statement's tokens, in order
	comments map[int]pyComment
	brackets []byte // open brackets, innermost last
}

// pyLex tokenizes src. It fails on an unterminated string, an unbalanced
// bracket or a stray character no Python token begins with.
func pyLex(src string) ([]pyStmt, map[int]pyComment, error) {
	// About one token for every six bytes of real code: grow once at most.
	lx := &pyLexer{src: src, line: 1, comments: map[int]pyComment{}, toks: make([]pyTok, 0, len(src)/6+16)}
	if strings.HasPrefix(src, "\ufeff") { // a byte order mark is not text
		lx.i = len("\ufeff")
	}
	if err := lx.run(); err != nil {
		return nil, nil, fmt.Errorf("line %d: %w", lx.line, err)
	}
	return lx.stmts, lx.comments, nil
}

func (lx *pyLexer) run() error {
	var cur *pyStmt
	atLineStart := true
	for lx.i < len(lx.src) {
		if atLineStart && cur == nil {
			atLineStart = false
			indent, j := 0, lx.i
		measure:
			for ; j < len(lx.src); j++ {
				switch lx.src[j] {
				case ' ':
					indent++
				case '\t':
					indent += 8 - indent%8
				case '\f':
					indent = 0
				default:
					break measure
				}
			}
			lx.i = j
			switch {
			case j >= len(lx.src):
				return lx.finish(cur)
			case lx.src[j] == '#':
				k := lineEnd(lx.src, j)
				lx.comments[lx.line] = pyComment{indent: indent, text: strings.TrimSpace(lx.src[j+1 : k])}
				lx.i = k
				continue
			case lx.src[j] == '\n' || lx.src[j] == '\r':
				continue
			}
			lx.stmts = append(lx.stmts, pyStmt{indent: indent, start: lx.line, from: len(lx.toks)})
			cur = &lx.stmts[len(lx.stmts)-1]
		}
		c := lx.src[lx.i]
		switch {
		case c == '\n':
			lx.line++
			lx.i++
			atLineStart = true
			if len(lx.brackets) == 0 && cur != nil {
				cur = nil
			}
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			lx.i++
			continue
		case c == '#':
			lx.i = lineEnd(lx.src, lx.i)
			continue
		case c == '\\':
			// A continuation: the logical line goes on.
			j := lx.i + 1
			if j < len(lx.src) && lx.src[j] == '\r' {
				j++
			}
			if j < len(lx.src) && lx.src[j] != '\n' {
				return fmt.Errorf("unexpected character after line continuation")
			}
			lx.i = j + 1
			lx.line++
			continue
		}
		if cur == nil {
			// Text after a bracket closed a statement on a line that
			// began inside it: start a statement at this indentation.
			lx.stmts = append(lx.stmts, pyStmt{indent: 0, start: lx.line, from: len(lx.toks)})
			cur = &lx.stmts[len(lx.stmts)-1]
		}
		tok, err := lx.token()
		if err != nil {
			return err
		}
		lx.toks = append(lx.toks, tok)
		cur.end = lx.line
	}
	return lx.finish(cur)
}

func (lx *pyLexer) finish(cur *pyStmt) error {
	if len(lx.brackets) > 0 {
		return fmt.Errorf("unclosed %q at end of file", lx.brackets[len(lx.brackets)-1])
	}
	// Hand each statement its tokens; drop those that held only
	// whitespace.
	out := lx.stmts[:0]
	for i, s := range lx.stmts {
		to := len(lx.toks)
		if i+1 < len(lx.stmts) {
			to = lx.stmts[i+1].from
		}
		if s.toks = lx.toks[s.from:to:to]; len(s.toks) > 0 {
			out = append(out, s)
		}
	}
	lx.stmts = out
	return nil
}

func lineEnd(s string, i int) int {
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(s)
}

// pyOps are Python's operators of more than one character, longest first.
var pyOps = []string{"**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=",
	"%=", "&=", "|=", "^=", "@=", "**", "//", "<<", ">>"}

// token reads the token at lx.i.
func (lx *pyLexer) token() (pyTok, error) {
	src, i := lx.src, lx.i
	c := src[i]
	tok := pyTok{off: i, line: lx.line}
	switch {
	case isPyIdentStart(c):
		j := i
		for j < len(src) && isPyIdent(src[j]) {
			j++
		}
		if j < len(src) && (src[j] == '"' || src[j] == '\'') && isStringPrefix(src[i:j]) {
			end, err := lx.str(j, strings.ToLower(src[i:j]))
			if err != nil {
				return tok, err
			}
			tok.kind, tok.text = 's', src[i:end]
			lx.i = end
		} else {
			tok.kind, tok.text = 'n', src[i:j]
			lx.i = j
		}
	case c == '"' || c == '\'':
		end, err := lx.str(i, "")
		if err != nil {
			return tok, err
		}
		tok.kind, tok.text = 's', src[i:end]
		lx.i = end
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i + 1
		for j < len(src) {
			d := src[j]
			if (d == '+' || d == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[i:]), "0x") {
				j++
				continue
			}
			if !isPyIdent(d) && d != '.' {
				break
			}
			j++
		}
		tok.kind, tok.text = '0', src[i:j]
		lx.i = j
	default:
		tok.kind = 'o'
		tok.text = src[i : i+1]
		if i+1 < len(src) && strings.IndexByte("=*/<>.-:", src[i+1]) >= 0 { // every longer operator's second byte
			for _, op := range pyOps {
				if strings.HasPrefix(src[i:], op) {
					tok.text = op
					break
				}
			}
		}
		if err := lx.bracket(c); err != nil {
			return tok, err
		}
		if tok.text == "$" || tok.text == "?" || tok.text == "`" {
			return tok, fmt.Errorf("unexpected character %q", tok.text)
		}
		lx.i = i + len(tok.text)
	}
	tok.end = lx.line
	return tok, nil
}

// bracket keeps the stack of open brackets.
func (lx *pyLexer) bracket(c byte) error {
	switch c {
	case '(', '[', '{':
		lx.brackets = append(lx.brackets, c)
	case ')', ']', '}':
		open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
		if len(lx.brackets) == 0 || lx.brackets[len(lx.brackets)-1] != open {
			return fmt.Errorf("unmatched %q", c)
		}
		lx.brackets = lx.brackets[:len(lx.brackets)-1]
	}
	return nil
}

func isPyIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isPyIdent(c byte) bool { return isPyIdentStart(c) || c >= '0' && c <= '9' }

// isStringPrefix reports whether p may stand before a string literal.
func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt":
		return true
	}
	return false
}

// str scans the string literal whose opening quote is at i and returns the
// offset after its closing quote, counting the lines it spans.
func (lx *pyLexer) str(i int, prefix string) (int, error) {
	src := lx.src
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	raw := strings.ContainsRune(prefix, 'r')
	format := strings.ContainsAny(prefix, "ft")
	j := i + len(q)
	for j < len(src) {
		c := src[j]
		switch {
		case strings.HasPrefix(src[j:], q):
			return j + len(q), nil
		case c == '\\':
			if j+1 < len(src) && src[j+1] == '\n' {
				lx.line++
			}
			switch {
			case format && !raw && strings.HasPrefix(src[j:], `\N{`):
				k := strings.IndexByte(src[j:], '}')
				if k < 0 {
					return 0, fmt.Errorf("unterminated \\N escape")
				}
				j += k + 1
			case format && j+1 < len(src) && (src[j+1] == '{' || src[j+1] == '}'):
				j++ // the brace is a replacement field's
			default:
				j += 2
			}
		case c == '\n':
			if len(q) == 1 {
				return 0, fmt.Errorf("unterminated string")
			}
			lx.line++
			j++
		case format && c == '{':
			if strings.HasPrefix(src[j:], "{{") {
				j += 2
				continue
			}
			k, err := lx.field(j+1, len(q) == 3)
			if err != nil {
				return 0, err
			}
			j = k
		default:
			j++
		}
	}
	return 0, fmt.Errorf("unterminated string")
}

// field scans an f-string replacement field from just after its "{" and
// returns the offset after its "}". The expression may hold any tokens,
// strings with the enclosing quotes among them; a format spec may hold
// nested fields.
func (lx *pyLexer) field(i int, triple bool) (int, error) {
	saved := lx.brackets
	lx.brackets = nil
	defer func() { lx.brackets = saved }()
	src := lx.src
	j := i
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\n':
			lx.line++
			j++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			j++
			continue
		case c == '\\' && j+1 < len(src) && src[j+1] == '\n':
			lx.line++
			j += 2
			continue
		case c == '#' && triple:
			j = lineEnd(src, j)
			continue
		}
		if len(lx.brackets) == 0 {
			switch {
			case c == '}':
				return j + 1, nil
			case c == '!' && j+1 < len(src) && src[j+1] != '=':
				j++
				continue
			case c == ':':
				return lx.spec(j + 1)
			}
		}
		lx.i = j
		if _, err := lx.token(); err != nil {
			return 0, err
		}
		j = lx.i
	}
	return 0, fmt.Errorf("unterminated f-string field")
}

// spec scans a format spec up to the "}" that closes its field.
func (lx *pyLexer) spec(i int) (int, error) {
	src := lx.src
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '}':
			return j + 1, nil
		case '{':
			k, err := lx.field(j+1, false)
			if err != nil {
				return 0, err
			}
			j = k - 1
		case '\n':
			return 0, fmt.Errorf("unterminated f-string format spec")
		}
	}
	return 0, fmt.Errorf("unterminated f-string format spec")
}
