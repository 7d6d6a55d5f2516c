package gates

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// jsExt reports whether a file name has a JavaScript or TypeScript extension.
func jsExt(name string) bool {
	switch strings.TrimPrefix(filepath.Ext(name), ".") {
	case "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts":
		return true
	}
	return false
}

var (
	// jsCallRe finds a describe, it or test call with its modifiers:
	// it.skip(, test.each([…])(, describe.only(.
	jsCallRe = regexp.MustCompile(`(?:^|[^\w$.])(describe|context|suite|it|test|specify|xit|xtest|xdescribe|xcontext|fit|fdescribe)((?:\s*\.\s*\w+)*)\s*[(` + "`" + `]`)
	// jsCheckRe finds what makes a JS test able to fail: expect(…) or
	// expect.…, an assert call (assert(…), assert.equal, node's
	// t.assert.ok), chai's should, or one of ava's and node:test's t.is …
	// assertions.
	jsCheckRe = regexp.MustCompile(`\bexpect\s*[.(]|\bassert\b|\.should\b|\bt\s*\.\s*(is|not|deepEqual|notDeepEqual|true|false|truthy|falsy|throws|throwsAsync|notThrows|notThrowsAsync|regex|snapshot|fail|like|equal|ok)\s*\(`)
)

// jsBlock is a describe or a test call found in a JS/TS file.
type jsBlock struct {
	describe    bool
	title       string
	start, open int // where the call's name and its argument list start
	end         int // its closing parenthesis
	never       string
}

// jsTestRefs finds the it and test blocks of a JS/TS test file and the IDs
// each names in its title, its body, or the comments just above it. A test
// can fail when its body, outside comments and strings, holds what jsCheckRe
// finds; a test (or describe) marked skip, todo, fails or failing, or
// written xit, never counts. Its full names are the titles of the describes
// around it and its own, as Vitest (" > ") and jest-junit (" ") join them.
func jsTestRefs(src []byte, ids []string, rel string) []testRef {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	code := stripCode(text, '/')
	var blocks []jsBlock
	for _, m := range jsCallRe.FindAllStringSubmatchIndex(code, -1) {
		name := code[m[2]:m[3]]
		var mods []string
		for _, f := range strings.Split(code[m[4]:m[5]], ".") {
			if f = strings.TrimSpace(f); f != "" {
				mods = append(mods, f)
			}
		}
		open := m[1] - 1
		if code[open] == '`' || slices.ContainsFunc(mods, func(s string) bool { return s == "each" || s == "for" || s == "skipIf" || s == "runIf" }) {
			// it.each(table)(title, fn), it.each`table`(title, fn)
			close := jsClose(code, open)
			open = close + 1
			for open < len(code) && strings.IndexByte(" \t\n", code[open]) >= 0 {
				open++
			}
			if open >= len(code) || code[open] != '(' {
				continue
			}
		}
		b := jsBlock{describe: strings.Contains(name, "describe") || strings.Contains(name, "context") || name == "suite", start: m[2], open: open, end: jsClose(code, open)}
		switch {
		case strings.HasPrefix(name, "x"), slices.Contains(mods, "skip"):
			b.never = "skip"
		case slices.Contains(mods, "todo"):
			b.never = "todo"
		case slices.Contains(mods, "fails"):
			b.never = name + ".fails"
		case slices.Contains(mods, "failing"):
			b.never = name + ".failing"
		}
		b.title = jsTitle(text, code, open+1)
		blocks = append(blocks, b)
	}
	var out []testRef
	for _, b := range blocks {
		if b.describe {
			continue
		}
		var chain []string
		never := b.never
		for _, d := range blocks {
			if d.describe && d.open < b.start && b.start < d.end {
				chain = append(chain, d.title)
				if never == "" {
					never = d.never
				}
			}
		}
		chain = append(chain, b.title)
		from := jsCommentsAbove(text, b.start)
		ref := testRef{lang: langJS, name: b.title, names: []string{strings.Join(chain, " > "), strings.TrimSpace(strings.Join(chain, " "))},
			file: rel, line: strings.Count(text[:b.start], "\n") + 1, checks: jsCheckRe.MatchString(code[b.open:b.end]), never: never}
		lower := []byte(strings.ToLower(text[from:b.end]))
		for _, id := range ids {
			if mentions(lower, id) {
				ref.ids = append(ref.ids, id)
			}
		}
		out = append(out, ref)
	}
	return out
}

// jsClose returns the index of the bracket or backtick closing the one at
// open in code (whose strings and comments are blanked), or len(code).
func jsClose(code string, open int) int {
	if code[open] == '`' {
		if i := strings.IndexByte(code[open+1:], '`'); i >= 0 {
			return open + 1 + i
		}
		return len(code)
	}
	depth := 0
	for i := open; i < len(code); i++ {
		switch code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(code)
}

// jsTitle reads the string literal that starts the argument list at i, or
// "" when the title is not a literal.
func jsTitle(text, code string, i int) string {
	for i < len(code) && strings.IndexByte(" \t\n", code[i]) >= 0 {
		i++
	}
	if i >= len(code) || strings.IndexByte(`'"`+"`", code[i]) < 0 {
		return ""
	}
	end := strings.IndexByte(code[i+1:], code[i]) // contents are blanked, so the next quote closes it
	if end < 0 {
		return ""
	}
	return strings.NewReplacer(`\'`, `'`, `\"`, `"`, "\\`", "`", `\\`, `\`).Replace(text[i+1 : i+1+end])
}

// jsCommentsAbove returns where the comment lines just above the line of
// offset start begin (start's own line start when there are none).
func jsCommentsAbove(text string, start int) int {
	from := strings.LastIndexByte(text[:start], '\n') + 1
	for from > 0 {
		prevStart := strings.LastIndexByte(text[:from-1], '\n') + 1
		prev := strings.TrimSpace(text[prevStart : from-1])
		if !strings.HasPrefix(prev, "//") && !strings.HasPrefix(prev, "/*") && !strings.HasPrefix(prev, "*") {
			break
		}
		from = prevStart
	}
	return from
}

// jsMatches reports whether a JUnit case is the JS test ref: one of its full
// names, in its file when the report names the file (Vitest's classname,
// jest-junit's file attribute). A case without a file matches only when no
// other test in the project has that full name.
func (s *sourceTests) jsMatches(ref testRef, tc TestCase) bool {
	name := strings.TrimSpace(tc.Name)
	if !slices.Contains(ref.names, name) {
		return false
	}
	if p := junitPath(tc); p != "" {
		return samePath(ref.file, p)
	}
	return s.jsNames[name] == 1
}
