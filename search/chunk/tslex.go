package chunk

import (
	"errors"
	"sort"
	"strings"
)

// The TypeScript/JavaScript lexer turns a file into the tokens the
// declaration recogniser (typescript.go) reads. It knows what it must know so
// that nothing inside a literal or a comment is taken for code: strings,
// template literals with ${} nested to any depth, regular-expression literals
// (told from division by the token before them), line, block and JSDoc
// comments, a hashbang line and, in .jsx/.tsx/.js files, JSX elements. A
// template literal, a regular expression and a JSX element are one token
// each. Statement ends, including those automatic semicolon insertion makes,
// are decided by the recogniser from the tokens' NewlineBefore flags.

type tsTokKind uint8

const (
	tsIdent    tsTokKind = iota + 1 // identifiers and keywords, #private names
	tsPunct                         // operators and punctuation
	tsString                        // '…' or "…"
	tsTemplate                      // `…${…}…`, whole
	tsRegex                         // /…/flags
	tsNumber
	tsJSX // a JSX element or fragment, whole
)

type tsToken struct {
	Kind tsTokKind
	Text string
	Off  int // byte offset of the first byte
	End  int // byte offset after the last byte
	// NewlineBefore says a line terminator separates this token from the
	// one before it; automatic semicolon insertion depends on it.
	NewlineBefore bool
}

// tsComment is a comment and where it lies.
type tsComment struct {
	Off, End int
	// Trailing says code precedes the comment on its first line: it
	// belongs to that code, not to the next declaration.
	Trailing bool
}

type tsLexer struct {
	src      string
	jsx      bool
	toks     []tsToken
	comments []tsComment
	nl       bool // a newline since the last token
	depth    int  // nesting of templates and JSX, bounded
}

// errTSLex is returned for input the lexer cannot follow: an unterminated
// string, template, comment or JSX element, or nesting beyond tsMaxDepth.
var errTSLex = errors.New("unbalanced literal or comment")

const tsMaxDepth = 500

// lexTS tokenises src. jsx says JSX elements may appear where an operand is
// expected.
func lexTS(src string, jsx bool) (*tsLexer, error) {
	lx := &tsLexer{src: src, jsx: jsx, toks: make([]tsToken, 0, len(src)/6)}
	i := 0
	if strings.HasPrefix(src, "#!") {
		i = strings.IndexByte(src, '\n')
		if i < 0 {
			i = len(src)
		}
		lx.comments = append(lx.comments, tsComment{Off: 0, End: i})
	}
	end, err := lx.scan(i, false)
	if err != nil {
		return nil, err
	}
	if end != len(src) {
		return nil, errTSLex // a stray closing brace of a template substitution
	}
	return lx, nil
}

// scan reads tokens from i. Inside a template substitution (inner) it stops
// at the "}" that closes it and returns the offset after it; otherwise it
// reads to the end of the input.
func (lx *tsLexer) scan(i int, inner bool) (int, error) {
	src := lx.src
	braces := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' || c == '\r' || c == 0xe2 && (strings.HasPrefix(src[i:], "\u2028") || strings.HasPrefix(src[i:], "\u2029")):
			lx.nl = true
			if c == 0xe2 {
				i += 3
			} else {
				i++
			}
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
			continue
		case strings.HasPrefix(src[i:], "\ufeff"), strings.HasPrefix(src[i:], "\u00a0"):
			i += punctLen(src[i:]) // a byte-order mark or no-break space is white space
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			lx.comment(i, i+j)
			i += j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return 0, errTSLex
			}
			end := i + 2 + j + 2
			if strings.IndexByte(src[i:end], '\n') >= 0 {
				lx.comment(i, end)
				lx.nl = true
			} else {
				lx.comment(i, end)
			}
			i = end
			continue
		}
		var (
			kind = tsPunct
			j    int
			err  error
		)
		switch {
		case c == '\'' || c == '"':
			kind = tsString
			j, err = lx.stringEnd(i)
		case c == '`':
			kind = tsTemplate
			j, err = lx.templateEnd(i)
		case c == '/' && lx.operandExpected():
			kind = tsRegex
			j, err = lx.regexEnd(i)
		case c == '<' && lx.jsx && lx.operandExpected() && lx.jsxStarts(i):
			kind = tsJSX
			j, err = lx.jsxEnd(i)
		case isIdentStart(c) || c == '#' && i+1 < len(src) && isIdentStart(src[i+1]) || c == '\\':
			kind = tsIdent
			j = i + 1
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '\\') {
				j++
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			kind = tsNumber
			j = i + 1
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(src[i:], "0x")) {
				j++
			}
		default:
			j = i + punctLen(src[i:])
			switch c {
			case '{':
				braces++
			case '}':
				if inner && braces == 0 {
					return i + 1, nil
				}
				braces--
			}
		}
		if err != nil {
			return 0, err
		}
		lx.toks = append(lx.toks, tsToken{Kind: kind, Text: src[i:j], Off: i, End: j, NewlineBefore: lx.nl})
		lx.nl = false
		i = j
	}
	if inner {
		return 0, errTSLex
	}
	return i, nil
}

func (lx *tsLexer) comment(off, end int) {
	trailing := false
	if n := len(lx.toks); n > 0 && !lx.nl {
		trailing = true
	}
	lx.comments = append(lx.comments, tsComment{Off: off, End: end, Trailing: trailing})
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// tsPuncts lists the multi-byte punctuators, longest first.
var tsPuncts = []string{"...", "===", "!==", "**=", "<<=", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "<<"}

// punctLen returns the length of the punctuator at the start of s. ">>" is
// left as two ">" so that nested type arguments (A<B<C>>) close one at a
// time; the recogniser never needs the shift operator.
func punctLen(s string) int {
	for _, p := range tsPuncts {
		if strings.HasPrefix(s, p) {
			if p == "?." && len(s) > 2 && s[2] >= '0' && s[2] <= '9' { // a ? .5 : b
				return 1
			}
			return len(p)
		}
	}
	if s[0] >= 0x80 { // a stray non-ASCII byte: take the whole rune
		for n := 1; n < len(s) && n < 4; n++ {
			if s[n]&0xc0 != 0x80 {
				return n
			}
		}
		return min(len(s), 4)
	}
	return 1
}

// tsOperandKeywords are the keywords after which an expression starts, so a
// "/" begins a regular expression and a "<" a JSX element.
var tsOperandKeywords = map[string]bool{"return": true, "typeof": true, "case": true, "do": true, "else": true,
	"in": true, "of": true, "new": true, "delete": true, "void": true, "throw": true, "yield": true, "await": true,
	"instanceof": true, "extends": true, "default": true}

// operandExpected reports whether the next token starts an operand, judged
// by the token before it.
func (lx *tsLexer) operandExpected() bool {
	if len(lx.toks) == 0 {
		return true
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.Kind {
	case tsIdent:
		return tsOperandKeywords[t.Text]
	case tsPunct:
		switch t.Text {
		case ")", "]", "++", "--":
			return false
		case "!":
			// x! is TypeScript's non-null assertion, an operand.
			if n := len(lx.toks); n > 1 && lx.toks[n-2].End == t.Off && endsOperand(lx.toks[n-2]) {
				return false
			}
		case "}":
			// After a block a regular expression may start a
			// statement; after an object literal a slash divides.
			// Blocks are the common case at the start of a line.
			return lx.nl
		}
		return true
	}
	return false
}

// endsOperand says an expression can end with t.
func endsOperand(t tsToken) bool {
	switch t.Kind {
	case tsIdent:
		return !tsOperandKeywords[t.Text]
	case tsPunct:
		return t.Text == ")" || t.Text == "]"
	}
	return true
}

func (lx *tsLexer) stringEnd(i int) (int, error) {
	src, q := lx.src, lx.src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if j+2 < len(src) && src[j+1] == '\r' && src[j+2] == '\n' {
				j++
			}
			j++
		case q:
			return j + 1, nil
		case '\n':
			return 0, errTSLex
		}
	}
	return 0, errTSLex
}

// templateEnd returns the offset after the template literal opening at i,
// lexing each ${…} substitution as code (which may hold further templates).
func (lx *tsLexer) templateEnd(i int) (int, error) {
	lx.depth++
	defer func() { lx.depth-- }()
	if lx.depth > tsMaxDepth {
		return 0, errTSLex
	}
	src := lx.src
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1, nil
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				end, err := lx.sub(j + 2)
				if err != nil {
					return 0, err
				}
				j = end - 1
			}
		}
	}
	return 0, errTSLex
}

// sub lexes the code of a ${…} substitution or a JSX {…} expression from i
// and returns the offset after its closing brace. Its tokens are dropped:
// the enclosing literal is one token.
func (lx *tsLexer) sub(i int) (int, error) {
	saved, nl := len(lx.toks), lx.nl
	savedComments := len(lx.comments)
	lx.toks = append(lx.toks, tsToken{Kind: tsPunct, Text: "{"}) // an operand follows
	end, err := lx.scan(i, true)
	lx.toks, lx.nl = lx.toks[:saved], nl
	lx.comments = lx.comments[:savedComments]
	return end, err
}

func (lx *tsLexer) regexEnd(i int) (int, error) {
	src := lx.src
	class := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(src) && isIdentByte(src[j]) {
					j++
				}
				return j, nil
			}
		case '\n':
			return 0, errTSLex
		}
	}
	return 0, errTSLex
}

// jsxStarts reports whether the "<" at i opens a JSX element rather than
// the type parameters of a generic arrow function (<T,>(x: T) => x, <T
// extends U>(…) => …).
func (lx *tsLexer) jsxStarts(i int) bool {
	src := lx.src
	if i+1 >= len(src) || src[i+1] == '>' {
		return i+1 < len(src)
	}
	if !isIdentStart(src[i+1]) {
		return false
	}
	j := i + 1
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	rest := strings.TrimLeft(src[j:], " \t")
	return !strings.HasPrefix(rest, ",") && !strings.HasPrefix(rest, "extends ")
}

// jsxEnd returns the offset after the JSX element or fragment opening at i.
func (lx *tsLexer) jsxEnd(i int) (int, error) {
	lx.depth++
	defer func() { lx.depth-- }()
	if lx.depth > tsMaxDepth {
		return 0, errTSLex
	}
	src := lx.src
	j, selfClosed, err := lx.jsxTag(i)
	if err != nil || selfClosed {
		return j, err
	}
	// Children: text, {expressions}, child elements, up to the closing tag.
	for j < len(src) {
		switch src[j] {
		case '{':
			end, err := lx.sub(j + 1)
			if err != nil {
				return 0, err
			}
			j = end
		case '<':
			if j+1 < len(src) && src[j+1] == '/' {
				k := strings.IndexByte(src[j:], '>')
				if k < 0 {
					return 0, errTSLex
				}
				return j + k + 1, nil
			}
			end, err := lx.jsxEnd(j)
			if err != nil {
				return 0, err
			}
			j = end
		default:
			j++
		}
	}
	return 0, errTSLex
}

// jsxTag reads an opening tag from its "<" to its ">" and says whether it
// closed itself ("/>").
func (lx *tsLexer) jsxTag(i int) (int, bool, error) {
	src := lx.src
	angles := 0 // type arguments: <Comp<string> msg="1" />
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '<':
			angles++
		case '"', '\'':
			k := strings.IndexByte(src[j+1:], src[j]) // attribute strings may span lines
			if k < 0 {
				return 0, false, errTSLex
			}
			j += k + 1
		case '{':
			end, err := lx.sub(j + 1)
			if err != nil {
				return 0, false, err
			}
			j = end - 1
		case '/':
			switch {
			case j+1 < len(src) && src[j+1] == '>':
				return j + 2, true, nil
			case strings.HasPrefix(src[j:], "//"): // comments may lie between attributes
				k := strings.IndexByte(src[j:], '\n')
				if k < 0 {
					return 0, false, errTSLex
				}
				j += k
			case strings.HasPrefix(src[j:], "/*"):
				k := strings.Index(src[j+2:], "*/")
				if k < 0 {
					return 0, false, errTSLex
				}
				j += 2 + k + 1
			}
		case '>':
			if angles > 0 {
				angles--
				continue
			}
			return j + 1, false, nil
		}
	}
	return 0, false, errTSLex
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int

func newLineIndex(src string) lineIndex {
	li := lineIndex{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			li = append(li, i+1)
		}
	}
	return li
}

func (li lineIndex) line(off int) int {
	return sort.Search(len(li), func(i int) bool { return li[i] > off })
}
