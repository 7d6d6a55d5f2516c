package codegraph

import (
	"path"
	"slices"
	"strings"
)

// Defaults and limits of Impact.
const (
	DefaultImpactDepth = 3
	// DefaultTestDepth is how many calls up from a changed symbol tests are
	// looked for: deeper than the callers listed, as a test often reaches
	// the function it breaks through the package's entry points and their
	// helpers (see docs/benchmarks.md, "Impact of a change").
	DefaultTestDepth = 5
	// maxImpactVisits bounds the walk, against a change to a symbol the
	// whole project calls.
	maxImpactVisits = 50000
)

// ImpactOptions shape an Impact query.
type ImpactOptions struct {
	Depth     int // callers listed this many calls up (1 to MaxDepth; 0: DefaultImpactDepth)
	TestDepth int // tests found this many calls up (at least Depth; 0: max(Depth, DefaultTestDepth))
	Limit     int // at most this many callers (0: DefaultLimit; at most MaxLimit)
	TestLimit int // at most this many tests (0: DefaultLimit; at most MaxLimit)
}

// Reach is a symbol a change reaches: a caller of a changed symbol, at
// some depth, or a test.
type Reach struct {
	Symbol Symbol `json:"symbol"`
	Depth  int    `json:"depth"` // calls between it and the changed symbol
	// Why is the chain of calls from this symbol down to the changed one,
	// display names, this symbol first and the changed one last.
	Why []string `json:"why"`
	// Line is where Symbol calls the next one of Why.
	Line int `json:"line,omitempty"`
	// Loose says some link of Why was matched by name only, not resolved:
	// the reach is likely, not certain.
	Loose bool `json:"loose,omitempty"`
	// Inferred says some link of Why is no call in the code but one the
	// standard library makes (fmt calling a String method), or a call
	// through a standard library interface: the reach is possible, not
	// certain.
	Inferred bool `json:"inferred,omitempty"`
	// Notes say how the links of Why that are not plain calls go: through
	// an interface the changed method's type satisfies, or inferred; in
	// the order of Why.
	Notes []string `json:"notes,omitempty"`
}

// Impact is what a change to some symbols reaches.
type Impact struct {
	Changed []Symbol `json:"changed"`
	Callers []Reach  `json:"callers"` // outside tests, nearest first
	// Tests are test functions (or test files' top-level code) that reach
	// a change, nearest first; a changed test is one, at depth 0.
	Tests            []Reach `json:"tests"`
	CallersTruncated bool    `json:"callers_truncated,omitempty"`
	TestsTruncated   bool    `json:"tests_truncated,omitempty"`
	// Cut says the walk stopped at its bound on visited symbols before
	// reaching the depth asked for.
	Cut bool `json:"cut,omitempty"`
}

// reached is a symbol of the walk with the step that reached it.
type reached struct {
	depth  int
	parent int32 // one call nearer the changed symbol; -1 for a changed one
	line   int32
	loose  bool // some link from it down to the changed symbol is by name
	// inferred says some link from it down to the changed symbol is no
	// call of the code but one inferred (see implicit.go).
	inferred bool
	// note says how the link to parent goes, when it is not a plain call:
	// through an interface, or inferred.
	note string
}

// rank orders the chains reaching a symbol at one depth: resolved calls
// first, then one with a link by name, then one with an inferred link.
func (r *reached) rank() int {
	switch {
	case r.inferred:
		return 2
	case r.loose:
		return 1
	}
	return 0
}

// Impact walks the callers of the changed symbols (found by Lookup,
// SymbolsIn or SymbolsOf) up to a depth and names the tests among them,
// each with the chain of calls that links it to a change. Calls and
// functions named as values are followed; a type's embedders are too, as a
// change to a type reaches them. A concrete Go method is also reached by
// the calls through the project's interfaces its type satisfies, and,
// inferred, by the calls the standard library makes (implicit.go). Of two
// chains of the same length, one of resolved calls is kept over one with a
// link by name, and that over one with an inferred link.
func (g *Graph) Impact(changed []Symbol, o ImpactOptions) Impact {
	depth := DefaultImpactDepth
	if o.Depth > 0 {
		depth = clampDepth(o.Depth)
	}
	testDepth := max(depth, DefaultTestDepth)
	if o.TestDepth > 0 {
		testDepth = max(depth, clampDepth(o.TestDepth))
	}
	limit, testLimit := clampLimit(o.Limit), clampLimit(o.TestLimit)
	d := g.get()
	out := Impact{Changed: []Symbol{}, Callers: []Reach{}, Tests: []Reach{}}
	seen := map[int32]*reached{}
	var frontier []int32
	for _, s := range changed {
		i := d.index(s)
		if i < 0 || seen[i] != nil {
			continue
		}
		seen[i] = &reached{parent: -1}
		frontier = append(frontier, i)
		out.Changed = append(out.Changed, d.syms[i].symbol())
	}
	// A changed test is a test to run: depth 0, its own why.
	order := slices.Clone(frontier) // every symbol reached, nearest first
	var invokes func(int32, uint8) (string, bool)
	for level := 1; level <= testDepth && len(frontier) > 0 && !out.Cut; level++ {
		var next []int32
		visit := func(from, to, line int32, r reached) {
			r.depth, r.parent, r.line = level, from, line
			r.loose = r.loose || seen[from].loose
			r.inferred = r.inferred || seen[from].inferred
			if old := seen[to]; old != nil {
				// Reached at this level already, by a weaker chain: this
				// one is the better why.
				if old.depth == level && r.rank() < old.rank() {
					*old = r
				}
				return
			}
			if len(seen) >= maxImpactVisits {
				out.Cut = true
				return
			}
			seen[to] = &r
			next = append(next, to)
			order = append(order, to)
		}
		for _, from := range frontier {
			for _, e := range d.codeFirst(d.in.of(from)) {
				visit(from, e.to, e.line, reached{loose: e.loose})
			}
			// A concrete Go method's callers through the project's
			// interfaces its type satisfies.
			for _, im := range d.dispatchedBy(from) {
				via := d.syms[im].symbol().Display()
				for _, e := range d.codeFirst(d.in.of(im)) {
					if e.isCall() {
						visit(from, e.to, e.line, reached{loose: e.loose,
							note: d.syms[e.to].symbol().Display() + " calls " + via + ", which " + d.syms[from].symbol().Display() + " implements"})
					}
				}
			}
			if invokes == nil {
				invokes = d.invokerReach()
			}
			for _, l := range d.implicitCallers(from, invokes) {
				visit(from, l.to, l.line, reached{inferred: true, note: "inferred: " + l.note})
			}
		}
		frontier = next
	}
	for _, i := range order {
		r := seen[i]
		s := d.syms[i]
		test := s.def().Test
		switch {
		case test && d.isTestEntry(s):
			if len(out.Tests) >= testLimit {
				out.TestsTruncated = true
				continue
			}
			out.Tests = append(out.Tests, d.reach(i, seen))
		case !test && r.depth <= depth && r.depth > 0:
			if len(out.Callers) >= limit {
				out.CallersTruncated = true
				continue
			}
			out.Callers = append(out.Callers, d.reach(i, seen))
		}
	}
	return out
}

// reach describes symbol i of the walk.
func (d *derived) reach(i int32, seen map[int32]*reached) Reach {
	r := seen[i]
	out := Reach{Symbol: d.syms[i].symbol(), Depth: r.depth, Line: int(r.line), Loose: r.loose, Inferred: r.inferred}
	for n := i; n >= 0; n = seen[n].parent {
		out.Why = append(out.Why, d.syms[n].symbol().Display())
		if note := seen[n].note; note != "" {
			out.Notes = append(out.Notes, note)
		}
	}
	return out
}

// isTestEntry reports whether a symbol of a test file is a test the
// language's runner runs, rather than a helper: Go's Test, Benchmark, Fuzz
// and Example functions; Python's test functions and methods; any other
// language's symbols of a test file (a JavaScript or TypeScript test file's
// tests are calls in its top-level code, one symbol).
func (d *derived) isTestEntry(s sym) bool {
	def := s.def()
	switch s.f.Language {
	case "go":
		if def.Kind != "func" || def.Recv != "" || !strings.HasSuffix(s.f.Path, "_test.go") {
			return false
		}
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(def.Name, p) {
				return true
			}
		}
		return false
	case "python":
		return isCallable(def) && strings.HasPrefix(strings.ToLower(def.Name), "test")
	}
	return true
}

// LineRange is a span of lines, both ends included.
type LineRange struct{ Start, End int }

// SymbolsIn returns the symbols of a file whose lines meet one of ranges:
// the symbols a change of those lines touches. Of nested symbols (a class
// and its methods), the innermost is kept; lines in no symbol touch the
// file's top-level code where the language has one ("<module>").
func (g *Graph) SymbolsIn(file string, ranges []LineRange) []Symbol {
	d := g.get()
	start, ok := d.byFile[file]
	if !ok {
		return nil
	}
	f := d.syms[start].f
	var hit []int
	for _, r := range ranges {
		best := -1
		for k := range f.Symbols {
			s := &f.Symbols[k]
			if int(s.Line) > r.End || int(s.EndLine) < r.Start {
				continue
			}
			// A range within one symbol names the innermost; one that
			// spans several names each of them.
			inner := int(s.Line) <= r.Start && int(s.EndLine) >= r.End
			if !inner {
				if !slices.Contains(hit, k) {
					hit = append(hit, k)
				}
				continue
			}
			if best < 0 || s.EndLine-s.Line < f.Symbols[best].EndLine-f.Symbols[best].Line {
				best = k
			}
		}
		if best >= 0 && !slices.Contains(hit, best) {
			hit = append(hit, best)
		}
	}
	// A range that spans symbols also meets their container (a class whose
	// methods changed): keep the inner ones only.
	hit = slices.DeleteFunc(hit, func(k int) bool {
		o := &f.Symbols[k]
		return slices.ContainsFunc(hit, func(j int) bool {
			x := &f.Symbols[j]
			return j != k && x.Line >= o.Line && x.EndLine <= o.EndLine && x.EndLine-x.Line < o.EndLine-o.Line
		})
	})
	slices.Sort(hit)
	out := make([]Symbol, len(hit))
	for n, k := range hit {
		out[n] = f.symbol(k)
	}
	return out
}

// SymbolsOf returns every symbol of a file (a new file is changed whole).
func (g *Graph) SymbolsOf(file string) []Symbol {
	d := g.get()
	start, ok := d.byFile[file]
	if !ok {
		return nil
	}
	f := d.syms[start].f
	out := make([]Symbol, len(f.Symbols))
	for k := range f.Symbols {
		out[k] = f.symbol(k)
	}
	return out
}

// HasFile reports whether the graph holds facts of a file.
func (g *Graph) HasFile(file string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.files[path.Clean(file)]
	return ok
}
