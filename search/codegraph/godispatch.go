package codegraph

// goEmbedders inverts embedded: the project's types that embed each type.
func goEmbedders(embedded map[int32][]int32) map[int32][]int32 {
	out := map[int32][]int32{}
	for t, es := range embedded {
		for _, e := range es {
			out[e] = append(out[e], t)
		}
	}
	return out
}

// typeOfMethod returns the type declaring a method (its receiver's type,
// an interface for an interface's method).
func (d *derived) typeOfMethod(m sym) (int32, bool) {
	return d.one(d.withNameIn(m.def().Recv, m.f.Package), isType, nil)
}

// satisfies reports whether the Go type typ of package pkg has every
// method of the interface iface, its own or promoted, each with the
// interface's parameter count.
func (d *derived) satisfies(pkg, typ string, iface int32) bool {
	want, complete := d.goMethodSet(iface)
	if len(want) == 0 || !complete {
		return false // every type satisfies an empty interface: no dispatch to name
	}
	if samePackageOnly(want) && pkg != d.syms[iface].f.Package {
		return false
	}
	t, known := d.one(d.withNameIn(typ, pkg), isType, nil)
	for _, m := range want {
		i, ok := d.goMethod(pkg, typ, m.Name, isCallable)
		if !ok {
			if known && d.stdMethod(t, m.Name, m.Arity) {
				continue
			}
			return false
		}
		if !sameShape(d.syms[i].def(), &m) {
			return false
		}
	}
	return true
}

// dispatchedBy returns the interface methods through which a call reaches
// the concrete Go method m: those of the project's interfaces that m's
// type satisfies, named as m. Their callers are m's dispatch callers.
func (d *derived) dispatchedBy(m int32) []int32 {
	s := d.syms[m]
	def := s.def()
	if s.f.Language != "go" || def.Kind != "method" || def.Iface {
		return nil
	}
	var out []int32
	for _, i := range d.withName(def.Name) {
		is := d.syms[i]
		id := is.def()
		if !id.Iface || id.Kind != "method" || is.f.Language != "go" {
			continue
		}
		if !sameShape(id, def) {
			continue
		}
		iface, ok := d.typeOfMethod(is)
		if !ok || !d.satisfies(s.f.Package, def.Recv, iface) {
			continue
		}
		// The method the type's method set holds under that name must be m
		// itself, not another one promoted or its own.
		if got, ok := d.goMethod(s.f.Package, def.Recv, def.Name, isCallable); ok && got == m {
			out = append(out, i)
		}
	}
	return out
}
