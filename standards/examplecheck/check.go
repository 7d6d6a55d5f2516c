package examplecheck

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Options configure Check. The zero value checks against Go 1.21 and finds
// the other tools on PATH.
type Options struct {
	// GoVersion is the oldest Go version the Go examples must compile with
	// ("1.21"); a block marked goX.Y is checked at that version instead.
	GoVersion string
	// GoMod and GoSum, a module's go.mod and go.sum, let Go blocks import
	// the third-party modules it requires (at its versions).
	GoMod, GoSum []byte
	// Python is the interpreter; empty means the first of python3 on PATH
	// and /usr/bin/python3 that has pyflakes.
	// TSC is the TypeScript compiler; empty means $AGENTOS_TSC, then the one
	// scripts/install-checkers.sh installs, then tsc on PATH.
	Python, TSC string
	// TypeScriptFiles are written, by name, beside the TypeScript blocks and
	// compiled with them: declarations (.d.ts) of the third-party modules
	// ("declare module \"express\"") and of the project's own modules
	// ("duration.d.ts" for "./duration.js") the examples import.
	TypeScriptFiles map[string][]byte
	// PostgresBin is the folder holding initdb, pg_ctl and psql; empty means
	// PATH, then /usr/lib/postgresql/<newest>/bin.
	PostgresBin string
}

// Problem is one way an example fails its check.
type Problem struct {
	Block   Block
	Line    int // the document's line the message points at
	Message string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s example: %s", p.Block.Doc, p.Line, p.Block.Lang, p.Message)
}

// Report is what Check found.
type Report struct {
	Checked   map[string]int    // language → blocks checked
	Fragments map[string]int    // language → blocks marked as fragments
	Unchecked map[string]int    // language → blocks of a language without a checker
	Skipped   map[string]string // language → why its checker did not run
	Problems  []Problem
}

// checker checks every block of its languages in one run of its tool; it
// returns a skipError when its tool is missing.
type checker func(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error)

// checkers are by language; runOf says which languages share a run.
var checkers = map[string]checker{
	"go":         checkGo,
	"python":     checkPython,
	"typescript": checkTSC,
	"javascript": checkTSC,
	"sql":        checkSQL,
	"json":       checkJSON,
}

// runOf names the run a language's blocks join, the one place that decides
// it: JavaScript's join TypeScript's in one tsc program (checkTSC), as each
// tsc start costs seconds of CPU (most of it parsing Node's and the DOM's
// declarations).
func runOf(lang string) string {
	if lang == "javascript" {
		return "typescript"
	}
	return lang
}

// skipError says a checker's tool is not installed.
type skipError struct{ reason string }

func (e skipError) Error() string { return e.reason }

// Check checks blocks (from Extract) with their languages' tools. A returned
// error means a checker could not run at all for a reason other than a
// missing tool; problems in the examples are in the report.
func Check(ctx context.Context, blocks []Block, opts Options) (*Report, error) {
	r := &Report{Checked: map[string]int{}, Fragments: map[string]int{}, Unchecked: map[string]int{}, Skipped: map[string]string{}}
	byLang := map[string][]Block{}
	for _, b := range blocks {
		switch {
		case b.Fragment:
			r.Fragments[b.Lang]++
		case checkers[b.Lang] == nil:
			r.Unchecked[b.Lang]++
		default:
			byLang[b.Lang] = append(byLang[b.Lang], b)
		}
	}
	runs := map[string][]string{} // run → its languages, sorted
	for l := range byLang {
		runs[runOf(l)] = append(runs[runOf(l)], l)
	}
	names := make([]string, 0, len(runs))
	for run := range runs {
		names = append(names, run)
		sort.Strings(runs[run])
	}
	sort.Strings(names)
	for _, run := range names {
		langs := runs[run]
		var runBlocks []Block
		for _, l := range langs {
			runBlocks = append(runBlocks, byLang[l]...)
		}
		dir, err := os.MkdirTemp("", "examplecheck-"+run+"-")
		if err != nil {
			return nil, fmt.Errorf("examplecheck: %w", err)
		}
		problems, err := checkers[run](ctx, dir, runBlocks, opts)
		os.RemoveAll(dir)
		if skip, ok := err.(skipError); ok {
			for _, l := range langs {
				r.Skipped[l] = skip.reason
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("examplecheck: %s: %w", strings.Join(langs, " and "), err)
		}
		for _, l := range langs {
			r.Checked[l] = len(byLang[l])
		}
		r.Problems = append(r.Problems, problems...)
	}
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.Block.Doc != b.Block.Doc {
			return a.Block.Doc < b.Block.Doc
		}
		return a.Line < b.Line
	})
	return r, nil
}

// fileName is the name of the i-th block's file in a checker's folder.
func fileName(i int, ext string) string { return fmt.Sprintf("b%03d%s", i, ext) }
