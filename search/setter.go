package search

import (
	"regexp"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

// Setters. A Go option setter (func ReconnectJitter(d time.Duration)
// Option { return func(o *Options) error { o.ReconnectJitter = d; return
// nil } }) or a plain one (func (c *Client) SetTimeout(d time.Duration) {
// c.timeout = d }) says in its name and its doc comment what a question
// about the behaviour asks, while the function that does the work says it
// in code and is often unexported and undocumented: the setter won, though
// it only stores a value for the other to read. A chunk whose body does no
// more than that is marked, and ranks lower (Tuning.SetterFactor) unless
// the query names it.
// TypeScript's setTimeout(ms) { this.timeout = ms; return this } and
// Python's def set_timeout(self, s): self._timeout = s are the same.

var (
	// setterStore is an assignment of a plain value to a field:
	// o.ReconnectJitter = d, c.opts.timeout = &t, s.on = true.
	setterStore = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+\s*=\s*([&*]?[A-Za-z_]\w*|"[^"]*"|[0-9][\w.]*)$`)
	// setterClosure opens the function an option setter returns, perhaps
	// as the argument of a conversion or a constructor:
	// return newFuncOption(func(o *options) {.
	setterClosure = regexp.MustCompile(`^(return\s+)?([\w.]+\()?func\s*\([^()]*\)\s*[\w.*\[\]]*\s*\{$`)
	// setterReturn returns nothing, nil or a name (the receiver, for
	// chaining).
	setterReturn = regexp.MustCompile(`^return(\s+[A-Za-z_]\w*)?$`)
	// setterClose closes the closure or the call that returns it.
	setterClose = regexp.MustCompile(`^[})\]]+(\(\))?$`)
)

// maxSetterStatements is the most statements a setter's body holds.
const maxSetterStatements = 6

// isSetter reports whether a function or method only stores values in
// fields: every statement of its body is such a store, a return of nothing,
// nil or a name (the receiver), or — in Go — the opening and closing of a
// function it returns. In TypeScript and JavaScript a store is on this
// (this.timeout = ms, a set accessor's body); in Python on self, after the
// docstring.
func isSetter(c *chunk.Chunk) bool {
	if c.Kind != chunk.Func && c.Kind != chunk.Method || isConstructor(c) {
		return false
	}
	_, decl := splitAtDecl(c)
	var (
		body string
		ok   bool
		rule setterRule
	)
	switch c.Language {
	case "go":
		body, ok = goBody(decl)
		rule = goSetter
	case "typescript", "javascript":
		body, ok = braceBody(decl)
		rule = scriptSetter
	case "python":
		body, ok = pythonBody(decl)
		rule = pythonSetter
	}
	if !ok {
		return false
	}
	if rule.splitBraces {
		// One statement a line: a body or a closure written on one line
		// is cut after each opening brace and before each closing one.
		body = strings.NewReplacer(";", "\n", "{", "{\n", "}", "\n}").Replace(body)
	}
	stores, n := 0, 0
	for line := range strings.Lines(body) {
		if k := strings.Index(line, rule.comment); k >= 0 {
			line = line[:k]
		}
		st := strings.TrimSpace(line)
		switch {
		case st == "":
			continue
		case rule.store.MatchString(st):
			stores++
		case rule.other.MatchString(st):
		default:
			return false
		}
		if n++; n > maxSetterStatements {
			return false
		}
	}
	return stores > 0
}

// isConstructor reports whether a chunk is a TypeScript or JavaScript
// constructor or a Python __init__: one that only stores its arguments is
// how objects are made, not a setter, and ranks by ConstructorFactor.
func isConstructor(c *chunk.Chunk) bool {
	switch name := c.Symbol[strings.LastIndexByte(c.Symbol, '.')+1:]; c.Language {
	case "typescript", "javascript":
		return name == "constructor"
	case "python":
		return name == "__init__"
	}
	return false
}

// A setterRule is what a setter's statements look like in one language.
type setterRule struct {
	store       *regexp.Regexp // a store of a plain value in a field
	other       *regexp.Regexp // any other statement a setter may hold
	comment     string         // what starts a comment to the end of the line
	splitBraces bool           // statements may share a line: cut at ; { }
}

var (
	goSetter = setterRule{store: setterStore, comment: "//", splitBraces: true,
		other: regexp.MustCompile(setterClosure.String() + "|" + setterReturn.String() + "|" + setterClose.String())}
	scriptSetter = setterRule{comment: "//", splitBraces: true,
		// this.timeout = ms, this.#opts.retries = n, this.name_ = "x"
		store: regexp.MustCompile(`^this(\.#?[A-Za-z_$][\w$]*)+\s*=\s*([A-Za-z_$][\w$]*|"[^"]*"|'[^']*'|[0-9][\w.]*)$`),
		// return, return this, and the closing braces
		other: regexp.MustCompile(`^return(\s+this)?$|^[})\]]+$`)}
	pythonSetter = setterRule{comment: "#",
		// self.timeout = seconds, self._opts.retries: int = 3
		store: regexp.MustCompile(`^self(\.[A-Za-z_]\w*)+\s*(:\s*[\w\[\]., |]+)?=\s*([A-Za-z_]\w*|"[^"]*"|'[^']*'|[0-9][\w.]*)$`),
		other: regexp.MustCompile(`^(return(\s+self)?|pass)$`)}
)

// braceBody returns what is between the braces of a TypeScript or
// JavaScript function's body: from the last closing brace back to the one
// it closes, so that a return type written as an object type
// ({ ok: boolean }) is not taken for the body.
func braceBody(decl string) (string, bool) {
	end := strings.LastIndexByte(decl, '}')
	if end < 0 || strings.TrimSpace(decl[end+1:]) != "" {
		return "", false
	}
	depth := 0
	for i := end; i >= 0; i-- {
		switch decl[i] {
		case '}':
			depth++
		case '{':
			if depth--; depth == 0 {
				return decl[i+1 : end], true
			}
		}
	}
	return "", false
}

// pythonBody returns a Python function's body after its signature (the
// first colon outside brackets that ends a line, or is followed by the
// body on the same line) and its docstring.
func pythonBody(decl string) (string, bool) {
	depth := 0
	for i := 0; i < len(decl); i++ {
		switch decl[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth > 0 || !strings.Contains(decl[:i], ")") {
				continue // a parameter's annotation, or a lambda's
			}
			rest := decl[i+1:]
			line, next, _ := strings.Cut(rest, "\n")
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
				return line, true // def f(self, v): self.v = v
			}
			return skipDocstring(next), true
		}
	}
	return "", false
}

// skipDocstring drops the docstring that opens a Python body.
func skipDocstring(body string) string {
	t := strings.TrimLeft(body, " \t\r\n")
	if len(t) > 1 && strings.ContainsRune("rRuU", rune(t[0])) && (t[1] == '"' || t[1] == '\'') {
		t = t[1:] // r"""…"""
	}
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(t, q) {
			if k := strings.Index(t[len(q):], q); k >= 0 {
				return t[len(q)+k+len(q):]
			}
			return ""
		}
	}
	return body
}

// goBody returns what is between the braces of a Go function's body: the
// first brace outside parentheses that does not open a struct or interface
// type in the results, to the last closing brace.
func goBody(decl string) (string, bool) {
	depth := 0
	for i := 0; i < len(decl); i++ {
		switch decl[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '{':
			if depth > 0 {
				continue
			}
			before := strings.TrimRight(decl[:i], " \t")
			if strings.HasSuffix(before, "struct") || strings.HasSuffix(before, "interface") {
				k := strings.IndexByte(decl[i:], '}')
				if k < 0 {
					return "", false
				}
				i += k
				continue
			}
			end := strings.LastIndexByte(decl, '}')
			if end <= i {
				return "", false
			}
			return decl[i+1 : end], true
		}
	}
	return "", false
}
