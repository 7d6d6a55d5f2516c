package codegraph

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// cbScope is a callback's (or nested function's) parameters over the part
// of a body it spans: the class or stand-in of each, "" for one of no
// known class (it hides a variable of its name outside).
type cbScope struct {
	start, end int
	params     map[string]string
}

// scopedLocals looks a variable up at an offset of a body: the innermost
// callback's parameter of that name holding the offset, else the body's
// local or parameter.
type scopedLocals struct {
	locals map[string]string
	scopes []cbScope // by start
	// decls are a TypeScript or JavaScript body's declarations of
	// locals, by name, each over the block holding it: a test file's
	// blocks each declare their own const app = new Hono().
	decls map[string][]cbScope
}

func (l *scopedLocals) at(name string, off int) string {
	best, val, found := -1, "", false
	for i := len(l.scopes) - 1; i >= 0; i-- {
		if sc := l.scopes[i]; sc.start <= off && off < sc.end {
			if v, ok := sc.params[name]; ok {
				best, val, found = sc.start, v, true
				break
			}
		}
	}
	for _, dc := range l.decls[name] {
		if dc.start <= off && off < dc.end && dc.start > best {
			best, val, found = dc.start, dc.params[name], true
		}
	}
	if found {
		return val
	}
	return l.locals[name]
}

// tsLocalDecls returns the declarations of a body's locals whose class
// the code states (const x = new Foo(), let x: Foo = …, const x =
// connect()), each over the block that holds it; one block declaring a
// name twice with two classes gives it none.
func tsLocalDecls(body, recv string) map[string][]cbScope {
	type decl struct {
		at          int
		name, class string
	}
	var ds []decl
	for _, m := range reTSLocal.FindAllStringSubmatchIndex(body, -1) {
		name, class := body[m[2]:m[3]], ""
		switch {
		case m[4] >= 0:
			class = body[m[4]:m[5]]
		case m[6] >= 0:
			class = body[m[6]:m[7]]
		case m[8] >= 0:
			class = resultOf + body[m[8]:m[9]]
		}
		if class != "" && !unicode.IsUpper(rune(class[0])) && !strings.HasPrefix(class, resultOf) {
			class = ""
		}
		ds = append(ds, decl{m[0], name, class})
	}
	for _, m := range reTSLetTyped.FindAllStringSubmatchIndex(body, -1) {
		if class := body[m[4]:m[5]]; unicode.IsUpper(rune(class[0])) {
			ds = append(ds, decl{m[0], body[m[2]:m[3]], class}) // let r: Reaction
		}
	}
	if recv != "" {
		for _, m := range reTSMapGetLocal.FindAllStringSubmatchIndex(body, -1) {
			// const entry = this.byKey.get(k): a value of byKey's map.
			field := strings.TrimPrefix(body[m[4]:m[5]], "#")
			ds = append(ds, decl{m[0], body[m[2]:m[3]], recv + fieldOf + field + mapValue})
		}
	}
	if len(ds) == 0 {
		return nil
	}
	slices.SortStableFunc(ds, func(a, b decl) int { return a.at - b.at })
	// One declaration an offset: const e = this.byKey.get(k) is read by
	// two patterns, one of which knows its class.
	kept := ds[:0]
	for _, d := range ds {
		if n := len(kept); n > 0 && kept[n-1].at == d.at {
			if kept[n-1].class == "" {
				kept[n-1] = d
			}
			continue
		}
		kept = append(kept, d)
	}
	ds = kept
	out := map[string][]cbScope{}
	var stack []int // offsets of the braces open at i
	k := 0
	for i := 0; i <= len(body) && k < len(ds); i++ {
		for k < len(ds) && ds[k].at == i {
			name, class := ds[k].name, ds[k].class
			k++
			start, end := 0, len(body)
			if len(stack) > 0 {
				start = stack[len(stack)-1]
				if e := codeClose(body, start); e >= 0 {
					end = e
				}
			}
			prev := out[name]
			if n := len(prev); n > 0 && prev[n-1].start == start {
				if prev[n-1].params[name] != class {
					prev[n-1].params[name] = ""
				}
				continue
			}
			out[name] = append(prev, cbScope{start: start, end: end, params: map[string]string{name: class}})
		}
		if i == len(body) {
			break
		}
		switch body[i] {
		case '{':
			stack = append(stack, i)
		case '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return out
}

// codeClose returns the index of the bracket closing the one at s[i],
// counting only ( [ {, as code (not types) has them; -1 for none.
func codeClose(s string, i int) int {
	depth := 0
	for k := i; k < len(s); k++ {
		switch s[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// codeOpen returns the index of the bracket opening the one closing at
// s[i], -1 for none.
func codeOpen(s string, i int) int {
	depth := 0
	for k := i; k >= 0; k-- {
		switch s[k] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipBack returns the index of the last byte before i that is no space,
// -1 for none.
func skipBack(s string, i int) int {
	for i--; i >= 0 && isSpace(s[i]); i-- {
	}
	return i
}

var (
	reTSFunctionExpr = regexp.MustCompile(`\bfunction\b\s*\*?\s*([A-Za-z_$]?[\w$]*)\s*(?:<[^<>(){}]*>\s*)?\(`)
	// The callee before an argument list: name, x.name, this.name,
	// this.field.name, with optional chaining.
	reTSCallee = regexp.MustCompile(`(?:(?:([A-Za-z_$][\w$]*)\s*\??\.\s*)?([A-Za-z_$][\w$]*)\s*\??\.\s*)?([A-Za-z_$][\w$]*)\s*(?:\?\.\s*)?$`)
	// const name: Type = …, before a callback.
	reTSTypedDecl = regexp.MustCompile(`\b(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*:\s*([^=;]+?)\s*$`)
)

// tsCallbacks finds the callbacks (arrow functions, function expressions)
// and nested functions of a body and what their parameters are known to
// be: a type annotation's class, else a stand-in for the type where the
// callback is written gives it — an argument of a call (ctxOf), the
// initialiser of a variable declared with a type, or a value the
// function returns when its declaration states what it returns (ctxTypeOf
// with ret, the return type's digest). recv is the class of this.
func tsCallbacks(body, self, recv, ret string, l *scopedLocals) {
	type cb struct {
		start, paramsFrom, paramsTo, end int
		single                           bool
	}
	var cbs []cb
	// Arrow functions: (params) => and name =>.
	for off := 0; ; {
		k := strings.Index(body[off:], "=>")
		if k < 0 {
			break
		}
		arrow := off + k
		off = arrow + 2
		p := skipBack(body, arrow)
		if p < 0 {
			continue
		}
		var c cb
		switch {
		case body[p] == ')':
			open := codeOpen(body, p)
			if open < 0 {
				continue
			}
			c = cb{start: open, paramsFrom: open + 1, paramsTo: p}
		case isWordByte(body[p]):
			q := p
			for q > 0 && isWordByte(body[q-1]) {
				q--
			}
			if q > 0 && body[q-1] == '.' {
				continue
			}
			c = cb{start: q, paramsFrom: q, paramsTo: p + 1, single: true}
			if b := skipBack(body, q); b >= 0 && body[b] == ':' {
				// A return type, (c): Response => …: the parameters are
				// in the parentheses before it.
				r := skipBack(body, b)
				if r < 0 || body[r] != ')' {
					continue
				}
				open := codeOpen(body, r)
				if open < 0 {
					continue
				}
				c = cb{start: open, paramsFrom: open + 1, paramsTo: r}
			}
		default:
			continue // a return type's annotation: (c): R =>
		}
		if b := skipBack(body, c.start); b >= 4 && body[b-4:b+1] == "async" && (b == 4 || !isWordByte(body[b-5])) {
			c.start = b - 4
		}
		e := arrow + 2
		for e < len(body) && isSpace(body[e]) {
			e++
		}
		if e < len(body) && body[e] == '{' {
			if c.end = codeClose(body, e); c.end < 0 {
				c.end = len(body)
			}
		} else {
			c.end = exprEnd(body, e)
		}
		cbs = append(cbs, c)
	}
	// Function expressions and nested declarations.
	for _, m := range reTSFunctionExpr.FindAllStringSubmatchIndex(body, -1) {
		if body[m[2]:m[3]] == self && !isExprStart(tailOf(body, m[0])) {
			// An overload's declaration, or the implementation after
			// them: the symbol's own, not a function of its body.
			continue
		}
		open := m[1] - 1
		closeP := codeClose(body, open)
		if closeP < 0 {
			continue
		}
		c := cb{start: m[0], paramsFrom: open + 1, paramsTo: closeP}
		if b := skipBack(body, c.start); b >= 4 && body[b-4:b+1] == "async" && (b == 4 || !isWordByte(body[b-5])) {
			c.start = b - 4
		}
		brace := strings.IndexByte(body[closeP:], '{')
		if brace < 0 || strings.Contains(body[closeP:closeP+brace], "function") || strings.Contains(body[closeP:closeP+brace], ";") {
			continue // a declaration without a body
		}
		if c.end = codeClose(body, closeP+brace); c.end < 0 {
			c.end = len(body)
		}
		cbs = append(cbs, c)
	}
	// In order of their start, so that a callback's own callee is looked
	// up with the scopes holding it already known.
	for i := 1; i < len(cbs); i++ {
		for k := i; k > 0 && cbs[k].start < cbs[k-1].start; k-- {
			cbs[k], cbs[k-1] = cbs[k-1], cbs[k]
		}
	}
	for _, c := range cbs {
		slot, callee := tsCallSlot(body, c.start, recv, l)
		typed := ""
		if slot == "" {
			typed = tsTypedSlot(body, c.start, ret, l)
		}
		params := map[string]string{}
		list := body[c.paramsFrom:c.paramsTo]
		var ps []string
		if c.single {
			ps = []string{list}
		} else {
			ps = splitTop(list)
		}
		for j, p := range ps {
			p = strings.TrimSpace(p)
			name := reTSName.FindString(strings.TrimPrefix(p, "..."))
			if name == "" || strings.Contains(name, ".") {
				continue
			}
			params[name] = ""
			rest := strings.TrimSpace(p[strings.Index(p, name)+len(name):])
			rest = strings.TrimSpace(strings.TrimPrefix(rest, "?"))
			switch {
			case strings.HasPrefix(rest, ":"):
				// (c: Context) => …: the annotation says.
				if t := paramClasses("typescript", "("+p+")")[name]; t != "" {
					params[name] = t
				}
			case strings.HasPrefix(p, "..."):
			case slot != "":
				params[name] = slot + strconv.Itoa(j) + ctxSep + callee
			case typed != "":
				params[name] = ctxTypeOf + strconv.Itoa(j) + ctxSep + typed
			}
		}
		l.scopes = append(l.scopes, cbScope{start: c.start, end: c.end, params: params})
	}
}

// exprEnd returns where an arrow function's expression body that starts
// at i ends: at a comma, a semicolon or a closing bracket outside brackets.
func exprEnd(s string, i int) int {
	depth := 0
	for k := i; k < len(s); k++ {
		switch s[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return k
			}
			depth--
		case ',', ';':
			if depth == 0 {
				return k
			}
		}
	}
	return len(s)
}

// tsCallSlot returns the start of the stand-in (ctxOf) for the parameters
// of a callback starting at start when it is an argument of a call whose
// callee the code names — f(…), x.m(…), this.m(…), this.field.m(…) — up
// to the parameter's index, which the caller appends followed by ctxSep
// and the callee's receiver, returned apart. "" when it is not, or the
// receiver is unknown.
func tsCallSlot(body string, start int, recv string, l *scopedLocals) (string, string) {
	p := skipBack(body, start)
	if p < 0 || body[p] != '(' && body[p] != ',' {
		return "", ""
	}
	// The argument list holding the callback, and its index there.
	k, open := 0, -1
	for i := p; i >= 0 && open < 0; i-- {
		switch body[i] {
		case ',':
			k++
		case ')', ']', '}':
			if i = codeOpen(body, i); i < 0 {
				return "", ""
			}
		case '(':
			open = i
		case '[', '{':
			return "", "" // an array's or object's element
		}
	}
	if open < 0 {
		return "", ""
	}
	closeP := codeClose(body, open)
	if closeP < 0 {
		return "", ""
	}
	n := 0
	if args := strings.TrimSpace(body[open+1 : closeP]); args != "" {
		n = len(splitTopCode(strings.TrimSuffix(args, ",")))
	}
	name, callee, ok := tsCallee(chainTailOf(body, open), max(0, open-chainWindow), recv, l, 0)
	if !ok {
		return "", ""
	}
	return ctxOf + name + ctxSep + strconv.Itoa(k) + ctxSep + strconv.Itoa(n) + ctxSep, callee
}

// tsCallee returns the name of the function or method a call's argument
// list follows (head is the code up to its parenthesis) and its receiver:
// "" for a function, the class of this or of a local, this's class and a
// field (Class ctxField field), or for a method called on what another
// call returns (new Hono().get(…), app.get(…).post(…)) that class or a
// stand-in for the call (chainOf).
func tsCallee(head string, base int, recv string, l *scopedLocals, depth int) (string, string, bool) {
	// The pattern reads the last bytes only: it backtracks, and the
	// callee's name and receiver are short.
	off := max(0, len(head)-256)
	m := reTSCallee.FindStringSubmatchIndex(head[off:])
	if m == nil || depth > maxResultDepth {
		return "", "", false
	}
	for i := range m {
		if m[i] >= 0 {
			m[i] += off
		}
	}
	name := head[m[6]:m[7]]
	before := strings.TrimRight(head[:m[0]], " \t\n\r")
	if notCalls[name] || strings.HasSuffix(before, "new") || strings.HasSuffix(before, "function") {
		return "", "", false // a keyword's parenthesis, new Foo(…)
	}
	var callee string
	switch {
	case m[4] < 0 && strings.HasSuffix(before, "."): // f(…).m(…)
		expr := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(before, "."), "?"), " \t\n\r")
		if !strings.HasSuffix(expr, ")") {
			return "", "", false
		}
		open := codeOpen(expr, len(expr)-1)
		if open < 0 {
			return "", "", false
		}
		inner := expr[:open]
		if nm := reNewTail.FindStringSubmatch(inner); nm != nil {
			if !unicode.IsUpper(rune(nm[1][0])) {
				return "", "", false
			}
			return name, nm[1], true // new Hono().get(…)
		}
		n := 0
		if args := strings.TrimSpace(expr[open+1 : len(expr)-1]); args != "" {
			n = len(splitTopCode(strings.TrimSuffix(args, ",")))
		}
		name2, recv2, ok := tsCallee(inner, base, recv, l, depth+1)
		if !ok {
			return "", "", false
		}
		callee = chainOf + name2 + ctxSep + strconv.Itoa(n) + ctxSep + recv2
	case m[4] < 0: // f(…)
	case strings.HasSuffix(before, "."):
		return "", "", false // a longer chain: a.b.c.m(…)
	case m[2] < 0: // x.m(…), this.m(…)
		x := head[m[4]:m[5]]
		if x == "this" {
			callee = recv
		} else {
			callee = l.at(x, base+m[4])
		}
		if callee == "" || !isCtx(callee) && !strings.HasPrefix(callee, resultOf) && !unicode.IsUpper(rune(callee[0])) {
			return "", "", false
		}
	default: // this.field.m(…)
		if head[m[2]:m[3]] != "this" || recv == "" {
			return "", "", false
		}
		callee = recv + ctxField + head[m[4]:m[5]]
	}
	if strings.Contains(callee, fieldOf) {
		return "", "", false
	}
	return name, callee, true
}

// splitTopCode splits code at its commas outside ( [ {.
func splitTopCode(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// tsTypedSlot returns the digest of the type a callback starting at start
// is written for when the code declares it: const h: Handler = (c) => …,
// or return (c) => … at the top of a function declared to return one (ret).
func tsTypedSlot(body string, start int, ret string, l *scopedLocals) string {
	p := skipBack(body, start)
	if p < 0 {
		return ""
	}
	if body[p] == '=' && p > 0 && !strings.ContainsRune("=!<>", rune(body[p-1])) {
		line := body[:p]
		if k := strings.LastIndexAny(line, "\n;{"); k >= 0 {
			line = line[k+1:]
		}
		if m := reTSTypedDecl.FindStringSubmatch(line); m != nil {
			if d := tsDigest(m[1], nil); d != "-" && d != "?" {
				return d
			}
		}
		return ""
	}
	if ret == "" || p < 5 || body[p-5:p+1] != "return" || p > 5 && isWordByte(body[p-6]) {
		return ""
	}
	for _, sc := range l.scopes {
		if sc.start <= start && start < sc.end {
			return "" // a nested function's return
		}
	}
	return ret
}

// tsOwnParams returns the parameters of a function declared as a variable
// or field with a type (const h: Handler = (c) => …, fetch: Fetch =
// function (req) {…}) that state no type of their own: each one's
// stand-in for what the declared type gives it (ctxTypeOf).
func tsOwnParams(code string) map[string]string {
	head := reTSDeclHead.FindString(code)
	rest := code[len(head):]
	name := reTSDeclName.FindString(rest)
	if name == "" {
		return nil
	}
	rest = rest[len(name):]
	if !strings.HasPrefix(rest, ":") {
		return nil
	}
	k := topIndex(rest, "=")
	for k >= 0 && strings.HasPrefix(rest[k:], "=>") {
		next := topIndex(rest[k+2:], "=")
		if next < 0 {
			return nil
		}
		k += 2 + next
	}
	if k < 0 {
		return nil
	}
	digest := tsDigest(rest[1:k], nil)
	if digest == "-" || digest == "?" {
		return nil
	}
	init := strings.TrimSpace(rest[k+1:])
	init = strings.TrimSpace(strings.TrimPrefix(init, "async "))
	if strings.HasPrefix(init, "function") {
		init = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(init, "function"), "*"))
		init = strings.TrimSpace(init[len(reTSName.FindString(init)):])
	}
	var ps []string
	if strings.HasPrefix(init, "(") {
		end := codeClose(init, 0)
		if end < 0 {
			return nil
		}
		ps = splitTop(init[1:end])
	} else if n := reTSName.FindString(init); n != "" && strings.HasPrefix(strings.TrimSpace(init[len(n):]), "=>") {
		ps = []string{n}
	}
	out := map[string]string{}
	for j, p := range ps {
		p = strings.TrimSpace(p)
		n := reTSName.FindString(p)
		if n == "" || strings.Contains(n, ".") || strings.Contains(p, ":") {
			continue
		}
		out[n] = ctxTypeOf + strconv.Itoa(j) + ctxSep + digest
	}
	return out
}

// tsReturnDigest returns the digest of the type a function's declaration
// says it returns, "" when it states none the digest can follow.
func tsReturnDigest(code string) string {
	t, tp := tsReturnType(code)
	if strings.TrimSpace(t) == "" {
		return ""
	}
	d := tsDigest(t, tp)
	if d == "-" || d == "?" || strings.Contains(d, "?") && !strings.Contains(d, "(") {
		return ""
	}
	return d
}

// tsContext is what a TypeScript symbol's declaration tells its body's
// callbacks: its own parameters' stand-ins when a declared type gives
// them (tsOwnParams), the digest of the type it returns; and how many call
// sites to read.
type tsContext struct {
	own   map[string]string
	ret   string
	limit int // the call sites read at most, 500 when 0
}

// tsDeclTypeParams returns the digests of a class's or interface's type
// parameters, from its declaration.
func tsDeclTypeParams(code string) map[string]string {
	m := reTSTypeDecl.FindString(code)
	if m == "" || !strings.HasPrefix(code[len(m):], "<") {
		return nil
	}
	rest := code[len(m):]
	end := matchClose(rest, 0)
	if end < 0 {
		return nil
	}
	return withTypeParams(nil, rest[1:end])
}

// tsBalanced returns decl, a declaration's first lines, when its brackets
// are closed; else full, the code from the same line on, cut after the
// bracket that closes them.
func tsBalanced(decl, full string) string {
	depth := 0
	for i := 0; i < len(decl); i++ {
		switch decl[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	if depth <= 0 {
		return decl
	}
	depth = 0
	for i := 0; i < len(full); i++ {
		switch full[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 && i >= len(decl) {
				return full[:i+1]
			}
		}
	}
	return decl
}

// isExprStart reports whether code before a function keyword leaves it
// an expression (return function f(…), (function f(…)), = function f(…)),
// not a declaration of its own.
func isExprStart(code string) bool {
	code = strings.TrimRight(code, " \t\n\r")
	code = strings.TrimRight(strings.TrimSuffix(code, "async"), " \t\n\r")
	if strings.HasSuffix(code, "return") {
		return true
	}
	return code != "" && strings.ContainsRune("(,=:?", rune(code[len(code)-1]))
}

// mapValue follows a field's name for the class of the values of the
// Map it is declared to be (byKey: Map<string, Entry>): what its get(k)
// returns.
const mapValue = "\x0aget"

var (
	// A type predicate: "): x is Foo", ") => x is Foo".
	reTSGuard = regexp.MustCompile(`\)\s*(?::|=>)\s*[A-Za-z_$][\w$]*\s+is\s+([A-Za-z_$][\w$.]*)`)
	// if (isFoo(x)), else if (isFoo(x)).
	reTSIfGuard = regexp.MustCompile(`\bif\s*\(\s*([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*)\s*\)\s*\)`)
	// let x: Foo, declared without a value.
	reTSLetTyped = regexp.MustCompile(`\b(?:let|var)\s+([A-Za-z_$][\w$]*)\s*:\s*([A-Za-z_$][\w$]*)[^=;\n]*(?:;|\n|$)`)
	// const x = this.byKey.get(k).
	reTSMapGetLocal = regexp.MustCompile(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*this\s*\.\s*(#?[A-Za-z_$][\w$]*)\s*\.\s*get\s*\([^()]*\)`)
	// this.byKey.get(k)?. before a method's name.
	reTSMapGetTail = regexp.MustCompile(`\bthis\s*\.\s*(#?[A-Za-z_$][\w$]*)\s*\.\s*get\s*\([^()]*\)\s*(?:\?\.|!\s*\.|\.)\s*$`)
	// The type a cast gives: "x as Foo<T>" (the last as), "<Foo>x".
	reTSAsTail    = regexp.MustCompile(`\bas\s+([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*$`)
	reTSAngleCast = regexp.MustCompile(`^\s*<\s*([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*>`)
)

// tsGuard returns the class a type guard's declaration (its code) says it
// narrows its argument to, "" for a function that is none: the first type
// predicate, in the declaration's first lines.
func tsGuard(decl string) string {
	head := decl
	if len(head) > 400 {
		head = head[:400]
	}
	m := reTSGuard.FindStringSubmatch(head)
	if m == nil {
		return ""
	}
	t := m[1][strings.LastIndexByte(m[1], '.')+1:]
	if !unicode.IsUpper(rune(t[0])) {
		return ""
	}
	return t
}

// tsGuards adds to l the variables a type guard narrows over the branch
// it guards: if (isMap(x)) { … } gives x, there, the stand-in guardOf.
func tsGuards(body string, l *scopedLocals) {
	for _, m := range reTSIfGuard.FindAllStringSubmatchIndex(body, -1) {
		fn, x := body[m[2]:m[3]], body[m[4]:m[5]]
		if notCalls[fn] || x == "this" {
			continue
		}
		start := m[1]
		for start < len(body) && isSpace(body[start]) {
			start++
		}
		end := len(body)
		if start < len(body) && body[start] == '{' {
			if e := codeClose(body, start); e >= 0 {
				end = e
			}
		} else if e := strings.IndexAny(body[start:], ";\n"); e >= 0 {
			end = start + e
		}
		if l.decls == nil {
			l.decls = map[string][]cbScope{}
		}
		l.decls[x] = append(l.decls[x], cbScope{start: start, end: end, params: map[string]string{x: guardOf + fn}})
	}
}

// castBefore returns the class a cast right before a method's name gives
// its receiver: (x as Foo).m(), (<Foo>x).m().
func castBefore(code string) (string, bool) {
	before := strings.TrimRight(code, " \t\n")
	if !strings.HasSuffix(before, ".") {
		return "", false
	}
	before = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(before, "."), "?"), " \t\n")
	before = strings.TrimRight(strings.TrimSuffix(before, "!"), " \t\n")
	if !strings.HasSuffix(before, ")") {
		return "", false
	}
	open := codeOpen(before, len(before)-1)
	if open < 0 {
		return "", false
	}
	if p := skipBack(before, open); p >= 0 && (isWordByte(before[p]) || before[p] == ')' || before[p] == ']' || before[p] == '>') {
		q := p
		for q > 0 && isWordByte(before[q-1]) {
			q--
		}
		if w := before[q : p+1]; !isWordByte(before[p]) || !tsExprKeywords[w] {
			return "", false // a call's parentheses: f(x as Foo).m()
		}
	}
	inner := before[open+1 : len(before)-1]
	var t string
	if m := reTSAsTail.FindStringSubmatch(inner); m != nil {
		t = m[1]
	} else if m := reTSAngleCast.FindStringSubmatch(inner); m != nil {
		t = m[1]
	}
	if t == "" || !unicode.IsUpper(rune(t[0])) {
		return "", false
	}
	return t, true
}

// tsExprKeywords are the keywords an expression in parentheses may follow.
var tsExprKeywords = map[string]bool{"return": true, "typeof": true, "await": true, "void": true, "yield": true,
	"case": true, "in": true, "of": true, "delete": true, "throw": true, "else": true, "do": true}

// reTSAssertedTail matches a variable with a non-null assertion or an
// optional chain right before a member's name: the "x!." of x!.m(), "x?."
var reTSAssertedTail = regexp.MustCompile(`(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*(?:!\s*|\?)\.\s*$`)

// assertedLocal returns the class of the variable a method is called on
// through x!.m() or x?.m(), when l knows it.
func assertedLocal(code string, base int, l *scopedLocals) (string, bool) {
	t := strings.TrimRight(code, " \t\n\r")
	if !strings.HasSuffix(t, ".") || !strings.HasSuffix(strings.TrimRight(t[:len(t)-1], " \t\n\r"), "!") && !strings.HasSuffix(t, "?.") {
		return "", false // the pattern only where it may match: it is slow
	}
	m := reTSAssertedTail.FindStringSubmatchIndex(code)
	if m == nil || code[m[2]:m[3]] == "this" {
		return "", false
	}
	class := l.at(code[m[2]:m[3]], base+m[2])
	return class, class != ""
}

// mapGetBefore returns the field whose map's value a method is called on:
// this.byKey.get(k)?.m() gives byKey.
func mapGetBefore(code string) (string, bool) {
	t := strings.TrimRight(code, " \t\n\r")
	if !strings.HasSuffix(t, ".") || !strings.HasSuffix(strings.TrimRight(t[:len(t)-1], " \t\n\r?!"), ")") {
		return "", false
	}
	m := reTSMapGetTail.FindStringSubmatch(code)
	if m == nil {
		return "", false
	}
	return strings.TrimPrefix(m[1], "#"), true
}

// tsMapValue returns the class of the values of the Map a field's
// declared type is ("Map<K, Entry>", "undefined | Map<K, Entry<T>>"), ""
// for another type or values of no one class.
func tsMapValue(typ string) string {
	var mapType string
	for _, p := range splitTopAt(typ, '|') {
		p = strings.TrimSpace(p)
		switch {
		case p == "undefined" || p == "null":
		case mapType == "" && (strings.HasPrefix(p, "Map<") || strings.HasPrefix(p, "WeakMap<")) && strings.HasSuffix(p, ">"):
			mapType = p
		default:
			return ""
		}
	}
	if mapType == "" {
		return ""
	}
	open := strings.IndexByte(mapType, '<')
	args := splitTop(mapType[open+1 : len(mapType)-1])
	if len(args) != 2 {
		return ""
	}
	v := strings.TrimSpace(args[1])
	name := reTSName.FindString(v)
	if name == "" || strings.Contains(name, ".") || !unicode.IsUpper(rune(name[0])) {
		return ""
	}
	if rest := strings.TrimSpace(v[len(name):]); rest != "" && (rest[0] != '<' || matchClose(rest, 0) != len(rest)-1) {
		return ""
	}
	return name
}

// tsMapField returns a class member's name and, when its declared type
// or its initialiser is a Map (byKey: Map<string, Entry>, byKey = new
// Map<string, Entry>()), the class of its values.
func tsMapField(signature string) (string, string) {
	rest := signature[len(reTSDeclHead.FindString(signature)):]
	name := reTSDeclName.FindString(rest)
	if name == "" {
		return "", ""
	}
	rest = strings.TrimSpace(rest[len(name):])
	name = strings.TrimLeft(strings.TrimRight(strings.TrimSpace(name), "?!"), "#")
	name = strings.TrimSpace(name)
	var typ string
	switch {
	case strings.HasPrefix(rest, ":"):
		typ = rest[1:]
		if k := topIndex(typ, "="); k >= 0 {
			typ = typ[:k]
		}
	case strings.HasPrefix(rest, "="):
		init := strings.TrimSpace(rest[1:])
		init, ok := strings.CutPrefix(init, "new ")
		if !ok {
			return "", ""
		}
		init = strings.TrimSpace(init)
		open := strings.IndexByte(init, '<')
		if open < 0 {
			return "", ""
		}
		end := matchClose(init, open)
		if end < 0 {
			return "", ""
		}
		typ = init[:end+1]
	}
	return name, tsMapValue(strings.TrimSpace(typ))
}

var (
	// A JSX element naming a component: "<Suspense ", "<Fallback />".
	reJSXElement = regexp.MustCompile(`<([A-Z][\w$]*)[\s/>]`)
	// A tagged template: html` (the template's text is blanked, its
	// backticks kept).
	reTaggedTemplate = regexp.MustCompile("([A-Za-z_$][\\w$]*)`")
)

// tsImplicitCalls adds the calls the compiler sees where the code writes
// no parentheses: a JSX element calls its component (in .tsx and .jsx
// files), a tagged template its tag. Each resolves as a call of the name
// does.
func (ff *FileFacts) tsImplicitCalls(from int32, body string, lineOf func(int) int32) {
	if ext := path.Ext(ff.Path); ext == ".tsx" || ext == ".jsx" {
		for _, m := range reJSXElement.FindAllStringSubmatchIndex(body, -1) {
			// An element starts where an expression may: not after a
			// name (Array<Foo>, f<Foo>(…)) or a dot.
			if p := skipBack(body, m[0]); p >= 0 && (isWordByte(body[p]) || body[p] == '.') {
				if q := strings.LastIndexFunc(body[:p+1], func(r rune) bool { return !isWordByte(byte(r)) }); !tsExprKeywords[body[q+1:p+1]] {
					continue
				}
			}
			ff.Calls = append(ff.Calls, Ref{From: from, Name: body[m[2]:m[3]], Line: lineOf(m[0]), Loose: true})
		}
	}
	for _, m := range reTaggedTemplate.FindAllStringSubmatchIndex(body, -1) {
		name := body[m[2]:m[3]]
		if notCalls[name] || tsExprKeywords[name] || m[2] > 0 && (body[m[2]-1] == '.' || isWordByte(body[m[2]-1])) {
			continue
		}
		ff.Calls = append(ff.Calls, Ref{From: from, Name: name, Line: lineOf(m[0]), Loose: true})
	}
}
