package baseline

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/agentos-dev/agentos/search/chunk"
)

var errNoTokens = errors.New("does not tokenize")

func stubPython(base, current []byte) ([]byte, []string, error) {
	funcs, ok := chunk.PythonFuncs(current)
	if !ok {
		return nil, nil, errNoTokens
	}
	old := codes{}
	if base != nil {
		bf, ok := chunk.PythonFuncs(base)
		if !ok {
			return nil, nil, fmt.Errorf("at the base: %w", errNoTokens)
		}
		for _, f := range bf {
			old.add(f.Symbol, f.Code)
		}
	}
	nl := "\n"
	if bytes.Contains(current, []byte("\r\n")) {
		nl = "\r\n"
	}
	var (
		edits []edit
		names []string
	)
	for _, f := range funcs {
		if old.take(f.Symbol, f.Code) {
			continue
		}
		doc := ""
		if f.DocEnd > 0 {
			doc = string(current[f.Body:f.DocEnd])
		}
		var text string
		switch {
		case f.Inline && doc != "":
			text = " " + doc + "; return None"
		case f.Inline:
			text = " return None"
		default:
			// The body keeps the exact indentation of its first line:
			// the logical line starts it, so only blanks precede it.
			indent := string(current[bytes.LastIndexByte(current[:f.Body], '\n')+1 : f.Body])
			text = nl + indent
			if doc != "" {
				text += doc + nl + indent
			}
			text += "return None"
		}
		edits = append(edits, edit{f.Colon + 1, f.End, text})
		names = append(names, f.Symbol)
	}
	if len(edits) == 0 {
		return current, nil, nil
	}
	return apply(current, edits), names, nil
}
