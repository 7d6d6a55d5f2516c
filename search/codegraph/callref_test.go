package codegraph

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// The graph's exact links outside Go are checked against the compilers'
// view: scripts/refparse/ts-calls.mjs prints the callers the TypeScript
// language service finds (call hierarchy, and the reads of getters),
// scripts/refparse/py-calls.py those jedi finds, for every function and
// method (scripts/refparse/callref.sh regenerates the fixtures' answers).

type callRef struct {
	Targets []struct {
		Path, Name, Kind string
		Line             int
	} `json:"targets"`
	Calls []struct {
		To   int    `json:"to"`
		Path string `json:"path"`
		Line int    `json:"line"`
	} `json:"calls"`
}

// refAgreement is how far the graph's links agree with a reference's calls,
// as pairs of caller and callee symbols: a reference call's caller is the
// innermost symbol of the graph whose lines hold the call site.
type refAgreement struct {
	targets, unmatched  int // reference targets, and those the graph has no symbol for
	ref, exact, correct int // reference pairs; the graph's exact pairs to the targets, and those in the reference
	loose, looseCorrect int // the graph's loose pairs to the targets, and those in the reference
	missed, wrong       []string
}

func (a refAgreement) precision() float64 { return ratio(a.correct, a.exact) }
func (a refAgreement) recall() float64    { return ratio(a.correct, a.ref) }

func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

func (a refAgreement) String() string {
	return fmt.Sprintf("%d targets (%d without a symbol), %d reference caller pairs; exact pairs %d, %d right: precision %.3f, recall %.3f; "+
		"loose pairs %d, %d right", a.targets, a.unmatched, a.ref, a.exact, a.correct, a.precision(), a.recall(), a.loose, a.looseCorrect)
}

// graphOf reads every file of root in the languages given, as indexing
// does (chunks, then FromChunks), those under dirs only when dirs are given.
func graphOf(t *testing.T, root string, dirs []string, langs ...string) *Graph {
	t.Helper()
	g := New()
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		lang := chunk.LanguageOf(rel)
		if !slices.Contains(langs, lang) || strings.HasSuffix(rel, ".d.ts") {
			return nil
		}
		if len(dirs) > 0 && !slices.ContainsFunc(dirs, func(d string) bool { return strings.HasPrefix(rel, strings.TrimSuffix(d, "/")+"/") }) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		cs := chunk.Code(rel, lang, src)
		if len(cs) == 0 || cs[0].Kind == chunk.Window {
			return nil
		}
		g.SetFile(FromChunks(rel, lang, cs, src))
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", root, err)
	}
	return g
}

// measureRef compares the graph's links with the reference's calls.
func measureRef(t *testing.T, g *Graph, ref callRef) refAgreement {
	t.Helper()
	d := g.get()
	var a refAgreement
	// The graph's symbol of each target: same file and declaration line, same name.
	callee := make([]int32, len(ref.Targets))
	isTarget := map[int32]bool{}
	for k, tg := range ref.Targets {
		a.targets++
		callee[k] = -1
		base, ok := d.byFile[tg.Path]
		if !ok {
			a.unmatched++
			continue
		}
		name := tg.Name[strings.LastIndex(tg.Name, ".")+1:]
		for i := base; int(i) < len(d.syms) && d.syms[i].f.Path == tg.Path; i++ {
			if s := d.syms[i].def(); int(s.Line) == tg.Line && s.Name == name {
				callee[k] = i
				isTarget[i] = true
				break
			}
		}
		if callee[k] < 0 {
			a.unmatched++
		}
	}
	// innermost returns the symbol of file p whose lines hold line.
	innermost := func(p string, line int) (int32, bool) {
		base, ok := d.byFile[p]
		if !ok {
			return 0, false
		}
		best, span := int32(-1), 1<<30
		for i := base; int(i) < len(d.syms) && d.syms[i].f.Path == p; i++ {
			s := d.syms[i].def()
			if int(s.Line) <= line && line <= int(s.EndLine) && int(s.EndLine-s.Line) < span {
				best, span = i, int(s.EndLine-s.Line)
			}
		}
		return best, best >= 0
	}
	name := func(i int32) string {
		s := d.syms[i].symbol()
		return s.Path + ":" + s.Qualified()
	}
	want := map[[2]int32]bool{}
	lines := map[[2]int32]int{} // a reference call's line for each pair
	for _, c := range ref.Calls {
		to := callee[c.To]
		if to < 0 {
			continue
		}
		from, ok := innermost(c.Path, c.Line)
		if !ok {
			a.missed = append(a.missed, fmt.Sprintf("%s:%d -> %s (no caller symbol)", c.Path, c.Line, name(to)))
			continue
		}
		if from == to {
			continue // a recursive call: the graph keeps no link to itself
		}
		want[[2]int32{from, to}] = true
		lines[[2]int32{from, to}] = c.Line
	}
	a.ref = len(want)
	got := map[[2]int32]bool{}
	for to := range isTarget {
		for _, e := range d.in.of(to) {
			if !e.isCall() {
				continue
			}
			pair := [2]int32{e.to, to}
			if e.loose {
				a.loose++
				if want[pair] {
					a.looseCorrect++
				}
				continue
			}
			got[pair] = true
			a.exact++
			if want[pair] {
				a.correct++
			} else {
				a.wrong = append(a.wrong, fmt.Sprintf("%s -> %s (line %d)", name(e.to), name(to), e.line))
			}
		}
	}
	for pair := range want {
		if !got[pair] {
			a.missed = append(a.missed, fmt.Sprintf("%s -> %s (line %d)", name(pair[0]), name(pair[1]), lines[pair]))
		}
	}
	slices.Sort(a.missed)
	slices.Sort(a.wrong)
	return a
}

func readCallRef(t *testing.T, p string) callRef {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("reading the reference: %v", err)
	}
	var ref callRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return ref
}

// TestCallReference checks the fixtures, one file per construct, against
// the compilers' answers: every caller the compiler finds is an exact link,
// and every exact link is one the compiler finds.
func TestCallReference(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		langs []string
	}{
		{"ts", []string{"typescript", "javascript"}},
		{"py", []string{"python"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			g := graphOf(t, filepath.Join("testdata", "callref", tc.dir), nil, tc.langs...)
			a := measureRef(t, g, readCallRef(t, filepath.Join("testdata", "callref", tc.dir+".json")))
			t.Log(a)
			for _, m := range a.missed {
				t.Errorf("missed: %s", m)
			}
			for _, w := range a.wrong {
				t.Errorf("not a call the compiler sees: %s", w)
			}
			if a.unmatched > 0 {
				t.Errorf("%d targets have no symbol", a.unmatched)
			}
		})
	}
}

// TestCallReferenceLong measures a code base against a reference printed by
// ts-calls.mjs or py-calls.py (see docs/benchmarks.md), the graph made of
// the files under AGENTOS_CALLREF_DIRS (folders of the root, as the
// reference script was given them; all when unset):
//
//	AGENTOS_CALLREF_ROOT=DIR AGENTOS_CALLREF=REF.json AGENTOS_CALLREF_DIRS=src go test ./search/codegraph -run CallReferenceLong -v
func TestCallReferenceLong(t *testing.T) {
	root, refPath := os.Getenv("AGENTOS_CALLREF_ROOT"), os.Getenv("AGENTOS_CALLREF")
	if root == "" || refPath == "" {
		t.Skip("set AGENTOS_CALLREF_ROOT and AGENTOS_CALLREF")
	}
	ref := readCallRef(t, refPath)
	langs := []string{"typescript", "javascript"}
	if len(ref.Targets) > 0 && strings.HasSuffix(ref.Targets[0].Path, ".py") {
		langs = []string{"python"}
	}
	a := measureRef(t, graphOf(t, root, strings.Fields(os.Getenv("AGENTOS_CALLREF_DIRS")), langs...), ref)
	t.Log(a)
	if testing.Verbose() {
		for _, m := range a.missed {
			t.Logf("missed: %s", m)
		}
		for _, w := range a.wrong {
			t.Logf("wrong: %s", w)
		}
	}
}
