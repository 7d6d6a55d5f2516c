package chunk

import (
	"path"
	"regexp"
	"strings"
)

// The TypeScript/JavaScript declaration recogniser reads the lexer's tokens
// (tslex.go) statement by statement, ending a statement at ";", at the brace
// that closes its body, or where automatic semicolon insertion would: at a
// line break before a token that cannot continue it, and after return,
// throw, break, continue and yield or before a postfix ++ or -- on the next
// line. It emits one chunk per declaration at module level, inside
// namespaces, and per member of a class, an interface or an object type
// alias:
//
//   - function declarations (async, generators); overload signatures and
//     their implementation are one symbol whose chunk runs from the first
//     signature to the end of the implementation;
//   - classes ("Type", the head up to the first member) and their members as
//     "Class.member": methods, constructors, get/set accessors, fields
//     (arrow-function and function-expression fields are methods), index
//     signatures ("Class.[index]"), decorators and JSDoc included;
//   - interfaces and object type aliases ("Type") and their property and
//     method signatures;
//   - type aliases, enums and const enums ("Type");
//   - namespaces ("Container", members qualified "A.B.f"); declare module
//     'x' and declare global are containers named "x" and "global" whose
//     members are not qualified, since they augment names declared elsewhere;
//   - const, let and var declarations, one chunk per declarator (a
//     destructuring pattern is one chunk named by its bound names joined by
//     ", "); an arrow function or function expression makes a Func, a class
//     expression a Type, a require(…) an Imports chunk (CommonJS's import);
//   - export default: a named function or class under its name, anything
//     else under "default";
//   - CommonJS exports (exports.x = …, module.exports.x = …, module.exports =
//     function name …) and, at module level, functions assigned to
//     properties (X.prototype.y = function …, X.y = () => …) as "X.y".
//
// Imports, re-exports and other statements are left to the module chunks.
// A file the lexer cannot follow, or whose brackets do not balance, is cut
// into windows that start at lines where declarations begin (tsWindows).

// allowsJSX reports whether a file may hold JSX elements: any JavaScript or
// TSX file, not a .ts one, where <T>x is a type assertion.
func allowsJSX(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext != ".ts" && ext != ".mts" && ext != ".cts"
}

// TypeScript chunks a TypeScript or JavaScript file. It never fails.
func TypeScript(p, lang string, src []byte) []Chunk {
	s := string(src)
	ls := lines(src)
	jsx := allowsJSX(p)
	lx, err := lexTS(s, jsx)
	if err != nil {
		return tsWindows(p, lang, ls)
	}
	r := &tsRecogniser{path: p, lang: lang, src: s, toks: lx.toks, comments: lx.comments, li: newLineIndex(s)}
	r.statements("", true)
	if r.bad {
		return tsWindows(p, lang, ls)
	}
	return finishBlocks(p, lang, ls, r.out, importTest(lang))
}

type tsRecogniser struct {
	path, lang, src string
	toks            []tsToken
	comments        []tsComment
	li              lineIndex
	pos             int
	out             []Chunk
	bad             bool // brackets do not balance: the file is windowed instead
	nextComment     int  // first comment not yet considered as documentation
	sigEnd          int  // where the signature read by callable ends
	depth           int  // nesting of namespaces, bounded by tsMaxDepth
	// overload is the index in out of the last emitted function or method
	// without a body, whose implementation or next overload may follow.
	overload int
	// spans, when not nil, collects every function and method emitted,
	// for TypeScriptFuncs (tsfuncs.go); bodyOpen is the index of the "{"
	// of the last body callable read.
	spans    *[]tsSpan
	bodyOpen int
}

var tsEOF = tsToken{}

func (r *tsRecogniser) tok(k int) tsToken {
	if i := r.pos + k; i >= 0 && i < len(r.toks) {
		return r.toks[i]
	}
	return tsEOF
}

func (r *tsRecogniser) at(k int, text string) bool {
	t := r.tok(k)
	return (t.Kind == tsIdent || t.Kind == tsPunct) && t.Text == text
}

// sameLine says token k is on the line of the token before it.
func (r *tsRecogniser) sameLine(k int) bool { t := r.tok(k); return t.Kind != 0 && !t.NewlineBefore }

func (r *tsRecogniser) line(off int) int { return r.li.line(off) }

// skipBalanced steps over the bracketed group opening at the current token.
func (r *tsRecogniser) skipBalanced() {
	var want []byte
	for r.pos < len(r.toks) {
		t := r.toks[r.pos]
		r.pos++
		if t.Kind != tsPunct {
			continue
		}
		switch t.Text {
		case "(":
			want = append(want, ')')
		case "[":
			want = append(want, ']')
		case "{":
			want = append(want, '}')
		case ")", "]", "}":
			if len(want) == 0 || want[len(want)-1] != t.Text[0] {
				r.bad = true
				return
			}
			want = want[:len(want)-1]
			if len(want) == 0 {
				return
			}
		}
	}
	r.bad = true
}

// tsNeedOperand lists the keywords after which an expression or a type must
// follow, so a line break after them does not end the statement.
// "void" is not one of them: in types, where it is common, it is complete.
var tsNeedOperand = map[string]bool{"typeof": true, "new": true, "delete": true, "await": true,
	"instanceof": true, "in": true, "of": true, "keyof": true, "as": true, "satisfies": true, "is": true,
	"extends": true, "implements": true, "infer": true, "unique": true, "asserts": true}

// tsRestricted lists the keywords no line break may follow within their
// statement (ECMAScript's restricted productions).
var tsRestricted = map[string]bool{"return": true, "throw": true, "break": true, "continue": true, "yield": true}

// tsContinuers lists the keywords that continue an expression or a type
// from the start of a line.
var tsContinuers = map[string]bool{"as": true, "satisfies": true, "instanceof": true, "in": true,
	"extends": true, "implements": true, "is": true}

// continues reports whether token next, on a new line after prev, carries
// on prev's statement: ECMAScript inserts a semicolon before a token that
// cannot, and always after return, throw, break, continue and yield and
// before a postfix ++ or --.
func continues(prev, next tsToken) bool {
	switch prev.Kind {
	case tsPunct:
		switch prev.Text {
		case ";":
			return false
		case ")", "]", "}", "++", "--":
		default:
			return true
		}
	case tsIdent:
		switch {
		case tsRestricted[prev.Text]:
			return false
		case tsNeedOperand[prev.Text]:
			return true
		}
	}
	switch next.Kind {
	case tsTemplate:
		return true
	case tsIdent:
		return tsContinuers[next.Text]
	case tsPunct:
		switch next.Text {
		case "++", "--", "!", "~", "{", ")", "]", "}", ";", "@", "#", "...":
			return false
		}
		return true
	}
	return false
}

// atStatementEnd reports whether the statement being read ends before the
// current token.
func (r *tsRecogniser) atStatementEnd() bool {
	if r.pos >= len(r.toks) {
		return true
	}
	t := r.toks[r.pos]
	if t.Kind == tsPunct && (t.Text == ";" || t.Text == "}" || t.Text == ")" || t.Text == "]") {
		return true
	}
	if r.pos == 0 || !t.NewlineBefore {
		return false
	}
	if t.Kind == tsIdent && tsContinuers[t.Text] {
		// A member named "in", "is" or "extends" starts a new member.
		switch n := r.tok(1); {
		case n.Kind == tsPunct && (n.Text == "?" || n.Text == ":" || n.Text == "(" || n.Text == ";" || n.Text == ","):
			return true
		}
	}
	prev := r.toks[r.pos-1]
	if prev.Kind == tsPunct && (prev.Text == ">" && r.closesTypeArgs(r.pos-1) ||
		prev.Text == "!" && r.pos > 1 && r.toks[r.pos-2].End == prev.Off && endsOperand(r.toks[r.pos-2])) {
		prev = tsToken{Kind: tsPunct, Text: ")"} // Set<string> and x! are complete
	}
	return !continues(prev, t)
}

// closesTypeArgs reports whether the ">" at token i closes type arguments or
// parameters: its "<" is written against a name (Set<string>) or opens a
// type (: <T>() => T).
func (r *tsRecogniser) closesTypeArgs(i int) bool {
	angles, depth := 0, 0
	for j := i; j >= 0 && j > i-400; j-- {
		t := r.toks[j]
		if t.Kind != tsPunct {
			continue
		}
		switch t.Text {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth--; depth < 0 {
				return false
			}
		case ">":
			if depth == 0 {
				angles++
			}
		case "<":
			if depth != 0 {
				continue
			}
			if angles--; angles == 0 {
				if j == 0 {
					return true
				}
				before := r.toks[j-1]
				return before.Kind == tsIdent && before.End == t.Off ||
					before.Kind == tsPunct && (before.Text == ":" || before.Text == "=" || before.Text == "(" || before.Text == ",")
			}
		case ";":
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

// endStatement steps to the end of a statement partly read.
func (r *tsRecogniser) endStatement() {
	switch {
	case r.at(0, ";"):
		r.pos++
	case !r.atStatementEnd():
		r.skipStatement()
	}
}

// skipStatement steps to the end of the current statement, consuming a
// closing ";" but not a "}" that closes the enclosing block.
func (r *tsRecogniser) skipStatement() {
	first := r.pos
	for r.pos < len(r.toks) && !r.bad {
		if r.pos > first && r.atStatementEnd() {
			break
		}
		t := r.toks[r.pos]
		if t.Kind == tsPunct {
			switch t.Text {
			case "(", "[", "{":
				r.skipBalanced()
				continue
			case ";":
				r.pos++
				return
			case "}", ")", "]":
				if r.pos == first {
					r.pos++ // a stray closer: step over it
				}
				return
			}
		}
		r.pos++
	}
	if r.at(0, ";") {
		r.pos++
	}
}

// lastEnd returns the byte offset after the last consumed token.
func (r *tsRecogniser) lastEnd() int {
	if r.pos == 0 {
		return 0
	}
	return r.toks[min(r.pos, len(r.toks))-1].End
}

// decl is a declaration being emitted.
type decl struct {
	first    int // index of its first token (decorators included)
	head     int // index of its first token after decorators
	nameTok  int // index of its name token, or -1
	symbol   string
	kind     Kind
	exported bool
	sigEnd   int  // byte offset where its signature ends
	bodiless bool // a function or method signature without a body
	// owner is the class, interface or object type a member belongs to:
	// search lends the member its owner's documentation as context.
	owner string
}

// emit records d, ending at the last consumed token, and returns its index
// in r.out (or the index of the overload it extends).
func (r *tsRecogniser) emit(d decl) int {
	if r.spans != nil && (d.kind == Func || d.kind == Method) && !d.bodiless {
		*r.spans = append(*r.spans, tsSpan{d: d, end: r.pos})
	}
	first := r.toks[d.first]
	head := r.toks[d.head]
	declOff := head.Off
	if d.nameTok >= 0 {
		declOff = r.toks[d.nameTok].Off
	}
	end := r.line(max(r.lastEnd()-1, first.Off))
	if o := r.overload; o >= 0 && o == len(r.out)-1 && r.out[o].Symbol == d.symbol && r.out[o].Kind == d.kind {
		r.out[o].EndLine = end
		// The documentation may sit on any of the overloads or on the
		// implementation, the others often carrying only a deprecation
		// note: the chunk keeps the longest.
		if _, doc := r.docBefore(first.Off); len(doc) > len(r.out[o].Doc) {
			r.out[o].Doc = doc
		}
		r.overload = -1
		if d.bodiless {
			r.overload = o
		}
		return o
	}
	start, doc := r.docBefore(first.Off)
	sig := r.src[head.Off:max(d.sigEnd, head.End)]
	if len(sig) > 600 {
		sig = sig[:600]
	}
	r.out = append(r.out, Chunk{Path: r.path, Language: r.lang, Kind: d.kind, Symbol: d.symbol,
		StartLine: start, DeclLine: r.line(declOff), EndLine: end, Doc: doc, Signature: collapse(sig),
		Exported: d.exported})
	if d.owner != "" {
		r.out[len(r.out)-1].Types = []string{d.owner}
	}
	r.overload = -1
	if d.bodiless && (d.kind == Func || d.kind == Method) {
		r.overload = len(r.out) - 1
	}
	return len(r.out) - 1
}

// docBefore returns the first line of the comments directly above the token
// at off (none trailing other code, no blank line between) and their text.
// The nearest may be a JSDoc comment with blank lines after it: the
// compiler attaches those to what follows.
func (r *tsRecogniser) docBefore(off int) (int, string) {
	for r.nextComment < len(r.comments) && r.comments[r.nextComment].End <= off {
		r.nextComment++
	}
	start := r.line(off)
	k := r.nextComment - 1
	var parts []string
	for ; k >= 0; k-- {
		c := r.comments[k]
		jsdoc := k == r.nextComment-1 && strings.HasPrefix(r.src[c.Off:], "/**")
		if c.Trailing || r.line(c.End-1) < start-1 && !jsdoc || strings.HasPrefix(r.src[c.Off:], "#!") {
			break
		}
		// Only white space may lie between the comment and what follows.
		if strings.TrimSpace(r.src[c.End:r.commentLimit(k, off)]) != "" {
			break
		}
		start = r.line(c.Off)
		if t := jsdocProse(commentText(r.src[c.Off:c.End])); !IsDirective(t) && t != "" {
			parts = append(parts, t)
		}
	}
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return start, strings.TrimSpace(strings.Join(parts, "\n"))
}

// directives are the prefixes of comments that speak to a tool (a linter,
// the compiler, a formatter, a coverage counter, a bundler's annotations
// such as #__PURE__), not to the reader.
var directives = []string{"tslint:", "eslint-disable", "eslint-enable", "eslint ", "@ts-ignore",
	"@ts-expect-error", "@ts-nocheck", "@ts-check", "prettier-ignore", "istanbul ignore", "c8 ignore",
	"biome-ignore", "jshint ", "#__", "@__", "go:", "nolint", "noqa", "type: ignore", "pragma: no cover",
	"pylint:"}

// IsDirective reports whether a comment's text is only a tool directive:
// such a comment stays in the chunk's lines but is no documentation.
func IsDirective(t string) bool {
	if strings.Contains(t, "\n") {
		return false
	}
	for _, d := range directives {
		if strings.HasPrefix(t, d) {
			return true
		}
	}
	return false
}

// commentLimit is where the text after comment k ends: the next comment or
// off.
func (r *tsRecogniser) commentLimit(k, off int) int {
	if k+1 < len(r.comments) && r.comments[k+1].Off < off {
		return r.comments[k+1].Off
	}
	return off
}

// jsdocProse keeps what a JSDoc comment says in words: its fenced code
// examples, @example sections and @see lists name other symbols (every
// operator of a library shows pipe, map and subscribe in its examples), and
// would make the comment match questions about those; HTML tags and
// markdown images are markup. {@link X} keeps X.
func jsdocProse(doc string) string {
	if !strings.ContainsAny(doc, "`@<!{") {
		return doc
	}
	var out []string
	fence, example := false, false
	for _, l := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			fence = !fence
			continue
		case fence:
			continue
		case strings.HasPrefix(t, "@"):
			tag, _, _ := strings.Cut(t, " ")
			example = tag == "@example"
			if example || tag == "@see" {
				continue
			}
		case example:
			continue
		case strings.HasPrefix(t, "!["):
			continue
		}
		out = append(out, l)
	}
	doc = strings.Join(out, "\n")
	doc = jsdocLink.ReplaceAllString(doc, "$1")
	doc = htmlTag.ReplaceAllString(doc, "")
	return strings.TrimSpace(doc)
}

var (
	jsdocLink = regexp.MustCompile(`\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)[^}]*\}`)
	htmlTag   = regexp.MustCompile(`</?[a-zA-Z][^<>]*>`)
)

// commentText strips comment markers.
func commentText(c string) string {
	var out []string
	for _, l := range strings.Split(c, "\n") {
		t := strings.TrimSpace(l)
		t = strings.TrimPrefix(t, "//")
		t = strings.TrimPrefix(t, "/**")
		t = strings.TrimPrefix(t, "/*")
		t = strings.TrimSuffix(t, "*/")
		t = strings.TrimPrefix(strings.TrimSpace(t), "*")
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// skipDecorators steps over "@expr" decorators.
func (r *tsRecogniser) skipDecorators() {
	for r.at(0, "@") && r.tok(1).Kind == tsIdent {
		r.pos += 2
		for r.at(0, ".") && r.tok(1).Kind == tsIdent {
			r.pos += 2
		}
		if r.at(0, "<") {
			r.skipAngles()
		}
		if r.at(0, "(") {
			r.skipBalanced()
		}
	}
}

// skipAngles steps over type parameters or arguments "<…>".
func (r *tsRecogniser) skipAngles() {
	depth := 0
	for first := r.pos; r.pos < len(r.toks) && !r.bad; {
		t := r.toks[r.pos]
		if r.pos > first && r.atStatementEnd() {
			return
		}
		if t.Kind == tsPunct {
			switch t.Text {
			case "<":
				depth++
			case ">":
				depth--
				if depth == 0 {
					r.pos++
					return
				}
			case "(", "[", "{":
				r.skipBalanced()
				continue
			case ";", ")", "]", "}":
				return
			}
		}
		r.pos++
	}
}

// statements reads declarations up to the "}" closing the enclosing block
// (consumed) or the end of the file. prefix qualifies names ("Ns.");
// module says this is a file's top level.
func (r *tsRecogniser) statements(prefix string, module bool) {
	r.overload = -1
	for r.pos < len(r.toks) && !r.bad {
		if r.at(0, "}") {
			if module {
				r.bad = true // a brace closes nothing
			}
			r.pos++
			return
		}
		if r.at(0, ";") {
			r.pos++
			continue
		}
		before := r.pos
		r.statement(prefix, module)
		if r.pos == before { // never stall
			r.pos++
		}
	}
	if !module {
		r.bad = true // the block never closed
	}
}

func (r *tsRecogniser) statement(prefix string, module bool) {
	d := decl{first: r.pos, nameTok: -1}
	r.skipDecorators()
	d.head = r.pos
	exported, isDefault, declared := false, false, false
modifiers:
	for t := r.tok(0); t.Kind == tsIdent; t = r.tok(0) {
		switch t.Text {
		case "export":
			if exported {
				break modifiers
			}
			exported = true
		case "default":
			if !exported || isDefault {
				break modifiers
			}
			isDefault = true
		case "declare":
			if !r.sameLine(1) || r.tok(1).Kind != tsIdent {
				break modifiers
			}
			declared = true
		case "async":
			if !r.sameLine(1) || !r.at(1, "function") {
				break modifiers
			}
		default:
			break modifiers
		}
		r.pos++
	}
	d.exported = exported
	t := r.tok(0)
	if exported && !isDefault && t.Kind == tsPunct && (t.Text == "{" || t.Text == "*" || t.Text == "=") {
		r.skipStatement() // re-exports and export =: module lines
		return
	}
	kw := ""
	if t.Kind == tsIdent {
		kw = t.Text
	}
	switch {
	case kw == "function":
		r.function(d, prefix, isDefault)
		return
	case kw == "class" || kw == "abstract" && r.at(1, "class") && r.sameLine(1):
		if kw == "abstract" {
			r.pos++
		}
		r.class(d, prefix, isDefault)
		return
	case kw == "interface" && r.tok(1).Kind == tsIdent && r.sameLine(1):
		r.pos++
		d.nameTok = r.pos
		d.symbol, d.kind = prefix+r.tok(0).Text, Type
		r.pos++
		r.heritage()
		d.sigEnd = r.tok(0).Off
		if !r.at(0, "{") {
			r.endStatement()
			r.emit(d)
			return
		}
		k := r.emit(d)
		r.members(d.symbol+".", false)
		r.out[k].EndLine = r.line(r.lastEnd() - 1)
		return
	case kw == "type" && r.tok(1).Kind == tsIdent && r.sameLine(1) && (r.at(2, "=") || r.at(2, "<")):
		r.pos++
		d.nameTok = r.pos
		d.symbol, d.kind = prefix+r.tok(0).Text, Type
		r.pos++
		if r.at(0, "<") {
			r.skipAngles()
		}
		if r.at(0, "=") {
			r.pos++
		}
		d.sigEnd = r.lastEnd()
		if r.at(0, "{") && !r.mappedType() {
			// An object type: its members are chunked like an
			// interface's.
			k := r.emit(d)
			r.members(d.symbol+".", false)
			r.endStatement()
			r.out[k].EndLine = r.line(r.lastEnd() - 1)
			return
		}
		r.endStatement()
		r.emit(d)
		return
	case kw == "enum" || kw == "const" && r.at(1, "enum") && r.sameLine(1):
		if kw == "const" {
			r.pos++
		}
		if r.tok(1).Kind != tsIdent {
			r.skipStatement()
			return
		}
		r.pos++
		d.nameTok = r.pos
		d.symbol, d.kind = prefix+r.tok(0).Text, Type
		r.pos++
		d.sigEnd = r.tok(0).Off
		if r.at(0, "{") {
			r.skipBalanced()
		} else {
			r.endStatement()
		}
		r.emit(d)
		return
	case (kw == "namespace" || kw == "module") && r.sameLine(1) && (r.tok(1).Kind == tsIdent || r.tok(1).Kind == tsString) ||
		kw == "global" && declared && r.at(1, "{"):
		r.namespace(d, prefix)
		return
	case kw == "const" || kw == "let" && (r.tok(1).Kind == tsIdent || r.at(1, "[") || r.at(1, "{")) || kw == "var":
		if !isDefault {
			r.variables(d, prefix, kw)
			return
		}
	case kw == "import":
		r.skipStatement()
		return
	}
	if isDefault {
		// export default <expression>
		d.symbol, d.kind = prefix+"default", Const
		if r.startsFunction() {
			d.kind = Func
		}
		d.sigEnd = r.tok(0).End
		r.skipStatement()
		r.emit(d)
		return
	}
	if module && prefix == "" && t.Kind == tsIdent {
		if r.assignment(d) {
			return
		}
	}
	r.skipStatement()
}

// mappedType reports whether the "{" at the current token opens a mapped
// type ({ readonly [K in keyof T]?: … }), which has no named members.
func (r *tsRecogniser) mappedType() bool {
	k := 1
	if r.at(k, "+") || r.at(k, "-") {
		k++
	}
	if r.at(k, "readonly") {
		k++
	}
	return r.at(k, "[") && r.tok(k+1).Kind == tsIdent && r.at(k+2, "in")
}

// typeArgsOpen reports whether the "<" at token i opens type arguments or
// parameters: written against a name (new Map<K, V>(), f<T>(x)), as
// formatted code writes them and never a comparison, or where an operand
// starts (= <T>(x: T) => x).
func (r *tsRecogniser) typeArgsOpen(i int) bool {
	if i == 0 || r.toks[i].Text != "<" {
		return false
	}
	switch prev := r.toks[i-1]; prev.Kind {
	case tsIdent:
		return prev.End == r.toks[i].Off || prev.Text == "async" || prev.Text == "return"
	case tsPunct:
		switch prev.Text {
		case "=", "=>", ":", "?", "(", ",":
			return true
		}
	}
	return false
}

// function reads "function* name<T>(…): R { … }" from the "function"
// keyword, or an overload signature without a body.
func (r *tsRecogniser) function(d decl, prefix string, isDefault bool) {
	r.pos++ // function
	if r.at(0, "*") {
		r.pos++
	}
	d.kind = Func
	if r.tok(0).Kind == tsIdent && !r.at(0, "(") {
		d.nameTok = r.pos
		d.symbol = prefix + r.tok(0).Text
		r.pos++
	} else if isDefault {
		d.symbol = prefix + "default"
	} else {
		r.skipStatement()
		return
	}
	d.bodiless = !r.callable()
	d.sigEnd = r.sigEnd
	r.emit(d)
}

// callable reads "<T>(params): R" and a body if one follows, and says
// whether it did; sigEnd is left where the signature ends.
func (r *tsRecogniser) callable() bool {
	if r.at(0, "<") {
		r.skipAngles()
	}
	if r.at(0, "(") {
		r.skipBalanced()
	}
	if r.at(0, ":") {
		r.pos++
		r.skipType()
	}
	r.sigEnd = r.lastEnd()
	if r.at(0, "{") {
		r.bodyOpen = r.pos
		r.skipBalanced()
		return true
	}
	if r.at(0, ";") || r.at(0, ",") {
		r.pos++
	}
	return false
}

// skipType steps over a type annotation up to the body that follows it, a
// ";", a "," or a "=" at its own level, or the end of the statement.
func (r *tsRecogniser) skipType() {
	first := r.pos
	angles := 0
	for r.pos < len(r.toks) && !r.bad {
		t := r.toks[r.pos]
		if r.pos > first && angles == 0 && (r.atStatementEnd() ||
			t.NewlineBefore && t.Kind == tsPunct && (t.Text == "[" || t.Text == "(") && completesType(r.toks[r.pos-1])) {
			// In a type, T[] and T() never span a line break.
			return
		}
		if t.Kind == tsPunct {
			switch t.Text {
			case "{":
				// A "{" right after a complete type opens the body; one
				// where a type is expected opens an object type.
				if r.pos > first && angles == 0 && completesType(r.toks[r.pos-1]) {
					return
				}
				r.skipBalanced()
				continue
			case "(", "[":
				r.skipBalanced()
				continue
			case "<":
				angles++
			case ">":
				angles--
			case ";", ",", "=":
				if angles <= 0 {
					return
				}
			}
		}
		r.pos++
	}
}

func completesType(t tsToken) bool {
	switch t.Kind {
	case tsPunct:
		return t.Text == ")" || t.Text == "]" || t.Text == "}" || t.Text == ">"
	case tsIdent:
		return !tsNeedOperand[t.Text]
	}
	return true
}

// heritage steps over what lies between a class or interface name and its
// body: type parameters, extends and implements clauses.
func (r *tsRecogniser) heritage() {
	angles := 0
	for r.pos < len(r.toks) && !r.bad {
		t := r.toks[r.pos]
		if t.Kind == tsPunct {
			switch t.Text {
			case "{":
				if angles <= 0 {
					return
				}
				r.skipBalanced()
				continue
			case "(", "[":
				r.skipBalanced()
				continue
			case "<":
				angles++
			case ">":
				angles--
			case ";", "}", ")", "]":
				return
			}
		}
		r.pos++
	}
}

// class reads a class declaration from the "class" keyword and its members.
func (r *tsRecogniser) class(d decl, prefix string, isDefault bool) {
	r.pos++ // class
	d.kind = Type
	if r.tok(0).Kind == tsIdent && r.tok(0).Text != "extends" && r.tok(0).Text != "implements" {
		d.nameTok = r.pos
		d.symbol = prefix + r.tok(0).Text
		r.pos++
	} else if isDefault {
		d.symbol = prefix + "default"
	} else {
		r.skipStatement()
		return
	}
	r.heritage()
	d.sigEnd = r.tok(0).Off
	if !r.at(0, "{") {
		r.skipStatement()
		return
	}
	k := r.emit(d)
	r.members(d.symbol+".", true)
	r.out[k].EndLine = r.line(r.lastEnd() - 1)
	r.overload = -1
}

var tsMemberModifiers = map[string]bool{"public": true, "private": true, "protected": true, "static": true,
	"readonly": true, "abstract": true, "override": true, "declare": true, "async": true, "accessor": true,
	"get": true, "set": true, "export": true, "default": true}

// members reads the body of a class (bodies allowed) or of an interface or
// object type, from its "{" to its "}", emitting one chunk per named member.
func (r *tsRecogniser) members(prefix string, class bool) {
	r.pos++ // {
	r.overload = -1
	for r.pos < len(r.toks) && !r.bad {
		if r.at(0, "}") {
			r.pos++
			return
		}
		if r.at(0, ";") || r.at(0, ",") {
			r.pos++
			continue
		}
		before := r.pos
		r.member(prefix, class)
		if r.pos == before {
			r.pos++
		}
	}
	r.bad = true
}

// isPropertyName says the token can name a member.
func isPropertyName(t tsToken) bool {
	return t.Kind == tsIdent || t.Kind == tsString || t.Kind == tsNumber || t.Kind == tsPunct && t.Text == "["
}

func (r *tsRecogniser) member(prefix string, class bool) {
	d := decl{first: r.pos, nameTok: -1, owner: strings.TrimSuffix(prefix, ".")}
	r.skipDecorators()
	d.head = r.pos
	private, accessor := false, false
	// A modifier is one only if a member name follows it on its line.
	for r.tok(0).Kind == tsIdent && tsMemberModifiers[r.tok(0).Text] && r.sameLine(1) &&
		(isPropertyName(r.tok(1)) || r.at(1, "*") || r.at(1, "{") && r.tok(0).Text == "static") {
		switch r.tok(0).Text {
		case "private", "protected":
			private = true
		case "get", "set":
			accessor = true
		case "static":
			if r.at(1, "{") { // a static initialisation block
				r.pos++
				r.skipBalanced()
				return
			}
		}
		r.pos++
	}
	if r.at(0, "*") {
		r.pos++
	}
	t := r.tok(0)
	var name string
	switch {
	case t.Kind == tsPunct && t.Text == "[":
		if (r.tok(1).Kind == tsIdent) && r.at(2, ":") {
			// An index signature.
			r.skipBalanced()
			d.kind, d.symbol = Var, prefix+"[index]"
			if r.at(0, ":") {
				r.pos++
				r.skipType()
			}
			d.sigEnd = r.lastEnd()
			r.finishMember()
			r.emit(d)
			return
		}
		d.nameTok = r.pos
		start := r.pos
		r.skipBalanced()
		var b strings.Builder
		for _, tk := range r.toks[start:r.pos] {
			b.WriteString(tk.Text)
		}
		name = b.String()
	case t.Kind == tsIdent || t.Kind == tsNumber:
		d.nameTok = r.pos
		name = t.Text
		r.pos++
	case t.Kind == tsString:
		d.nameTok = r.pos
		name = t.Text[1 : len(t.Text)-1]
		r.pos++
	case t.Kind == tsPunct && (t.Text == "(" || t.Text == "<"):
		r.callable() // a call signature
		r.finishMember()
		return
	default:
		r.skipMember()
		return
	}
	if !class && name == "new" && (r.at(0, "(") || r.at(0, "<")) {
		r.callable() // a construct signature
		r.finishMember()
		return
	}
	d.symbol = prefix + name
	d.exported = !private && !strings.HasPrefix(name, "#") && !strings.HasPrefix(name, "_")
	if r.at(0, "?") || r.at(0, "!") {
		r.pos++
	}
	if r.at(0, "(") || r.at(0, "<") {
		d.kind = Method
		d.bodiless = !r.callable() && !accessor // a get/set pair is two declarations
		d.sigEnd = r.sigEnd
		r.emit(d)
		return
	}
	d.kind = Var
	if r.at(0, ":") {
		r.pos++
		r.skipType()
	}
	switch {
	case r.at(0, "="):
		r.pos++
		if r.startsFunction() {
			d.kind = Method
		}
		d.sigEnd = r.initializerSigEnd()
		r.finishMember()
	case r.tok(0).NewlineBefore:
		// The type ended at the line break (x: T then [key: K]: V).
		d.sigEnd = r.lastEnd()
	default:
		d.sigEnd = r.lastEnd()
		r.finishMember()
	}
	r.emit(d)
}

// finishMember steps to the end of a member whose name and type have been
// read.
func (r *tsRecogniser) finishMember() {
	switch {
	case r.at(0, ";") || r.at(0, ","):
		r.pos++
	case !r.atStatementEnd():
		r.skipMember()
	}
}

// skipMember steps to the end of a member: a ";" or "," at its level, the
// "}" closing the body (not consumed), or a line break where a statement
// would end.
func (r *tsRecogniser) skipMember() {
	r.skipExpression()
	if r.at(0, ";") || r.at(0, ",") {
		r.pos++
	}
}

// startsFunction reports whether the expression at the current token is a
// function expression, an arrow function or a class expression.
func (r *tsRecogniser) startsFunction() bool { return r.functionAt(true) }

// functionAt is startsFunction; parens says a parenthesised function counts,
// looked for one level deep only, so that nested parentheses cost linear time.
func (r *tsRecogniser) functionAt(parens bool) bool {
	save := r.pos
	defer func() { r.pos = save }()
	if r.at(0, "async") && r.sameLine(1) {
		r.pos++
	}
	switch {
	case r.at(0, "function"), r.at(0, "class"):
		return true
	case r.tok(0).Kind == tsIdent && r.at(1, "=>"):
		return true
	}
	if r.at(0, "<") {
		r.skipAngles()
	}
	if !r.at(0, "(") {
		return false
	}
	if r.pos++; parens && r.functionAt(false) {
		// A parenthesised function, (() => …) as T, not one called.
		r.pos--
		r.skipBalanced()
		return r.at(0, "as") || r.at(0, "satisfies") || r.atStatementEnd() || r.at(0, ",")
	}
	r.pos--
	r.skipBalanced()
	if r.at(0, ":") {
		r.pos++
		for first := r.pos; r.pos < len(r.toks) && !r.bad && !r.at(0, "=>"); {
			if r.at(0, ";") || r.at(0, "=") || r.at(0, "}") || r.at(0, ")") || r.pos > first && r.atStatementEnd() {
				return false
			}
			if r.at(0, "(") || r.at(0, "[") || r.at(0, "{") {
				r.skipBalanced()
				continue
			}
			r.pos++
		}
	}
	return r.at(0, "=>") && !r.bad
}

// initializerSigEnd returns where a declaration's signature ends when its
// initializer starts at the current token: after the "=>" or the parameters
// of a function, at the initializer's start otherwise.
func (r *tsRecogniser) initializerSigEnd() int {
	save := r.pos
	defer func() { r.pos = save }()
	if !r.startsFunction() {
		return r.lastEnd()
	}
	for r.pos < len(r.toks) && !r.bad {
		switch {
		case r.at(0, "=>"):
			return r.tok(0).End
		case r.at(0, "{"):
			return r.lastEnd()
		case r.at(0, "(") || r.at(0, "["):
			r.skipBalanced()
			continue
		case r.atStatementEnd():
			return r.lastEnd()
		}
		r.pos++
	}
	return r.lastEnd()
}

// namespace reads "namespace A.B { … }", "module A { … }", "declare module
// 'x' { … }" and "declare global { … }".
func (r *tsRecogniser) namespace(d decl, prefix string) {
	if r.at(0, "global") {
		d.nameTok = r.pos
		d.symbol = "global"
		r.pos++
	} else {
		r.pos++ // namespace, module
		d.nameTok = r.pos
		if r.tok(0).Kind == tsString {
			d.symbol = r.tok(0).Text[1 : len(r.tok(0).Text)-1]
			r.pos++
		} else {
			name := r.tok(0).Text
			r.pos++
			for r.at(0, ".") && r.tok(1).Kind == tsIdent {
				name += "." + r.tok(1).Text
				r.pos += 2
			}
			d.symbol = prefix + name
		}
	}
	d.kind = Container
	d.sigEnd = r.tok(0).Off
	if !r.at(0, "{") {
		r.skipStatement() // declare module 'x' (shorthand)
		r.emit(d)
		return
	}
	inner := prefix
	if r.toks[d.nameTok].Kind == tsIdent && d.symbol != "global" {
		inner = d.symbol + "."
	}
	k := r.emit(d)
	r.pos++
	if r.depth++; r.depth > tsMaxDepth {
		r.bad = true
		return
	}
	r.statements(inner, false)
	r.depth--
	r.out[k].EndLine = r.line(r.lastEnd() - 1)
	r.overload = -1
}

// variables reads "const a = …, b = …" from its keyword: one chunk per
// declarator.
func (r *tsRecogniser) variables(d decl, prefix, kw string) {
	r.pos++ // const, let, var
	base := Var
	if kw == "const" {
		base = Const
	}
	for first := true; r.pos < len(r.toks) && !r.bad; first = false {
		dd := d
		if !first {
			dd.first, dd.head = r.pos, r.pos
		}
		dd.nameTok = r.pos
		switch t := r.tok(0); {
		case t.Kind == tsIdent:
			dd.symbol = prefix + t.Text
			r.pos++
		case t.Kind == tsPunct && (t.Text == "{" || t.Text == "["):
			from := r.pos
			r.skipBalanced()
			dd.symbol = prefix + strings.Join(bindingNames(r.toks[from:r.pos]), ", "+prefix)
		default:
			r.skipStatement()
			return
		}
		dd.kind = base
		if r.at(0, "!") {
			r.pos++
		}
		if r.at(0, ":") {
			r.pos++
			r.skipType()
		}
		dd.sigEnd = r.lastEnd()
		if r.at(0, "=") {
			r.pos++
			if r.at(0, "require") && r.at(1, "(") {
				// CommonJS's import: var View = require('./view'). It
				// names what another module defines, and must not hide
				// that definition.
				dd.kind = Imports
			} else if r.startsFunction() {
				dd.kind = Func
				if r.at(0, "class") {
					dd.kind = Type
				}
			}
			dd.sigEnd = r.initializerSigEnd()
			r.skipExpression()
		}
		r.emit(dd)
		if !r.at(0, ",") {
			if r.at(0, ";") {
				r.pos++
			}
			return
		}
		r.pos++
	}
}

// skipExpression steps over an expression up to a "," or ";" at its level
// (type arguments counted), a closing bracket, or the end of the statement,
// consuming none of them.
func (r *tsRecogniser) skipExpression() {
	first := r.pos
	angles := 0
	for r.pos < len(r.toks) && !r.bad {
		if r.pos > first && angles == 0 && r.atStatementEnd() {
			return
		}
		t := r.toks[r.pos]
		if t.Kind == tsPunct {
			switch t.Text {
			case "(", "[", "{":
				r.skipBalanced()
				continue
			case "<":
				if r.typeArgsOpen(r.pos) {
					angles++
				}
			case ">":
				angles = max(angles-1, 0)
			case ",":
				if angles == 0 {
					return
				}
			case ";", "}", ")", "]":
				return
			}
		}
		r.pos++
	}
}

// bindingNames returns the names a destructuring pattern binds.
func bindingNames(toks []tsToken) []string {
	var names []string
	depth := 0
	for i, t := range toks {
		if t.Kind == tsPunct {
			switch t.Text {
			case "{", "[", "(":
				depth++
			case "}", "]", ")":
				depth--
			}
			continue
		}
		if t.Kind != tsIdent {
			continue
		}
		next := tsEOF
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		prev := tsEOF
		if i > 0 {
			prev = toks[i-1]
		}
		// A binding is an identifier that is not a property key (before
		// ":") nor part of a default value (after "=").
		if next.Kind == tsPunct && next.Text == ":" || prev.Kind == tsPunct && prev.Text == "=" {
			continue
		}
		if prev.Kind == tsPunct && !(prev.Text == "{" || prev.Text == "[" || prev.Text == "," || prev.Text == ":" || prev.Text == "...") {
			continue
		}
		names = append(names, t.Text)
	}
	return names
}

// assignment reads a module-level assignment that declares something:
// exports.x = …, module.exports.x = …, module.exports = function name …, and
// X.y = function … or X.prototype.y = function …. It reports false, moving
// nothing, for any other statement.
func (r *tsRecogniser) assignment(d decl) bool {
	save := r.pos
	var path []string
	for {
		if r.tok(0).Kind != tsIdent {
			r.pos = save
			return false
		}
		path = append(path, r.tok(0).Text)
		r.pos++
		if !r.at(0, ".") {
			break
		}
		r.pos++
	}
	if !r.at(0, "=") || len(path) < 2 {
		r.pos = save
		return false
	}
	d.nameTok = r.pos - 1
	r.pos++ // =
	fn := r.startsFunction()
	d.kind = Var
	if fn {
		d.kind = Func
		if r.at(0, "class") {
			d.kind = Type
		}
	}
	switch {
	case path[0] == "exports" && len(path) == 2, path[0] == "module" && path[1] == "exports" && len(path) == 3:
		d.symbol, d.exported = path[len(path)-1], true
	case path[0] == "module" && path[1] == "exports" && len(path) == 2:
		if !fn {
			r.pos = save
			return false
		}
		d.symbol, d.exported = "module.exports", true
		k := 0
		if r.at(k, "async") {
			k++
		}
		if r.at(k, "function") || r.at(k, "class") {
			k++
			if r.at(k, "*") {
				k++
			}
			if t := r.tok(k); t.Kind == tsIdent && t.Text != "extends" {
				d.symbol, d.nameTok = t.Text, r.pos+k
			}
		}
	case fn && path[0] != "module" && path[0] != "exports" && path[0] != "this":
		recv := path[:len(path)-1]
		if len(recv) == 2 && recv[1] == "prototype" {
			recv = recv[:1]
		}
		if len(recv) != 1 {
			r.pos = save
			return false
		}
		d.symbol, d.kind = recv[0]+"."+path[len(path)-1], Method
		d.exported = !strings.HasPrefix(path[len(path)-1], "_")
	default:
		r.pos = save
		return false
	}
	d.sigEnd = r.initializerSigEnd()
	r.skipStatement()
	r.emit(d)
	return true
}

// tsBoundary matches a line where a declaration begins, for windowing a
// file the recogniser could not read.
var tsBoundary = regexp.MustCompile(`^\s*(?:@[\w$.]+|(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\b|class\b|interface\b|type\s+[\w$]+\s*[=<]|enum\b|const\s+enum\b|namespace\b|module\s+['"\w]|const\b|let\b|var\b)|(?:(?:public|private|protected|static|async|readonly|get|set|override)\s+)*[#\w$]+\s*(?:<[^>]*>)?\([^()]*\)\s*(?::[^={]+)?\{\s*$|(?:module\.)?exports\.[\w$]+\s*=|[\w$]+(?:\.prototype)?\.[\w$]+\s*=\s*(?:async\s+)?(?:function\b|\())`)

var tsNotBoundary = regexp.MustCompile(`^\s*(?:if|for|while|switch|catch|return|else|do|try)\b`)

// tsWindows cuts a file the recogniser could not read into windows that
// start where declarations begin; a stretch longer than a window is cut into
// overlapping windows, and a file without any boundary into plain windows.
func tsWindows(p, lang string, ls []string) []Chunk {
	var starts []int
	for i, l := range ls {
		if tsBoundary.MatchString(l) && !tsNotBoundary.MatchString(l) {
			// Comments directly above belong to the declaration.
			s := i
			for s > 0 && isComment(strings.TrimSpace(ls[s-1])) {
				s--
			}
			if len(starts) == 0 || starts[len(starts)-1] < s+1 {
				starts = append(starts, s+1)
			}
		}
	}
	if len(starts) == 0 {
		return Windows(p, lang, []byte(strings.Join(ls, "\n")), 0, 0)
	}
	if starts[0] != 1 {
		starts = append([]int{1}, starts...)
	}
	starts = append(starts, len(ls)+1)
	var out []Chunk
	add := func(s, e int) {
		text := span(ls, s, e)
		if strings.TrimSpace(text) != "" {
			out = append(out, Chunk{Path: p, Language: lang, Kind: Window, StartLine: s, DeclLine: s, EndLine: e, Text: text})
		}
	}
	for k := 0; k+1 < len(starts); {
		s := starts[k]
		// Join short sections up to a window's length.
		j := k + 1
		for j+1 < len(starts) && starts[j+1]-1-s+1 <= WindowLines {
			j++
		}
		e := starts[j] - 1
		for ws := s; ws <= e; ws += WindowLines - WindowOverlap {
			add(ws, min(ws+WindowLines-1, e))
			if ws+WindowLines-1 >= e {
				break
			}
		}
		k = j
	}
	return out
}
