package codegraph

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/agentos-dev/agentos/search/chunk"
)

// reCallSiteTS is reCallSite for TypeScript and JavaScript, where a call
// may pass type arguments (f<T>(x), this.get<Row[]>(q), useRef<() =>
// void>(null)) and a method may be private (this.#dispatch()); its groups are
// reCallSite's and the type arguments. They follow the name with no space
// between, as code is written: a < b > (c) compares.
var reCallSiteTS = regexp.MustCompile(`(?:([A-Za-z_$][\w$]*)\s*(\.)\s*)?(#?[A-Za-z_$][\w$]*)(?:<((?:=>|[^<>()]|\([^()]*\)|<(?:=>|[^<>()]|\([^()]*\)|<[^<>()]*>)*>)*)>)?\s*\(`)

// typeArgs reports whether the text between a call's angle brackets can
// be type arguments rather than the operands of comparisons (a<b && c>(d)).
func typeArgs(s string) bool {
	s = strings.ReplaceAll(s, "=>", "")
	return strings.TrimSpace(s) != "" && !strings.Contains(s, "||") && !strings.Contains(s, "&&") &&
		!strings.ContainsAny(s, "=+-*/%!")
}

// dottedBefore returns the dotted path of names right before a receiver
// (the "pkg." of pkg.util.format()), "" when there is none.
func dottedBefore(code string) string {
	end := len(code)
	k := end
	for k > 0 {
		c := code[k-1]
		if c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			k--
			continue
		}
		break
	}
	p := code[k:end]
	if !strings.HasSuffix(p, ".") || strings.HasPrefix(p, ".") || strings.Contains(p, "..") || k > 0 && code[k-1] == ')' {
		return ""
	}
	return p
}

// reTSRead matches a property read through this, this.field or a
// variable: this.size, this.store.size, x.size. What follows it is checked
// apart: a call or an assignment is no read.
var reTSRead = regexp.MustCompile(`\b(this|[A-Za-z_$][\w$]*)\s*\.\s*(?:([A-Za-z_$][\w$]*)\s*\.\s*)?(#?[A-Za-z_$][\w$]*)`)

// reWrite matches what makes a property's mention a write or a call
// rather than a read: an assignment, an increment, a call, type arguments.
var reWrite = regexp.MustCompile(`^\s*(?:=[^=>]|(?:\+\+|--|\*\*=|\?\?=|&&=|\|\|=|[-+*/%&|^]=|<<=|>>>?=)|\(|<[^<>()]*>\s*\(|\?\.\s*\()`)

// reGetterSig matches a getter's signature as the chunker gives it.
var reGetterSig = regexp.MustCompile(`^(?:(?:public|private|protected|static|override|abstract|declare)\s+)*get\s+[#\w$]`)

// propertyReads adds the reads of properties that may be getters to the
// calls of symbol from (s): through this or one of the class's fields, or
// a variable whose class locals knows. Each property once a symbol.
func (ff *FileFacts) propertyReads(from int32, s *Def, body string, lineOf func(int) int32, locals *scopedLocals) {
	seen := map[string]bool{}
	for _, m := range reTSRead.FindAllStringSubmatchIndex(body, -1) {
		if before := strings.TrimRight(body[:m[0]], " \t\n"); strings.HasSuffix(before, ".") || strings.HasSuffix(before, "#") {
			continue // a property of a property
		}
		base, name := body[m[2]:m[3]], body[m[6]:m[7]]
		class := s.Recv // this
		if base != "this" {
			class = locals.at(base, m[2])
		}
		if class == "" || strings.HasPrefix(class, resultOf) {
			continue
		}
		var recv string
		if m[4] >= 0 { // this.a.b, x.a.b: a is read too
			field := body[m[4]:m[5]]
			if key := class + "." + field; !seen[key] {
				seen[key] = true
				ff.Calls = append(ff.Calls, Ref{From: from, Line: lineOf(m[0]), Name: field, Recv: class, Get: true})
			}
			recv = class + fieldOf + field
		} else {
			recv = class
		}
		if reWrite.MatchString(body[m[1]:]) {
			continue
		}
		if key := recv + "." + name; !seen[key] {
			seen[key] = true
			ff.Calls = append(ff.Calls, Ref{From: from, Line: lineOf(m[0]), Name: name, Recv: recv, Get: true})
		}
	}
}

// resolveGet resolves a property read (Ref.Get) to the getter of the
// class the receiver is known to be of: the enclosing class, a field's
// declared class, a local's. A read of anything else is no call.
func (d *derived) resolveGet(f *FileFacts, r Ref) (int32, bool, bool) {
	recv := r.Recv
	if class, field, ok := strings.Cut(recv, fieldOf); ok {
		if isCtx(class) { // c.req.url: as the file declaring c's class sees it
			fc, t, ok := d.ctxClass(f, class, 0)
			if !ok {
				return 0, false, false
			}
			f, class = fc, t
		}
		t, ok := d.fieldClass(f, class, field)
		if !ok {
			return 0, false, false
		}
		recv = t
	}
	if strings.HasPrefix(recv, resultOf) {
		t, ok := d.classReturnedBy(f, recv)
		if !ok {
			return 0, false, false
		}
		recv = t
	}
	if isCtx(recv) { // c.req with c a callback's parameter
		fc, t, ok := d.ctxClass(f, recv, 0)
		if !ok {
			return 0, false, false
		}
		f, recv = fc, t
	}
	i, ok := d.getter(f, recv, r.Name, 0)
	return i, false, ok
}

// getter returns the getter name of class (as seen from file f) or of its
// nearest base that has one.
func (d *derived) getter(f *FileFacts, class, name string, depth int) (int32, bool) {
	c, ok := d.class(f, class)
	if !ok || depth >= maxBaseDepth {
		return 0, false
	}
	cs := d.syms[c]
	base := d.byFile[cs.f.Path]
	own := cs.def().Name // its own name, whatever f imports it as
	for k := range cs.f.Symbols {
		if s := &cs.f.Symbols[k]; s.Recv == own && s.Name == name && k < len(cs.f.Signatures) && reGetterSig.MatchString(cs.f.Signatures[k]) {
			return base + int32(k), true
		}
	}
	for _, r := range cs.f.Calls {
		if r.Embeds && r.From == cs.i {
			if i, ok := d.getter(cs.f, r.Name, name, depth+1); ok {
				return i, true
			}
		}
	}
	return 0, false
}

// fieldClass returns the class of a field of class (see classField),
// following an indexed access type (store: Options<T>['store'] is the
// class of Options's store).
func (d *derived) fieldClass(f *FileFacts, class, field string) (string, bool) {
	for range maxBaseDepth {
		t, ok := d.classField(f, class, field)
		if !ok {
			return "", false
		}
		owner, key, indexed := strings.Cut(t, fieldOf)
		if !indexed {
			return t, true
		}
		class, field = owner, key
	}
	return "", false
}

// reTSIndexedField matches a member whose type is an indexed access type:
// "form: FieldApiOptions<T>['form']".
var reTSIndexedField = regexp.MustCompile(`^\s*(?:(?:public|private|protected|readonly|static|declare|override|accessor)\s+)*#?([A-Za-z_$][\w$]*)[?!]?\s*:\s*([A-Za-z_$][\w$.]*)\s*(?:<.*>)?\s*\[\s*['"]([\w$]+)['"]\s*\]\s*;?\s*$`)

// tsIndexedField returns a member's name and, for a type indexing another
// (X<…>['key']), the stand-in X, fieldOf, key that fieldClass follows.
func tsIndexedField(signature string) (string, string, bool) {
	m := reTSIndexedField.FindStringSubmatch(signature)
	if m == nil {
		return "", "", false
	}
	x := m[2][strings.LastIndexByte(m[2], '.')+1:]
	return m[1], x + fieldOf + m[3], true
}

// typeParams returns the type parameters' constraints of the class whose
// symbol is class, among a file's chunks.
func typeParams(cs []chunk.Chunk, class string) map[string]string {
	for _, c := range cs {
		if c.Kind == chunk.Type && c.Symbol == class {
			return sigTypeParams(c.Signature)
		}
	}
	return nil
}

// sigTypeParams returns, by name, the class each type parameter of a
// declaration's signature is constrained to (<S extends Store = Store>):
// what a value of that type is known to be.
func sigTypeParams(sig string) map[string]string {
	open := strings.IndexByte(sig, '<')
	if open < 0 || strings.ContainsAny(sig[:open], "(=:") || reExtends.MatchString(sig[:open]) {
		return nil
	}
	depth, end := 0, -1
	for i := open; i < len(sig) && end < 0; i++ {
		switch sig[i] {
		case '<':
			depth++
		case '>':
			if sig[i-1] != '=' {
				depth--
				if depth == 0 {
					end = i
				}
			}
		}
	}
	if end < 0 {
		return nil
	}
	out := map[string]string{}
	for _, p := range splitTop(sig[open+1 : end]) {
		name, constraint, ok := strings.Cut(strings.TrimSpace(p), " extends ")
		if !ok {
			continue
		}
		t := reTypeName.FindString(strings.TrimSpace(constraint))
		t = t[strings.LastIndexByte(t, '.')+1:]
		if t != "" && unicode.IsUpper(rune(t[0])) && reIdent.MatchString(strings.TrimSpace(name)) {
			out[strings.TrimSpace(name)] = t
		}
	}
	return out
}

// splitTop splits a list at its commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			if s[i] != '>' || i == 0 || s[i-1] != '=' {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// constrained returns the class a type parameter is constrained to, or
// typ itself when it is none of params.
func constrained(params map[string]string, typ string) string {
	if c, ok := params[typ]; ok {
		return c
	}
	return typ
}

// reNewTail matches the end of "new Name(" or "new Name<T>(".
var reNewTail = regexp.MustCompile(`\bnew\s+([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*$`)

// callBeforeDot returns the code before the call whose result a method is
// called on — for getAdm(x).get_() or new Service(…).run(), the code up to
// getAdm or new Service — and whether code ends with such a call and a dot.
func callBeforeDot(code string) (string, bool) {
	before := strings.TrimRight(code, " \t\n")
	if !strings.HasSuffix(before, ".") || strings.HasSuffix(before, "?.") {
		return "", false
	}
	before = strings.TrimRight(before[:len(before)-1], " \t\n")
	if !strings.HasSuffix(before, ")") {
		return "", false
	}
	depth := 0
	for i := len(before) - 1; i >= 0; i-- {
		switch before[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return before[:i], true
			}
		}
	}
	return "", false
}

// newBefore returns the class of an object made right before a method is
// called on it: new Service(…).run().
func newBefore(code string) (string, bool) {
	head, ok := callBeforeDot(code)
	if !ok {
		return "", false
	}
	m := reNewTail.FindStringSubmatch(head)
	if m == nil || !unicode.IsUpper(rune(m[1][0])) {
		return "", false
	}
	return m[1], true
}

// memberDot returns where a chunk's symbol splits into its class and its
// member's name ("Class.method", "NS.Class.[Symbol.iterator]"): the last
// dot outside a computed name's brackets; -1 for a top-level name.
func memberDot(symbol string) int {
	depth := 0
	for i := len(symbol) - 1; i >= 0; i-- {
		switch symbol[i] {
		case ']':
			depth++
		case '[':
			depth--
		case '.':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// reCalledTail matches the end of "name(" where name is a function called
// on its own (not a method: no dot before it).
var reCalledTail = regexp.MustCompile(`(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*$`)

// calledBefore returns the function whose result a method is called on:
// getAdm(x).get_() gives getAdm.
func calledBefore(code string) (string, bool) {
	head, ok := callBeforeDot(code)
	if !ok {
		return "", false
	}
	m := reCalledTail.FindStringSubmatchIndex(head)
	if m == nil {
		return "", false
	}
	name := head[m[2]:m[3]]
	prev := strings.TrimRight(head[:m[2]], " \t\n")
	if notCalls[name] || strings.HasSuffix(prev, "new") && (len(prev) == 3 || !isWordByte(prev[len(prev)-4])) {
		return "", false // new Foo(…).m() is newBefore's
	}
	return name, true
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// reLocalDot matches a variable and a dot right before a member's name:
// the "c." of c.req.header().
var reLocalDot = regexp.MustCompile(`(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*\.\s*$`)

// localField returns the class of the variable a field is read through
// (c.req.header() with c: Context gives Context), when locals knows it.
func localField(before string, base int, locals *scopedLocals) (string, bool) {
	m := reLocalDot.FindStringSubmatchIndex(before)
	if m == nil || before[m[2]:m[3]] == "this" {
		return "", false
	}
	class := locals.at(before[m[2]:m[3]], base+m[2])
	return class, class != "" && !strings.HasPrefix(class, resultOf)
}

// getterClass returns the class a TypeScript getter's signature says it
// returns (get req(): HonoRequest<P>), "" for none: reading it gives an
// object of that class, as a field of that type does.
func getterClass(lang, signature string) string {
	if lang != "typescript" || !reGetterSig.MatchString(signature) {
		return ""
	}
	return returnedClass(lang, signature)
}
