package chunk

import "strings"

// TSFunc is a TypeScript or JavaScript function with a body, as
// TypeScriptFuncs finds it, in byte offsets into the source.
type TSFunc struct {
	// Symbol is the name the chunk of the declaration carries: "f",
	// "C.m", "Ns.f", "default", "X.y" for X.prototype.y = function ….
	Symbol string
	// Body and End delimit the body: a block from its "{" to just past
	// its "}", or an arrow function's expression (Expr).
	Body, End int
	Expr      bool
	// Constructor and Setter say what kind of method it is; Never says
	// its declared return type is never.
	Constructor, Setter, Never bool
	// Super is the span of the super(…) call among a constructor's
	// top-level statements, or [0 0].
	Super [2]int
	// Code is the declaration without decorators, comments and layout:
	// its tokens. Two declarations with the same Code are the same code.
	Code string
}

// tsSpan is a function or method the recogniser emitted: its declaration
// and the index of the token after it.
type tsSpan struct {
	d   decl
	end int
}

// TypeScriptFuncs returns the functions of a TypeScript or JavaScript file
// that have a body, in source order: those the chunks name (function
// declarations, class methods, constructors and accessors, arrow functions
// and function expressions assigned to variables, fields, exports or
// prototypes, export default functions). Functions inside function bodies
// and object literals are part of what holds them. It reports false when
// the file does not lex or its brackets do not balance.
func TypeScriptFuncs(p string, src []byte) ([]TSFunc, bool) {
	s := string(src)
	lx, err := lexTS(s, allowsJSX(p))
	if err != nil {
		return nil, false
	}
	var spans []tsSpan
	r := &tsRecogniser{path: p, src: s, toks: lx.toks, comments: lx.comments, li: newLineIndex(s), spans: &spans}
	r.statements("", true)
	if r.bad {
		return nil, false
	}
	var out []TSFunc
	for _, sp := range spans {
		r.bad = false
		if f, ok := r.funcOf(sp); ok && !r.bad {
			out = append(out, f)
		}
	}
	return out, true
}

// funcOf finds the body of a function or method the recogniser emitted,
// reading again from its name.
func (r *tsRecogniser) funcOf(sp tsSpan) (TSFunc, bool) {
	d := sp.d
	f := TSFunc{Symbol: d.symbol}
	var code strings.Builder
	for _, t := range r.toks[d.head:min(sp.end, len(r.toks))] {
		code.WriteString(t.Text)
		code.WriteByte(' ')
	}
	f.Code = code.String()
	body := false
	if d.nameTok >= 0 {
		for _, t := range r.toks[d.head:d.nameTok] {
			f.Setter = f.Setter || t.Kind == tsIdent && t.Text == "set"
		}
		f.Constructor = d.kind == Method && r.toks[d.nameTok].Text == "constructor"
		r.pos = d.nameTok
		if r.at(0, "[") || r.at(0, "{") {
			r.skipBalanced()
		} else {
			r.pos++
		}
		if r.at(0, "?") || r.at(0, "!") {
			r.pos++
		}
		switch {
		case r.at(0, "(") || r.at(0, "<"):
			body = r.callable()
		default:
			if r.at(0, ":") {
				r.pos++
				r.skipType()
			}
			if !r.at(0, "=") {
				return f, false
			}
			r.pos++
			body = r.functionBody(&f)
		}
	} else {
		// export default function (…) {…} or export default <expression>
		r.pos = d.head
		for r.at(0, "export") || r.at(0, "default") {
			r.pos++
		}
		body = r.functionBody(&f)
	}
	if !body || r.pos > sp.end {
		return f, false
	}
	if !f.Expr {
		r.blockFacts(&f)
	}
	return f, true
}

// functionBody reads the function expression or arrow function at the
// current token and reports whether it has a body, which it records in f.
func (r *tsRecogniser) functionBody(f *TSFunc) bool {
	if r.at(0, "async") && r.sameLine(1) {
		r.pos++
	}
	if r.at(0, "function") {
		r.pos++
		if r.at(0, "*") {
			r.pos++
		}
		if r.tok(0).Kind == tsIdent && !r.at(0, "(") {
			r.pos++
		}
		return r.callable()
	}
	if r.tok(0).Kind == tsIdent && r.at(1, "=>") {
		r.pos += 2
	} else {
		if r.at(0, "<") {
			r.skipAngles()
		}
		if !r.at(0, "(") {
			return false
		}
		r.skipBalanced()
		if r.at(0, ":") { // a return type, as startsFunction reads it
			r.pos++
			for r.pos < len(r.toks) && !r.bad && !r.at(0, "=>") {
				if r.at(0, ";") || r.at(0, "=") || r.at(0, "}") || r.at(0, ")") || r.atStatementEnd() {
					return false
				}
				if r.at(0, "(") || r.at(0, "[") || r.at(0, "{") {
					r.skipBalanced()
					continue
				}
				r.pos++
			}
		}
		if !r.at(0, "=>") {
			return false
		}
		r.pos++
	}
	if r.at(0, "{") {
		r.bodyOpen = r.pos
		r.skipBalanced()
		return true
	}
	from := r.pos
	r.skipExpression()
	if r.pos == from || r.pos > len(r.toks) {
		return false
	}
	f.Expr, f.Body, f.End = true, r.toks[from].Off, r.lastEnd()
	return true
}

// blockFacts records a block body read last: its span, whether the
// declared return type before it is never, and a constructor's super call.
func (r *tsRecogniser) blockFacts(f *TSFunc) {
	open, end := r.bodyOpen, r.pos
	f.Body, f.End = r.toks[open].Off, r.lastEnd()
	f.Never = open >= 2 && r.toks[open-1].Text == "never" && r.toks[open-2].Text == ":"
	if !f.Constructor {
		return
	}
	depth := 0
	for i := open; i < end; i++ {
		t := r.toks[i]
		if t.Kind == tsPunct {
			switch t.Text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			continue
		}
		if depth == 1 && t.Kind == tsIdent && t.Text == "super" && i+1 < end && r.toks[i+1].Text == "(" {
			r.pos = i + 1
			r.skipBalanced()
			f.Super = [2]int{t.Off, r.lastEnd()}
			return
		}
	}
}
