package chunk

import "strings"

// The Java recogniser reads the C-family lexer's tokens declaration by
// declaration: classes, interfaces, enums (their constants and the members
// after them), records and annotation types, nested to any depth and
// qualified by their enclosing types ("Outer.Inner"); methods, constructors
// (named after their class), compact record constructors and annotation
// elements ("Type.name") and constants: static final fields and the fields
// of interfaces ("Type.NAME"; the first of a list names the chunk).
// Annotations and Javadoc belong to the declaration they precede. Other
// fields stay in their class's chunk or in the lines between members;
// anything inside a method body, an initializer or an anonymous class
// belongs to it.

type javaParser struct {
	cCursor
	p        string
	src      string
	comments []cComment
	out      []Chunk
}

// javaTypeKeywords are the words that begin a type declaration.
var javaTypeKeywords = map[string]bool{"class": true, "interface": true, "enum": true, "record": true}

// javaModifiers are the words that may precede a declaration.
var javaModifiers = map[string]bool{"public": true, "protected": true, "private": true, "static": true, "final": true,
	"abstract": true, "native": true, "synchronized": true, "transient": true, "volatile": true, "strictfp": true,
	"default": true, "sealed": true, "non-sealed": true}

// Java cuts a Java file into one chunk per type and member (see above). It
// reports false when the file does not tokenize or its brackets do not
// balance.
func Java(p string, src []byte) ([]Chunk, bool) {
	text := string(src)
	toks, comments, err := cLex(text, "java")
	if err != nil {
		return nil, false
	}
	j := &javaParser{cCursor: cCursor{toks: toks}, p: p, src: text, comments: comments}
	if !j.members("", "", false) || j.bad {
		return nil, false
	}
	return finishBlocks(p, "java", lines(src), j.out, importTest("java")), true
}

// javaMods is what precedes a declaration.
type javaMods struct {
	first  cTok // first token, annotation or modifier
	kw     int  // index of the first modifier keyword, or -1
	public bool // public or protected
	priv   bool
	static bool
	final  bool
	test   bool // annotated @Test or the like
}

// modifiers reads annotations and modifier keywords.
func (j *javaParser) modifiers() javaMods {
	m := javaMods{first: j.peek(0), kw: -1}
	for !j.done() {
		switch t := j.peek(0); {
		case t.kind == 'p' && t.text == "@" && !j.is(1, "interface"):
			j.i++
			name := ""
			for j.peek(0).kind == 'i' {
				name = j.peek(0).text
				j.i++
				if !j.is(0, ".") {
					break
				}
				j.i++
			}
			if j.is(0, "(") {
				j.skipGroup()
			}
			if name == "Test" || name == "ParameterizedTest" || name == "RepeatedTest" || name == "TestFactory" {
				m.test = true
			}
		case t.kind == 'i' && t.text == "non" && j.is(1, "-") && j.is(2, "sealed"):
			if m.kw < 0 {
				m.kw = j.i
			}
			j.i += 3
		case t.kind == 'i' && javaModifiers[t.text]:
			if m.kw < 0 {
				m.kw = j.i
			}
			m.public = m.public || t.text == "public" || t.text == "protected"
			m.priv = m.priv || t.text == "private"
			m.static = m.static || t.text == "static"
			m.final = m.final || t.text == "final"
			j.i++
		default:
			return m
		}
	}
	return m
}

// members reads declarations up to the end of the file (outside any type)
// or the closing brace of a type body (which it consumes). prefix qualifies
// what it finds ("Outer."); kind is the enclosing type's keyword.
func (j *javaParser) members(prefix, kind string, test bool) bool {
	body := prefix != ""
	if kind == "enum" && !j.enumConstants() {
		return false
	}
	for !j.done() {
		switch {
		case j.is(0, "}"):
			if !body {
				return false
			}
			j.i++
			return true
		case j.is(0, ";"):
			j.i++
			continue
		case j.is(0, "{"), j.is(0, "static") && j.is(1, "{"): // an initializer
			if j.is(0, "static") {
				j.i++
			}
			if j.skipGroup() < 0 {
				return false
			}
			continue
		case !body && (j.is(0, "package") || j.is(0, "import")):
			if j.skipUntil(";") != ";" {
				return false
			}
			j.i++
			continue
		}
		if !j.member(prefix, kind, test) {
			return false
		}
	}
	return !body
}

// enumConstants reads an enum's constants up to the ";" that ends them or
// the body's closing brace (left for members).
func (j *javaParser) enumConstants() bool {
	for !j.done() {
		switch {
		case j.is(0, ";"):
			j.i++
			return true
		case j.is(0, "}"):
			return true
		case j.is(0, "(") || j.is(0, "{"):
			if j.skipGroup() < 0 {
				return false
			}
		default:
			j.i++
		}
	}
	return false
}

// member reads one declaration in a type body or at the top of the file.
func (j *javaParser) member(prefix, kind string, test bool) bool {
	m := j.modifiers()
	test = test || m.test
	exported := m.public || (kind == "interface" || kind == "@interface") && !m.priv
	start, doc := cLeading(j.comments, m.first.line)
	chunk := func(k Kind, name cTok, head, end int) int {
		sig := strings.TrimSpace(j.src[j.toks[head].off:j.toks[end].off])
		c := Chunk{Path: j.p, Language: "java", Kind: k, Symbol: prefix + name.text, StartLine: start,
			DeclLine: name.line, EndLine: j.toks[end].line, Doc: doc, Signature: collapse(sig), Exported: exported, Test: test}
		if k == Method {
			c.Types = []string{strings.TrimSuffix(prefix, ".")}
		}
		j.out = append(j.out, c)
		return len(j.out) - 1
	}
	head := j.i
	if m.kw >= 0 {
		head = m.kw // the signature keeps the modifiers, not the annotations
	}
	// A type declaration.
	tk := ""
	switch {
	case j.is(0, "@") && j.is(1, "interface") && j.peek(2).kind == 'i':
		tk = "@interface"
		j.i += 2
	case j.peek(0).kind == 'i' && javaTypeKeywords[j.peek(0).text] && j.peek(1).kind == 'i':
		tk = j.peek(0).text
		j.i++
	}
	if tk != "" {
		name := j.peek(0)
		j.i++
		if j.skipUntil("{") != "{" {
			return false
		}
		k := chunk(Type, name, head, j.i)
		j.i++
		if !j.members(prefix+name.text+".", tk, test) {
			return false
		}
		j.out[k].EndLine = j.toks[j.i-1].line
		return true
	}
	if !strings.HasSuffix(prefix, ".") {
		// Outside any type: not a declaration this recogniser knows.
		j.i++
		return true
	}
	// A method, constructor, annotation element or field: the name is the
	// identifier before the first "(" (a method) or "{" (a compact record
	// constructor); "=" or ";" first makes it a field.
	var name cTok
	for !j.done() {
		t := j.peek(0)
		if t.kind == 'p' {
			switch t.text {
			case "(", "{":
				if name.kind != 'i' {
					return j.skipMember()
				}
				if t.text == "(" && j.skipGroup() < 0 {
					return false
				}
				// Throws clause, array dimensions or an annotation
				// element's default value, then the body or ";".
				for !j.done() && !j.is(0, "{") && !j.is(0, ";") {
					if j.is(0, "default") {
						if j.skipUntil(";") != ";" {
							return false
						}
						break
					}
					if j.is(0, "(") || j.is(0, "[") {
						j.skipGroup()
						continue
					}
					if j.is(0, ")") || j.is(0, "]") || j.is(0, "}") {
						return false
					}
					j.i++
				}
				if j.done() {
					return false
				}
				open, end := j.i, j.i
				if j.is(0, "{") {
					if end = j.skipGroup(); end < 0 {
						return false
					}
				} else {
					j.i++
				}
				k := chunk(Method, name, head, end)
				if open != end {
					j.out[k].Signature = collapse(j.src[j.toks[head].off:j.toks[open].off])
				}
				return true
			case "<":
				if !j.skipAngles() {
					return false
				}
				continue
			case "[":
				j.skipGroup()
				continue
			case "=", ";", ",":
				// A field: a constant (static final, or any field of an
				// interface) is a symbol; other fields stay in their class.
				isConst := m.static && m.final || kind == "interface" || kind == "@interface"
				if name.kind != 'i' || !isConst {
					return j.skipMember()
				}
				if j.skipUntil(";") != ";" {
					return false
				}
				j.i++
				k := chunk(Const, name, head, j.i-1)
				j.out[k].Signature = collapse(j.src[j.toks[head].off : j.toks[j.i-1].off+1])
				if len(j.out[k].Signature) > 200 {
					j.out[k].Signature = j.out[k].Signature[:200] + " …"
				}
				return true
			case "}", ")", "]":
				return j.skipMember()
			}
		}
		name = t
		j.i++
	}
	return false
}

// skipMember moves past a field declaration (or anything else that is not a
// named declaration) to its ";", or stops before a closing brace.
func (j *javaParser) skipMember() bool {
	switch j.skipUntil(";") {
	case ";":
		j.i++
		return true
	case "":
		return j.is(0, "}")
	}
	return true
}

// skipAngles moves past a <…> group of type parameters or arguments.
func (j *javaParser) skipAngles() bool {
	depth := 0
	for ; !j.done(); j.i++ {
		switch t := j.peek(0); {
		case t.kind != 'p':
		case t.text == "<":
			depth++
		case t.text == ">":
			depth--
			if depth == 0 {
				j.i++
				return true
			}
		case t.text == "(" || t.text == "{" || t.text == ";" || t.text == ")" || t.text == "}":
			return false
		}
	}
	return false
}
