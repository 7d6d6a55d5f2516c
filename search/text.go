package search

import (
	"path"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

const maxBodyChars = 16 << 10

// body returns the chunk's text after its doc comment (at most
// maxBodyChars of it).
func body(c *chunk.Chunk) string {
	_, t := splitAtDecl(c)
	if len(t) > maxBodyChars {
		t = t[:maxBodyChars]
	}
	return t
}

// splitAtDecl cuts a chunk's text at its declaration line: what is above it
// (its doc comment, decorators, annotations) and the rest.
func splitAtDecl(c *chunk.Chunk) (head, rest string) {
	rest = c.Text
	for i := c.StartLine; i < c.DeclLine && rest != ""; i++ {
		if k := strings.IndexByte(rest, '\n'); k >= 0 {
			rest = rest[k+1:]
		} else {
			rest = ""
		}
	}
	return c.Text[:len(c.Text)-len(rest)], rest
}

func pathText(p string) string {
	return strings.TrimSuffix(p, path.Ext(p))
}

// layoutDirs are folders that say where a repository keeps its code, not
// what the code is about: src/ holds every file of many a TypeScript,
// Rust or Java project.
var layoutDirs = map[string]bool{"src": true, "source": true, "lib": true, "pkg": true}

// embedPathText is the path as a chunk's vector reads it: without its
// extension and without layout folders, whose word, shared by every chunk,
// would only pull all the vectors towards each other.
func embedPathText(p string) string {
	p = pathText(p)
	if !strings.Contains(p, "/") {
		return p
	}
	segs := strings.Split(p, "/")
	kept := segs[:0]
	for i, s := range segs {
		if i < len(segs)-1 && layoutDirs[s] {
			continue
		}
		kept = append(kept, s)
	}
	return strings.Join(kept, "/")
}

// lexicalFields returns a chunk's text per lexical field; comments gives its
// inner comments (innerComments, worked out once for both fields and vector).
func (ix *Index) lexicalFields(c *chunk.Chunk, comments func() string) []string {
	f := make([]string, numFields)
	f[fieldPath] = pathText(c.Path)
	if c.Language == "markdown" {
		// A section's text is documentation: it counts as a doc comment
		// does, its heading path as a symbol's name.
		f[fieldName] = strings.Join(c.Heading, "\n")
		f[fieldKeywords] = c.Keywords + "\n" + c.Summary
		f[fieldDoc] = withoutHTMLComments(c.Text)
		return f
	}
	f[fieldName] = c.Symbol
	f[fieldSummary] = summary(c.Doc)
	f[fieldDoc] = c.Doc
	if strings.TrimSpace(c.Doc) == "" {
		// A symbol without a doc comment often explains itself in comments
		// inside its body; they get a field of their own (code has no
		// keywords), so that documented code, which they would only add
		// noise to, ranks as before.
		f[fieldKeywords] = comments()
	}
	f[fieldSignature] = indexSignature(c)
	f[fieldBody] = body(c)
	return f
}

// embedText is what a chunk's vector is made from; comments gives its inner
// comments (innerComments, worked out once for both fields and vector).
func (ix *Index) embedText(c *chunk.Chunk, comments func() string) string {
	var b strings.Builder
	if c.Language == "markdown" {
		b.WriteString(strings.Join(c.Heading, " > "))
		b.WriteString("\n")
		b.WriteString(c.Keywords)
		b.WriteString("\n")
		b.WriteString(c.Summary)
		b.WriteString("\n")
		b.WriteString(trimTo(withoutHTMLComments(c.Text), 4000))
		return b.String()
	}
	switch c.Kind {
	case chunk.Window, chunk.Module, chunk.Imports:
		b.WriteString(embedPathText(c.Path))
		b.WriteString("\n")
		b.WriteString(trimTo(c.Text, 2000))
		return b.String()
	}
	sig, doc := c.Signature, c.Doc
	if c.Language == "python" {
		sig, doc = pySignatureNames(sig), pyDocProse(doc)
	}
	if strings.TrimSpace(doc) == "" {
		doc = comments()
	}
	b.WriteString(c.Symbol)
	b.WriteString("\n")
	b.WriteString(sig)
	b.WriteString("\n")
	b.WriteString(trimTo(doc, ix.opt.Tuning.EmbedDocChars))
	b.WriteString("\n")
	b.WriteString(embedPathText(c.Path))
	n := ix.opt.Tuning.EmbedBodyChars
	if strings.TrimSpace(c.Doc) == "" {
		n = max(n, ix.opt.Tuning.EmbedBodyCharsNoDoc)
	}
	if n > 0 {
		b.WriteString("\n")
		b.WriteString(trimTo(body(c), n))
	}
	return b.String()
}

// summary returns the first sentence of a doc comment (at most 300 bytes).
func summary(doc string) string {
	first, _ := SplitSummary(doc)
	return trimTo(first, 300)
}

// SplitSummary cuts a doc comment after its first sentence (or its first
// paragraph, when that ends sooner): the summary the index weighs as a field
// of its own, and the rest.
func SplitSummary(doc string) (first, rest string) {
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
	return doc[:end], doc[end:]
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

// withoutHTMLComments returns markdown without its HTML comments: notes to
// tools (a standard's <!-- check: assume … --> declarations for its
// examples' checker), not what the section says, and search reads only
// what it says. Results still show the section's lines as they are.
func withoutHTMLComments(md string) string {
	for {
		i := strings.Index(md, "<!--")
		if i < 0 {
			return md
		}
		j := strings.Index(md[i+4:], "-->")
		if j < 0 {
			return md[:i]
		}
		md = md[:i] + md[i+4+j+3:]
	}
}

// innerComments returns the text of the comments written on lines of their
// own inside a chunk's body (not those after code on the same line, nor tool
// directives): what a symbol without a doc comment says about itself. Lines
// are read as they are, not lexed: a comment marker at the start of a line
// of a multi-line string counts too, rarely enough not to matter.
func innerComments(c *chunk.Chunk) string {
	python := c.Language == "python"
	var b strings.Builder
	inBlock := false
	for line := range strings.Lines(body(c)) {
		t := strings.TrimSpace(line)
		switch {
		case inBlock:
			if k := strings.Index(t, "*/"); k >= 0 {
				t, inBlock = t[:k], false
			}
			t = strings.TrimLeft(t, "* ")
		case python && strings.HasPrefix(t, "#"):
			t = strings.TrimLeft(t, "#! ")
		case !python && strings.HasPrefix(t, "//"):
			t = strings.TrimLeft(t, "/! ")
		case !python && strings.HasPrefix(t, "/*"):
			t = strings.TrimLeft(t, "/*! ")
			if k := strings.Index(t, "*/"); k >= 0 {
				t = t[:k]
			} else {
				inBlock = true
			}
		default:
			continue
		}
		if t = strings.TrimSpace(t); t != "" && !chunk.IsDirective(t) {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// deprecationMarks are how code says a symbol is deprecated, each at the
// start of a line of its doc comment or of the lines above its declaration:
// Go's "Deprecated:" paragraph, JSDoc's and Javadoc's @deprecated, Java's
// @Deprecated, Rust's #[deprecated] (its # goes with the comment markers
// trimmed before), Sphinx's ".. deprecated::". (A DeprecationWarning in a
// Python body is left out: as often it warns of a parameter, not of the
// function.)
var deprecationMarks = []string{"Deprecated:", "@deprecated", "@Deprecated", "[deprecated", ".. deprecated::"}

// isDeprecated reports whether a symbol is marked deprecated. In a Python
// docstring the mark must sit at the docstring's own indentation: one under
// a parameter's entry deprecates the parameter.
func isDeprecated(c *chunk.Chunk) bool {
	if c.Symbol == "" || c.Language == "markdown" {
		return false
	}
	startsWithMark := func(line string) bool {
		for _, mark := range deprecationMarks {
			if strings.HasPrefix(line, mark) {
				return true
			}
		}
		return false
	}
	text, b := splitAtDecl(c)
	if c.Language != "python" {
		text += "\n" + c.Doc
	}
	for line := range strings.Lines(text) {
		if startsWithMark(strings.TrimLeft(line, " \t/*#!")) {
			return true
		}
	}
	if c.Language == "python" && c.Doc != "" {
		docIndent, quote := -1, "" // the docstring's opening line's indentation, and its quotes
		for line := range strings.Lines(b) {
			trimmed := strings.TrimLeft(line, " \t")
			indent := len(line) - len(trimmed)
			switch {
			case docIndent < 0:
				if q := strings.TrimLeft(trimmed, "rRuU"); strings.HasPrefix(q, `"""`) || strings.HasPrefix(q, "'''") {
					docIndent, quote = indent, q[:3]
					if strings.Contains(q[3:], quote) {
						return false // a one-line docstring
					}
				}
			case indent == docIndent && startsWithMark(trimmed):
				return true
			case strings.Contains(line, quote):
				return false // the docstring ends
			}
		}
	}
	return false
}
