// Package codegraph is a call graph of a project's code: its symbols
// (functions, methods, types, constants, variables), the calls between them
// and the imports between packages, with the queries an agent asks of it —
// who calls this, what does it call (to a depth), how does A reach B.
//
// Go is read from its syntax tree: calls to functions of the same package, to
// imported packages' functions and, through the receiver variable, to the
// receiver type's own methods are resolved exactly; a method call on a value of
// unknown type (x.Close()) is linked only when one method of that name exists
// in the package, and marked loose. No type checking is done, so calls through
// interfaces and function values are not seen. Other languages are read from
// their chunks (package chunk): a "name(" in a definition's body is a call to a
// definition of that name in the same file, else the same folder, else the
// only one in the project; these edges are loose too.
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
	"slices"
	"sort"
	"strings"
	"sync"
)

type edge struct {
	to    int32
	line  int32
	loose bool
}

// Graph holds the facts of every file and, derived from them on demand, the
// resolved symbol graph.
type Graph struct {
	mu    sync.Mutex
	files map[string]*FileFacts
	d     *derived // nil when files changed since it was built, or after Forget
}

type symKey struct{ pkg, recv, name string }

type derived struct {
	syms      []*Symbol // into the files' facts, which never change
	out, in   [][]edge
	byName    map[string][]int32 // exact name
	byKey     map[symKey][]int32
	byFile    map[string][]int32
	packages  map[string][]string // package path -> imports
	importers map[string][]string
	pkgNames  map[string][]string // short name -> package paths
	methods   map[string][]int32  // methods by name
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

func key(pkg, recv, name string) symKey { return symKey{pkg, recv, name} }

// get returns the derived graph, building it when stale.
func (g *Graph) get() *derived {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.d != nil {
		return g.d
	}
	paths := make([]string, 0, len(g.files))
	for p := range g.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	d := &derived{byName: map[string][]int32{}, byKey: map[symKey][]int32{}, byFile: map[string][]int32{},
		packages: map[string][]string{}, importers: map[string][]string{}, pkgNames: map[string][]string{},
		methods: map[string][]int32{}}
	base := make(map[string]int32, len(paths)) // file -> index of its first symbol
	for _, p := range paths {
		f := g.files[p]
		base[p] = int32(len(d.syms))
		for k := range f.Symbols {
			s := &f.Symbols[k]
			i := int32(len(d.syms))
			d.syms = append(d.syms, s)
			d.byName[s.Name] = append(d.byName[s.Name], i)
			k := key(s.Package, s.Recv, s.Name)
			d.byKey[k] = append(d.byKey[k], i)
			d.byFile[p] = append(d.byFile[p], i)
			if s.Kind == "method" {
				d.methods[s.Name] = append(d.methods[s.Name], i)
			}
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
	d.out = make([][]edge, len(d.syms))
	d.in = make([][]edge, len(d.syms))
	for _, p := range paths {
		f := g.files[p]
		for _, r := range f.Calls {
			from := base[p] + int32(r.From)
			to, loose, ok := d.resolve(f, r, base[p])
			if !ok || to == from {
				continue
			}
			if slices.ContainsFunc(d.out[from], func(e edge) bool { return e.to == to }) {
				continue
			}
			d.out[from] = append(d.out[from], edge{to: to, line: int32(r.Line), loose: loose})
			d.in[to] = append(d.in[to], edge{to: from, line: int32(r.Line), loose: loose})
		}
	}
	g.d = d
	return d
}

func isCallable(s *Symbol) bool { return s.Kind == "func" || s.Kind == "method" }

// one returns the single callable symbol among ids, if there is exactly one.
func (d *derived) one(ids []int32) (int32, bool) {
	found := int32(-1)
	for _, i := range ids {
		if isCallable(d.syms[i]) {
			if found >= 0 {
				return 0, false
			}
			found = i
		}
	}
	return found, found >= 0
}

func (d *derived) resolve(f *FileFacts, r Ref, base int32) (int32, bool, bool) {
	if f.Language == "go" {
		switch {
		case r.Pkg != "":
			i, ok := d.one(d.byKey[key(r.Pkg, "", r.Name)])
			return i, false, ok
		case r.Recv != "":
			i, ok := d.one(d.byKey[key(f.Package, r.Recv, r.Name)])
			return i, false, ok
		case !r.Loose:
			i, ok := d.one(d.byKey[key(f.Package, "", r.Name)])
			return i, false, ok
		}
		// x.Name() with x of unknown type: the package's only method so
		// named, else the project's only one.
		var ms []int32
		for _, i := range d.methods[r.Name] {
			if d.syms[i].Package == f.Package {
				ms = append(ms, i)
			}
		}
		if len(ms) == 0 {
			ms = d.methods[r.Name]
		}
		i, ok := d.one(ms)
		return i, true, ok
	}
	// Other languages: by name, nearest first.
	cands := d.byName[r.Name]
	if r.Recv != "" {
		var rc []int32
		for _, i := range cands {
			s := d.syms[i]
			if s.Recv == r.Recv || s.PkgName == r.Recv {
				rc = append(rc, i)
			}
		}
		if i, ok := d.one(rc); ok {
			return i, !(!r.Loose && d.syms[i].Path == f.Path), true
		}
	}
	var sameFile, samePkg []int32
	for _, i := range cands {
		s := d.syms[i]
		if s.Path == f.Path {
			sameFile = append(sameFile, i)
		} else if s.Package == f.Package {
			samePkg = append(samePkg, i)
		}
	}
	for _, set := range [][]int32{sameFile, samePkg, cands} {
		if i, ok := d.one(set); ok {
			return i, true, true
		}
		if len(set) > 0 {
			break
		}
	}
	return 0, false, false
}

// Stats counts the graph's symbols, call sites and packages.
type Stats struct {
	Symbols  int `json:"symbols"`
	Calls    int `json:"calls"` // call sites, resolved to a symbol or not
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
		st.Calls += len(f.Calls)
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
	for i := range d.syms {
		s := d.syms[i]
		u := Use{PkgImporter: len(d.importers[s.Package])}
		var pkgs []string
		for _, e := range d.in[i] {
			c := d.syms[e.to]
			if c.Test {
				continue
			}
			if !e.loose {
				u.Callers++
			}
			if c.Package != s.Package && !slices.Contains(pkgs, c.Package) {
				pkgs = append(pkgs, c.Package)
			}
		}
		u.CallerPkgs = len(pkgs)
		if u == (Use{}) {
			continue
		}
		m := out[s.Path]
		if m == nil {
			m = map[string]Use{}
			out[s.Path] = m
		}
		m[s.Qualified()] = u
	}
	return out
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
func (g *Graph) Lookup(name string) (Symbol, error) {
	d := g.get()
	ids, pkg := d.lookup(strings.TrimSpace(name))
	if len(ids) > 1 {
		// Prefer definitions outside tests, then exact-case callable ones.
		var nt []int32
		for _, i := range ids {
			if !d.syms[i].Test {
				nt = append(nt, i)
			}
		}
		if len(nt) > 0 {
			ids = nt
		}
	}
	switch {
	case len(ids) == 1:
		return *d.syms[ids[0]], nil
	case len(ids) > 1:
		c := make([]Symbol, 0, min(len(ids), maxCandidates))
		slices.SortFunc(ids, func(a, b int32) int {
			sa, sb := d.syms[a], d.syms[b]
			if sa.Exported != sb.Exported {
				if sa.Exported {
					return -1
				}
				return 1
			}
			if c := strings.Compare(sa.Path, sb.Path); c != 0 {
				return c
			}
			return sa.Line - sb.Line
		})
		for _, i := range ids[:min(len(ids), maxCandidates)] {
			c = append(c, *d.syms[i])
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
			for n, ids := range d.byName {
				if strings.EqualFold(n, last) {
					cands = append(cands, ids...)
				}
			}
			slices.Sort(cands)
		} else {
			cands = d.byName[last]
		}
		var out []int32
		for _, i := range cands {
			s := d.syms[i]
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
	for n, ids := range d.byName {
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
		for _, i := range ids[:min(len(ids), 3)] {
			cs = append(cs, cand{d.syms[i].Display(), dist})
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
