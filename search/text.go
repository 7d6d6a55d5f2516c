package search

import (
	"path"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

const maxBodyChars = 16 << 10

// body returns the chunk's text after its doc comment.
func body(c *chunk.Chunk) string {
	t := c.Text
	for i := c.StartLine; i < c.DeclLine && t != ""; i++ {
		if k := strings.IndexByte(t, '\n'); k >= 0 {
			t = t[k+1:]
		} else {
			t = ""
		}
	}
	if len(t) > maxBodyChars {
		t = t[:maxBodyChars]
	}
	return t
}

func pathText(p string) string {
	return strings.TrimSuffix(p, path.Ext(p))
}

// lexicalFields returns a chunk's text per lexical field.
func (ix *Index) lexicalFields(c *chunk.Chunk) []string {
	f := make([]string, numFields)
	f[fieldPath] = pathText(c.Path)
	if c.Language == "markdown" {
		// A section's text is documentation: it counts as a doc comment
		// does, its heading path as a symbol's name.
		f[fieldName] = strings.Join(c.Heading, "\n")
		f[fieldKeywords] = c.Keywords + "\n" + c.Summary
		f[fieldDoc] = c.Text
		return f
	}
	f[fieldName] = c.Symbol
	f[fieldSummary] = summary(c.Doc)
	f[fieldDoc] = c.Doc
	f[fieldSignature] = c.Signature
	f[fieldBody] = body(c)
	return f
}

// embedText is what a chunk's vector is made from.
func (ix *Index) embedText(c *chunk.Chunk) string {
	var b strings.Builder
	if c.Language == "markdown" {
		b.WriteString(strings.Join(c.Heading, " > "))
		b.WriteString("\n")
		b.WriteString(c.Keywords)
		b.WriteString("\n")
		b.WriteString(c.Summary)
		b.WriteString("\n")
		b.WriteString(trimTo(c.Text, 4000))
		return b.String()
	}
	switch c.Kind {
	case chunk.Window, chunk.Module, chunk.Imports:
		b.WriteString(pathText(c.Path))
		b.WriteString("\n")
		b.WriteString(trimTo(c.Text, 2000))
		return b.String()
	}
	sig, doc := c.Signature, c.Doc
	if c.Language == "python" {
		sig, doc = pySignatureNames(sig), pyDocProse(doc)
	}
	b.WriteString(c.Symbol)
	b.WriteString("\n")
	b.WriteString(sig)
	b.WriteString("\n")
	b.WriteString(trimTo(doc, ix.opt.Tuning.EmbedDocChars))
	b.WriteString("\n")
	b.WriteString(pathText(c.Path))
	if n := ix.opt.Tuning.EmbedBodyChars; n > 0 {
		b.WriteString("\n")
		b.WriteString(trimTo(body(c), n))
	}
	return b.String()
}

// summary returns the first sentence of a doc comment (at most 300 bytes).
func summary(doc string) string {
	doc = strings.TrimSpace(doc)
	end := len(doc)
	if k := strings.Index(doc, "\n\n"); k >= 0 {
		end = k
	}
	for i := 0; i+1 < end; i++ {
		if (doc[i] == '.' || doc[i] == '!' || doc[i] == '?') && (doc[i+1] == ' ' || doc[i+1] == '\n') {
			end = i + 1
			break
		}
	}
	return trimTo(doc[:end], 300)
}

func trimTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// contextDefs returns the summaries a file's chunks lend to others: each
// type's (or class's) by "folder\x00Type", the package's by "folder\x00"
// for Go and "file\x00" elsewhere.
func contextDefs(cs []chunk.Chunk) map[string]string {
	defs := map[string]string{}
	for i := range cs {
		c := &cs[i]
		s := summary(c.Doc)
		if s == "" {
			continue
		}
		switch c.Kind {
		case chunk.Type:
			defs[path.Dir(c.Path)+"\x00"+c.Symbol] = s
		case chunk.Package:
			defs[packageKey(c)] = s
		}
	}
	return defs
}

func packageKey(c *chunk.Chunk) string {
	if c.Language == "go" {
		return path.Dir(c.Path) + "\x00"
	}
	return c.Path + "\x00"
}

// contextNeeds returns the context keys a chunk borrows: the summaries of
// the types it belongs to or makes, then its package's.
func contextNeeds(c *chunk.Chunk) []string {
	switch c.Kind {
	case chunk.Func, chunk.Method, chunk.Type, chunk.Const, chunk.Var:
	default:
		return nil
	}
	var keys []string
	types := c.Types
	if len(types) == 0 && c.Kind == chunk.Method {
		if i := strings.LastIndex(c.Symbol, "."); i > 0 {
			types = []string{c.Symbol[:i][strings.LastIndex(c.Symbol[:i], ".")+1:]}
		}
	}
	for _, t := range types[:min(len(types), 2)] {
		if t != c.Symbol {
			keys = append(keys, path.Dir(c.Path)+"\x00"+t)
		}
	}
	return append(keys, packageKey(c))
}

// A Python symbol's vector is made of its name, its parameters' names and
// what its docstring says it does, as a Go symbol's is of its name,
// signature and doc comment. Python signatures carry annotations and
// default values, and docstrings a section per parameter, return value and
// exception (numpydoc, Google style, Sphinx fields) that often outweighs
// the prose within the few hundred characters embedded: the same type
// names and "str, optional" recur in most of them and pull unrelated
// symbols together. The lexical fields keep all of it.

// pyFieldSections are the docstring sections about parameters, results,
// exceptions, attributes and literature, by lower-case name.
var pyFieldSections = map[string]bool{
	"args": true, "arguments": true, "parameters": true, "params": true, "other parameters": true,
	"keyword arguments": true, "keyword args": true, "kwargs": true, "returns": true, "return": true,
	"yields": true, "yield": true, "receives": true, "raises": true, "raise": true, "warns": true,
	"attributes": true, "references": true,
}

// pyDocProse returns a docstring without its parameter, result, exception,
// attribute and reference sections and Sphinx field lines (":param x:"). A
// section runs from its heading to the next heading; examples, notes and
// "see also" stay.
func pyDocProse(doc string) string {
	if doc == "" {
		return ""
	}
	lines := strings.Split(doc, "\n")
	var b strings.Builder
	skip := false     // in a dropped section
	fieldIndent := -1 // in a Sphinx field indented by this much
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		if fieldIndent >= 0 {
			if t != "" && indent <= fieldIndent {
				fieldIndent = -1
			} else {
				continue
			}
		}
		if h, ok := pyDocHeading(lines, i); ok {
			skip = pyFieldSections[h]
			if skip {
				if i+1 < len(lines) && isUnderline(lines[i+1]) {
					i++
				}
				continue
			}
		}
		if skip {
			continue
		}
		if pySphinxField(t) {
			fieldIndent = indent
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return strings.TrimSpace(b.String())
}

// pyDocHeading reports whether line i of a docstring heads a section, and
// its name in lower case: a short line underlined with dashes or equals
// signs (numpydoc), or a known name and a colon alone on its line (Google
// style).
func pyDocHeading(lines []string, i int) (string, bool) {
	l := strings.TrimSpace(lines[i])
	if l == "" || len(l) > 30 {
		return "", false
	}
	if i+1 < len(lines) && isUnderline(lines[i+1]) {
		return strings.ToLower(l), true
	}
	if name, ok := strings.CutSuffix(l, ":"); ok {
		n := strings.ToLower(name)
		switch n {
		case "example", "examples", "note", "notes", "see also", "warning", "warnings", "todo":
			return n, true
		}
		if pyFieldSections[n] {
			return n, true
		}
	}
	return "", false
}

func isUnderline(l string) bool {
	l = strings.TrimSpace(l)
	return len(l) >= 3 && (strings.Trim(l, "-") == "" || strings.Trim(l, "=") == "")
}

// pySphinxField reports whether a docstring line starts a Sphinx field about
// a parameter, result or exception (":param x:", ":rtype:").
func pySphinxField(t string) bool {
	if !strings.HasPrefix(t, ":") {
		return false
	}
	name, _, _ := strings.Cut(t[1:], " ")
	name = strings.TrimSuffix(name, ":")
	switch name {
	case "param", "parameter", "arg", "argument", "key", "keyword", "kwarg", "type", "returns", "return",
		"rtype", "raises", "raise", "except", "exception", "var", "ivar", "cvar", "vartype", "yields", "yield", "ytype":
		return true
	}
	return false
}

// pySignatureNames returns a Python signature with its parameters' names
// only: "def f(a: Optional[int] = None, *, b: str = "x") -> R" gives
// "def f(a, b)", "class C(Base[T])" gives "class C(Base)".
func pySignatureNames(sig string) string {
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return sig
	}
	var b, name strings.Builder
	b.WriteString(sig[:open+1])
	first := true
	flush := func() {
		if n := strings.TrimLeft(strings.TrimSpace(name.String()), "*"); n != "" && n != "/" {
			if !first {
				b.WriteString(", ")
			}
			b.WriteString(n)
			first = false
		}
		name.Reset()
	}
	depth, inName := 0, true // inName: before the parameter's ":" or "="
	var quote byte
	for i := open + 1; i < len(sig); i++ {
		ch := sig[i]
		switch {
		case quote != 0:
			if ch == '\\' {
				i++
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case (ch == ')' || ch == ']' || ch == '}') && depth > 0:
			depth--
		case depth > 0:
		case ch == ')':
			if inName {
				flush()
			}
			b.WriteByte(')')
			return b.String()
		case ch == ',':
			if inName {
				flush()
			}
			inName = true
		case ch == ':' || ch == '=':
			if inName {
				flush()
			}
			inName = false
		case inName:
			name.WriteByte(ch)
		}
	}
	return b.String()
}
