package chunk

import (
	"cmp"
	"strings"
)

// The Rust recogniser reads the C-family lexer's tokens item by item:
// functions, structs, enums, unions, traits, type aliases, constants,
// statics, macro_rules! macros, impl blocks and inline modules, with their
// attributes and doc comments. Items of an impl or trait are qualified by its
// type or trait ("Type.method"); items of a module are not (the repository
// names symbols by type, not by path). Items inside function bodies belong to
// their function.

// rustScope is where the recogniser is reading items.
type rustScope struct {
	prefix string // "Type." inside an impl or trait
	trait  bool   // inside a trait or a trait's impl: members are public
	test   bool   // inside #[cfg(test)] code
	fnOK   bool   // fn items here are methods
}

type rustParser struct {
	cCursor
	p        string
	src      string
	comments []cComment
	out      []Chunk
}

// Rust cuts a Rust file into one chunk per item (see above). It reports false
// when the file does not tokenize or its brackets do not balance.
func Rust(p string, src []byte) ([]Chunk, bool) {
	text := string(src)
	toks, comments, err := cLex(text, "rust")
	if err != nil {
		return nil, false
	}
	r := &rustParser{cCursor: cCursor{toks: toks}, p: p, src: text, comments: comments}
	if !r.items(rustScope{}, false) || r.bad {
		return nil, false
	}
	cs := finishBlocks(p, "rust", lines(src), r.out, importTest("rust"))
	// The inner doc comments before a file's first token document its
	// module: the chunk that holds them is the file's package chunk.
	var doc []string
	first := 0
	for _, c := range comments {
		if len(toks) > 0 && c.start > toks[0].line {
			break
		}
		if c.inner {
			doc = append(doc, c.text)
			first = cmp.Or(first, c.start)
		}
	}
	for i := range cs {
		if len(doc) > 0 && cs[i].Symbol == "" && cs[i].StartLine <= first && first <= cs[i].EndLine {
			cs[i].Kind, cs[i].Doc = Package, strings.TrimSpace(strings.Join(doc, "\n"))
		}
	}
	return cs, true
}

// items reads items up to the end of the file or, in a block, its closing
// brace (which it consumes). It reports false when brackets do not balance.
func (r *rustParser) items(sc rustScope, block bool) bool {
	for !r.done() {
		if r.is(0, "}") {
			if !block {
				return false
			}
			r.i++
			return true
		}
		if !r.item(sc) {
			return false
		}
	}
	return !block
}

// item reads one item.
func (r *rustParser) item(sc rustScope) bool {
	first := r.peek(0)
	var attrs strings.Builder
	// Attributes: #[…] belong to the item, #![…] to the enclosing module.
	for r.is(0, "#") {
		inner := r.is(1, "!")
		if inner {
			r.i++
		}
		if !r.is(1, "[") {
			r.i++
			return true
		}
		r.i++
		from := r.peek(0).off + 1 // inside the brackets
		end := r.skipGroup()
		if end < 0 {
			return false
		}
		if inner {
			first = r.peek(0)
			continue
		}
		attrs.WriteString(r.src[from:r.toks[end].off])
		attrs.WriteByte('\n')
	}
	if r.done() {
		return true
	}
	head := r.peek(0) // the item proper, after its attributes
	pub := false
	if r.is(0, "pub") {
		pub = true
		r.i++
		if r.is(0, "(") {
			r.skipGroup()
		}
	}
	for {
		switch {
		case r.is(0, "default") && r.peek(1).kind == 'i', r.is(0, "async"), r.is(0, "unsafe"), r.is(0, "safe"):
			r.i++
			continue
		case r.is(0, "const") && (r.is(1, "fn") || r.is(1, "unsafe") || r.is(1, "async") || r.is(1, "extern")):
			r.i++
			continue
		case r.is(0, "extern") && !r.is(1, "crate"):
			r.i++
			if r.peek(0).kind == 's' {
				r.i++
			}
			if r.is(0, "{") { // an extern block: its functions are items
				r.i++
				return r.items(rustScope{test: sc.test}, true)
			}
			continue
		}
		break
	}
	test := sc.test || isRustTestAttr(attrs.String())
	kw := r.peek(0)
	name := r.peek(1)
	emit := func(kind Kind, name cTok, endTok int) int {
		sym := name.text
		if kind == Func && sc.fnOK {
			kind = Method
		}
		if sc.prefix != "" && kind != Container {
			sym = sc.prefix + sym
		}
		start, doc := cLeading(r.comments, first.line)
		end := r.toks[endTok]
		c := Chunk{Path: r.p, Language: "rust", Kind: kind, Symbol: sym, StartLine: start, DeclLine: name.line,
			EndLine: end.line, Doc: doc, Signature: collapse(r.src[head.off : end.off+len(end.text)]),
			Exported: pub || sc.trait, Test: test}
		if kind == Method {
			c.Types = []string{strings.TrimSuffix(sc.prefix, ".")}
		}
		if c.Kind == Container {
			c.Signature = collapse(strings.TrimSuffix(c.Signature, "{")) // the head without its block
		}
		r.out = append(r.out, c)
		return len(r.out) - 1
	}
	// body reads from the current token to the item's end: a block (whose
	// closing brace ends it) or a ";". It returns the last token's index
	// and the index of the block's "{" (or of the ";").
	body := func() (end, open int) {
		switch r.skipUntil("{", ";") {
		case "{":
			open = r.i
			return r.skipGroup(), open
		case ";":
			r.i++
			return r.i - 1, r.i - 1
		}
		return -1, -1
	}
	switch {
	case kw.text == "fn" && name.kind == 'i':
		r.i += 2
		end, open := body()
		if end < 0 {
			return false
		}
		k := emit(Func, name, end)
		r.out[k].Signature = collapse(r.src[head.off:r.toks[open].off])
	case (kw.text == "struct" || kw.text == "enum" || kw.text == "union" || kw.text == "type") && name.kind == 'i':
		r.i += 2
		end, open := body()
		if end < 0 {
			return false
		}
		k := emit(Type, name, end)
		if r.toks[open].text == "{" {
			r.out[k].Signature = collapse(r.src[head.off:r.toks[open].off]) // the head without its fields
		}
	case (kw.text == "const" || kw.text == "static") && name.kind == 'i' || kw.text == "static" && name.text == "mut":
		r.i += 2
		if name.text == "mut" {
			name = r.peek(0)
			r.i++
		}
		if r.skipUntil(";") != ";" {
			return false
		}
		r.i++
		kind := Const
		if kw.text == "static" {
			kind = Var
		}
		if name.text != "_" {
			emit(kind, name, r.i-1)
		}
	case kw.text == "trait" && name.kind == 'i' || kw.text == "auto" && name.text == "trait":
		if kw.text == "auto" {
			r.i++
			name = r.peek(1)
		}
		r.i += 2
		switch r.skipUntil("{", ";") {
		case ";": // a trait alias
			r.i++
			emit(Type, name, r.i-1)
			return true
		case "":
			return false
		}
		k := emit(Type, name, r.i)
		r.i++
		if !r.items(rustScope{prefix: sc.prefix + name.text + ".", trait: true, test: test, fnOK: true}, true) {
			return false
		}
		r.out[k].EndLine = r.toks[r.i-1].line
	case kw.text == "impl":
		r.i++
		self, isTrait := r.implType()
		if r.skipUntil("{") != "{" {
			return false
		}
		if self.text == "" { // a tuple, slice or function type: nothing to name its members by
			return r.skipGroup() >= 0
		}
		k := emit(Container, self, r.i)
		r.out[k].Exported = true
		r.i++
		if !r.items(rustScope{prefix: self.text + ".", trait: isTrait, test: test, fnOK: true}, true) {
			return false
		}
		r.out[k].EndLine = r.toks[r.i-1].line
	case kw.text == "mod" && name.kind == 'i':
		r.i += 2
		if r.is(0, ";") {
			r.i++
			return true
		}
		if !r.is(0, "{") {
			return false
		}
		k := emit(Container, name, r.i)
		r.i++
		if !r.items(rustScope{test: test}, true) {
			return false
		}
		r.out[k].EndLine = r.toks[r.i-1].line
	case kw.text == "macro_rules" && r.is(1, "!") && r.peek(2).kind == 'i':
		name = r.peek(2)
		r.i += 3
		if !r.is(0, "{") && !r.is(0, "(") && !r.is(0, "[") {
			return false
		}
		end := r.skipGroup()
		if end < 0 {
			return false
		}
		if r.is(0, ";") {
			r.i++
		}
		k := emit(Func, name, end)
		r.out[k].Exported = strings.Contains(attrs.String(), "macro_export")
	default:
		// use, extern crate, a macro invocation or anything else: skip
		// to its end.
		switch r.skipUntil(";", "{") {
		case ";":
			r.i++
		case "{":
			if r.skipGroup() < 0 {
				return false
			}
			if r.is(0, ";") {
				r.i++
			}
		default:
			if r.is(0, "}") {
				return true // the enclosing block's end
			}
			return r.done()
		}
	}
	return true
}

// implType reads an impl header up to its "{" and returns the token naming
// its self type (the last path segment, without generics, references or
// dyn) and whether it implements a trait. The token is empty for types that
// have no name (tuples, slices, function pointers).
func (r *rustParser) implType() (cTok, bool) {
	// Generic parameters of the impl itself.
	if r.is(0, "<") {
		r.skipAngles()
	}
	typ := r.typeName()
	if r.is(0, "for") {
		r.i++
		return r.typeName(), true
	}
	return typ, false
}

// typeName reads a type and returns its name token.
func (r *rustParser) typeName() cTok {
	for r.is(0, "&") || r.is(0, "mut") || r.is(0, "dyn") || r.is(0, "!") || r.peek(0).kind == 'l' ||
		r.is(0, "*") || r.is(0, "const") {
		r.i++
	}
	var name cTok
	if r.peek(0).kind != 'i' || r.is(0, "fn") || r.is(0, "where") {
		return cTok{}
	}
	for r.peek(0).kind == 'i' {
		name = r.peek(0)
		r.i++
		if r.is(0, "<") {
			r.skipAngles()
		}
		if !r.is(0, "::") {
			break
		}
		r.i++
	}
	return name
}

// skipAngles moves past a <…> group of generic arguments or parameters.
func (r *rustParser) skipAngles() {
	depth := 0
	for ; !r.done(); r.i++ {
		t := r.peek(0)
		if t.kind != 'p' {
			continue
		}
		switch t.text {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				r.i++
				return
			}
		case "(", "[":
			r.skipGroup()
			r.i--
		case "{", ";":
			return
		}
	}
}

// isRustTestAttr reports whether attributes mark test code: #[test],
// #[tokio::test] and the like, or #[cfg(test)].
func isRustTestAttr(attrs string) bool {
	for _, a := range strings.Split(attrs, "\n") {
		a = strings.TrimSpace(a)
		if a == "test" || strings.HasSuffix(a, "::test") || strings.HasPrefix(a, "cfg(test") {
			return true
		}
	}
	return false
}
