package gates

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	pyDefRe   = regexp.MustCompile(`^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(`)
	pyClassRe = regexp.MustCompile(`^(\s*)class\s+\w+`)
	// pyCheckRe finds what makes a Python test able to fail: an assert
	// statement or an assert… call (self.assertEqual, mock.assert_called_once,
	// numpy.testing.assert_equal), pytest.raises or pytest.warns, or an
	// explicit fail (self.fail, pytest.fail).
	pyCheckRe = regexp.MustCompile(`\bassert\w*|\bpytest\.(raises|warns|fail)\b|\.fail\s*\(`)
	// pyNeverRe finds the decorators that make a test never count: skipped
	// unconditionally, or expected to fail (an xfail test that passes is
	// reported as passed).
	pyNeverRe = regexp.MustCompile(`@(?:pytest\.)?mark\.(skip|xfail)\b|@unittest\.(skip|expectedFailure)\b|@(skip|expectedFailure)\b`)
)

// pyTestRefs finds the test functions of a Python file and the IDs each
// names in its name, body, docstring, or the comments and decorators just
// above it. A test can fail when its body, outside comments and strings,
// holds what pyCheckRe finds; one marked skip or xfail, or in a class so
// marked, never counts.
func pyTestRefs(src []byte, ids []string, mod, rel string) []testRef {
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	code := strings.Split(stripCode(strings.Join(lines, "\n"), '#'), "\n")
	var out []testRef
	type class struct {
		indent int
		never  string
	}
	var classes []class
	for i, l := range lines {
		indentOf := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
		if strings.TrimSpace(code[i]) != "" {
			for len(classes) > 0 && indentOf(l) <= classes[len(classes)-1].indent {
				classes = classes[:len(classes)-1]
			}
		}
		if m := pyClassRe.FindStringSubmatch(code[i]); m != nil {
			classes = append(classes, class{len(m[1]), pyNever(lines[pyAbove(lines, i):i])})
			continue
		}
		m := pyDefRe.FindStringSubmatch(code[i])
		if m == nil {
			continue
		}
		indent := len(m[1])
		from := pyAbove(lines, i)
		to := i + 1
		// The body ends at a line of code, a comment or a decorator as far
		// out as the def; a string's own lines (in code, blank) do not end it.
		for to < len(lines) {
			raw := strings.TrimSpace(lines[to])
			if raw != "" && indentOf(lines[to]) <= indent && (strings.TrimSpace(code[to]) != "" || raw[0] == '#' || raw[0] == '@') {
				break
			}
			to++
		}
		ref := testRef{lang: langPy, pkg: mod, name: m[2], file: rel, line: i + 1,
			checks: pyCheckRe.MatchString(strings.Join(code[i+1:to], "\n")), never: pyNever(lines[from:i])}
		for _, c := range classes {
			if ref.never == "" {
				ref.never = c.never
			}
		}
		text := []byte(strings.ToLower(strings.Join(lines[from:to], "\n")))
		for _, id := range ids {
			if mentions(text, id) {
				ref.ids = append(ref.ids, id)
			}
		}
		out = append(out, ref)
	}
	return out
}

// pyAbove is the first of the comment and decorator lines just above line i.
func pyAbove(lines []string, i int) int {
	for i > 0 {
		prev := strings.TrimSpace(lines[i-1])
		if !strings.HasPrefix(prev, "#") && !strings.HasPrefix(prev, "@") {
			break
		}
		i--
	}
	return i
}

func pyNever(decorators []string) string {
	for _, d := range decorators {
		if m := pyNeverRe.FindStringSubmatch(strings.TrimSpace(d)); m != nil {
			for _, g := range m[1:] {
				if g == "expectedFailure" {
					return "xfail"
				}
				if g != "" {
					return g
				}
			}
		}
	}
	return ""
}

// pyBaseName drops pytest's parameter suffix: test_x[1-2] -> test_x.
func pyBaseName(name string) string {
	if i := strings.IndexByte(name, '['); i > 0 {
		return name[:i]
	}
	return name
}

// pyMatches reports whether a JUnit case is the Python test ref: a case of
// its name whose classname is its module (tests.test_a) or a class in it, or
// whose file is its file.
func pyMatches(ref testRef, tc TestCase) bool {
	if pyBaseName(tc.Name) != ref.name {
		return false
	}
	return tc.Package == ref.pkg || strings.HasPrefix(tc.Package, ref.pkg+".") || strings.HasSuffix(ref.pkg, "."+tc.Package) ||
		(tc.File != "" && filepath.ToSlash(tc.File) == ref.file)
}

// pyModuleFile reports whether a dotted classname (pkg.test_a.TestX) names
// a Python file under root: the case is then Python's, read from its source.
func pyModuleFile(root, classname string) bool {
	parts := strings.Split(classname, ".")
	for n := len(parts); n > 0; n-- {
		p := filepath.Join(append([]string{root}, parts[:n]...)...) + ".py"
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// stripCode blanks the comments (from comment to the end of the line; for
// '/' also /* … */) and the contents of string literals of src, keeping its
// length and line breaks, so that what is left is code. Quotes ', " and `
// (JS), and Python's triple quotes, are understood; JS regular expressions
// are blanked where an operator or bracket precedes them.
func stripCode(src string, comment byte) string {
	b := []byte(src)
	blank := func(i int) {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	lastCode := byte('(') // the last non-space code character, for regexps
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == comment && (comment == '#' || (i+1 < len(b) && b[i+1] == '/')):
			for i < len(b) && b[i] != '\n' {
				blank(i)
				i++
			}
		case comment == '/' && c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			stop := len(b)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				blank(i)
			}
		case comment == '/' && c == '/' && strings.IndexByte("(,=:[!&|?{};+-*%<>~^", lastCode) >= 0:
			i++ // a regexp literal, to the next unescaped / outside a class
			for inClass := false; i < len(b) && b[i] != '\n'; i++ {
				if b[i] == '\\' && i+1 < len(b) {
					blank(i)
					i++
				} else if b[i] == '[' {
					inClass = true
				} else if b[i] == ']' {
					inClass = false
				} else if b[i] == '/' && !inClass {
					break
				}
				blank(i)
			}
			i++
			lastCode = 'a'
		case c == '"' || c == '\'' || (c == '`' && comment == '/'):
			quote := []byte{c}
			if comment == '#' && bytes.HasPrefix(b[i:], []byte{c, c, c}) {
				quote = []byte{c, c, c}
			}
			i += len(quote)
			for i < len(b) && !bytes.HasPrefix(b[i:], quote) {
				if b[i] == '\\' && i+1 < len(b) {
					blank(i)
					i++
				}
				if len(quote) == 1 && b[i] == '\n' && c != '`' {
					break // an unterminated string ends at the line
				}
				blank(i)
				i++
			}
			i += len(quote)
			lastCode = 'a'
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				lastCode = c
			}
			i++
		}
	}
	return string(b)
}
