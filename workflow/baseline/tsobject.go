package baseline

import (
	"bytes"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

// chunk.TypeScriptFuncs leaves the functions of object literals to the
// declaration that holds them. This file finds, in the object literals a
// file binds at its top level,
//
//	const api = { … }            (let, var; export; a type annotation)
//	export default { … }
//	module.exports = { … }       (exports.x = { … }, module.exports.x = { … })
//
// their methods (greet(n) {…}, async, generators, get and set) and their
// properties whose value is a function or an arrow function
// (total: (xs) => …), in nested object literals too. Where the members lie
// is read from chunk.CodeOnly's copy of the file, where no comment, string
// or regular expression can hide or fake a bracket; what each member is,
// its body and its code, from chunk.TypeScriptFuncs reading the member
// alone, as a class's method or as a variable's value.

// objTok is a token of the code-only copy: a name, a number, or punctuation
// ("=>", "...", "==", "?." and otherwise one character).
type objTok struct {
	text     string
	off, end int
}

// tsObjectFuncs returns the functions of the object literals bound at the
// top level of a TypeScript or JavaScript file, in source order, named by
// the binding and the keys: "api.greet", "api.nested.fn", `api["a key"]`,
// "api[Symbol.iterator]", "default.greet", "exports.greet". It
// returns none when the file's brackets do not balance in its code, as in
// JSX text that holds a lone bracket.
func tsObjectFuncs(lang, path string, src []byte) []chunk.TSFunc {
	code := chunk.CodeOnly(path, lang, src)
	if len(src) > 0 && &code[0] == &src[0] {
		return nil // CodeOnly gives back src itself when its lexer fails
	}
	toks := objTokens(code)
	match, ok := objMatch(toks)
	if !ok {
		return nil
	}
	o := &objReader{lang: lang, path: path, src: src, toks: toks, match: match}
	at := func(i int, s string) bool { return i < len(toks) && toks[i].text == s }
	for i := 0; i < len(toks); i++ {
		t := toks[i].text
		if i > 0 && toks[i-1].text == "." {
			continue
		}
		switch {
		case t == "const" || t == "let" || t == "var":
			// Declarators: name, a type, "=", an object; another one
			// after a ",".
			for j := i + 1; j < len(toks) && objName(toks[j].text); {
				name := toks[j].text
				j++
				if at(j, ":") {
					angles := 0 // a type's <…> may hold commas
					for j++; j < len(toks) && !at(j, "=") && !at(j, ";") && (angles > 0 || !at(j, ",")); j++ {
						switch {
						case at(j, "<"):
							angles++
						case at(j, ">") && angles > 0:
							angles--
						case match[j] > j:
							j = match[j]
						}
					}
				}
				if !at(j, "=") || !at(j+1, "{") {
					break
				}
				o.object(name, j+1)
				j = match[j+1] + 1
				if !at(j, ",") {
					break
				}
				j++
			}
		case t == "export" && at(i+1, "default") && at(i+2, "{"):
			o.object("default", i+2)
		case t == "module" && at(i+1, ".") && at(i+2, "exports") && at(i+3, "=") && at(i+4, "{"):
			o.object("exports", i+4)
		case t == "module" && at(i+1, ".") && at(i+2, "exports") && at(i+3, ".") && i+4 < len(toks) && objName(toks[i+4].text) && at(i+5, "=") && at(i+6, "{"):
			o.object(toks[i+4].text, i+6)
		case t == "exports" && at(i+1, ".") && i+2 < len(toks) && objName(toks[i+2].text) && at(i+3, "=") && at(i+4, "{"):
			o.object(toks[i+2].text, i+4)
		}
		// Only the top level: a block, a class body, a call's arguments
		// are skipped whole.
		if m := match[i]; m > i {
			i = m
		}
	}
	return o.out
}

type objReader struct {
	lang, path string
	src        []byte
	toks       []objTok
	match      []int
	out        []chunk.TSFunc
	depth      int
}

// object reads the object literal whose "{" is toks[open], its members
// named prefix.key.
func (o *objReader) object(prefix string, open int) {
	if o.depth++; o.depth > 50 {
		return
	}
	defer func() { o.depth-- }()
	closing := o.match[open]
	from := open + 1
	for k := open + 1; k <= closing; k++ {
		if k < closing && o.toks[k].text != "," {
			if m := o.match[k]; m > k {
				k = m
			}
			continue
		}
		if k > from {
			o.member(prefix, from, k)
		}
		from = k + 1
	}
}

// member reads the member toks[a:e] of an object literal: toks[a-1] is the
// "{" or "," before it, toks[e] the "," or "}" after it.
func (o *objReader) member(prefix string, a, e int) {
	toks := o.toks
	at := func(i int, s string) bool { return i < e && toks[i].text == s }
	// The member's text runs from the end of the token before it.
	start, end := toks[a-1].end, toks[e].off
	if at(a, "...") {
		return
	}
	m := a
	for m+1 < e && (at(m, "async") || at(m, "get") || at(m, "set") || at(m, "*")) &&
		!at(m+1, "(") && !at(m+1, ":") && !at(m+1, "<") && !at(m+1, ",") {
		m++
	}
	// The key, as the symbol spells it: .name or .number, a computed
	// [key], or a string ["key"], which the code-only copy shows as blanks,
	// so that no token stands for it.
	var key string
	switch {
	case at(m, "["):
		key = strings.Join(strings.Fields(string(o.src[toks[m].off:toks[o.match[m]].end])), "")
		m = o.match[m] + 1
	case m < e && objNameByte(toks[m].text[0]):
		key = "." + toks[m].text
		m++
	default:
		to := end
		if m < e {
			to = toks[m].off
		}
		if k, ok := objStringKey(o.src[toks[m-1].end:to]); ok {
			key = `["` + k + `"]`
		}
	}
	if key == "" || m >= e {
		return
	}
	var (
		synth, sym string // the member alone, and the symbol chunk names it by
		valueAt    = start
	)
	switch {
	case at(m, "(") || at(m, "<"):
		synth, sym = "class O {\n", "O."
	case at(m, ":") && at(m+1, "{") && o.match[m+1] == e-1:
		o.object(prefix+key, m+1)
		return
	case at(m, ":") && objFunctionStart(toks[m+1:e]):
		synth, sym, valueAt = "const v = ", "v", toks[m+1].off
	default:
		return
	}
	at0 := len(synth)
	text := string(o.src[valueAt:end])
	synth += text + "\n"
	if sym == "O." {
		synth += "}\n"
	}
	funcs, ok := chunk.TypeScriptFuncs(o.path, []byte(synth))
	if !ok || len(funcs) != 1 || !strings.HasPrefix(funcs[0].Symbol, sym) {
		return
	}
	f := funcs[0]
	if f.Body < at0 || f.End > at0+len(text) || f.Body >= f.End {
		return
	}
	f.Symbol = prefix + key
	f.Body += valueAt - at0
	f.End += valueAt - at0
	f.Constructor, f.Super = false, [2]int{} // an object's "constructor" is a method like any
	o.out = append(o.out, f)
}

// objFunctionStart reports whether a property's value starts as a function
// or an arrow function does.
func objFunctionStart(v []objTok) bool {
	if len(v) == 0 {
		return false
	}
	i := 0
	if v[0].text == "async" && len(v) > 1 {
		i = 1
	}
	switch t := v[i].text; {
	case t == "function", t == "(", t == "<":
		return true
	case objName(t):
		return i+1 < len(v) && v[i+1].text == "=>"
	}
	return false
}

// objStringKey returns the text of the string literal that is a member's
// key, between the comments and blanks around it in b.
func objStringKey(b []byte) (string, bool) {
	for {
		b = bytes.TrimLeft(b, " \t\r\n\f\v")
		switch {
		case bytes.HasPrefix(b, []byte("//")):
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				return "", false
			}
			b = b[i:]
			continue
		case bytes.HasPrefix(b, []byte("/*")):
			i := bytes.Index(b[2:], []byte("*/"))
			if i < 0 {
				return "", false
			}
			b = b[2+i+2:]
			continue
		}
		break
	}
	if len(b) < 2 || b[0] != '"' && b[0] != '\'' {
		return "", false
	}
	for j := 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case b[0]:
			return string(b[1:j]), true
		}
	}
	return "", false
}

// objName reports whether t is an identifier (a keyword too).
func objName(t string) bool {
	return t != "" && objNameByte(t[0]) && !(t[0] >= '0' && t[0] <= '9')
}

func objNameByte(c byte) bool {
	return c == '_' || c == '$' || c == '#' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// objSpace returns the length of the white space b starts with, or 0: the
// ASCII blanks and line ends, and those the lexer reads beyond them.
func objSpace(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r' || b[0] == '\f' || b[0] == '\v':
		return 1
	case bytes.HasPrefix(b, []byte("\u00a0")):
		return len("\u00a0")
	case bytes.HasPrefix(b, []byte("\ufeff")), bytes.HasPrefix(b, []byte("\u2028")), bytes.HasPrefix(b, []byte("\u2029")):
		return len("\ufeff")
	}
	return 0
}

// objTokens splits the code-only copy of a file into tokens.
func objTokens(code []byte) []objTok {
	var out []objTok
	for i := 0; i < len(code); {
		if n := objSpace(code[i:]); n > 0 {
			i += n
			continue
		}
		c, j := code[i], i+1
		switch {
		case objNameByte(c):
			for j < len(code) && objNameByte(code[j]) && objSpace(code[j:]) == 0 {
				j++
			}
		case c == '=' && j < len(code) && code[j] == '>':
			j++
		case c == '=' || c == '!':
			for j < len(code) && code[j] == '=' {
				j++
			}
		case bytes.HasPrefix(code[i:], []byte("...")):
			j = i + 3
		case c == '?' && j < len(code) && code[j] == '.':
			j++
		}
		out = append(out, objTok{string(code[i:j]), i, j})
		i = j
	}
	return out
}

// objMatch pairs the brackets of toks: match[i] is the index of the
// bracket that closes toks[i], or -1. It reports false when they do not
// pair.
func objMatch(toks []objTok) ([]int, bool) {
	match := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		match[i] = -1
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			if len(stack) == 0 {
				return nil, false
			}
			o := stack[len(stack)-1]
			if toks[o].text[0] != opener(t.text[0]) {
				return nil, false
			}
			stack = stack[:len(stack)-1]
			match[o] = i
		}
	}
	return match, len(stack) == 0
}

// opener returns the bracket that the closing bracket c closes.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}
