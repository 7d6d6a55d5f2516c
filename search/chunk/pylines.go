package chunk

// PyToken is a token of a Python file: Kind 'n' a name, 's' a string, '0' a
// number, 'o' an operator or bracket; Text its source; Off the byte offset
// of its first byte.
type PyToken struct {
	Kind byte
	Text string
	Off  int
}

// PyLine is a logical line of a Python file: its tokens, and the
// indentation of its first physical line (tabs to multiples of 8).
type PyLine struct {
	Indent int
	Toks   []PyToken
}

// PythonLines returns the logical lines of a Python file, read by the same
// tokenizer as PythonFuncs, so that no string or comment is taken for code.
// It reports false when the file does not tokenize.
func PythonLines(src []byte) ([]PyLine, bool) {
	stmts, _, err := pyLex(string(src))
	if err != nil {
		return nil, false
	}
	lines := make([]PyLine, len(stmts))
	for i, st := range stmts {
		toks := make([]PyToken, len(st.toks))
		for k, tk := range st.toks {
			toks[k] = PyToken{Kind: tk.kind, Text: tk.text, Off: tk.off}
		}
		lines[i] = PyLine{Indent: st.indent, Toks: toks}
	}
	return lines, true
}
