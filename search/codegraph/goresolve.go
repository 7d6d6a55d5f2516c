package codegraph

import (
	"slices"
	"strings"
)

// maxEmbedDepth bounds the walk down the structs and interfaces a Go type
// embeds, looking for a promoted method or field.
const maxEmbedDepth = 6

// goTypeOf is a receiver's type as the resolved graph works it out: a
// named type and its package, or, when elem is set, a container of it.
// When the type is not found, pkg is the package it was looked for in (a
// dependency's, when the chain left the project).
type goTypeOf struct {
	name, pkg string
	elem      uint8
}

// isProject reports whether a package path is one of the project's.
func (d *derived) isProject(pkg string) bool {
	_, ok := d.packages[pkg]
	return ok
}

// resolveGo links a Go call site: a function of its package or of an
// imported one, or the method of the receiver's type — a type's name or a
// stand-in for it (see fieldOf, resultOf, elemOf) — its own, else one it
// gets from a struct or interface it embeds. A call on a value of a type
// of another module (atomic.Int64, *os.File) or of a project type that has
// no such method is linked to nothing: a project method of the same name
// is not what it calls. Only a value of unknown type (x.Close(), or a
// type parameter's) is linked by name, loosely.
func (d *derived) resolveGo(f *FileFacts, r Ref, want func(*Def) bool) (int32, bool, bool) {
	pkg := f.Package
	if r.Pkg != 0 {
		pkg = f.pkgOf(r)
	}
	if r.Recv == "" && (r.Pkg != 0 || !r.Loose) {
		// The function of that package (or the type it embeds).
		i, ok := d.methodIn(pkg, "", r.Name, want)
		return i, false, ok
	}
	byNamePkg := pkg
	if r.Recv != "" {
		t, ok := d.goType(pkg, r.Recv, 0)
		switch {
		case ok && t.elem != elemNone:
			return 0, false, false // a slice or a map has no methods
		case ok:
			if i, ok := d.goMethod(t.pkg, t.name, r.Name, want); ok {
				return i, false, true
			}
			if !d.isProject(t.pkg) || t.pkg == f.Package && universe[t.name] {
				return 0, false, false // a dependency's type, or error
			}
			if _, known := d.one(d.withNameIn(t.name, t.pkg), isType, nil); known {
				// The project's type has no method so named, nor any type
				// it embeds of the project: a field of a function type, or
				// a method of a dependency's type it embeds.
				return 0, false, false
			}
			// A type parameter, or a type not found: by name.
		case t.pkg != "" && !d.isProject(t.pkg):
			return 0, false, false // a chain of fields that left the project
		}
		if r.Value {
			return 0, false, false
		}
		if isStandIn(r.Recv) {
			byNamePkg = f.Package
		}
	}
	// x.Name() with x of unknown type: the package's only method so
	// named, else the project's only one. An interface's method has no
	// body: a call whose receiver is unknown goes to one that has.
	method := func(s sym) bool { return s.def().Kind == "method" && !s.def().Iface }
	cands := d.withName(r.Name)
	if inPkg := d.withNameIn(r.Name, byNamePkg); slices.ContainsFunc(inPkg, func(i int32) bool { return method(d.syms[i]) }) {
		cands = inPkg
	}
	i, ok := d.one(cands, want, method)
	return i, true, ok
}

// goType works out the type a receiver names, seen from package pkg: a
// type's name, or a stand-in for the type of a chain of fields
// ("S\x00a\x00b"; a package-level variable's with S ""), of a call's result
// ("\x01NewClient", "\x01Client.Do", maybe followed by fields) or of a
// container's element ("\x02…\x02", maybe followed by fields).
func (d *derived) goType(pkg, recv string, depth int) (goTypeOf, bool) {
	if depth > maxResultDepth {
		return goTypeOf{}, false
	}
	switch {
	case strings.HasPrefix(recv, elemOf):
		container, rest, found := strings.Cut(recv[len(elemOf):], elemOf)
		if !found {
			return goTypeOf{}, false
		}
		c, ok := d.goType(pkg, container, depth+1)
		if !ok || c.elem == elemNone {
			// Over a named container type: not known.
			return goTypeOf{pkg: c.pkg}, false
		}
		if rest = strings.Trim(rest, fieldOf); rest == "" {
			return goTypeOf{name: c.name, pkg: c.pkg}, true
		}
		return d.fieldPath(c.pkg, c.name, rest)
	case strings.HasPrefix(recv, resultOf) || strings.HasPrefix(recv, result2Of):
		// The receiver of the call may be an element's stand-in
		// ("\x01\x02\x01NewCluster\x00nodes\x02.Apply"), whose fields are
		// its own.
		head := ""
		if rest := recv[1:]; strings.HasPrefix(rest, elemOf) {
			end := strings.Index(rest[1:], elemOf)
			if end < 0 {
				return goTypeOf{}, false
			}
			head, recv = recv[:end+3], recv[end+3:]
		}
		called, path, _ := strings.Cut(recv, fieldOf)
		called = head + called
		t, ok := d.goResultType(pkg, called, depth)
		if !ok || path == "" {
			return t, ok
		}
		if t.elem != elemNone {
			return goTypeOf{}, false
		}
		return d.fieldPath(t.pkg, t.name, path)
	case strings.Contains(recv, fieldOf):
		st, path, _ := strings.Cut(recv, fieldOf)
		return d.fieldPath(pkg, st, path)
	}
	return goTypeOf{name: recv, pkg: pkg}, true
}

// goResultType returns the type a stand-in for a call's result names (see
// calledResult), as seen from package pkg: what the function returns
// (Def.Result), or the method of the receiver's type (itself maybe a
// stand-in, a few calls deep at most), its own or promoted.
func (d *derived) goResultType(pkg, called string, depth int) (goTypeOf, bool) {
	second := strings.HasPrefix(called, result2Of)
	called = called[1:] // resultOf or result2Of
	recv, name := "", called
	if k := strings.LastIndexByte(called, '.'); k >= 0 {
		recv, name = called[:k], called[k+1:]
		t, ok := d.goType(pkg, recv, depth+1)
		if !ok || t.elem != elemNone {
			return goTypeOf{pkg: t.pkg}, false
		}
		recv, pkg = t.name, t.pkg
	}
	var i int32
	var ok bool
	if recv == "" {
		i, ok = d.methodIn(pkg, "", name, isCallable)
	} else {
		i, ok = d.goMethod(pkg, recv, name, isCallable)
	}
	if !ok && recv == "" && !second {
		// A package-level variable holding a function or method value
		// (Get = _pool.Get): what calling that returns.
		if v, ok := d.one(d.withNameIn(name, pkg), func(s *Def) bool { return s.Kind == "var" }, nil); ok {
			vs := d.syms[v]
			if r := vs.def().Result; isStandIn(r) {
				rp := vs.f.Package
				if vs.def().ResultPkg != 0 {
					rp = vs.f.pkgOf(Ref{Pkg: vs.def().ResultPkg})
				}
				return d.goType(rp, r, depth+1)
			}
		}
	}
	if !ok {
		return goTypeOf{pkg: pkg}, false
	}
	s := d.syms[i]
	def := s.def()
	name, rpkg, elem := def.Result, def.ResultPkg, def.ResultElem
	if second {
		name, rpkg, elem = def.Result2, def.Result2Pkg, def.Result2Elem
	}
	switch {
	case name == "" || name == "error" && rpkg == 0: // an error: of no type known
		return goTypeOf{}, false
	case rpkg == 0:
		return goTypeOf{name: name, pkg: s.f.Package, elem: elem}, true
	}
	tp := s.f.pkgOf(Ref{Pkg: rpkg})
	return goTypeOf{name: name, pkg: tp, elem: elem}, tp != ""
}

// fieldPath follows a chain of fields, joined by fieldOf, from the Go
// struct named st in package pkg (st "": from a package-level variable):
// the type of the last one.
func (d *derived) fieldPath(pkg, st, path string) (goTypeOf, bool) {
	t := goTypeOf{name: st, pkg: pkg}
	for field := range strings.SplitSeq(path, fieldOf) {
		if t.elem != elemNone {
			return goTypeOf{}, false // a field of a slice
		}
		var ok bool
		if t, ok = d.fieldType(t.pkg, t.name, field, 0); !ok {
			return t, false
		}
	}
	return t, true
}

// fieldType returns the type of a field of the Go struct named st in
// package pkg, its own or promoted from a struct it embeds; with st "",
// the type of the package-level variable named field.
func (d *derived) fieldType(pkg, st, field string, depth int) (goTypeOf, bool) {
	var f *FileFacts
	var i int32
	if st == "" {
		v, ok := d.one(d.withNameIn(field, pkg), func(s *Def) bool { return s.Kind == "var" && s.Recv == "" }, nil)
		if !ok {
			return goTypeOf{pkg: pkg}, false
		}
		f = d.syms[v].f
	} else {
		var ok bool
		if i, ok = d.one(d.withNameIn(st, pkg), isType, nil); !ok {
			return goTypeOf{pkg: pkg}, false
		}
		f = d.syms[i].f
	}
	if fl, ok := findField(f.Fields, st, field); ok {
		if fl.Pkg == 0 {
			return goTypeOf{name: fl.Type, pkg: f.Package, elem: fl.Elem}, true
		}
		tp := f.pkgOf(Ref{Pkg: fl.Pkg})
		return goTypeOf{name: fl.Type, pkg: tp, elem: fl.Elem}, tp != ""
	}
	if st == "" || depth >= maxEmbedDepth {
		return goTypeOf{pkg: pkg}, false
	}
	// An embedded field, named by its type (s.raftState.setState()).
	for _, e := range d.embedded[i] {
		if es := d.syms[e]; es.def().Name == field {
			return goTypeOf{name: field, pkg: es.f.Package}, true
		}
	}
	// A promoted field: the only one so named at the shallowest depth.
	var found []goTypeOf
	for _, e := range d.embedded[i] {
		es := d.syms[e]
		if t, ok := d.fieldType(es.f.Package, es.def().Name, field, depth+1); ok {
			found = append(found, t)
		}
	}
	if len(found) != 1 {
		return goTypeOf{pkg: pkg}, false
	}
	return found[0], true
}

// goMethod returns the method name of the Go type typ of package pkg that
// want accepts: its own, else the only one at the shallowest depth of the
// types it embeds (a method promoted from an embedded struct, pointer or
// interface), as Go's selector rule picks it.
func (d *derived) goMethod(pkg, typ, name string, want func(*Def) bool) (int32, bool) {
	if i, ok := d.methodIn(pkg, typ, name, want); ok {
		return i, true
	}
	t, ok := d.one(d.withNameIn(typ, pkg), isType, nil)
	if !ok {
		return 0, false
	}
	seen := map[int32]bool{t: true}
	level := d.embedded[t]
	for depth := 0; depth < maxEmbedDepth && len(level) > 0; depth++ {
		var next []int32
		found, n := int32(0), 0
		for _, e := range level {
			if seen[e] {
				continue
			}
			seen[e] = true
			es := d.syms[e]
			if i, ok := d.methodIn(es.f.Package, es.def().Name, name, want); ok {
				found, n = i, n+1
			}
			next = append(next, d.embedded[e]...)
		}
		if n == 1 {
			return found, true
		}
		if n > 1 {
			return 0, false // ambiguous: no such method
		}
		level = next
	}
	return 0, false
}

// goEmbedded resolves the types each Go type of the project embeds, by
// type, for promoted methods and fields: types of other modules are left
// out, so a method of theirs is never found. The standard library
// interfaces a type embeds (stdInterfaces) are kept in d.stdEmbeds, for
// method sets.
func (d *derived) goEmbedded(files map[string]*FileFacts, paths []string) map[int32][]int32 {
	out := map[int32][]int32{}
	d.stdEmbeds = map[int32][]string{}
	for _, p := range paths {
		f := files[p]
		if f.Language != "go" {
			continue
		}
		base := d.byFile[p]
		for _, r := range f.Calls {
			if !r.Embeds {
				continue
			}
			pkg := f.Package
			if r.Pkg != 0 {
				pkg = f.pkgOf(r)
			}
			if i, ok := d.methodIn(pkg, "", r.Name, isType); ok && i != base+r.From {
				out[base+r.From] = append(out[base+r.From], i)
				continue
			}
			key := pkg + "." + r.Name
			if r.Pkg == 0 && universe[r.Name] {
				key = r.Name
			}
			if _, ok := stdInterfaces[key]; ok && (r.Pkg == 0 || !d.isProject(pkg)) {
				d.stdEmbeds[base+r.From] = append(d.stdEmbeds[base+r.From], key)
			}
		}
	}
	return out
}
