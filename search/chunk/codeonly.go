package chunk

import (
	"bytes"
	"strings"
)

// CodeOnly returns src with its comments and the text of its string literals
// blanked, byte for byte, so that a pattern looking for code (a call site:
// "name(") finds none in a comment ("overridden later by create()") or a
// message ("call init() first"), while every offset and line stays where it
// was. Code inside a literal stays: a template literal's ${…}, an f-string's
// {…} and a JSX element. Go files, and files the language's lexer cannot
// follow, come back as they are.
func CodeOnly(p, lang string, src []byte) []byte {
	out := bytes.Clone(src)
	var ok bool
	switch lang {
	case "typescript", "javascript":
		ok = blankTS(out, allowsJSX(p))
	case "python":
		ok = blankPython(out)
	case "rust", "java":
		ok = blankC(lang, out)
	}
	if !ok {
		return src
	}
	return out
}

// blank replaces out[from:to] with spaces, keeping its line breaks.
func blank(out []byte, from, to int) {
	for i := from; i < to && i < len(out); i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
}

// blankTS blanks the comments and literals of TypeScript or JavaScript
// code, and those of the code in its template literals' substitutions.
func blankTS(out []byte, jsx bool) bool {
	src := string(out)
	lx, err := lexTS(src, jsx)
	if err != nil {
		return false
	}
	for _, c := range lx.comments {
		blank(out, c.Off, c.End)
	}
	for _, t := range lx.toks {
		switch t.Kind {
		case tsString, tsRegex:
			blank(out, t.Off, t.End)
		case tsTemplate:
			// Blank the text between substitutions; a substitution's end
			// is where the lexer's own scan of it stops.
			from := t.Off
			for j := t.Off + 1; j < t.End-1; j++ {
				switch src[j] {
				case '\\':
					j++
				case '$':
					if src[j+1] != '{' {
						continue
					}
					end, err := (&tsLexer{src: src, jsx: jsx}).sub(j + 2)
					if err != nil {
						return false
					}
					blank(out, from, j+2)
					blankTS(out[j+2:end-1], jsx)
					from, j = end-1, end-2
				}
			}
			blank(out, from, t.End)
		}
	}
	return true
}

func blankPython(out []byte) bool {
	src := string(out)
	stmts, _, err := pyLex(src)
	if err != nil {
		return false
	}
	at := 0
	for _, st := range stmts {
		for _, t := range st.toks {
			if !blankPyToken(out, src, at, t) {
				return false
			}
			at = t.off + len(t.text)
		}
	}
	blankPyComments(out, src, at, len(src))
	return true
}

// blankPyToken blanks the comments between the previous token (ending at
// at) and t, and t itself if it is a string, but for an f-string's fields.
func blankPyToken(out []byte, src string, at int, t pyTok) bool {
	blankPyComments(out, src, at, t.off)
	at = t.off + len(t.text)
	if t.kind != 's' {
		return true
	}
	q := strings.IndexAny(t.text, `'"`)
	if !strings.ContainsAny(t.text[:q], "fFtT") {
		blank(out, t.off, at)
		return true
	}
	// An f-string: blank its text, keep its replacement fields.
	raw := strings.ContainsAny(t.text[:q], "rR")
	triple := strings.HasPrefix(t.text[q:], strings.Repeat(t.text[q:q+1], 3))
	from := t.off
	for j := t.off + q + 1; j < at-1; j++ {
		switch {
		case src[j] == '\\' && !raw && strings.HasPrefix(src[j:], `\N{`):
			j += strings.IndexByte(src[j:], '}') // a named character, not a field
		case src[j] == '\\' && src[j+1] != '{' && src[j+1] != '}':
			j++ // an escape; before a brace the backslash is text and the brace a field's
		case strings.HasPrefix(src[j:], "{{"):
			j++
		case src[j] == '{':
			end, err := (&pyLexer{src: src}).field(j+1, triple)
			if err != nil {
				return false
			}
			blank(out, from, j+1)
			blankPython(out[j+1 : end-1]) // a field with a format spec does not lex, and stays
			from, j = end-1, end-2
		}
	}
	blank(out, from, at)
	return true
}

// blankPyComments blanks the comments between two tokens: there, outside
// any string, a "#" starts one.
func blankPyComments(out []byte, src string, from, to int) {
	for i := from; i < to; i++ {
		if src[i] == '#' {
			end := lineEnd(src, i)
			blank(out, i, end)
			i = end
		}
	}
}

func blankC(lang string, out []byte) bool {
	src := string(out)
	toks, _, err := cLex(src, lang)
	if err != nil {
		return false
	}
	at := 0
	for _, t := range toks {
		blankCComments(lang, out, src, at, t.off)
		at = t.off + len(t.text)
		if t.kind == 's' {
			blank(out, t.off, at)
		}
	}
	blankCComments(lang, out, src, at, len(src))
	return true
}

// blankCComments blanks the comments between two tokens of Rust or Java.
func blankCComments(lang string, out []byte, src string, from, to int) {
	for i := from; i+1 < to; i++ {
		switch {
		case src[i] == '/' && src[i+1] == '/':
			end := lineEnd(src, i)
			blank(out, i, end)
			i = end
		case src[i] == '/' && src[i+1] == '*':
			end, ok := skipBlockComment(src, i, lang == "rust")
			if !ok {
				end = to
			}
			blank(out, i, end)
			i = end - 1
		}
	}
}
