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

// isSetter reports whether a Go function or method only stores values in
// fields: every statement of its body is such a store, a return of nothing,
// nil or a name, or the opening and closing of a function it returns.
func isSetter(c *chunk.Chunk) bool {
	if c.Language != "go" || c.Kind != chunk.Func && c.Kind != chunk.Method {
		return false
	}
	_, decl := splitAtDecl(c)
	body, ok := goBody(decl)
	if !ok {
		return false
	}
	stores, n := 0, 0
	// One statement a line: a body or a closure written on one line is
	// cut after each opening brace and before each closing one.
	body = strings.NewReplacer(";", "\n", "{", "{\n", "}", "\n}").Replace(body)
	for line := range strings.Lines(body) {
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		st := strings.TrimSpace(line)
		switch {
		case st == "":
			continue
		case setterStore.MatchString(st):
			stores++
		case setterClosure.MatchString(st), setterReturn.MatchString(st), setterClose.MatchString(st):
		default:
			return false
		}
		if n++; n > maxSetterStatements {
			return false
		}
	}
	return stores > 0
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
