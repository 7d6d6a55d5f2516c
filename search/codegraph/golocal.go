package codegraph

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Local inference for Go, without a type checker: the types of variables
// that the code around them states — a type assertion's result, a type
// switch's variable in a case of one type, a range variable over a container
// whose element type is named, a local copied from a chain of fields, a
// package-level variable. What this file cannot know it leaves as a
// stand-in that the graph resolves once every file's facts are in (see
// elemOf, fieldOf, resultOf), or drops: a wrong type is worse than none.

// The kinds of container whose element is a named type: ranging over one
// gives a variable of that type, as does indexing it.
const (
	elemNone  uint8 = iota
	elemSlice       // a slice or an array: range gives the index, then the element
	elemMap         // a map: the key, then the element
	elemChan        // a channel: the element
)

// elemOf brackets, in a stand-in type, a container whose type only the
// resolved graph knows: a range variable over s.items (s's struct declared
// in another file) is "\x02S\x00items\x02", over l.Items() "\x02\x01L.Items\x02";
// a value received from a channel (v := <-p.Consumer()) is written the same
// way. Fields after the element (it.conn.Close()) follow, joined by fieldOf.
const elemOf = "\x02"

// isStandIn reports whether a type name is a stand-in for a type the
// resolved graph works out, not a type's own name.
func isStandIn(name string) bool {
	return strings.ContainsAny(name, fieldOf+resultOf+result2Of+elemOf)
}

// varType returns the type a declaration's type expression gives a
// variable or a field: a named type (namedType), or a slice, array, map or
// channel of one, with the kind of container in elem.
func varType(t ast.Expr, imports map[string]uint16) (typeRef, bool) {
	var elem uint8
	var key *typeRef
	switch x := t.(type) {
	case *ast.ArrayType:
		t, elem = x.Elt, elemSlice
	case *ast.MapType:
		t, elem = x.Value, elemMap
		if k, ok := namedType(x.Key, imports); ok && !(k.pkg == 0 && universe[k.name]) {
			key = &k
		}
	case *ast.ChanType:
		t, elem = x.Value, elemChan
	}
	r, ok := namedType(t, imports)
	if st, isStruct := t.(*ast.StructType); !ok && isStruct {
		// []struct{ in string; want Level }: a table's rows, whose fields
		// the file's anonStructs hold.
		r, ok = typeRef{name: anonStructName(st)}, true
	}
	if !ok || elem != elemNone && r.pkg == 0 && universe[r.name] {
		if key != nil {
			// map[Level]string: only the key has methods.
			return typeRef{name: keyOnly, elem: elemMap, key: key}, true
		}
		return typeRef{}, false // []string: nothing to call a method on
	}
	r.elem = elem
	r.key = key
	return r, true
}

// anonStruct starts the name that stands, in a file's facts, for one of its
// anonymous struct types (a table of test cases), followed by its position:
// its fields are looked up as a named struct's (chainType). It is no
// stand-in the resolved graph works out; a call on it is by name, and it is
// never stored as a field's or a result's type.
const anonStruct = "\x05"

func anonStructName(st *ast.StructType) string { return anonStruct + strconv.Itoa(int(st.Pos())) }

// isAnonStruct reports whether a type's name stands for an anonymous struct.
func isAnonStruct(name string) bool { return strings.HasPrefix(name, anonStruct) }

// keyOnly stands for the element of a map whose key alone is a named type
// (map[Level]string): it has no methods, and is never stored.
const keyOnly = "_"

// element returns the type of an element of container c: itself a
// container's type (elem set), or a stand-in the resolved graph takes the
// element of.
func element(c typeRef) (typeRef, bool) {
	switch {
	case c.name == keyOnly:
		return typeRef{}, false
	case c.elem != elemNone:
		return typeRef{name: c.name, pkg: c.pkg}, true
	case isStandIn(c.name):
		return typeRef{name: elemOf + c.name + elemOf, pkg: c.pkg}, true
	}
	return typeRef{}, false // a named container type (type Items []*Item): its element is not known here
}

// chainType returns the type of v.a.b, v of type t: through the fields of
// the file's own structs (fields) while it can, then a stand-in (fieldOf)
// for the rest, which the resolved graph follows through the structs of
// other files and packages, promoted fields too.
func chainType(t typeRef, path []string, fields map[string]map[string]typeRef) (typeRef, bool) {
	if t.elem != elemNone {
		return typeRef{}, false
	}
	for len(path) > 0 && t.pkg == 0 && !isStandIn(t.name) {
		ft, ok := fields[t.name][path[0]]
		if !ok {
			break
		}
		if ft.elem != elemNone && len(path) > 1 {
			return typeRef{}, false // s.items.x: no field of a slice
		}
		t, path = ft, path[1:]
	}
	if len(path) == 0 {
		return t, true
	}
	return typeRef{name: t.name + fieldOf + strings.Join(path, fieldOf), pkg: t.pkg}, true
}

// goScope says what is known of a function's variables where an
// expression is read: typeOf the type of a variable (a parameter, a local,
// a package-level variable of the file), fields the file's structs' fields.
type goScope struct {
	imports map[string]uint16
	fields  map[string]map[string]typeRef
	typeOf  func(name string) (typeRef, bool)
}

// exprType returns the type an expression has when the code states it
// or a stand-in the graph resolves: T{}, &T{}, new(T), x.(T), []T{},
// make([]T, n), a variable, a chain of fields (s.cfg.Store), an element
// (items[i], <-ch) or a call's result (NewClient(), db.Query()).
func (sc goScope) exprType(e ast.Expr) (typeRef, bool) {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	if t, ok := statedType(e, sc.imports); ok {
		return t, true
	}
	switch x := e.(type) {
	case *ast.CompositeLit: // []T{…}, map[K]T{…}
		if x.Type != nil {
			return varType(x.Type, sc.imports)
		}
	case *ast.CallExpr: // make([]T, n)
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "make" && len(x.Args) > 0 {
			return varType(x.Args[0], sc.imports)
		}
	case *ast.Ident:
		return sc.typeOf(x.Name)
	case *ast.SelectorExpr:
		if base, path, ok := fieldChain(x); ok {
			if _, isPkg := sc.imports[base]; !isPkg {
				if t, ok := sc.typeOf(base); ok {
					return chainType(t, path, sc.fields)
				}
			}
		}
	case *ast.IndexExpr: // items[i], byName[k], c.items[i] with c := NewCluster()
		if c, ok := sc.exprType(x.X); ok && (c.elem == elemSlice || c.elem == elemMap || c.elem == elemNone && isStandIn(c.name)) {
			return element(c)
		}
		return typeRef{}, false
	case *ast.UnaryExpr: // <-ch
		if x.Op != token.ARROW {
			return typeRef{}, false
		}
		if c, ok := sc.exprType(x.X); ok && (c.elem == elemChan || c.elem == elemNone && isStandIn(c.name)) {
			return element(c)
		}
		return typeRef{}, false
	}
	return calledResult(e, sc.imports, sc.typeOf)
}

// rangeTypes returns the types a range statement gives its key and value
// variables: a slice's or a map's element to the value, a channel's to the
// key; over a container only the resolved graph knows (a field of a struct
// of another file, a call's result), the value only — the key is an index
// or a map's key, or, over a channel, no value is declared.
func (sc goScope) rangeTypes(rs *ast.RangeStmt) (key, value typeRef, keyOK, valueOK bool) {
	c, ok := sc.exprType(rs.X)
	if !ok {
		return
	}
	if c.elem == elemMap && c.key != nil {
		key, keyOK = *c.key, true
	}
	el, ok := element(c)
	if !ok {
		return
	}
	if c.elem == elemChan {
		return el, typeRef{}, true, false
	}
	return key, el, keyOK, true
}

// withVars returns vars and, over them, the names given, as a scope of its
// own (a range body, a type switch's case); a name given no type is
// removed, for it hides the outer one.
func withVars(vars map[string]typeRef, names []*ast.Ident, types []typeRef, known []bool) map[string]typeRef {
	out := make(map[string]typeRef, len(vars)+len(names))
	for k, v := range vars {
		out[k] = v
	}
	for i, id := range names {
		if id == nil || id.Name == "_" {
			continue
		}
		if known[i] {
			out[id.Name] = types[i]
		} else {
			delete(out, id.Name)
		}
	}
	return out
}

// rangeScope returns the variables in scope in a range statement's body
// that declares its key or value: vars and those two, typed when the
// container says.
func (sc goScope) rangeScope(rs *ast.RangeStmt, vars map[string]typeRef) map[string]typeRef {
	if rs.Tok != token.DEFINE {
		return vars
	}
	k, v, kok, vok := sc.rangeTypes(rs)
	id := func(e ast.Expr) *ast.Ident {
		x, _ := e.(*ast.Ident)
		return x
	}
	return withVars(vars, []*ast.Ident{id(rs.Key), id(rs.Value)}, []typeRef{k, v}, []bool{kok, vok})
}

// caseScope returns the variables in scope in a type switch's case: vars,
// and the switch's variable (switch v := x.(type)) of the case's type when
// it names one type, else of x's type.
func (sc goScope) caseScope(ts *ast.TypeSwitchStmt, cc *ast.CaseClause, vars map[string]typeRef) map[string]typeRef {
	as, ok := ts.Assign.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return vars
	}
	v, _ := as.Lhs[0].(*ast.Ident)
	var t typeRef
	known := false
	if len(cc.List) == 1 {
		if id, isNil := cc.List[0].(*ast.Ident); !isNil || id.Name != "nil" {
			t, known = varType(cc.List[0], sc.imports)
		}
	} else if ta, ok := as.Rhs[0].(*ast.TypeAssertExpr); ok {
		t, known = sc.exprType(ta.X)
	}
	return withVars(vars, []*ast.Ident{v}, []typeRef{t}, []bool{known})
}

// packageVars returns the file's package-level variables whose type the
// declaration states (var d = &Disk{}, var m store.Map, var xs []*Item),
// for calls on them here, and as Fields of the struct named "" for calls on
// them in the package's other files; raw holds those and the ones set from
// a call (a stand-in), for the function values set from them (Get =
// _pool.Get).
func packageVars(f *ast.File, imports map[string]uint16) (vars map[string]typeRef, fields []Field, raw map[string]typeRef) {
	vars, raw = map[string]typeRef{}, map[string]typeRef{}
	sc := goScope{imports: imports, typeOf: func(string) (typeRef, bool) { return typeRef{}, false }}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, id := range vs.Names {
				t, ok := typeRef{}, false
				switch {
				case vs.Type != nil:
					t, ok = varType(vs.Type, imports)
				case len(vs.Values) == len(vs.Names):
					t, ok = sc.exprType(vs.Values[i])
					if ok && id.Name != "_" {
						raw[id.Name] = t
					}
					ok = ok && !isStandIn(t.name) // its function may be of another file: not followed
				}
				if ok && id.Name != "_" {
					raw[id.Name] = t
					vars[id.Name] = t
					if t.name != keyOnly && !isAnonStruct(t.name) {
						fields = append(fields, Field{Name: id.Name, Type: t.name, Pkg: t.pkg, Elem: t.elem})
					}
				}
			}
		}
	}
	return vars, fields, raw
}
