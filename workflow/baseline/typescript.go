package baseline

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"

	"github.com/agentos-dev/agentos/search/chunk"
)

var errNoParse = errors.New("does not lex or its brackets do not balance")

// tsNoCheck finds a // @ts-nocheck the file already has.
var tsNoCheck = regexp.MustCompile(`(?m)^\s*//\s*@ts-nocheck\b`)

func stubTS(lang, path string, base, current []byte) ([]byte, []string, error) {
	funcs, ok := chunk.TypeScriptFuncs(path, current)
	if !ok {
		return nil, nil, fmt.Errorf("%s %w", path, errNoParse)
	}
	old := codes{}
	if base != nil {
		bf, ok := chunk.TypeScriptFuncs(path, base)
		if !ok {
			return nil, nil, fmt.Errorf("%s at the base %w", path, errNoParse)
		}
		for _, f := range append(bf, tsObjectFuncs(lang, path, base)...) {
			old.add(f.Symbol, f.Code)
		}
	}
	funcs = append(funcs, tsObjectFuncs(lang, path, current)...)
	sort.SliceStable(funcs, func(i, j int) bool { return funcs[i].Body < funcs[j].Body })
	ts := lang == "typescript"
	zero := "undefined"
	if ts {
		zero = "undefined as any"
	}
	var (
		edits []edit
		names []string
		last  = -1 // end of the last stubbed body: a later one inside it goes with it
	)
	for _, f := range funcs {
		if old.take(f.Symbol, f.Code) || f.Body < last {
			continue
		}
		var text string
		switch {
		case f.Expr:
			text = zero
		case f.Constructor && f.Super != [2]int{}:
			// A derived class's constructor must call super before it
			// returns, or constructing it throws.
			text = "{ " + string(current[f.Super[0]:f.Super[1]]) + "; }"
		case f.Constructor, f.Setter:
			text = "{}" // neither may return a value
		case f.Never:
			text = "{ throw undefined; }"
		default:
			text = "{ return " + zero + "; }"
		}
		edits = append(edits, edit{f.Body, f.End, text})
		names = append(names, f.Symbol)
		last = f.End
	}
	if len(edits) == 0 {
		return current, nil, nil
	}
	if ts && !tsNoCheck.Match(current) {
		at, mark := 0, "// @ts-nocheck\n"
		if bytes.HasPrefix(current, []byte("#!")) { // a hashbang must stay first
			if at = bytes.IndexByte(current, '\n') + 1; at == 0 {
				at, mark = len(current), "\n"+mark
			}
		}
		edits = append(edits, edit{at, at, mark})
	}
	out := apply(current, edits)
	if _, ok := chunk.TypeScriptFuncs(path, out); !ok {
		// Never a before-source that fails for a reason of its own.
		return nil, nil, fmt.Errorf("stubbed %s %w", path, errNoParse)
	}
	return out, names, nil
}
