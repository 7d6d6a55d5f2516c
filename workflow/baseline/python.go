package baseline

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

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
		for _, l := range pyLambdas(base) {
			old.add(l.symbol, l.code)
		}
	}
	nl := "\n"
	if bytes.Contains(current, []byte("\r\n")) {
		nl = "\r\n"
	}
	type stub struct {
		name string
		e    edit
	}
	var stubs []stub
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
		stubs = append(stubs, stub{f.Symbol, edit{f.Colon + 1, f.End, text}})
	}
	for _, l := range pyLambdas(current) {
		if !old.take(l.symbol, l.code) {
			stubs = append(stubs, stub{l.symbol, edit{l.body, l.end, "None"}})
		}
	}
	if len(stubs) == 0 {
		return current, nil, nil
	}
	sort.SliceStable(stubs, func(i, j int) bool { return stubs[i].e.from < stubs[j].e.from })
	var (
		edits []edit
		names []string
	)
	for _, s := range stubs {
		edits = append(edits, s.e)
		names = append(names, s.name)
	}
	out := apply(current, edits)
	if _, ok := chunk.PythonFuncs(out); !ok {
		// Never a before-source that fails for a reason of its own.
		return nil, nil, fmt.Errorf("the stubbed file %w", errNoTokens)
	}
	return out, names, nil
}
