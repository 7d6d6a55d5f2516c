package chunk

import "strings"

// PyFunc is a Python function or method as PythonFuncs finds it: where its
// header ends and where its body lies, in byte offsets into the source.
type PyFunc struct {
	// Symbol is the function's name qualified by its enclosing classes:
	// "f", "C.m", "Outer.Inner.m".
	Symbol string
	// Colon is the offset of the ":" that ends the header.
	Colon int
	// Body is the offset of the body's first token; End is the offset
	// just past its last token (comments after it are not part of it).
	Body, End int
	// DocEnd is the offset just past the docstring that opens the body,
	// or 0 when there is none.
	DocEnd int
	// Inline says the body is on the header's line (def f(): return 1).
	Inline bool
	// Code is the definition without its decorators, comments and layout:
	// its tokens, each logical line prefixed by its indentation relative to
	// the def. Two definitions with the same Code are the same code.
	Code string
}

// PythonFuncs returns the functions and methods of a Python file in source
// order: every def at module level, in a class, or in a compound statement
// (if, try) among them, but none defined inside another function, which
// are part of that function's body. It reports false when the file does not
// tokenize.
func PythonFuncs(src []byte) ([]PyFunc, bool) {
	stmts, _, err := pyLex(string(src))
	if err != nil {
		return nil, false
	}
	type block struct {
		indent int
		name   string
		fn     bool
	}
	var (
		stack []block
		out   []PyFunc
	)
	for si, st := range stmts {
		for len(stack) > 0 && stack[len(stack)-1].indent >= st.indent {
			stack = stack[:len(stack)-1]
		}
		head := st.toks
		if len(head) > 1 && head[0].text == "async" {
			head = head[1:]
		}
		if len(head) < 2 || head[0].kind != 'n' || head[1].kind != 'n' || (head[0].text != "def" && head[0].text != "class") {
			continue
		}
		inFunc, prefix := false, ""
		for _, b := range stack {
			inFunc = inFunc || b.fn
			if !b.fn {
				prefix += b.name + "."
			}
		}
		stack = append(stack, block{indent: st.indent, name: head[1].text, fn: head[0].text == "def"})
		colon := pyHeaderColon(st.toks)
		if head[0].text != "def" || inFunc || colon < 0 {
			continue
		}
		f := PyFunc{Symbol: prefix + head[1].text, Colon: st.toks[colon].off}
		var code strings.Builder
		writePyStmt(&code, 0, st.toks)
		var first []pyTok // the body's first statement
		if colon+1 < len(st.toks) {
			f.Inline = true
			first = st.toks[colon+1:]
			last := st.toks[len(st.toks)-1]
			f.End = last.off + len(last.text)
		} else {
			j := si + 1
			for ; j < len(stmts) && stmts[j].indent > st.indent; j++ {
				writePyStmt(&code, stmts[j].indent-st.indent, stmts[j].toks)
			}
			if j == si+1 {
				continue // a header without a body does not compile
			}
			first = stmts[si+1].toks
			last := stmts[j-1].toks[len(stmts[j-1].toks)-1]
			f.End = last.off + len(last.text)
		}
		f.Body = first[0].off
		for _, t := range first {
			if t.kind != 's' {
				break
			}
			if _, ok := pyStringValue(t.text); !ok {
				f.DocEnd = 0
				break
			}
			f.DocEnd = t.off + len(t.text)
		}
		if k := f.DocEnd; k > 0 {
			// A docstring is a statement of strings alone.
			n := 0
			for n < len(first) && first[n].kind == 's' {
				n++
			}
			if n < len(first) && first[n].text != ";" {
				f.DocEnd = 0
			}
		}
		f.Code = code.String()
		out = append(out, f)
	}
	return out, true
}

func writePyStmt(b *strings.Builder, indent int, toks []pyTok) {
	b.WriteString(strings.Repeat(" ", indent))
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	b.WriteByte('\n')
}
