package baseline

import (
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

// Python lambdas bound to a name at module or class level
// (greet = lambda name: …) are functions the session can add or change
// like a def, but chunk.PythonFuncs reads defs only. This file finds them
// in the logical lines of chunk.PythonLines, the same tokenizer's, so no
// string or comment is taken for code.

// pyLambda is a lambda bound by a simple statement at module or class
// level: its symbol ("greet", "C.greet"), its code (the statement's
// tokens), and the span of its body, the expression after its colon.
type pyLambda struct {
	symbol    string
	code      string
	body, end int
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
	lines, ok := chunk.PythonLines(src)
	if !ok {
		return nil
	}
	is := func(tk chunk.PyToken, s string) bool { return tk.Text == s }
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
		for len(stack) > 0 && stack[len(stack)-1].indent >= ln.Indent {
			stack = stack[:len(stack)-1]
		}
		head := ln.Toks
		if len(head) > 1 && is(head[0], "async") {
			head = head[1:]
		}
		if len(head) > 1 && (is(head[0], "def") || is(head[0], "class")) && head[1].Kind == 'n' {
			stack = append(stack, block{ln.Indent, head[1].Text, is(head[0], "def")})
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
		for k := 0; k <= len(ln.Toks); k++ {
			if k < len(ln.Toks) {
				depth += pyDepth(ln.Toks[k])
				if depth != 0 || !is(ln.Toks[k], ";") {
					continue
				}
			}
			if l, ok := pyLambdaStmt(ln.Toks[from:k]); ok {
				l.symbol = prefix + l.symbol
				out = append(out, l)
			}
			from = k + 1
		}
	}
	return out
}

// pyDepth tells how a token changes the depth of brackets.
func pyDepth(tk chunk.PyToken) int {
	if tk.Kind != 'o' {
		return 0
	}
	switch tk.Text[0] {
	case '(', '[', '{':
		return 1
	case ')', ']', '}':
		return -1
	}
	return 0
}

// pyLambdaStmt reads a simple statement that binds a name to a lambda,
// the lambda perhaps in parentheses.
func pyLambdaStmt(toks []chunk.PyToken) (pyLambda, bool) {
	is := func(tk chunk.PyToken, s string) bool { return tk.Text == s }
	if len(toks) < 4 || toks[0].Kind != 'n' || pyKeyword[toks[0].Text] {
		return pyLambda{}, false
	}
	v := -1 // the value's first token
	switch {
	case is(toks[1], "=") && !is(toks[2], "="):
		v = 2
	case is(toks[1], ":"):
		depth := 0
		for k := 2; k < len(toks); k++ {
			depth += pyDepth(toks[k])
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
	for len(val) > 2 && is(val[0], "(") && pyClose(val) == len(val)-1 {
		val = val[1 : len(val)-1]
	}
	if len(val) == 0 || !is(val[0], "lambda") {
		return pyLambda{}, false
	}
	// The colon that ends the parameters: a lambda among the defaults
	// has a colon of its own.
	colon, need, depth := -1, 1, 0
	for k := 1; k < len(val) && colon < 0; k++ {
		depth += pyDepth(val[k])
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
		depth += pyDepth(val[k])
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
		code.WriteString(tk.Text)
		code.WriteByte(' ')
	}
	last := val[end-1]
	return pyLambda{
		symbol: toks[0].Text,
		code:   code.String(),
		body:   val[colon+1].Off,
		end:    last.Off + len(last.Text),
	}, true
}

// pyClose returns the index of the bracket that closes toks[0].
func pyClose(toks []chunk.PyToken) int {
	depth := 0
	for k, tk := range toks {
		if depth += pyDepth(tk); depth == 0 {
			return k
		}
	}
	return -1
}
