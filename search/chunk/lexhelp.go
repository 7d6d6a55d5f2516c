package chunk

import "strings"

// Lexing helpers the language lexers share, and the test for import lines
// that moduleChunks uses to tell "imports" from "module" chunks.

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func skipBlockComment(s string, i int, nested bool) (int, bool) {
	depth := 0
	for j := i; j+1 < len(s); j++ {
		switch {
		case s[j] == '/' && s[j+1] == '*':
			if depth == 0 || nested {
				depth++
			}
			j++
		case s[j] == '*' && s[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1, true
			}
		}
	}
	return 0, false
}

func importTest(lang string) func(string) bool {
	switch lang {
	case "rust":
		return func(t string) bool {
			return strings.HasPrefix(t, "use ") || strings.HasPrefix(t, "pub use ") || strings.HasPrefix(t, "extern crate ") ||
				(strings.HasPrefix(t, "mod ") || strings.HasPrefix(t, "pub mod ")) && strings.HasSuffix(t, ";") ||
				strings.HasPrefix(t, "#!") || strings.HasPrefix(t, "#[")
		}
	case "java":
		return func(t string) bool { return strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "package ") }
	}
	return func(t string) bool {
		return strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "export ") && strings.Contains(t, " from ") ||
			strings.Contains(t, "require(") && (strings.HasPrefix(t, "const ") || strings.HasPrefix(t, "var ") || strings.HasPrefix(t, "let ")) ||
			strings.HasPrefix(t, "'use strict'") || strings.HasPrefix(t, `"use strict"`) ||
			strings.Contains(t, "} from ") || isIdentList(t)
	}
}

// isIdentList reports whether t is a line of a multi-line import list
// ("  foo, bar,").
func isIdentList(t string) bool {
	t = strings.TrimSuffix(t, ",")
	for _, f := range strings.Split(t, ",") {
		f = strings.TrimSpace(f)
		f = strings.TrimPrefix(f, "type ")
		if k := strings.Index(f, " as "); k >= 0 {
			f = f[:k]
		}
		if f == "" {
			return false
		}
		for i := 0; i < len(f); i++ {
			if !isIdentByte(f[i]) {
				return false
			}
		}
	}
	return true
}
