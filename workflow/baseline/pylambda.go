package baseline

import (
	"bytes"
	"strings"
)

// Python lambdas bound to a name at module or class level
// (greet = lambda name: …) are functions the session can add or change
// like a def, but chunk.PythonFuncs reads defs only. This file finds them
// with a tokenizer of its own: it reads logical lines, strings of every
// kind (prefixes, triple quotes, f-strings whose fields nest strings with
// the same quotes, as Python 3.12 allows), comments, brackets and
// continuation lines, enough that no string or comment is taken for code.

// pyLambda is a lambda bound by a simple statement at module or class
// level: its symbol ("greet", "C.greet"), its code (the statement's
// tokens), and the span of its body, the expression after its colon.
type pyLambda struct {
	symbol    string
	code      string
	body, end int
}

// lxTok is a token of the lambda finder's tokenizer: 'n' a name, 's' a
// string, '0' a number, 'o' an operator (one character each).
type lxTok struct {
	kind     byte
	off, end int
}

// lxLine is a logical line: its tokens and the indentation of its first
// physical line, tabs to multiples of 8.
type lxLine struct {
	indent int
	toks   []lxTok
}

// pyMaxNest bounds the nesting of f-string fields and brackets, so that no
// input can run the tokenizer's recursion out of stack.
const pyMaxNest = 200

type pyTokenizer struct {
	src   []byte
	lines []lxLine
	nest  int
}

// pyLogicalLines tokenizes src. It reports false for input it cannot follow:
// an unterminated string, a bracket that does not match, nesting past
// pyMaxNest.
func pyLogicalLines(src []byte) ([]lxLine, bool) {
	t := &pyTokenizer{src: src}
	ok := t.run()
	return t.lines, ok
}

func (t *pyTokenizer) run() bool {
	src := t.src
	i := 0
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		i = len("\ufeff")
	}
	var (
		cur      *lxLine
		brackets []byte
	)
	lineStart := true
	for i < len(src) {
		if lineStart && cur == nil {
			lineStart = false
			indent := 0
			for ; i < len(src); i++ {
				switch src[i] {
				case ' ':
					indent++
					continue
				case '\t':
					indent += 8 - indent%8
					continue
				case '\f':
					indent = 0
					continue
				}
				break
			}
			t.lines = append(t.lines, lxLine{indent: indent})
			cur = &t.lines[len(t.lines)-1]
			continue
		}
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\\' && (bytes.HasPrefix(src[i+1:], []byte("\n")) || bytes.HasPrefix(src[i+1:], []byte("\r"))):
			i++ // a continuation: the logical line goes on
			if bytes.HasPrefix(src[i:], []byte("\r\n")) {
				i++
			}
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case c == '\n' || c == '\r':
			i++
			if len(brackets) == 0 {
				if len(cur.toks) == 0 {
					t.lines = t.lines[:len(t.lines)-1] // blank, or a comment alone
				}
				cur, lineStart = nil, true
			}
		default:
			tok, ok := t.token(i)
			if !ok {
				return false
			}
			if tok.kind == 'o' {
				switch c {
				case '(', '[', '{':
					if len(brackets) == pyMaxNest {
						return false
					}
					brackets = append(brackets, c)
				case ')', ']', '}':
					if len(brackets) == 0 || brackets[len(brackets)-1] != opener(c) {
						return false
					}
					brackets = brackets[:len(brackets)-1]
				}
			}
			cur.toks = append(cur.toks, tok)
			i = tok.end
		}
	}
	if cur != nil && len(cur.toks) == 0 {
		t.lines = t.lines[:len(t.lines)-1]
	}
	return len(brackets) == 0
}

// token reads the token at i: a name, a string with its prefix, a number
// or an operator.
func (t *pyTokenizer) token(i int) (lxTok, bool) {
	src := t.src
	c := src[i]
	switch {
	case c == '"' || c == '\'':
		end, ok := t.str(i, "")
		return lxTok{'s', i, end}, ok
	case pyNameByte(c) && !(c >= '0' && c <= '9'):
		j := i
		for j < len(src) && pyNameByte(src[j]) {
			j++
		}
		if j < len(src) && (src[j] == '"' || src[j] == '\'') && pyStringPrefix(string(src[i:j])) {
			end, ok := t.str(j, string(src[i:j]))
			return lxTok{'s', i, end}, ok
		}
		return lxTok{'n', i, j}, true
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i
		for j < len(src) {
			d := src[j]
			if pyNameByte(d) || d == '.' {
				j++
				continue
			}
			if (d == '+' || d == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !bytes.HasPrefix(bytes.ToLower(src[i:j]), []byte("0x")) {
				j++
				continue
			}
			break
		}
		return lxTok{'0', i, j}, true
	}
	return lxTok{'o', i, i + 1}, true
}

// opener returns the bracket that the closing bracket c closes.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func pyNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pyStringPrefix reports whether p may prefix a string literal.
func pyStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf", "t", "tr", "rt":
		return true
	}
	return false
}

// str reads the string whose opening quote is at i and returns the offset
// just past its closing quote.
func (t *pyTokenizer) str(i int, prefix string) (int, bool) {
	src := t.src
	q := src[i]
	quote := []byte{q}
	if bytes.HasPrefix(src[i:], []byte{q, q, q}) {
		quote = []byte{q, q, q}
	}
	p := strings.ToLower(prefix)
	raw := strings.Contains(p, "r")
	fmtd := strings.ContainsAny(p, "ft")
	for j := i + len(quote); j < len(src); {
		c := src[j]
		switch {
		case c == '\\':
			if fmtd && j+1 < len(src) && (src[j+1] == '{' || src[j+1] == '}') {
				j++ // the brace after it is a field's
				continue
			}
			if fmtd && !raw && bytes.HasPrefix(src[j:], []byte(`\N{`)) {
				k := bytes.IndexByte(src[j:], '}')
				if k < 0 {
					return 0, false
				}
				j += k + 1
				continue
			}
			j += 2
			if bytes.HasPrefix(src[j-1:], []byte("\r\n")) {
				j++ // a line continued inside the string
			}
		case (c == '\n' || c == '\r') && len(quote) == 1:
			return 0, false
		case bytes.HasPrefix(src[j:], quote):
			return j + len(quote), true
		case fmtd && bytes.HasPrefix(src[j:], []byte("{{")), fmtd && bytes.HasPrefix(src[j:], []byte("}}")):
			j += 2
		case fmtd && c == '{':
			end, ok := t.field(j+1, len(quote) == 3)
			if !ok {
				return 0, false
			}
			j = end
		default:
			j++
		}
	}
	return 0, false
}

// field reads an f-string's replacement field from just past its "{" and
// returns the offset just past its "}": an expression, then a conversion
// (!r) and a format spec (:…) that may hold fields of its own. Only a
// triple-quoted string's field may hold a comment.
func (t *pyTokenizer) field(i int, triple bool) (int, bool) {
	if t.nest++; t.nest > pyMaxNest {
		return 0, false
	}
	defer func() { t.nest-- }()
	src := t.src
	depth := 0
	for j := i; j < len(src); {
		c := src[j]
		switch {
		case c == '#' && triple:
			for j < len(src) && src[j] != '\n' {
				j++
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			j++
		case (c == ')' || c == ']') && depth > 0:
			depth--
			j++
		case c == '}':
			if depth == 0 {
				return j + 1, true
			}
			depth--
			j++
		case depth == 0 && c == '!' && j+1 < len(src) && src[j+1] != '=',
			depth == 0 && c == ':':
			return t.spec(j + 1)
		case c == '"' || c == '\'' || pyNameByte(c):
			tok, ok := t.token(j)
			if !ok {
				return 0, false
			}
			j = tok.end
		default:
			j++
		}
	}
	return 0, false
}

// spec reads the rest of a field from just past its "!" or ":": literal
// text with nested fields, to the "}" that closes the field.
func (t *pyTokenizer) spec(i int) (int, bool) {
	src := t.src
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '}':
			return j + 1, true
		case '{':
			end, ok := t.field(j+1, false)
			if !ok {
				return 0, false
			}
			j = end - 1
		case '\n':
			return 0, false
		}
	}
	return 0, false
}

var pyKeyword = map[string]bool{"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true, "import": true,
	"in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true}

// pyLambdas returns the lambdas bound by simple statements
// (name = lambda …: …, or name: T = lambda …: …, alone or among others
// on a line split by ";") at module level, in a class, or in a compound
// statement among them, in source order; those inside a function are
// part of it, like its nested defs. It returns none for a file its
// tokenizer cannot follow.
func pyLambdas(src []byte) []pyLambda {
	lines, ok := pyLogicalLines(src)
	if !ok {
		return nil
	}
	text := func(tk lxTok) string { return string(src[tk.off:tk.end]) }
	is := func(tk lxTok, s string) bool { return tk.end-tk.off == len(s) && text(tk) == s }
	type block struct {
		indent int
		name   string
		fn     bool
	}
	var (
		stack []block
		out   []pyLambda
	)
	for _, ln := range lines {
		for len(stack) > 0 && stack[len(stack)-1].indent >= ln.indent {
			stack = stack[:len(stack)-1]
		}
		head := ln.toks
		if len(head) > 1 && is(head[0], "async") {
			head = head[1:]
		}
		if len(head) > 1 && (is(head[0], "def") || is(head[0], "class")) && head[1].kind == 'n' {
			stack = append(stack, block{ln.indent, text(head[1]), is(head[0], "def")})
			continue
		}
		prefix := ""
		inFunc := false
		for _, b := range stack {
			inFunc = inFunc || b.fn
			prefix += b.name + "."
		}
		if inFunc {
			continue
		}
		// The simple statements of the line, split at ";" outside brackets.
		depth, from := 0, 0
		for k := 0; k <= len(ln.toks); k++ {
			if k < len(ln.toks) {
				depth += pyDepth(src, ln.toks[k])
				if depth != 0 || !is(ln.toks[k], ";") {
					continue
				}
			}
			if l, ok := pyLambdaStmt(src, ln.toks[from:k]); ok {
				l.symbol = prefix + l.symbol
				out = append(out, l)
			}
			from = k + 1
		}
	}
	return out
}

// pyDepth tells how a token changes the depth of brackets.
func pyDepth(src []byte, tk lxTok) int {
	if tk.kind != 'o' {
		return 0
	}
	switch src[tk.off] {
	case '(', '[', '{':
		return 1
	case ')', ']', '}':
		return -1
	}
	return 0
}

// pyLambdaStmt reads a simple statement that binds a name to a lambda,
// the lambda perhaps in parentheses.
func pyLambdaStmt(src []byte, toks []lxTok) (pyLambda, bool) {
	is := func(tk lxTok, s string) bool { return string(src[tk.off:tk.end]) == s }
	if len(toks) < 4 || toks[0].kind != 'n' || pyKeyword[string(src[toks[0].off:toks[0].end])] {
		return pyLambda{}, false
	}
	v := -1 // the value's first token
	switch {
	case is(toks[1], "=") && !is(toks[2], "="):
		v = 2
	case is(toks[1], ":"):
		depth := 0
		for k := 2; k < len(toks); k++ {
			depth += pyDepth(src, toks[k])
			if depth == 0 && is(toks[k], "=") {
				v = k + 1
				break
			}
		}
	}
	if v < 0 || v >= len(toks) {
		return pyLambda{}, false
	}
	val := toks[v:]
	for len(val) > 2 && is(val[0], "(") && pyClose(src, val) == len(val)-1 {
		val = val[1 : len(val)-1]
	}
	if len(val) == 0 || !is(val[0], "lambda") {
		return pyLambda{}, false
	}
	// The colon that ends the parameters: a lambda among the defaults
	// has a colon of its own.
	colon, need, depth := -1, 1, 0
	for k := 1; k < len(val) && colon < 0; k++ {
		depth += pyDepth(src, val[k])
		switch {
		case depth != 0:
		case is(val[k], "lambda"):
			need++
		case is(val[k], ":"):
			if need--; need == 0 {
				colon = k
			}
		}
	}
	if colon < 0 || colon == len(val)-1 {
		return pyLambda{}, false
	}
	// The body ends at a comma outside brackets (x = lambda: 1, 2 binds a
	// tuple), but not one among a nested lambda's parameters.
	end, pending := len(val), 0
	depth = 0
	for k := colon + 1; k < len(val) && end == len(val); k++ {
		depth += pyDepth(src, val[k])
		switch {
		case depth != 0:
		case is(val[k], "lambda"):
			pending++
		case is(val[k], ":") && pending > 0:
			pending--
		case is(val[k], ",") && pending == 0:
			end = k
		}
	}
	if end == colon+1 {
		return pyLambda{}, false
	}
	var code strings.Builder
	for _, tk := range toks {
		code.Write(src[tk.off:tk.end])
		code.WriteByte(' ')
	}
	return pyLambda{
		symbol: string(src[toks[0].off:toks[0].end]),
		code:   code.String(),
		body:   val[colon+1].off,
		end:    val[end-1].end,
	}, true
}

// pyClose returns the index of the bracket that closes toks[0].
func pyClose(src []byte, toks []lxTok) int {
	depth := 0
	for k, tk := range toks {
		if depth += pyDepth(src, tk); depth == 0 {
			return k
		}
	}
	return -1
}
