package codegraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

// Limits on queries.
const (
	MaxDepth     = 6
	DefaultLimit = 50
	MaxLimit     = 500
	MaxPaths     = 20
)

// Node is one symbol reached by a walk of the graph.
type Node struct {
	Symbol Symbol `json:"symbol"`
	Depth  int    `json:"depth"`           // 1 for direct callers or callees
	Via    string `json:"via"`             // the symbol at depth-1 it calls or is called by
	Line   int    `json:"line,omitempty"`  // line of the call
	Loose  bool   `json:"loose,omitempty"` // the edge was matched by name only
	// Embeds says the link is a type embedding or extending the other (Line
	// is where it names it), not a call.
	Embeds bool `json:"embeds,omitempty"`
	// Value says the link is a function or method named as a value (passed,
	// stored or returned at Line), not a call.
	Value bool `json:"value,omitempty"`
	// Dispatch names the interface method a caller calls ("store.Reader.Get")
	// when it reaches Via, a concrete Go method, only through an interface
	// Via's type satisfies.
	Dispatch string `json:"dispatch,omitempty"`
}

// Walk is the answer to Callers or Callees.
type Walk struct {
	Root      Symbol `json:"root"`
	Nodes     []Node `json:"nodes"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Callers returns the symbols that call name, up to depth levels up (1 to
// MaxDepth), at most limit of them; for a type, also the types that embed or
// extend it. For a package, its importers.
func (g *Graph) Callers(name string, depth, limit int) (Walk, error) {
	return g.walk(name, depth, limit, true)
}

// Callees returns what name calls, up to depth levels down, at most limit;
// for a type, also the types it embeds or extends. For a package, its
// imports.
func (g *Graph) Callees(name string, depth, limit int) (Walk, error) {
	return g.walk(name, depth, limit, false)
}

func clampDepth(depth int) int {
	return min(max(depth, 1), MaxDepth)
}

func clampLimit(limit int) int {
	if limit <= 0 {
		return DefaultLimit
	}
	return min(limit, MaxLimit)
}

func (g *Graph) walk(name string, depth, limit int, up bool) (Walk, error) {
	root, err := g.Lookup(name)
	if err != nil {
		return Walk{}, err
	}
	depth, limit = clampDepth(depth), clampLimit(limit)
	d := g.get()
	w := Walk{Root: root, Nodes: []Node{}}
	if root.Kind == "package" {
		return d.walkPackages(root, depth, limit, up), nil
	}
	start := d.index(root)
	if start < 0 {
		return w, nil
	}
	adj := d.out
	if up {
		adj = d.in
	}
	seen := map[int32]bool{start: true}
	frontier := []int32{start}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		var next []int32
		for _, from := range frontier {
			for _, e := range d.codeFirst(adj.of(from)) {
				if seen[e.to] {
					continue
				}
				if len(w.Nodes) >= limit {
					w.Truncated = true
					return w, nil
				}
				seen[e.to] = true
				next = append(next, e.to)
				w.Nodes = append(w.Nodes, Node{Symbol: d.syms[e.to].symbol(), Depth: level, Via: d.syms[from].symbol().Display(),
					Line: int(e.line), Loose: e.loose, Embeds: e.embeds, Value: e.value})
			}
			if !up {
				continue
			}
			// A concrete Go method's callers through the interfaces its
			// type satisfies.
			for _, im := range d.dispatchedBy(from) {
				for _, e := range d.codeFirst(d.in.of(im)) {
					if seen[e.to] || !e.isCall() {
						continue
					}
					if len(w.Nodes) >= limit {
						w.Truncated = true
						return w, nil
					}
					seen[e.to] = true
					next = append(next, e.to)
					w.Nodes = append(w.Nodes, Node{Symbol: d.syms[e.to].symbol(), Depth: level, Via: d.syms[from].symbol().Display(),
						Line: int(e.line), Loose: e.loose, Dispatch: d.syms[im].symbol().Display()})
				}
			}
		}
		frontier = next
	}
	return w, nil
}

// codeFirst orders edges by where the symbol at their other end lives: the
// project's own code, then its tests, then its examples, benchmarks and
// scripts, each in path order. A list cut at the limit then shows the
// callers a change would break before the examples that show the symbol
// off.
func (d *derived) codeFirst(es []edge) []edge {
	isExample := func(f *FileFacts) bool { return chunk.IsExampleFile(f.Path) }
	var by [inExamples + 1][]edge
	for _, e := range es {
		p := placeOf(d.syms[e.to], isExample)
		by[p] = append(by[p], e)
	}
	if len(by[inCode]) == len(es) {
		return es
	}
	return slices.Concat(by[:]...)
}

func (d *derived) walkPackages(root Symbol, depth, limit int, up bool) Walk {
	adj := d.packages
	if up {
		adj = d.importers
	}
	w := Walk{Root: root, Nodes: []Node{}}
	seen := map[string]bool{root.Package: true}
	frontier := []string{root.Package}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		var next []string
		for _, from := range frontier {
			for _, p := range adj[from] {
				if seen[p] {
					continue
				}
				if len(w.Nodes) >= limit {
					w.Truncated = true
					return w
				}
				seen[p] = true
				next = append(next, p)
				short := p[strings.LastIndex(p, "/")+1:]
				w.Nodes = append(w.Nodes, Node{Symbol: Symbol{Name: short, Package: p, Kind: "package"}, Depth: level, Via: from})
			}
		}
		frontier = next
	}
	return w
}

// index finds a symbol's position in the derived graph.
func (d *derived) index(s Symbol) int32 {
	start, ok := d.byFile[s.Path]
	if !ok {
		return -1
	}
	for k, x := range d.syms[start].f.Symbols {
		if x.Name == s.Name && x.Recv == s.Recv && int(x.Line) == s.Line {
			return start + int32(k)
		}
	}
	return -1
}

// Path is one chain of calls from a symbol to another.
type Path struct {
	Symbols []Symbol `json:"symbols"` // from first to last
	Lines   []int    `json:"lines"`   // Lines[i]: where Symbols[i] calls Symbols[i+1]
	Loose   bool     `json:"loose,omitempty"`
}

// Paths returns call chains from one symbol to another, shortest first, at
// most maxPaths (1 to MaxPaths) of at most maxDepth calls each. Truncated says
// more chains of the lengths searched may exist.
func (g *Graph) Paths(from, to string, maxDepth, maxPaths int) (paths []Path, truncated bool, err error) {
	a, err := g.Lookup(from)
	if err != nil {
		return nil, false, err
	}
	b, err := g.Lookup(to)
	if err != nil {
		return nil, false, err
	}
	maxDepth = clampDepth(maxDepth)
	maxPaths = min(max(maxPaths, 1), MaxPaths)
	d := g.get()
	src, dst := d.index(a), d.index(b)
	paths = []Path{}
	if src < 0 || dst < 0 || src == dst {
		return paths, false, nil
	}
	// Distance to dst along calls, by a backward walk, to prune the search.
	dist := map[int32]int{dst: 0}
	frontier := []int32{dst}
	for level := 1; level <= maxDepth && len(frontier) > 0; level++ {
		var next []int32
		for _, n := range frontier {
			for _, e := range d.in.of(n) {
				if _, ok := dist[e.to]; !ok && e.isCall() {
					dist[e.to] = level
					next = append(next, e.to)
				}
			}
		}
		frontier = next
	}
	shortest, ok := dist[src]
	if !ok {
		return paths, false, nil
	}
	budget := 200000 // edge visits, against pathological graphs
	var stack []int32
	var lines []int
	var loose []bool
	onPath := map[int32]bool{}
	var dfs func(n int32, left int) bool
	dfs = func(n int32, left int) bool {
		if n == dst {
			p := Path{Lines: slices.Clone(lines)}
			for _, s := range stack {
				p.Symbols = append(p.Symbols, d.syms[s].symbol())
			}
			p.Loose = slices.Contains(loose, true)
			paths = append(paths, p)
			return len(paths) < maxPaths
		}
		for _, e := range d.out.of(n) {
			if budget--; budget < 0 {
				truncated = true
				return false
			}
			dd, ok := dist[e.to]
			if !ok || !e.isCall() || dd > left-1 || onPath[e.to] {
				continue
			}
			if e.to == dst && left-1 != 0 {
				continue // exact length only, so shorter chains come first
			}
			stack, lines, loose = append(stack, e.to), append(lines, int(e.line)), append(loose, e.loose)
			onPath[e.to] = true
			more := dfs(e.to, left-1)
			onPath[e.to] = false
			stack, lines, loose = stack[:len(stack)-1], lines[:len(lines)-1], loose[:len(loose)-1]
			if !more {
				return false
			}
		}
		return true
	}
	for length := shortest; length <= maxDepth; length++ {
		stack, lines, loose = []int32{src}, nil, nil
		onPath = map[int32]bool{src: true}
		if !dfs(src, length) {
			if len(paths) >= maxPaths {
				truncated = true
			}
			break
		}
	}
	return paths, truncated, nil
}

// Implementations returns the types of the project that implement a Go
// interface, at most limit of them: those whose methods include every
// method of the interface (and of the interfaces it embeds) by name and
// parameter count, counting those it gets from the structs and interfaces
// it embeds. Given an interface's method, it returns those types' methods
// of that name (a promoted one once). Of several symbols of the name, the
// interfaces are meant. No signatures are checked beyond the parameter
// count: a match is likely, not proven.
func (g *Graph) Implementations(name string, limit int) (Walk, error) {
	root, err := g.lookupPreferring(name, func(s *Def) bool { return s.Iface })
	if err != nil {
		return Walk{}, err
	}
	limit = clampLimit(limit)
	d := g.get()
	w := Walk{Root: root, Nodes: []Node{}}
	at := d.index(root)
	if at < 0 || !d.syms[at].def().Iface {
		return w, &NotInterfaceError{Name: root.Display()}
	}
	iface, method := at, ""
	if root.Kind == "method" {
		method = root.Name
		iface = d.declaring(d.syms[at])
		if iface < 0 {
			return w, nil
		}
	}
	want, complete := d.goMethodSet(iface)
	if len(want) == 0 || !complete {
		// Every type implements an empty interface: not an answer; nor is
		// one that embeds another module's interface of unknown methods.
		return w, nil
	}
	samePkg := samePackageOnly(want)
	// The types having the interface's first method, kept while they have
	// each of the others.
	type typeKey struct{ pkg, recv string }
	var keys []typeKey
	for k, m := range want {
		has := map[typeKey]bool{}
		var from []int32 // the types declaring it, for those embedding them
		for _, i := range d.withName(m.Name) {
			s := d.syms[i]
			if def := s.def(); def.Kind == "method" && s.f.Language == "go" && sameShape(def, &m) {
				if !def.Iface {
					has[typeKey{s.f.Package, def.Recv}] = true
				}
				if t, ok := d.typeOfMethod(s); ok {
					from = append(from, t)
				}
			}
		}
		// A type embedding a standard library interface that has it.
		for t, keys := range d.stdEmbeds {
			for _, key := range keys {
				if a, ok := stdInterfaces[key][m.Name]; ok && (m.Arity == 0 || a == m.Arity) {
					if !d.syms[t].def().Iface {
						has[typeKey{d.syms[t].f.Package, d.syms[t].def().Name}] = true
					}
					from = append(from, t)
				}
			}
		}
		// A method promoted from an embedded struct, pointer or interface,
		// any levels down.
		promoted := map[int32]bool{}
		for len(from) > 0 {
			t := from[len(from)-1]
			from = from[:len(from)-1]
			for _, e := range d.embedders[t] {
				if !promoted[e] {
					promoted[e] = true
					has[typeKey{d.syms[e].f.Package, d.syms[e].def().Name}] = true
					from = append(from, e)
				}
			}
		}
		if k == 0 {
			for t := range has {
				keys = append(keys, t)
			}
			continue
		}
		keys = slices.DeleteFunc(keys, func(t typeKey) bool { return !has[t] })
	}
	var found []int32
	for _, t := range keys {
		if samePkg && t.pkg != d.syms[iface].f.Package {
			continue // an unexported method: only the interface's package has it
		}
		if method != "" {
			// The type's method, its own or promoted (once, however many
			// types it is promoted into).
			if i, ok := d.goMethod(t.pkg, t.recv, method, isCallable); ok && !d.syms[i].def().Iface && !slices.Contains(found, i) {
				found = append(found, i)
			}
			continue
		}
		for _, i := range d.withNameIn(t.recv, t.pkg) {
			if def := d.syms[i].def(); def.Kind == "type" && !def.Iface {
				found = append(found, i)
				break
			}
		}
	}
	slices.SortFunc(found, func(a, b int32) int {
		if c := strings.Compare(d.syms[a].f.Path, d.syms[b].f.Path); c != 0 {
			return c
		}
		return int(d.syms[a].def().Line - d.syms[b].def().Line)
	})
	if len(found) > limit {
		found, w.Truncated = found[:limit], true
	}
	via := root.Display()
	for _, i := range found {
		w.Nodes = append(w.Nodes, Node{Symbol: d.syms[i].symbol(), Depth: 1, Via: via}) // no call, so no call line
	}
	return w, nil
}

// NotInterfaceError says a symbol is not a Go interface or one of its methods.
type NotInterfaceError struct{ Name string }

func (e *NotInterfaceError) Error() string {
	return fmt.Sprintf("%s is not a Go interface or an interface's method", e.Name)
}

// declaring returns the interface declaring an interface method: the type of
// its receiver's name in its file.
func (d *derived) declaring(m sym) int32 {
	start := d.byFile[m.f.Path]
	for k, s := range m.f.Symbols {
		if s.Kind == "type" && s.Iface && s.Name == m.def().Recv {
			return start + int32(k)
		}
	}
	return -1
}

// methodSet returns the methods an interface declares and those of the
// interfaces of the project it embeds.
func (d *derived) methodSet(iface int32, seen map[int32]bool) []Def {
	if seen[iface] {
		return nil
	}
	seen[iface] = true
	s := d.syms[iface]
	var out []Def
	for _, m := range s.f.Symbols {
		if m.Kind == "method" && m.Iface && m.Recv == s.def().Name {
			out = append(out, m)
		}
	}
	for _, e := range d.out.of(iface) {
		if e.embeds && d.syms[e.to].def().Iface {
			out = append(out, d.methodSet(e.to, seen)...)
		}
	}
	return out
}
