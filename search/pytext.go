package search

import "strings"

// A Python symbol's vector is made of its name, its parameters' names and
// what its docstring says it does, as a Go symbol's is of its name,
// signature and doc comment. Python signatures carry annotations and
// default values, and numpydoc and Google-style docstrings a section per
// parameter, return value and exception that often outweighs the prose
// within the few hundred characters embedded: the same type names and
// "str, optional" recur in most of them and pull unrelated symbols
// together. Sphinx fields (":param host: the server to connect to") stay:
// they are sentences about the parameters, and leaving them out lowered a
// code base documented with them. The lexical fields keep all of it.

// pyFieldSections are the docstring sections about parameters, results,
// exceptions, attributes and literature, by lower-case name.
var pyFieldSections = map[string]bool{
	"args": true, "arguments": true, "parameters": true, "params": true, "other parameters": true,
	"keyword arguments": true, "keyword args": true, "kwargs": true, "returns": true, "return": true,
	"yields": true, "yield": true, "receives": true, "raises": true, "raise": true, "warns": true,
	"attributes": true, "references": true,
}

// pyDocProse returns a docstring without its parameter, result, exception,
// attribute and reference sections. A section runs from its heading to the
// next heading; examples, notes and "see also" stay.
func pyDocProse(doc string) string {
	if doc == "" {
		return ""
	}
	lines := strings.Split(doc, "\n")
	var b strings.Builder
	skip := false // in a dropped section
	for i := 0; i < len(lines); i++ {
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
		b.WriteString(lines[i])
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
