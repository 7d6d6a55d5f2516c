package codegraph

import (
	"regexp"
	"slices"
	"strings"
)

// TypeScript gives a callback's parameters their types from where the
// callback is written (contextual typing): app.get('/', (c) => c.json(…))
// calls Context's json because get's declared type says its handler
// argument is a function whose first parameter is a Context. The graph
// reads no types it is not told, so each TypeScript declaration that a
// callback may be passed to, assigned to or returned as (a function, a
// method, a field or variable with a declared type, a type alias, an
// interface with call signatures) is digested, when its file is read, into
// what a value of it can be called with (Callable); a callback's
// parameters get a stand-in saying where the callback is (ctxOf,
// ctxTypeOf), which resolving follows through those digests, across files.
//
// A digest is a type reduced to what matters for that: its alternatives
// joined by "|" (the members of a union) or by "&" (the overloads of one
// function: an interface's call signatures, the members of an
// intersection that are not plain objects), each one of
//
//	Name          a named type (type arguments dropped, a type parameter
//	              replaced by its constraint's digest)
//	(p,p,…)       a function type or call signature: each parameter's
//	              digest, "?" before an optional one's, "..." before a rest
//	              parameter's element type (a rest tuple is spread into
//	              its positions); a call signature's or a function's
//	              declaration's then ":" and the class it returns, when it
//	              names one (app.get(…).post(…) calls that class's post)
//	-             a type no function is assignable to: a primitive, a
//	              literal, an array, an object type without call signature
//	?             a type the digest cannot follow (any, a conditional or
//	              mapped type, typeof, an indexed access)
//
// Where the digest cannot tell, it says "?", and a callback whose slot
// meets a "?" gets no class: a call left to the name-based fallback is
// better than an exact link the compiler does not have.

// Callable is what a TypeScript symbol's declaration says a value of it is
// called with: a function's or method's own parameters, a field's or
// variable's declared type, a type alias's right-hand side, an interface's
// call signatures ("-" for one without and with no base), as a digest.
type Callable struct {
	Sym  int32 // index of the symbol in FileFacts.Symbols
	Type string
	// Guard is the class a type guard (x is T, its declared return
	// type) narrows its argument to: if (isMap(x)) x.get(k) calls T's.
	Guard string
}

// tsPrimitives are the type keywords no function is assignable to.
var tsPrimitives = map[string]bool{"string": true, "number": true, "boolean": true, "bigint": true, "symbol": true,
	"undefined": true, "null": true, "void": true, "never": true, "object": true, "true": true, "false": true}

// tsNotCallable are global types of the language and its runtimes that no
// callback is assignable to: a slot typed with one is no callback's.
var tsNotCallable = map[string]bool{"Array": true, "ReadonlyArray": true, "Map": true, "Set": true, "WeakMap": true,
	"WeakSet": true, "Promise": true, "Date": true, "RegExp": true, "Error": true, "Request": true, "Response": true,
	"Headers": true, "URL": true, "URLSearchParams": true, "Record": true, "String": true, "Number": true,
	"Boolean": true, "Uint8Array": true, "ArrayBuffer": true, "ReadableStream": true, "WritableStream": true,
	"Blob": true, "FormData": true, "RequestInit": true, "ResponseInit": true, "HeadersInit": true, "BodyInit": true}

var (
	reTSName     = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*`)
	reTSTypeWord = regexp.MustCompile(`^(?:keyof|typeof|infer|unique|readonly|asserts)\b`)
	// A constructor parameter's modifiers: "private readonly ".
	reTSParamModifiers = regexp.MustCompile(`^(?:(?:public|private|protected|readonly|override)\s+)*`)
)

// matchClose returns the index of the bracket closing the one at s[i]
// (any of ( [ { <, counted together, an arrow's > not closing), -1 when
// none does.
func matchClose(s string, i int) int {
	depth := 0
	for k := i; k < len(s); k++ {
		switch s[k] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if k > 0 && s[k-1] == '=' {
				continue
			}
			depth--
		}
		if depth == 0 {
			return k
		}
	}
	return -1
}

// splitTopAt splits s at sep outside brackets.
func splitTopAt(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '=' {
				depth--
			}
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// topIndex returns the first index of sub in s outside brackets, -1 for
// none.
func topIndex(s, sub string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		if depth == 0 && strings.HasPrefix(s[i:], sub) {
			return i
		}
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '=' {
				depth--
			}
		}
	}
	return -1
}

// joinAlts joins alternatives, each once.
func joinAlts(alts []string) string {
	var out []string
	for _, a := range alts {
		for _, p := range splitTopAt(a, '|') {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return strings.Join(out, "|")
}

// joinOverloads joins the members of an intersection, or an interface's
// call signatures, each once: the overloads of one function.
func joinOverloads(alts []string) string {
	var out []string
	for _, a := range alts {
		for _, p := range splitTopAt(a, '&') {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return strings.Join(out, "&")
}

// tsDigest digests a type (see above); tparams are the digests of the type
// parameters in scope, by name.
func tsDigest(t string, tparams map[string]string) string {
	return digestDepth(t, tparams, 0)
}

func digestDepth(t string, tparams map[string]string, depth int) string {
	t = strings.TrimSpace(t)
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "|"), "&"))
	if t == "" || depth > 6 {
		return "?"
	}
	// A function type's return type takes in any union after its arrow:
	// (c: Context) => Response | Promise<Response> is one function.
	if t[0] == '(' || t[0] == '<' {
		k := 0
		if t[0] == '<' {
			k = matchClose(t, 0) + 1
			for k > 0 && k < len(t) && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r') {
				k++
			}
		}
		if k > 0 && k < len(t) && t[k] == '(' || k == 0 {
			if end := matchClose(t, k); end > 0 && strings.HasPrefix(strings.TrimSpace(t[end+1:]), "=>") {
				tp := tparams
				if k > 0 {
					tp = withTypeParams(tparams, t[1:strings.LastIndexByte(t[:k], '>')])
				}
				return "(" + strings.Join(tsParams(t[k+1:end], tp), ",") + ")"
			}
		}
	}
	if parts := splitTopAt(t, '|'); len(parts) > 1 {
		alts := make([]string, len(parts))
		for i, p := range parts {
			alts[i] = digestDepth(p, tparams, depth+1)
		}
		return joinAlts(alts)
	}
	if parts := splitTopAt(t, '&'); len(parts) > 1 {
		// A value of A & B is called as A or as B; a plain object
		// type in it (Foo & { x: 1 }) adds no call signature.
		var alts []string
		for _, p := range parts {
			a := digestDepth(p, tparams, depth+1)
			if len(splitTopAt(a, '|')) > 1 {
				return "?" // a union inside an intersection
			}
			if a != "-" {
				alts = append(alts, a)
			}
		}
		if len(alts) == 0 {
			return "-"
		}
		return joinOverloads(alts)
	}
	if topIndex(t, "?") >= 0 && topIndex(t, " extends ") >= 0 || reTSTypeWord.MatchString(t) {
		return "?" // a conditional type, keyof, typeof
	}
	switch t[0] {
	case '(':
		end := matchClose(t, 0)
		if end < 0 {
			return "?"
		}
		if rest := strings.TrimSpace(t[end+1:]); strings.HasPrefix(rest, "=>") {
			return "(" + strings.Join(tsParams(t[1:end], tparams), ",") + ")"
		} else if rest == "" {
			return digestDepth(t[1:end], tparams, depth+1)
		}
		return "?"
	case '<': // a generic function type
		end := matchClose(t, 0)
		if end < 0 {
			return "?"
		}
		return digestDepth(t[end+1:], withTypeParams(tparams, t[1:end]), depth+1)
	case '{':
		end := matchClose(t, 0)
		if end != len(t)-1 {
			return "?"
		}
		if sigs := tsCallSignatures(t[1:end], tparams); len(sigs) > 0 {
			return joinOverloads(sigs)
		}
		return "-"
	case '[', '\'', '"', '`':
		return "-" // a tuple, a literal
	}
	if strings.HasSuffix(t, "]") {
		if open := strings.LastIndexByte(t, '['); open > 0 && strings.TrimSpace(t[open+1:len(t)-1]) == "" {
			return "-" // an array
		}
		return "?" // an indexed access: Options['store']
	}
	if t[0] == '-' || t[0] >= '0' && t[0] <= '9' {
		return "-"
	}
	if strings.HasPrefix(t, "new ") || strings.HasPrefix(t, "abstract new ") {
		return "-" // a constructor type: no callback is one
	}
	name := reTSName.FindString(t)
	if name == "" {
		return "?"
	}
	if rest := strings.TrimSpace(t[len(name):]); rest != "" && (rest[0] != '<' || matchClose(rest, 0) != len(rest)-1) {
		return "?"
	}
	name = strings.ReplaceAll(name, " ", "")
	name = name[strings.LastIndexByte(name, '.')+1:]
	switch {
	case tsPrimitives[name]:
		return "-"
	case name == "any" || name == "unknown" || name == "Function":
		return "?"
	case tparams[name] != "":
		return tparams[name]
	case tsNotCallable[name]:
		return "-"
	}
	return name
}

// withTypeParams returns tparams with those of a list of type parameters
// ("P extends string = X, R") added: each one's constraint's digest, "?"
// for one with none.
func withTypeParams(tparams map[string]string, list string) map[string]string {
	out := make(map[string]string, len(tparams)+4)
	for k, v := range tparams {
		out[k] = v
	}
	for _, p := range splitTop(list) {
		p = strings.TrimSpace(p)
		if k := topIndex(p, "="); k >= 0 {
			p = strings.TrimSpace(p[:k])
		}
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(p, "const "), "in "))
		name, constraint, ok := strings.Cut(p, " extends ")
		name = strings.TrimSpace(name)
		if !reIdent.MatchString(name) {
			continue
		}
		out[name] = "?"
		if ok {
			out[name] = tsDigest(constraint, out)
		}
	}
	return out
}

// tsParams digests a parameter list (the text between a signature's
// parentheses): one digest a parameter, flagged "?" when optional and
// "..." when a rest parameter (its element's type); a rest tuple is spread
// into its positions, a this parameter left out.
func tsParams(list string, tparams map[string]string) []string {
	var out []string
	if strings.TrimSpace(list) == "" {
		return out
	}
	for _, p := range splitTop(list) {
		p = strings.TrimSpace(reTSParamModifiers.ReplaceAllString(strings.TrimSpace(p), ""))
		rest := false
		if raw := strings.TrimSpace(p); strings.HasPrefix(raw, "...") {
			rest, p = true, strings.TrimSpace(raw[3:])
		}
		if p == "" {
			continue
		}
		// The name (or a destructuring pattern), then : and the type,
		// then = and a default value.
		var name string
		if p[0] == '{' || p[0] == '[' {
			end := matchClose(p, 0)
			if end < 0 {
				return append(out, "?")
			}
			name, p = "_", p[end+1:]
		} else {
			n := reTSName.FindString(p)
			name, p = n, p[len(n):]
		}
		p = strings.TrimSpace(p)
		optional := strings.HasPrefix(p, "?")
		p = strings.TrimSpace(strings.TrimPrefix(p, "?"))
		var typ string
		if strings.HasPrefix(p, ":") {
			typ = p[1:]
			if k := topIndex(typ, "="); k >= 0 && !strings.HasPrefix(typ[k:], "=>") {
				typ, optional = typ[:k], true
			}
		} else if strings.HasPrefix(p, "=") {
			optional = true
		}
		if name == "this" {
			continue
		}
		d := "?"
		if strings.TrimSpace(typ) != "" {
			d = tsDigest(typ, tparams)
		}
		switch {
		case rest:
			typ = strings.TrimSpace(typ)
			switch {
			case strings.HasPrefix(typ, "[") && matchClose(typ, 0) == len(typ)-1:
				for _, e := range splitTop(typ[1 : len(typ)-1]) {
					if strings.TrimSpace(e) != "" {
						out = append(out, tsDigest(tupleElem(e), tparams))
					}
				}
				continue
			case strings.HasSuffix(typ, "[]"):
				d = tsDigest(typ[:len(typ)-2], tparams)
			case strings.HasPrefix(typ, "Array<") && strings.HasSuffix(typ, ">"):
				d = tsDigest(typ[6:len(typ)-1], tparams)
			default:
				d = "?"
			}
			d = "..." + d
		case optional:
			d = "?" + d
		}
		out = append(out, d)
	}
	return out
}

// tupleElem returns a tuple element's type without its label (name: T).
func tupleElem(e string) string {
	if k := topIndex(e, ":"); k >= 0 {
		if n := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(e[:k]), "?")); reIdent.MatchString(n) {
			return e[k+1:]
		}
	}
	return e
}

// tsCallSignatures returns, as function digests, the call signatures among
// the members of an interface's or object type's body: the members that
// start with ( or with type parameters.
func tsCallSignatures(body string, tparams map[string]string) []string {
	var out []string
	depth := 0
	start := true // at the start of a member
	for i := 0; i < len(body); i++ {
		c := body[i]
		if depth == 0 && start && (c == '(' || c == '<') {
			tp := tparams
			k := i
			if c == '<' {
				end := matchClose(body, k)
				if end < 0 {
					return out
				}
				tp = withTypeParams(tparams, body[k+1:end])
				k = end + 1
				for k < len(body) && (body[k] == ' ' || body[k] == '\t' || body[k] == '\n' || body[k] == '\r') {
					k++
				}
				if k >= len(body) || body[k] != '(' {
					return out
				}
			}
			end := matchClose(body, k)
			if end < 0 {
				return out
			}
			out = append(out, "("+strings.Join(tsParams(body[k+1:end], tp), ",")+")"+returnSuffix(memberType(body[end+1:]), tp))
			i, start = end, false
			continue
		}
		switch c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || body[i-1] != '=' {
				depth--
			}
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case depth != 0:
			start = false
		case c == ';' || c == ',':
			start = true
		case c == '\n':
			// A line break ends a member unless the line ends in an
			// operator that goes on.
			prev := strings.TrimRight(body[:i], " \t\r")
			start = prev == "" || !strings.ContainsAny(prev[len(prev)-1:], ":|&=,(<?") && !strings.HasSuffix(prev, "=>")
		default:
			start = false
		}
	}
	return out
}

var (
	// The head of a TypeScript declaration before its name: export,
	// default, async, function, const, modifiers.
	reTSDeclHead = regexp.MustCompile(`^\s*(?:(?:export|default|declare|async|function\*?|const|let|var|public|private|protected|static|readonly|abstract|override|accessor)\s+)*`)
	reTSDeclName = regexp.MustCompile(`^(?:#?[A-Za-z_$][\w$]*|\[[^\]]*\])\s*[?!]?\s*`)
	// type Name<…> =, interface Name<…> extends … {
	reTSTypeDecl = regexp.MustCompile(`^\s*(?:(?:export|default|declare|abstract)\s+)*(type|interface|class)\s+[A-Za-z_$][\w$]*\s*`)
)

// tsCallable digests a TypeScript declaration (its code from its
// declaration line): a type alias, an interface, a class (not callable), a
// function, a method, a field or variable with a declared type or set to a
// function. classParams are the type parameters of a member's class. ok is
// false for a declaration it does not read (a getter, an overload list).
func tsCallable(kind, code string, classParams map[string]string) (string, bool) {
	if m := reTSTypeDecl.FindStringSubmatch(code); m != nil && kind == "type" {
		rest := code[len(m[0]):]
		tp := classParams
		if strings.HasPrefix(rest, "<") {
			end := matchClose(rest, 0)
			if end < 0 {
				return "?", true
			}
			tp = withTypeParams(tp, rest[1:end])
			rest = strings.TrimSpace(rest[end+1:])
		}
		switch m[1] {
		case "class":
			return "-", true
		case "type":
			if !strings.HasPrefix(rest, "=") {
				return "?", true
			}
			return tsDigest(strings.TrimSuffix(strings.TrimSpace(rest[1:]), ";"), tp), true
		}
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return "?", true
		}
		end := matchClose(rest, open)
		if end < 0 {
			return "?", true
		}
		if sigs := tsCallSignatures(rest[open+1:end], tp); len(sigs) > 0 {
			return joinOverloads(sigs), true
		}
		if strings.Contains(rest[:open], "extends") {
			return "?", true // its bases may be callable
		}
		return "-", true
	}
	if kind == "type" {
		return "", false
	}
	head := reTSDeclHead.FindString(code)
	if strings.Contains(head, "function") && !strings.Contains(head, "function ") && !strings.Contains(head, "function*") {
		head = "" // a name starting with "function"
	}
	rest := code[len(head):]
	if strings.HasPrefix(rest, "get ") || strings.HasPrefix(rest, "set ") {
		return "", false // an accessor: no call of its own
	}
	name := reTSDeclName.FindString(rest)
	if name == "" && !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, "<") {
		return "", false
	}
	rest = rest[len(name):]
	if strings.HasPrefix(rest, ":") { // a declared type: what it says wins
		typ := rest[1:]
		if k := topIndex(typ, "="); k >= 0 && !strings.HasPrefix(typ[k:], "=>") {
			typ = typ[:k]
		} else if k := strings.IndexByte(typ, '\n'); k >= 0 {
			typ = typ[:k]
		}
		return tsDigest(strings.TrimSuffix(strings.TrimSpace(typ), ";"), classParams), true
	}
	if strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=>") {
		rest = strings.TrimSpace(rest[1:])
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "async "))
		if strings.HasPrefix(rest, "function") {
			rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(rest, "function"), "*"))
			rest = rest[len(reTSName.FindString(rest)):]
			rest = strings.TrimSpace(rest)
		} else if n := reTSName.FindString(rest); n != "" && strings.HasPrefix(strings.TrimSpace(rest[len(n):]), "=>") {
			return "(?)", true // x => …: one parameter of no stated type
		}
	}
	typeParams, params, _, ok := splitSignature(rest)
	if !ok {
		return "", false
	}
	tp := classParams
	if typeParams != "" {
		tp = withTypeParams(tp, typeParams)
	}
	ret, rtp := tsReturnType(code)
	for k, v := range tp {
		if _, ok := rtp[k]; !ok {
			if rtp == nil {
				rtp = map[string]string{}
			}
			rtp[k] = v
		}
	}
	return "(" + strings.Join(tsParams(params, tp), ",") + ")" + returnSuffix(ret, rtp), true
}

// splitSignature reads a signature at the start of rest: its type
// parameters' list ("" when it has none), its parameters' list, and what
// follows them; ok is false when rest does not start with one.
func splitSignature(rest string) (typeParams, params, after string, ok bool) {
	if strings.HasPrefix(rest, "<") {
		end := matchClose(rest, 0)
		if end < 0 {
			return "", "", "", false
		}
		typeParams, rest = rest[1:end], strings.TrimSpace(rest[end+1:])
	}
	if !strings.HasPrefix(rest, "(") {
		return "", "", "", false
	}
	end := matchClose(rest, 0)
	if end < 0 {
		return "", "", "", false
	}
	return typeParams, rest[1:end], rest[end+1:], true
}

// tsReturnType returns the declared return type of a function's
// declaration (its code from its declaration line), "" for none.
func tsReturnType(code string) (string, map[string]string) {
	head := reTSDeclHead.FindString(code)
	rest := code[len(head):]
	rest = rest[len(reTSDeclName.FindString(rest)):]
	if strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=>") {
		rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[1:]), "async "))
	}
	typeParams, _, after, ok := splitSignature(rest)
	if !ok {
		return "", nil
	}
	var tp map[string]string
	if typeParams != "" {
		tp = withTypeParams(nil, typeParams)
	}
	rest = strings.TrimSpace(after)
	if !strings.HasPrefix(rest, ":") {
		return "", nil
	}
	rest = rest[1:]
	// The type ends at the body: => or { outside brackets.
	k := topIndex(rest, "=>")
	if b := topIndex(rest, "{"); b >= 0 && (k < 0 || b < k) {
		k = b
	}
	if k < 0 {
		return "", nil
	}
	return rest[:k], tp
}

// ctxOf starts the stand-in for the class of a callback's parameter given
// by the function it is passed to: ctxOf, the callee's name, the argument's
// index, the call's argument count, the parameter's index, and the
// callee's receiver ("" for a function; a class, Class ctxField field for
// this.field.m(…), or another stand-in), separated by ctxSep.
const ctxOf = "\x04"

// ctxTypeOf starts the stand-in for the class of a parameter of a callback
// whose type is declared where it is written (const h: Handler = (c) => …,
// return (c) => … in a function declared to return a Handler): ctxTypeOf,
// the parameter's index, ctxSep, the type's digest.
const ctxTypeOf = "\x08"

const (
	ctxSep   = "\x05"
	ctxField = "\x06"
)

// chainOf starts the stand-in for what a call returns, as the receiver of
// a method a callback is passed to (app.get(…).post('/', (c) => …)):
// chainOf, the callee's name, the call's argument count and the callee's
// receiver (as ctxOf has them), separated by ctxSep. It resolves to the
// class every overload taking as many arguments says it returns.
const chainOf = "\x0c"

// guardOf starts the stand-in for the class of a variable narrowed by a
// type guard (if (isMap(x)) …): guardOf and the guard function's name.
const guardOf = "\x0b"

// isCtx reports whether a receiver is a stand-in for what the compiler's
// types say: a callback's parameter, a variable a type guard narrows.
func isCtx(recv string) bool {
	return strings.HasPrefix(recv, ctxOf) || strings.HasPrefix(recv, ctxTypeOf) || strings.HasPrefix(recv, guardOf)
}

// callableOf returns the digest of symbol i's declaration, if its file
// has one.
func (d *derived) callableOf(i int32) (string, bool) {
	c, ok := d.callable(i)
	return c.Type, ok
}

// callable returns symbol i's Callable, if its file has one.
func (d *derived) callable(i int32) (Callable, bool) {
	s := d.syms[i]
	k, ok := slices.BinarySearchFunc(s.f.Callables, s.i, func(c Callable, t int32) int { return int(c.Sym - t) })
	if !ok {
		return Callable{}, false
	}
	return s.f.Callables[k], true
}

// fnAlt is a function type a digest comes to, with the file whose names
// its parameters' digests are.
type fnAlt struct {
	f      *FileFacts
	params []string
	ret    string // the class it returns, "" when its declaration names none
}

// funcAlts adds to out the function types a digest's alternatives come
// to, named types looked up from file f (a type alias followed, an
// interface's call signatures taken). ok is false when an alternative
// cannot be followed: a "?", a name the project does not declare. single
// is for the type a callback is written for: the compiler gives its
// parameters no type from a type with overloads (more than one call
// signature), only from one function type or a union of them.
func (d *derived) funcAlts(f *FileFacts, digest string, single bool, depth int, out *[]fnAlt) bool {
	if depth > maxBaseDepth {
		return false
	}
	sep := byte('|')
	if topIndex(digest, "&") >= 0 {
		sep = '&'
	}
	var got []fnAlt
	for _, alt := range splitTopAt(digest, sep) {
		switch {
		case alt == "-":
		case alt == "" || alt == "?" || alt[0] == '?' || strings.HasPrefix(alt, "..."):
			return false
		case alt[0] == '(':
			end := parenClose(alt)
			if end < 0 {
				return false
			}
			var params []string
			if inner := alt[1:end]; inner != "" {
				params = splitTop(inner)
			}
			got = append(got, fnAlt{f, params, strings.TrimPrefix(alt[end+1:], ":")})
		default:
			c, ok := d.class(f, alt)
			if !ok {
				return false
			}
			t, ok := d.callableOf(c)
			if !ok || !d.funcAlts(d.syms[c].f, t, single, depth+1, &got) {
				return false
			}
		}
	}
	if sep == '&' && single && len(got) > 1 {
		return false
	}
	*out = append(*out, got...)
	return true
}

// paramFlags splits a parameter's digest into its flag ("?", "...", "")
// and its type's digest.
func paramFlags(p string) (string, string) {
	switch {
	case strings.HasPrefix(p, "..."):
		return "...", p[3:]
	case len(p) > 1 && p[0] == '?':
		return "?", p[1:]
	}
	return "", p
}

// paramAt returns the digest of the parameter an argument at index k
// goes to (a rest parameter's element for one past it).
func paramAt(params []string, k int) (string, bool) {
	for i, p := range params {
		flag, t := paramFlags(p)
		if flag == "..." && i <= k {
			return t, true
		}
		if i == k {
			return t, true
		}
	}
	return "", false
}

// takes reports whether a function of these parameters can be called with
// n arguments.
func takes(params []string, n int) bool {
	required := 0
	for _, p := range params {
		switch flag, _ := paramFlags(p); flag {
		case "...":
			return n >= required
		case "":
			required++
		}
	}
	return n >= required && n <= len(params)
}

// ctxClass returns the class of a callback's parameter that a stand-in
// (ctxOf, ctxTypeOf) stands for, and the file to look it up from: the
// class every function type the callback may be (each overload of the
// callee that takes as many arguments, each member of a union) gives that
// parameter. When they disagree, or one cannot be followed, there is none.
func (d *derived) ctxClass(f *FileFacts, standIn string, depth int) (*FileFacts, string, bool) {
	if depth > maxResultDepth {
		return nil, "", false
	}
	if fn, ok := strings.CutPrefix(standIn, guardOf); ok {
		i, ok := d.resolveImported(f, Ref{Name: fn, Loose: true})
		if !ok {
			return nil, "", false
		}
		g, ok := d.callable(i)
		if !ok || g.Guard == "" {
			return nil, "", false
		}
		c, ok := d.class(d.syms[i].f, g.Guard)
		if !ok {
			return nil, "", false
		}
		return d.syms[c].f, d.syms[c].def().Name, true
	}
	var alts []fnAlt
	var j int
	if rest, ok := strings.CutPrefix(standIn, ctxTypeOf); ok {
		js, digest, _ := strings.Cut(rest, ctxSep)
		j = atoi(js)
		if !d.funcAlts(f, digest, true, 0, &alts) {
			return nil, "", false
		}
	} else {
		parts := strings.SplitN(strings.TrimPrefix(standIn, ctxOf), ctxSep, 5)
		if len(parts) != 5 {
			return nil, "", false
		}
		name, k, n, recv := parts[0], atoi(parts[1]), atoi(parts[2]), parts[4]
		j = atoi(parts[3])
		callee, ok := d.callee(f, name, recv, depth)
		if !ok {
			return nil, "", false
		}
		digest, ok := d.callableOf(callee)
		if !ok {
			return nil, "", false
		}
		var fns []fnAlt
		if !d.funcAlts(d.syms[callee].f, digest, false, 0, &fns) {
			return nil, "", false
		}
		for _, fn := range fns {
			if !takes(fn.params, n) {
				continue // an overload the call does not match
			}
			p, ok := paramAt(fn.params, k)
			if !ok || !d.funcAlts(fn.f, p, true, 0, &alts) {
				return nil, "", false
			}
		}
	}
	found := int32(-1)
	for _, a := range alts {
		p, ok := paramAt(a.params, j)
		if !ok || p == "" || strings.ContainsAny(p, "|()?-") {
			return nil, "", false
		}
		c, ok := d.class(a.f, p)
		for hops := 0; ok && hops < 4; hops++ { // type Ctx = Context<…>
			t, has := d.callableOf(c)
			if !has || !reIdent.MatchString(t) || !d.isTypeAlias(c) {
				break
			}
			c, ok = d.class(d.syms[c].f, t)
		}
		if !ok || found >= 0 && c != found {
			return nil, "", false
		}
		found = c
	}
	if found < 0 {
		return nil, "", false
	}
	return d.syms[found].f, d.syms[found].def().Name, true
}

// isTypeAlias reports whether type symbol c is a TypeScript type alias.
func (d *derived) isTypeAlias(c int32) bool {
	s := d.syms[c]
	if int(s.i) >= len(s.f.Signatures) {
		return false
	}
	sig := s.f.Signatures[s.i]
	return strings.HasPrefix(sig, "type ") || strings.Contains(sig, " type ")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// recvClass returns the class a receiver stands for, and the file to look
// it up from: a class's name, a stand-in for a callback's parameter, a
// function's result, or Class ctxField field.
func (d *derived) recvClass(f *FileFacts, recv string, depth int) (*FileFacts, string, bool) {
	switch {
	case recv == "":
		return nil, "", false
	case strings.HasPrefix(recv, chainOf):
		return d.chainClass(f, recv, depth+1)
	case isCtx(recv):
		return d.ctxClass(f, recv, depth+1)
	case strings.HasPrefix(recv, resultOf):
		t, ok := d.classReturnedBy(f, recv)
		return f, t, ok
	}
	if class, field, ok := strings.Cut(recv, ctxField); ok {
		t, ok := d.fieldClass(f, class, field)
		if ok && strings.HasPrefix(t, resultOf) {
			t, ok = d.classReturnedBy(f, t)
		}
		return f, t, ok && !isCtx(t)
	}
	return f, recv, true
}

// callee returns the function or member a callback is passed to: the
// function name as file f sees it (imported or its own), or the member
// name of the receiver's class or of its nearest base that has one.
func (d *derived) callee(f *FileFacts, name, recv string, depth int) (int32, bool) {
	if recv == "" {
		return d.resolveImported(f, Ref{Name: name, Loose: true})
	}
	fc, class, ok := d.recvClass(f, recv, depth)
	if !ok {
		return 0, false
	}
	return d.member(fc, class, name, 0)
}

// member returns the member (method, field) name of class as seen from
// file f, or of its nearest base that has one.
func (d *derived) member(f *FileFacts, class, name string, depth int) (int32, bool) {
	c, ok := d.class(f, class)
	if !ok || depth >= maxBaseDepth {
		return 0, false
	}
	cs := d.syms[c]
	own := cs.def().Name
	base := d.byFile[cs.f.Path]
	found := int32(-1)
	for k := range cs.f.Symbols {
		if s := &cs.f.Symbols[k]; s.Recv == own && s.Name == name && s.Kind != "type" {
			if found >= 0 {
				return 0, false
			}
			found = base + int32(k)
		}
	}
	if found >= 0 {
		return found, true
	}
	for _, r := range cs.f.Calls {
		if r.Embeds && r.From == cs.i {
			if i, ok := d.member(cs.f, r.Name, name, depth+1); ok {
				return i, true
			}
		}
	}
	return 0, false
}

// parenClose returns the index of the parenthesis closing a digest's
// first, -1 for none.
func parenClose(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// returnSuffix returns ":" and the class a return type names (its digest
// a single name), "" for any other.
func returnSuffix(ret string, tparams map[string]string) string {
	if strings.TrimSpace(ret) == "" {
		return ""
	}
	d := tsDigest(ret, tparams)
	if !reIdent.MatchString(d) {
		return ""
	}
	return ":" + d
}

// memberType returns the type annotation (after ":") that starts code,
// up to the end of the member it belongs to: a semicolon or a comma
// outside brackets, or a line break after which the type does not go on.
func memberType(code string) string {
	code = strings.TrimLeft(code, " \t\r\n")
	if !strings.HasPrefix(code, ":") {
		return ""
	}
	code = code[1:]
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || code[i-1] != '=' {
				depth--
			}
		case ';', ',':
			if depth == 0 {
				return code[:i]
			}
		case '\n':
			if depth != 0 {
				continue
			}
			prev := strings.TrimRight(code[:i], " \t\r")
			next := strings.TrimLeft(code[i:], " \t\r\n")
			if prev != "" && !strings.ContainsAny(prev[len(prev)-1:], ":|&=,(<?") && !strings.HasSuffix(prev, "=>") &&
				(next == "" || !strings.ContainsAny(next[:1], "|&.?:")) {
				return code[:i]
			}
		}
		if depth < 0 {
			return code[:i]
		}
	}
	return code
}

// chainClass returns the class a call a stand-in (chainOf) stands for
// returns, and the file to look it up from: the one every overload of the
// callee that takes as many arguments says it returns.
func (d *derived) chainClass(f *FileFacts, standIn string, depth int) (*FileFacts, string, bool) {
	if depth > maxResultDepth {
		return nil, "", false
	}
	parts := strings.SplitN(strings.TrimPrefix(standIn, chainOf), ctxSep, 3)
	if len(parts) != 3 {
		return nil, "", false
	}
	name, n, recv := parts[0], atoi(parts[1]), parts[2]
	callee, ok := d.callee(f, name, recv, depth)
	if !ok {
		return nil, "", false
	}
	digest, ok := d.callableOf(callee)
	if !ok {
		return nil, "", false
	}
	var fns []fnAlt
	if !d.funcAlts(d.syms[callee].f, digest, false, 0, &fns) {
		return nil, "", false
	}
	found := int32(-1)
	for _, fn := range fns {
		if !takes(fn.params, n) {
			continue
		}
		if fn.ret == "" {
			return nil, "", false
		}
		c, ok := d.class(fn.f, fn.ret)
		if !ok || found >= 0 && c != found {
			return nil, "", false
		}
		found = c
	}
	if found < 0 {
		return nil, "", false
	}
	return d.syms[found].f, d.syms[found].def().Name, true
}
