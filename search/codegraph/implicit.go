package codegraph

import (
	"fmt"
	"slices"
	"strings"
)

// The calls a Go program makes without a call expression: the standard
// library calls a value's String or Error method when fmt formats it,
// MarshalJSON when encoding/json encodes it, Unwrap when errors.Is walks
// it, Len, Less and Swap when sort sorts it; and a call through a standard
// library interface (v.String() with v a fmt.Stringer, err.Error() with err
// an error) reaches every type having the method. The graph holds no such
// call. Impact follows them, as inferred links (Reach.Inferred), so that a
// change to a type's Error method names the tests that print its errors.

// Groups of methods the standard library calls on the values it is given.
const (
	invFormat    uint8 = 1 << iota // fmt and what formats through it: String, Error, Format, GoString
	invErrors                      // errors.Is, As, Unwrap: Unwrap, Is, As
	invMarshal                     // encoding/json, xml, gob: MarshalJSON, MarshalText…
	invUnmarshal                   // their decoders: UnmarshalJSON, UnmarshalText…
	invSort                        // sort and container/heap: Len, Less, Swap, Push, Pop
)

// implicitMethods are the methods the standard library calls on a value,
// each with the group of functions that call it.
var implicitMethods = map[string]uint8{
	"String": invFormat, "Error": invFormat, "Format": invFormat, "GoString": invFormat,
	"Unwrap": invErrors, "Is": invErrors, "As": invErrors,
	"MarshalJSON": invMarshal, "MarshalText": invMarshal, "MarshalXML": invMarshal, "MarshalBinary": invMarshal, "GobEncode": invMarshal,
	"UnmarshalJSON": invUnmarshal, "UnmarshalText": invUnmarshal, "UnmarshalXML": invUnmarshal, "UnmarshalBinary": invUnmarshal, "GobDecode": invUnmarshal,
	"Len": invSort, "Less": invSort, "Swap": invSort, "Push": invSort, "Pop": invSort,
}

// invokerGroup returns the group of methods a call of the standard
// library calls on the values passed to it (name of package pkg, on a
// value of type recv when a method), 0 for none.
func invokerGroup(pkg, recv, name string) uint8 {
	oneOf := func(names ...string) bool {
		for _, n := range names {
			if name == n {
				return true
			}
		}
		return false
	}
	switch pkg {
	case "fmt":
		if recv == "" && (oneOf("Errorf") || strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Sprint") ||
			strings.HasPrefix(name, "Fprint") || strings.HasPrefix(name, "Append")) {
			return invFormat
		}
	case "log":
		if strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic") {
			return invFormat
		}
	case "testing":
		if oneOf("Error", "Errorf", "Fatal", "Fatalf", "Log", "Logf", "Skip", "Skipf") {
			return invFormat
		}
	case "errors":
		if recv == "" && oneOf("Is", "As", "Unwrap") {
			return invErrors
		}
	case "encoding/json", "encoding/xml", "encoding/gob":
		switch {
		case oneOf("Marshal", "MarshalIndent", "Encode", "EncodeElement"):
			return invMarshal
		case oneOf("Unmarshal", "Decode", "DecodeElement"):
			return invUnmarshal
		}
	case "sort":
		if recv == "" && oneOf("Sort", "Stable", "IsSorted") {
			return invSort
		}
	case "container/heap":
		if recv == "" && oneOf("Init", "Push", "Pop", "Fix", "Remove") {
			return invSort
		}
	}
	return 0
}

// invocation is a call of the standard library that calls methods of the
// values passed to it.
type invocation struct {
	group uint8
	name  string // as the code names it: fmt.Sprintf
}

// stdCall is a call through a method of a standard library interface.
type stdCall struct {
	from, line int32
	iface      string // its key in stdInterfaces
}

// implicitFacts are what inferring the standard library's calls needs,
// worked out from the facts on first use.
type implicitFacts struct {
	named    map[int32][]int32      // a type -> the symbols whose code names it
	made     map[int32][]int32      // a type -> the symbols that make or return a value of it
	invokes  map[int32][]invocation // a symbol -> its calls of the standard library's invokers
	stdCalls map[string][]stdCall   // a method's name -> the calls through a standard interface's method so named
}

func (d *derived) implicit() *implicitFacts {
	d.implicitOnce.Do(func() { d.imp = d.buildImplicit() })
	return d.imp
}

func (d *derived) buildImplicit() *implicitFacts {
	im := &implicitFacts{named: map[int32][]int32{}, made: map[int32][]int32{}, invokes: map[int32][]invocation{},
		stdCalls: map[string][]stdCall{}}
	addTo := func(m map[int32][]int32, t, s int32) {
		if l := m[t]; len(l) == 0 || l[len(l)-1] != s {
			m[t] = append(l, s)
		}
	}
	typeIn := func(name, pkg string) (int32, bool) { return d.one(d.withNameIn(name, pkg), isType, nil) }
	// In the files' order, for answers that do not change from run to run.
	paths := make([]string, 0, len(d.byFile))
	for p := range d.byFile {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		base := d.byFile[p]
		f := d.syms[base].f
		if f.Language != "go" {
			continue
		}
		pkgOf := func(k uint16) string {
			if k == 0 || int(k) > len(f.Imports) {
				return f.Package
			}
			return f.Imports[k-1]
		}
		for _, u := range f.Types {
			if t, ok := typeIn(u.Name, pkgOf(u.Pkg)); ok {
				addTo(im.named, t, base+u.From)
				if u.Makes {
					addTo(im.made, t, base+u.From)
				}
			}
		}
		for k := range f.Symbols {
			s := &f.Symbols[k]
			if s.Result == "" || !isCallable(s) || isStandIn(s.Result) {
				continue
			}
			if t, ok := typeIn(s.Result, pkgOf(s.ResultPkg)); ok {
				addTo(im.named, t, base+int32(k))
				addTo(im.made, t, base+int32(k))
			}
		}
		for _, r := range f.Calls {
			if r.Embeds || r.Value || r.Loose && r.Recv == "" {
				continue
			}
			from := base + r.From
			if r.Recv == "" {
				if r.Pkg != 0 {
					if g := invokerGroup(pkgOf(r.Pkg), "", r.Name); g != 0 {
						im.invokes[from] = append(im.invokes[from], invocation{g, GoImportName(pkgOf(r.Pkg)) + "." + r.Name})
					}
				}
				// T(x): a conversion makes a value of T.
				if t, ok := typeIn(r.Name, pkgOf(r.Pkg)); ok {
					addTo(im.named, t, from)
					addTo(im.made, t, from)
				}
				continue
			}
			// A method: of a standard library type that formats (t.Errorf),
			// or of a standard library interface (v.String(), err.Error()).
			name, pkg := r.Recv, pkgOf(r.Pkg)
			if isStandIn(name) {
				t, ok := d.goType(pkg, name, 0)
				if !ok || t.elem != elemNone {
					continue
				}
				name, pkg = t.name, t.pkg
			}
			if g := invokerGroup(pkg, name, r.Name); g != 0 {
				im.invokes[from] = append(im.invokes[from], invocation{g, strings.ToLower(name[:1]) + "." + r.Name})
			}
			key := pkg + "." + name
			if universe[name] && (pkg == f.Package || pkg == "") {
				key = name
			}
			if _, ok := stdInterfaces[key][r.Name]; ok {
				im.stdCalls[r.Name] = append(im.stdCalls[r.Name], stdCall{from: from, line: r.Line, iface: key})
			}
		}
	}
	return im
}

// implicitLink is a caller the standard library's calls give a method.
type implicitLink struct {
	to, line int32
	note     string
}

// implicitCallers returns the inferred callers of the Go method m: the
// calls through a standard library interface it implements, from its
// package or one importing it; and the symbols that hold a value of its
// type — naming the type, making it, or calling what makes or returns it —
// and pass values to a function of the standard library that calls such a
// method (fmt.Sprintf for String), themselves or through the functions
// they call, up to two calls down.
func (d *derived) implicitCallers(m int32, invokes func(int32, uint8) (string, bool)) []implicitLink {
	s := d.syms[m]
	def := s.def()
	if s.f.Language != "go" || def.Kind != "method" || def.Iface {
		return nil
	}
	group, ok := implicitMethods[def.Name]
	if !ok {
		return nil
	}
	t, ok := d.typeOfMethod(s)
	if !ok {
		return nil
	}
	im := d.implicit()
	mName := s.symbol().Display()
	var out []implicitLink
	seen := map[int32]bool{m: true}
	add := func(to, line int32, note string) {
		if !seen[to] {
			seen[to] = true
			out = append(out, implicitLink{to, line, note})
		}
	}
	// Calls through a standard library interface the type satisfies.
	for _, c := range im.stdCalls[def.Name] {
		cf := d.syms[c.from].f
		if cf.Package != s.f.Package && !slices.Contains(d.packages[cf.Package], s.f.Package) {
			continue
		}
		if !d.hasStdInterface(s.f.Package, def.Recv, c.iface, m) {
			continue
		}
		iface := c.iface
		if iface != "error" {
			iface = GoImportName(iface[:strings.LastIndexByte(iface, '.')]) + iface[strings.LastIndexByte(iface, '.'):]
		}
		add(c.from, c.line, fmt.Sprintf("%s calls %s.%s, which %s implements", d.syms[c.from].symbol().Display(), iface, def.Name, mName))
	}
	// The types whose values have the method: its own and those that
	// embed it, promoted.
	types := []int32{t}
	for k := 0; k < len(types) && k < 64; k++ {
		for _, e := range d.embedders[types[k]] {
			es := d.syms[e]
			if got, ok := d.goMethod(es.f.Package, es.def().Name, def.Name, isCallable); ok && got == m && !slices.Contains(types, e) {
				types = append(types, e)
			}
		}
	}
	for _, ty := range types {
		tName := d.syms[ty].def().Name
		consider := func(x, line int32, how string) {
			if seen[x] {
				return
			}
			if inv, ok := invokes(x, group); ok {
				add(x, line, fmt.Sprintf("%s %s and calls %s, which may call %s", d.syms[x].symbol().Display(), how, inv, mName))
			}
		}
		made := im.made[ty]
		for _, x := range im.named[ty] {
			how := "names " + tName
			if slices.Contains(made, x) {
				how = "makes a " + tName
			}
			consider(x, 0, how)
		}
		// What makes a value, and what passes on what it makes as an error
		// or an interface, up to two calls up.
		from := map[int32]int32{} // a producer -> the one it gets the value from (-1: its own)
		for _, p := range made {
			from[p] = -1
		}
		level := made
		for hop := 0; hop <= 2 && len(level) > 0; hop++ {
			var next []int32
			for _, p := range level {
				pName := d.syms[p].symbol().Display()
				if q := from[p]; q >= 0 {
					pName += " (from " + d.syms[q].symbol().Display() + ")"
				}
				for _, e := range d.in.of(p) {
					if !e.isCall() {
						continue
					}
					consider(e.to, e.line, "gets a "+tName+" from "+pName)
					if _, ok := from[e.to]; !ok && hop < 2 && d.returnsInterface(e.to) {
						from[e.to] = p
						next = append(next, e.to)
					}
				}
			}
			level = next
		}
	}
	return out
}

// returnsInterface reports whether a Go function's first result is an
// error or an interface of the project: what it returns may be a value
// that a function it calls made.
func (d *derived) returnsInterface(i int32) bool {
	s := d.syms[i]
	def := s.def()
	if !isCallable(def) || def.Result == "" || isStandIn(def.Result) || def.ResultElem != elemNone {
		return false
	}
	if def.ResultPkg == 0 && def.Result == "error" {
		return true
	}
	pkg := s.f.Package
	if def.ResultPkg != 0 {
		pkg = s.f.pkgOf(Ref{Pkg: def.ResultPkg})
	}
	t, ok := d.one(d.withNameIn(def.Result, pkg), isType, nil)
	return ok && d.syms[t].def().Iface
}

// hasStdInterface reports whether the Go type typ of package pkg has every
// method of a standard library interface, m the one of them so named.
func (d *derived) hasStdInterface(pkg, typ, iface string, m int32) bool {
	t, known := d.one(d.withNameIn(typ, pkg), isType, nil)
	for name, a := range stdInterfaces[iface] {
		i, ok := d.goMethod(pkg, typ, name, isCallable)
		if !ok {
			if known && d.stdMethod(t, name, a) {
				continue
			}
			return false
		}
		if def := d.syms[i].def(); def.Arity != 0 && def.Arity != a {
			return false
		}
		if name == d.syms[m].def().Name && i != m {
			return false
		}
	}
	return true
}

// invokerReach answers, for impact's walk, whether a symbol calls a
// function of the standard library that calls a group of methods, itself
// or through what it calls up to two calls down, and names the call (and
// the function it is made in when not the symbol itself); answers are kept
// for the walk.
func (d *derived) invokerReach() func(int32, uint8) (string, bool) {
	im := d.implicit()
	type key struct {
		s     int32
		group uint8
		depth int
	}
	type found struct {
		name string
		in   int32 // the symbol making the call
	}
	memo := map[key]found{}
	var find func(s int32, group uint8, depth int) found
	find = func(s int32, group uint8, depth int) found {
		k := key{s, group, depth}
		if v, ok := memo[k]; ok {
			return v
		}
		memo[k] = found{} // a cycle finds nothing more
		for _, c := range im.invokes[s] {
			if c.group&group != 0 {
				memo[k] = found{c.name, s}
				return memo[k]
			}
		}
		if depth > 0 {
			for _, e := range d.out.of(s) {
				if !e.isCall() || e.to == s {
					continue
				}
				if v := find(e.to, group, depth-1); v.name != "" {
					memo[k] = v
					return v
				}
			}
		}
		return found{}
	}
	return func(s int32, group uint8) (string, bool) {
		v := find(s, group, 2)
		if v.name == "" {
			return "", false
		}
		if v.in != s {
			return v.name + " (in " + d.syms[v.in].symbol().Display() + ")", true
		}
		return v.name, true
	}
}
