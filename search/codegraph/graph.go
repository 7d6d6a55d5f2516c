// Package codegraph is a call graph of a project's code: its symbols
// (functions, methods, types, constants, variables), the calls between them
// and the imports between packages, with the queries an agent asks of it —
// who calls this, what does it call (to a depth), how does A reach B.
//
// Go is read from its syntax tree, without type checking, with the local
// inference a syntax tree allows: calls to functions of the same package and
// of imported packages, and method calls on a value whose type the code
// states are resolved exactly to that type's method — its own, else one it
// gets from a struct, pointer or interface it embeds (promoted, by Go's
// shallowest-depth rule). The value may be the receiver, a parameter, a local
// (var s T, s := &T{}, s := x.(T), s, ok := x.(T), c := NewClient(), addr, t
// := NewTransport(), c := s.cfg.Client, it := items[i], v := <-ch), a
// function literal's parameter or local, a type switch's variable in a case
// of one type, a range variable over a slice, map or channel of a named type
// (a parameter, a local, a field, a function's result; a map's key of a named
// type too), a package-level variable of stated type, a field or a chain of
// fields (of structs in any file or package of the project, and their
// promoted fields, and of a file's anonymous structs: a table of test cases),
// a function's or an interface method's result, a method's result on a
// call's result (NewPool().Get()) or a package-level variable holding a
// function or method value (Get = pool.Get). A local declared with two types
// in two blocks has, at each call, the type of the one in scope. A method
// expression on a pointer type ((*T).M) is the method named as a value. A
// call through an interface goes to the interface's method; the
// interface's implementations are the project's types having its methods (by
// name and numbers of parameters and results; an unexported one only in its
// package; those of the standard library interfaces it embeds, io.Writer,
// included), promoted ones included (Implementations), and a concrete
// method's callers include those that reach it through an interface of the
// project its type satisfies (Node.Dispatch). A call on a value of a type of
// another module (atomic.Int64, *os.File, a field of an imported package's
// type) or of a project type without that method is linked to nothing. Only a
// method call on a value of unknown type (x.Close() with x set from an
// expression the code does not type, or of a type parameter) is linked by
// name: to the package's only method with a body of that name, else the
// project's only one, and marked loose. Function values held by locals or
// fields, method expressions on value types, type aliases and generic
// constraints' methods are not followed, a local declared twice with two
// types in one block is dropped, and a call through a standard library
// interface (io.Closer) is no dispatch caller. Impact alone infers,
// and marks so, those and the calls the standard library makes on the
// values passed to it (fmt calling String; implicit.go).
//
// Other languages are read from their
// chunks (package chunk): a call through this, self or cls goes to the
// enclosing class's method, else its base class's. In TypeScript,
// JavaScript and Python a call of a name the file imports goes, exactly,
// to the function the module it names defines or passes on (named,
// default and namespace imports, re-exports and barrel files, relative
// paths with or without extension or naming a folder's index; Python's
// absolute, relative and dotted module paths), and a call of the file's own
// top-level function to it (modules.go); a call through a field, a
// parameter or a local whose class the code states goes to that class's
// method, following an indexed access type, a type parameter's constraint
// or a getter's declared class, and a read of a getter is a call of it
// (tscalls.go). Any other "name(" in a definition's body, a variable's
// initialiser or the file's top-level statements (one symbol, "<module>")
// is a call to a definition of that name in the same file, else the same
// folder, else the only one in the project; these edges are loose, as is
// a call of a name imported from a package the project does not hold.
// Comments and the text of strings are not read. Types are not inferred:
// a callback's parameter whose class only its position says is unknown.
//
// Symbols are named plainly ("Parse"), qualified by package or receiver
// ("render.Page", "Cache.Evict", "store.Cache.Evict", "example.com/app/render.Page"),
// or by file or folder ("app/render/page.go:Page"). A name matching several
// symbols is reported with its candidates; an unknown one with close names.
//
// A Graph is safe for concurrent use.
package codegraph

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/chunk"
)

type edge struct {
	to     int32
	line   int32
	loose  bool
	embeds bool // a type embedding or extending another, not a call
	value  bool // a function named as a value (Ref.Value), not called
}

// isCall reports whether the edge is a call: call paths and the counts of
// callers follow only calls.
func (e edge) isCall() bool { return !e.embeds && !e.value }

// edges holds every symbol's edges in one slice, symbol i's at
// list[at[i]:at[i+1]]: a slice for each symbol would cost its header (24
// bytes) for each of a large project's hundred thousand symbols, most of
// which have no edge.
type edges struct {
	at   []int32
	list []edge
}

func (e edges) of(i int32) []edge { return e.list[e.at[i]:e.at[i+1]] }

// Graph holds the facts of every file and, derived from them on demand, the
// resolved symbol graph.
type Graph struct {
	mu    sync.Mutex
	files map[string]*FileFacts
	d     *derived // nil when files changed since it was built, or after Forget
}

// sym is a symbol of the derived graph: its file's facts, which never
// change, and its index there.
type sym struct {
	f *FileFacts
	i int32
}

func (s sym) def() *Def      { return &s.f.Symbols[s.i] }
func (s sym) symbol() Symbol { return s.f.symbol(int(s.i)) }

type derived struct {
	syms    []sym
	out, in edges
	// byName holds the symbols of each name as a run of named, by package
	// then in increasing order: one map entry a name and no slice of its
	// own. Resolving a call looks its name up and keeps the candidates of
	// the right package and receiver, found by a binary search of the run:
	// scanning the whole run would make each call cost as much as the
	// project has symbols of that name, and the graph of a project twice
	// as big take four times as long to resolve.
	byName    map[string][2]int32 // name -> [start, end) in named
	named     []int32
	byFile    map[string]int32 // file -> its first symbol; a file's symbols are consecutive
	files     map[string]*FileFacts
	packages  map[string][]string // package path -> imports
	importers map[string][]string
	pkgNames  map[string][]string // short name -> package paths
	// embedded holds the project's types each Go type embeds, for the
	// methods and fields they promote.
	embedded, embedders map[int32][]int32
	stdEmbeds           map[int32][]string // keys of stdInterfaces a type embeds
	// imp holds what inferring the standard library's calls needs, built
	// on first use (implicit.go).
	implicitOnce sync.Once
	imp          *implicitFacts
	// modules keeps what each module name resolves to (moduleFile).
	modules sync.Map // moduleKey -> *FileFacts, nil when not the project's
}

// New returns an empty graph.
func New() *Graph { return &Graph{files: map[string]*FileFacts{}} }

// SetFile replaces the facts of one file.
func (g *Graph) SetFile(f FileFacts) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.files[f.Path] = &f
	g.d = nil
}

// RemoveFile drops a file's facts.
func (g *Graph) RemoveFile(p string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.files[p]; ok {
		delete(g.files, p)
		g.d = nil
	}
}

// Files returns the facts of every file, sorted by path (for persistence).
func (g *Graph) Files() []FileFacts {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]FileFacts, 0, len(g.files))
	for _, f := range g.files {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b FileFacts) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// withName returns the symbols named n.
func (d *derived) withName(n string) []int32 {
	r := d.byName[n]
	return d.named[r[0]:r[1]:r[1]]
}

// withNameIn returns the symbols named n in package pkg.
func (d *derived) withNameIn(n, pkg string) []int32 {
	run := d.withName(n)
	lo, _ := slices.BinarySearchFunc(run, pkg, func(i int32, pkg string) int { return strings.Compare(d.syms[i].f.Package, pkg) })
	hi := lo
	for hi < len(run) && d.syms[run[hi]].f.Package == pkg {
		hi++
	}
	return run[lo:hi:hi]
}

// link is a resolved call while the graph is derived.
type link struct {
	from, to, line       int32
	loose, embeds, value bool
}

// newEdges lays out the links of each of n symbols, from each link's from
// symbol (or its to symbol when in), in the order of links.
func newEdges(n int, links []link, in bool) edges {
	e := edges{at: make([]int32, n+1), list: make([]edge, len(links))}
	ends := func(l link) (int32, edge) {
		if in {
			return l.to, edge{to: l.from, line: l.line, loose: l.loose, embeds: l.embeds, value: l.value}
		}
		return l.from, edge{to: l.to, line: l.line, loose: l.loose, embeds: l.embeds, value: l.value}
	}
	for _, l := range links {
		i, _ := ends(l)
		e.at[i+1]++
	}
	for i := range n {
		e.at[i+1] += e.at[i]
	}
	next := slices.Clone(e.at[:n])
	for _, l := range links {
		i, x := ends(l)
		e.list[next[i]] = x
		next[i]++
	}
	return e
}

// get returns the derived graph, building it when stale.
func (g *Graph) get() *derived {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.d != nil {
		return g.d
	}
	paths := make([]string, 0, len(g.files))
	n := 0
	for p, f := range g.files {
		paths = append(paths, p)
		n += len(f.Symbols)
	}
	sort.Strings(paths)
	d := &derived{syms: make([]sym, 0, n), byName: map[string][2]int32{}, byFile: map[string]int32{}, files: maps.Clone(g.files),
		packages: map[string][]string{}, importers: map[string][]string{}, pkgNames: map[string][]string{}}
	for _, p := range paths {
		f := g.files[p]
		if len(f.Symbols) > 0 {
			d.byFile[p] = int32(len(d.syms))
		}
		for k := range f.Symbols {
			d.syms = append(d.syms, sym{f, int32(k)})
			r := d.byName[f.Symbols[k].Name]
			r[1]++ // counted here, laid out below
			d.byName[f.Symbols[k].Name] = r
		}
		if _, ok := d.packages[f.Package]; !ok {
			d.packages[f.Package] = nil
			if !slices.Contains(d.pkgNames[f.PkgName], f.Package) {
				d.pkgNames[f.PkgName] = append(d.pkgNames[f.PkgName], f.Package)
			}
		}
		for _, im := range f.Imports {
			if !slices.Contains(d.packages[f.Package], im) {
				d.packages[f.Package] = append(d.packages[f.Package], im)
				d.importers[im] = append(d.importers[im], f.Package)
			}
		}
	}
	start := int32(0)
	for name, r := range d.byName {
		d.byName[name] = [2]int32{start, start}
		start += r[1]
	}
	d.named = make([]int32, len(d.syms))
	for i, s := range d.syms {
		name := s.def().Name
		r := d.byName[name]
		d.named[r[1]] = int32(i)
		r[1]++
		d.byName[name] = r
	}
	for _, r := range d.byName {
		if run := d.named[r[0]:r[1]]; len(run) > 1 {
			slices.SortFunc(run, func(a, b int32) int {
				if c := strings.Compare(d.syms[a].f.Package, d.syms[b].f.Package); c != 0 {
					return c
				}
				return int(a - b)
			})
		}
	}
	d.embedded = d.goEmbedded(g.files, paths)
	d.embedders = goEmbedders(d.embedded)
	var links []link
	// A file's links so far, by caller and callee: one link a pair, a call
	// rather than a mention as a value when there are both.
	seen := map[[2]int32]int{}
	for _, p := range paths {
		f := g.files[p]
		base := d.byFile[p]
		clear(seen)
		for _, r := range f.Calls {
			from := base + r.From
			to, loose, ok := d.resolve(f, r)
			if !ok || to == from {
				continue
			}
			l := link{from: from, to: to, line: r.Line, loose: loose, embeds: r.Embeds, value: r.Value}
			if k, dup := seen[[2]int32{from, to}]; dup {
				if links[k].value && !l.value {
					links[k] = l
				}
				continue
			}
			seen[[2]int32{from, to}] = len(links)
			links = append(links, l)
		}
	}
	d.out, d.in = newEdges(len(d.syms), links, false), newEdges(len(d.syms), links, true)
	g.d = d
	return d
}

func isCallable(s *Def) bool { return s.Kind == "func" || s.Kind == "method" }

func isType(s *Def) bool { return s.Kind == "type" }

// one returns the single symbol of the wanted kind among ids that keep (nil:
// any) accepts, if there is exactly one.
func (d *derived) one(ids []int32, want func(*Def) bool, keep func(sym) bool) (int32, bool) {
	found := int32(-1)
	for _, i := range ids {
		if s := d.syms[i]; want(s.def()) && (keep == nil || keep(s)) {
			if found >= 0 {
				return 0, false
			}
			found = i
		}
	}
	return found, found >= 0
}

func (d *derived) resolve(f *FileFacts, r Ref) (int32, bool, bool) {
	cands := d.withName(r.Name)
	want := isCallable
	if r.Embeds {
		want = isType
	}
	if f.Language == "go" {
		return d.resolveGo(f, r, want)
	}
	// Other languages: through what the file imports or defines, else by
	// name, nearest first.
	if r.Get {
		return d.resolveGet(f, r)
	}
	if r.Loose && !r.Value && !r.Embeds {
		if i, ok := d.resolveImported(f, r); ok {
			return i, false, true
		}
	}
	member := r.Recv != "" // x.m(), this.m(), f().m(): never a variable's call
	if strings.HasPrefix(r.Recv, chainOf) {
		// app.get(…).use(…): the method of the class the call's
		// declaration says it returns, else by name as any f().m().
		if fc, t, ok := d.chainClass(f, r.Recv, 0); ok {
			if i, ok := d.classMethod(fc, t, r.Name, 0); ok {
				return i, false, true
			}
		}
		if r.Value {
			return 0, false, false
		}
		r.Recv, r.Loose = exprRecv, true
	}
	if isCtx(r.Recv) && !strings.Contains(r.Recv, fieldOf) {
		// c.json() with c a callback's parameter: the method of the
		// class the callee's declared type gives it, when that is known.
		if fc, t, ok := d.ctxClass(f, r.Recv, 0); ok {
			if i, ok := d.classMethod(fc, t, r.Name, 0); ok {
				return i, false, true
			}
		}
		if r.Value {
			return 0, false, false
		}
		r.Recv, r.Loose = "", true
	}
	if strings.HasPrefix(r.Recv, resultOf) {
		// c.m() with c = connect(): the method of the class connect's
		// signature says it returns.
		if t, ok := d.classReturnedBy(f, r.Recv); ok {
			if i, ok := d.classMethod(f, t, r.Name, 0); ok {
				return i, false, true
			}
		}
		if r.Value {
			return 0, false, false
		}
		r.Recv, r.Loose = "", true
	}
	if class, field, ok := strings.Cut(r.Recv, fieldOf); ok {
		// this.db.get(): the method of db's class when the code states it,
		// else by name with db as a hint, as for any x.get().
		ff := f
		if isCtx(class) {
			// c.req.header(), c a callback's parameter: the field's
			// class as the file declaring the parameter's class sees it.
			if fc, t, ok := d.ctxClass(f, class, 0); ok {
				ff, class = fc, t
			}
		}
		if t, ok := d.fieldClass(ff, class, field); ok {
			if strings.HasPrefix(t, resultOf) { // self.conn = connect()
				t, ok = d.classReturnedBy(ff, t)
			}
			if ok {
				if i, ok := d.classMethod(ff, t, r.Name, 0); ok {
					return i, false, true
				}
			}
		}
		if r.Value {
			return 0, false, false
		}
		r.Recv = field
	}
	switch {
	case r.Super: // super.m(), super().m()
		if i, ok := d.baseMethod(f, r.Recv, r.Name, 0); ok {
			return i, false, true
		}
	case r.Recv != "" && !r.Loose: // this.m(), self.m()
		if i, ok := d.classMethod(f, r.Recv, r.Name, 0); ok {
			return i, false, true
		}
	case r.Recv != "": // x.m(): a hint, matching a class or a module name
		if i, ok := d.one(cands, want, func(s sym) bool { return s.def().Recv == r.Recv || s.f.PkgName == r.Recv }); ok {
			return i, true, true
		}
	}
	sameFile := func(s sym) bool { return s.f.Path == f.Path }
	if r.Value { // this.m not found above, or a bare name: the file's own
		if r.Recv != "" {
			return 0, false, false
		}
		i, ok := d.one(d.withNameIn(r.Name, f.Package), want, sameFile)
		return i, false, ok
	}
	inPkg := d.withNameIn(r.Name, f.Package)
	otherFile := func(s sym) bool { return s.f.Path != f.Path }
	byName := func(want func(*Def) bool) (int32, bool) {
		for _, keep := range []func(sym) bool{sameFile, otherFile} {
			if i, ok := d.one(inPkg, want, keep); ok {
				return i, true
			}
			if slices.ContainsFunc(inPkg, func(i int32) bool { return keep(d.syms[i]) }) {
				return 0, false // a nearer name of another kind hides it
			}
		}
		return d.one(cands, want, nil)
	}
	i, ok := byName(want)
	if !ok && !r.Embeds && !member {
		// A variable called holds a function, often one another function
		// made: const createApi = buildCreateApi(…). A method of some
		// object that shares its name (var slice = Array.prototype.slice,
		// then list.slice(1)) is not.
		i, ok = byName(isVariable)
	}
	return i, true, ok
}

// isVariable accepts a variable or constant outside a class.
func isVariable(s *Def) bool { return (s.Kind == "var" || s.Kind == "const") && s.Recv == "" }

// classReturnedBy returns the class that the function a stand-in names
// (resultOf and its name, in a language without a Go parser) returns, as
// its signature says (Def.Result), the function found nearest f.
func (d *derived) classReturnedBy(f *FileFacts, standIn string) (string, bool) {
	fn := strings.TrimPrefix(standIn, resultOf)
	i, ok := d.resolveImported(f, Ref{Name: fn, Loose: true})
	if !ok {
		i, ok = d.nearest(f, d.withName(fn), isCallable, func(s sym) bool { return s.def().Recv == "" })
	}
	if !ok || d.syms[i].def().Result == "" {
		return "", false
	}
	return d.syms[i].def().Result, true
}

// classField returns the class of a field of class (in file f, else in the
// nearest class of that name), as FromChunks found it stated.
func (d *derived) classField(f *FileFacts, class, field string) (string, bool) {
	if isCtx(class) { // c.req.header() with c a callback's parameter
		fc, t, ok := d.ctxClass(f, class, 0)
		if !ok {
			return "", false
		}
		f, class = fc, t
	}
	fl, ok := findField(f.Fields, class, field)
	if !ok {
		c, found := d.class(f, class)
		if !found {
			return "", false
		}
		// The class's own name: a file may import it under another
		// (import { Hono as HonoBase }).
		fl, ok = findField(d.syms[c].f.Fields, d.syms[c].def().Name, field)
	}
	return fl.Type, ok
}

// methodIn returns the only symbol of package pkg named name whose receiver
// (or class) is typ ("" for a function) and that want accepts.
func (d *derived) methodIn(pkg, typ, name string, want func(*Def) bool) (int32, bool) {
	return d.one(d.withNameIn(name, pkg), want, func(s sym) bool { return s.def().Recv == typ })
}

// maxResultDepth bounds the calls a stand-in for a result goes through
// (rows := sql.Open().Query() is two).
const maxResultDepth = 4

// maxBaseDepth bounds the walk up a class's bases, against cycles.
const maxBaseDepth = 8

// classMethod returns the method name of class as seen from file f: the
// class's own (in f first), else its bases' (class A(B), extends), nearest
// first, else the nearest only method of a class so named (see nearest).
func (d *derived) classMethod(f *FileFacts, class, name string, depth int) (int32, bool) {
	cands := d.withName(name)
	ofClass := func(s sym) bool { return s.def().Recv == class }
	if i, ok := d.one(d.withNameIn(name, f.Package), isCallable, func(s sym) bool { return ofClass(s) && s.f == f }); ok {
		return i, true
	}
	if c, ok := d.class(f, class); ok {
		// By the class's own name: a file may import it under another
		// (import { Hono as HonoBase }).
		own := d.syms[c].def().Name
		if cs := d.syms[c]; cs.f != f || own != class {
			if i, ok := d.one(d.withNameIn(name, cs.f.Package), isCallable, func(s sym) bool { return s.def().Recv == own && s.f == cs.f }); ok {
				return i, true
			}
		}
	}
	if i, ok := d.baseMethod(f, class, name, depth); ok {
		return i, true
	}
	return d.nearest(f, cands, isCallable, ofClass)
}

// nearest returns the only one of ids that want and keep accept, looking in
// f's package first, then among f's language's symbols, then everywhere: a
// Rust impl in one file extends the struct of another file in its crate,
// whatever a TypeScript class of the same name elsewhere has.
func (d *derived) nearest(f *FileFacts, ids []int32, want func(*Def) bool, keep func(sym) bool) (int32, bool) {
	for _, near := range []func(sym) bool{
		func(s sym) bool { return s.f.Package == f.Package && s.f.Language == f.Language },
		func(s sym) bool { return s.f.Language == f.Language },
	} {
		within := func(s sym) bool { return near(s) && (keep == nil || keep(s)) }
		if i, ok := d.one(ids, want, within); ok {
			return i, true
		}
		if slices.ContainsFunc(ids, func(i int32) bool { return want(d.syms[i].def()) && within(d.syms[i]) }) {
			return 0, false // more than one that near: ambiguous
		}
	}
	return d.one(ids, want, keep)
}

// baseMethod returns the method name of the nearest base of class (as seen
// from file f) that has one.
func (d *derived) baseMethod(f *FileFacts, class, name string, depth int) (int32, bool) {
	c, ok := d.class(f, class)
	if !ok || depth >= maxBaseDepth {
		return 0, false
	}
	cs := d.syms[c]
	for _, r := range cs.f.Calls {
		if r.Embeds && r.From == cs.i {
			if i, ok := d.classMethod(cs.f, r.Name, name, depth+1); ok {
				return i, true
			}
		}
	}
	return 0, false
}

// class returns the class (a type) named name as seen from file f: the one
// f imports under that name, else the one in f, else the nearest only one
// (see nearest).
func (d *derived) class(f *FileFacts, name string) (int32, bool) {
	if i, ok := d.importedClass(f, name); ok {
		return i, true
	}
	if i, ok := d.one(d.withNameIn(name, f.Package), isType, func(s sym) bool { return s.f == f }); ok {
		return i, true
	}
	return d.nearest(f, d.withName(name), isType, nil)
}

// Stats counts the graph's symbols, call sites and packages.
type Stats struct {
	Symbols  int `json:"symbols"`
	Calls    int `json:"calls"`  // call sites, resolved to a symbol or not
	Embeds   int `json:"embeds"` // types named as embedded or extended
	Values   int `json:"values"` // names that may be functions used as values, resolved or not
	Packages int `json:"packages"`
}

// Stats returns the graph's size, from the facts alone: resolving the
// graph is for queries.
func (g *Graph) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	var st Stats
	pkgs := map[string]bool{}
	for _, f := range g.files {
		st.Symbols += len(f.Symbols)
		for _, r := range f.Calls {
			switch {
			case r.Embeds:
				st.Embeds++
			case r.Value:
				st.Values++
			default:
				st.Calls++
			}
		}
		pkgs[f.Package] = true
	}
	st.Packages = len(pkgs)
	return st
}

// Resolved reports whether the graph is resolved: the next query is
// answered without resolving it first.
func (g *Graph) Resolved() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.d != nil
}

// Forget drops the resolved graph (its indexes of symbols and call edges,
// about as big as the facts themselves) until the next query needs it.
func (g *Graph) Forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.d = nil
}

// Use measures how much a symbol is used.
type Use struct {
	Callers     int // distinct symbols outside tests calling it through exact edges
	CallerPkgs  int // distinct other packages calling it, exact or loose edges
	PkgImporter int // packages importing the symbol's package
}

// Uses returns, by file and qualified symbol ("Recv.Name" or "Name"), how
// each symbol is used; symbols with no use are left out.
func (g *Graph) Uses() map[string]map[string]Use {
	d := g.get()
	out := map[string]map[string]Use{}
	// Only callers in the project's own code count. One in an example,
	// benchmark or script counts no more than one in a test: a repository's
	// examples call the library's entry points over and over, which says
	// how it is shown, not how much it is used.
	example := map[*FileFacts]bool{}
	isExample := func(f *FileFacts) bool {
		v, ok := example[f]
		if !ok {
			v = chunk.IsExampleFile(f.Path)
			example[f] = v
		}
		return v
	}
	for i, s := range d.syms {
		u := Use{PkgImporter: len(d.importers[s.f.Package])}
		var pkgs []string
		for _, e := range d.in.of(int32(i)) {
			c := d.syms[e.to]
			if !e.isCall() || placeOf(c, isExample) != inCode {
				continue
			}
			if !e.loose {
				u.Callers++
			}
			if c.f.Package != s.f.Package && !slices.Contains(pkgs, c.f.Package) {
				pkgs = append(pkgs, c.f.Package)
			}
		}
		u.CallerPkgs = len(pkgs)
		if u == (Use{}) {
			continue
		}
		m := out[s.f.Path]
		if m == nil {
			m = map[string]Use{}
			out[s.f.Path] = m
		}
		m[qualified(s.def().Recv, s.def().Name)] = u
	}
	return out
}

// Where a symbol lives: the project's own code, its tests, or its examples,
// benchmarks and scripts. Use counts only callers in its code; answers list
// callers in this order.
const (
	inCode = iota
	inTests
	inExamples
)

// placeOf says where s lives; isExample tells a file of examples,
// benchmarks or scripts (chunk.IsExampleFile, maybe remembered).
func placeOf(s sym, isExample func(*FileFacts) bool) int {
	switch {
	case s.def().Test:
		return inTests
	case isExample(s.f):
		return inExamples
	}
	return inCode
}

// AmbiguousError says a name matches several symbols.
type AmbiguousError struct {
	Name       string
	Candidates []Symbol
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q matches %d symbols; qualify it (package.Name, Type.Method or path:Name)", e.Name, len(e.Candidates))
}

// NotFoundError says no symbol has a name; Suggestions are close names.
type NotFoundError struct {
	Name        string
	Suggestions []string
}

func (e *NotFoundError) Error() string {
	if len(e.Suggestions) == 0 {
		return fmt.Sprintf("no symbol named %q", e.Name)
	}
	return fmt.Sprintf("no symbol named %q; close names: %s", e.Name, strings.Join(e.Suggestions, ", "))
}

// Display names a symbol for people: "store.Cache.Evict".
func (s Symbol) Display() string {
	if s.Kind == "package" {
		return s.Package
	}
	if s.PkgName != "" {
		return s.PkgName + "." + s.Qualified()
	}
	return s.Qualified()
}

const maxCandidates = 20

// Lookup resolves a symbol name (see the package documentation). It returns
// *AmbiguousError or *NotFoundError when the name is not exactly one symbol.
// A package path or package name with no symbol of that name resolves to the
// package itself (Kind "package").
func (g *Graph) Lookup(name string) (Symbol, error) { return g.lookupPreferring(name, nil) }

// lookupPreferring is Lookup, where a name that matches several symbols and
// some that prefer accepts (nil: none) means those: implementations of
// Embedder are asked of the interface, not of a struct of the same name.
func (g *Graph) lookupPreferring(name string, prefer func(*Def) bool) (Symbol, error) {
	d := g.get()
	ids, pkg := d.lookup(strings.TrimSpace(name))
	// Prefer definitions outside tests, then those prefer accepts.
	ids = d.narrow(ids, func(s *Def) bool { return !s.Test })
	if prefer != nil {
		ids = d.narrow(ids, prefer)
	}
	switch {
	case len(ids) == 1:
		return d.syms[ids[0]].symbol(), nil
	case len(ids) > 1:
		c := make([]Symbol, 0, min(len(ids), maxCandidates))
		slices.SortFunc(ids, func(a, b int32) int {
			sa, sb := d.syms[a].def(), d.syms[b].def()
			if sa.Exported != sb.Exported {
				if sa.Exported {
					return -1
				}
				return 1
			}
			if c := strings.Compare(d.syms[a].f.Path, d.syms[b].f.Path); c != 0 {
				return c
			}
			return int(sa.Line - sb.Line)
		})
		for _, i := range ids[:min(len(ids), maxCandidates)] {
			c = append(c, d.syms[i].symbol())
		}
		return Symbol{}, &AmbiguousError{Name: name, Candidates: c}
	case pkg != "":
		short := pkg
		if k := strings.LastIndex(pkg, "/"); k >= 0 {
			short = pkg[k+1:]
		}
		return Symbol{Name: short, Package: pkg, Kind: "package"}, nil
	}
	return Symbol{}, &NotFoundError{Name: name, Suggestions: d.suggest(name)}
}

// narrow returns those of several ids that keep accepts, when any does;
// otherwise ids.
func (d *derived) narrow(ids []int32, keep func(*Def) bool) []int32 {
	if len(ids) < 2 {
		return ids
	}
	var kept []int32
	for _, i := range ids {
		if keep(d.syms[i].def()) {
			kept = append(kept, i)
		}
	}
	if len(kept) == 0 {
		return ids
	}
	return kept
}

// lookup returns the symbols a name matches, or a package path when it names
// a package and no symbol.
func (d *derived) lookup(name string) ([]int32, string) {
	if name == "" {
		return nil, ""
	}
	var inPath string
	if i := strings.LastIndex(name, ":"); i > 0 && !strings.Contains(name, "::") {
		inPath, name = strings.TrimSuffix(name[:i], "/"), name[i+1:]
	}
	name = strings.NewReplacer("::", ".", "->", ".", "#", ".").Replace(name)
	pkgPath := ""
	if i := strings.LastIndex(name, "/"); i >= 0 {
		rest := name[i+1:]
		j := strings.IndexByte(rest, '.')
		if j < 0 {
			// A bare package path.
			if _, ok := d.packages[name]; ok && inPath == "" {
				return nil, name
			}
			return nil, ""
		}
		pkgPath, name = name[:i+1]+rest[:j], rest[j+1:]
	}
	parts := strings.Split(name, ".")
	last := parts[len(parts)-1]
	match := func(fold bool) []int32 {
		eq := func(a, b string) bool {
			if fold {
				return strings.EqualFold(a, b)
			}
			return a == b
		}
		var cands []int32
		if fold {
			for n := range d.byName {
				if strings.EqualFold(n, last) {
					cands = append(cands, d.withName(n)...)
				}
			}
			slices.Sort(cands)
		} else {
			cands = d.withName(last)
		}
		var out []int32
		for _, i := range cands {
			s := d.syms[i].symbol()
			if inPath != "" && s.Path != inPath && !strings.HasPrefix(s.Path, inPath+"/") && s.Package != inPath {
				continue
			}
			if pkgPath != "" && s.Package != pkgPath && !strings.HasSuffix(s.Package, "/"+pkgPath) {
				continue
			}
			ok := false
			switch len(parts) {
			case 1:
				ok = true
			case 2:
				ok = eq(s.Recv, parts[0]) || s.Recv == "" && eq(s.PkgName, parts[0]) ||
					pkgPath != "" && eq(s.Recv, parts[0])
			case 3:
				ok = eq(s.PkgName, parts[0]) && eq(s.Recv, parts[1])
			}
			// The name as answers display it, whose module name may hold
			// dots itself ("app.test.<module>" of app.test.ts).
			ok = ok || len(parts) > 2 && eq(s.PkgName+"."+s.Qualified(), name)
			if ok {
				out = append(out, i)
			}
		}
		return out
	}
	if ids := match(false); len(ids) > 0 {
		return ids, ""
	}
	if ids := match(true); len(ids) > 0 {
		return ids, ""
	}
	// A package by path or short name.
	if inPath == "" && len(parts) == 1 {
		if pkgPath == "" {
			if ps := d.pkgNames[name]; len(ps) == 1 {
				return nil, ps[0]
			}
			if _, ok := d.packages[name]; ok {
				return nil, name
			}
		}
	}
	return nil, ""
}

// suggest returns up to 8 known names close to name.
func (d *derived) suggest(name string) []string {
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[i+1:]
	}
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == '/' })
	if len(parts) == 0 {
		return nil
	}
	last := strings.ToLower(parts[len(parts)-1])
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	limit := max(2, len(last)/3)
	for n := range d.byName {
		ln := strings.ToLower(n)
		dist := -1
		switch {
		case ln == last:
			dist = 0
		case strings.HasPrefix(ln, last) || strings.HasPrefix(last, ln) && len(ln) >= 3:
			dist = 1 + abs(len(ln)-len(last))/4
		case strings.Contains(ln, last) && len(last) >= 4:
			dist = 2 + abs(len(ln)-len(last))/4
		default:
			if abs(len(ln)-len(last)) <= limit {
				if e := editDistance(ln, last, limit); e <= limit {
					dist = e
				}
			}
		}
		if dist < 0 {
			continue
		}
		ids := d.withName(n)
		for _, i := range ids[:min(len(ids), 3)] {
			cs = append(cs, cand{d.syms[i].symbol().Display(), dist})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cs {
		if !slices.Contains(out, c.name) {
			out = append(out, c.name)
		}
		if len(out) == 8 {
			break
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Levenshtein distance of a and b, or limit+1 when it
// exceeds limit.
func editDistance(a, b string, limit int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
