// Package refcheck measures the chunker against a reference parser: it
// reads the declarations a reference printed for a set of files (name,
// kind, line) and counts those the chunker emits with the same symbol and
// declaration line. The fixture test here and the bench/refparse program
// both decide agreement through Compare.
package refcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/agentos-dev/agentos/search/chunk"
)

// Decl is one declaration a reference parser found.
type Decl struct {
	Name string `json:"name"` // qualified as the chunker qualifies symbols
	Kind string `json:"kind"`
	Line int    `json:"line"` // the declaration's own line (def, fn, class…)
}

// Reference maps a file's slash-separated path, relative to a root, to its
// declarations.
type Reference map[string][]Decl

// Miss is a declaration the chunker did not emit as the reference has it.
type Miss struct {
	Path string
	Decl Decl
}

func (m Miss) String() string {
	return fmt.Sprintf("%s:%d %s %s", m.Path, m.Decl.Line, m.Decl.Kind, m.Decl.Name)
}

// Result counts agreement over a set of files.
type Result struct {
	Files, Decls, Matched int
	Misses                []Miss
}

// Share is the fraction of declarations matched.
func (r Result) Share() float64 {
	if r.Decls == 0 {
		return 1
	}
	return float64(r.Matched) / float64(r.Decls)
}

// Load reads a reference JSON file.
func Load(path string) (Reference, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read reference: %w", err)
	}
	var ref Reference
	if err := json.Unmarshal(data, &ref); err != nil {
		return nil, fmt.Errorf("reference %s: %w", path, err)
	}
	return ref, nil
}

// Compare chunks every file of ref under root as lang and counts the
// reference's declarations found with the same symbol and declaration line.
func Compare(root, lang string, ref Reference) (Result, error) {
	var r Result
	paths := make([]string, 0, len(ref))
	for p := range ref {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return r, fmt.Errorf("read %s: %w", p, err)
		}
		have := map[string]bool{}
		for _, c := range chunk.Code(p, lang, src) {
			if c.Symbol != "" {
				have[key(c.Symbol, c.DeclLine)] = true
			}
		}
		r.Files++
		for _, d := range ref[p] {
			r.Decls++
			if have[key(d.Name, d.Line)] {
				r.Matched++
			} else {
				r.Misses = append(r.Misses, Miss{Path: p, Decl: d})
			}
		}
	}
	return r, nil
}

func key(name string, line int) string { return fmt.Sprintf("%s\x00%d", name, line) }
