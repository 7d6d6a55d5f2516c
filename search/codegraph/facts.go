package codegraph

import (
	"cmp"
	"go/ast"
	"go/token"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentos-dev/agentos/search/chunk"
)

// Symbol is a definition in the code, as queries return it.
type Symbol struct {
	Name      string `json:"name"`                // "Evict"
	Recv      string `json:"recv,omitempty"`      // receiver or class: "Cache"
	Package   string `json:"package"`             // package path: a Go import path, else the folder
	PkgName   string `json:"pkg_name"`            // short package name: "store"; a module file's stem elsewhere
	Path      string `json:"path"`                // file, relative to the project root
	Line      int    `json:"line"`                // declaration line
	EndLine   int    `json:"end_line"`            //
	Kind      string `json:"kind"`                // func, method, type, const, var
	Language  string `json:"language"`            //
	Exported  bool   `json:"exported,omitempty"`  //
	Test      bool   `json:"test,omitempty"`      //
	Signature string `json:"signature,omitempty"` //
}

// Qualified returns "Recv.Name" or "Name".
func (s Symbol) Qualified() string { return qualified(s.Recv, s.Name) }

func qualified(recv, name string) string {
	if recv != "" {
		return recv + "." + name
	}
	return name
}

// Def is a definition as its file's facts keep it: a Symbol without what its
// file already says (path, package, language) — a large project has a
// hundred thousand of them in memory, so each is kept small.
type Def struct {
	Name     string
	Recv     string // receiver or class
	Kind     string // func, method, type, const, var
	Line     int32  // declaration line
	EndLine  int32
	Exported bool
	Test     bool
	// Iface marks a Go interface type and the methods it declares: an
	// interface method has callers but no body, and its implementations are
	// found by method sets (Graph.Implementations).
	Iface bool
	// Arity is a Go function's number of parameters plus one, 0 when not
	// known: matching an interface's methods by name and parameter count is
	// the cheap part of a signature check that needs no type checker.
	Arity int16
	// Outs is a Go function's number of results plus one, 0 when not
	// known: checked with Arity.
	Outs int8
	// Result is the named type a Go function returns, first of its results
	// when the others are at most an error (T, *T, (T, error)), and
	// ResultPkg its package as Ref.Pkg (0: the function's own): a local set
	// from a call (c := NewClient()) has that type. A function returning
	// an error alone has Result "error": resolving takes it as no type
	// known, impact as the values it may pass on (implicit.go).
	Result    string
	ResultPkg uint16
	// ResultElem says the result is a slice, map or channel of Result
	// (elemSlice…): ranging over the call gives its elements.
	ResultElem uint8
	// Result2, Result2Pkg and Result2Elem are the second result's, as
	// Result's: addr, t := NewTransport().
	Result2Elem uint8
	Result2Pkg  uint16
	Result2     string
}

// Ref is a call site not yet resolved to a symbol, or, with Embeds, a type
// naming a type it embeds or extends.
type Ref struct {
	From int32 // index of the calling symbol in FileFacts.Symbols
	Line int32
	Name string
	Recv string // receiver type when known
	// Pkg is the package the callee is in: 1 + its index in
	// FileFacts.Imports, 0 for the caller's own package.
	Pkg uint16
	// Loose marks a call whose target is known only by name (x.Name() with
	// x of unknown type, or a call in a language without packages).
	Loose bool
	// Embeds marks a type's embedded type (Go) or base class or interface
	// (class A(B), extends, implements), not a call.
	Embeds bool
	// Super marks a call through super (super.m(), super().m()): the
	// method of a base of Recv, not of Recv itself.
	Super bool
	// Value marks a function or method named as a value, not called:
	// passed (http.HandleFunc("/", serveHome)), stored or returned. It
	// resolves only to a function or method, never by name alone.
	Value bool
	// Get marks a read of a property (this.size, this.store.size, x.size
	// with x's class known) that is a call when the property is a getter:
	// it resolves only to a getter of that class, never by name.
	Get bool
}

// FileFacts are the symbols, imports and call sites of one file.
type FileFacts struct {
	Path     string
	Language string
	Package  string
	PkgName  string
	Imports  []string
	Symbols  []Def
	// Signatures are the symbols' signatures, by index, for files whose
	// definitions come from chunks; nil for Go, whose symbols have none.
	Signatures []string
	Calls      []Ref
	// Fields are the named types of the fields of the file's Go structs:
	// a call through a field of a struct declared in another file of the
	// package (s.db.Get() in handlers.go, the struct in server.go) is
	// resolved against them.
	Fields []Field
	// Bindings are the names a TypeScript, JavaScript or Python file
	// imports and exports.
	Bindings []Binding
	// Types are the named types each Go function's code names — in its
	// signature, a composite literal, new(T), a variable's or a local
	// type's declaration, a type assertion — one a symbol and type: the
	// values it handles, for the calls the standard library makes on them
	// (fmt calling a String method; see implicit.go).
	Types []TypeUse
	// Callables digest what TypeScript declarations say their values
	// are called with (see tstypes.go), sorted by symbol: for the type
	// of a callback's parameters, which the callee's declaration gives.
	Callables []Callable
}

// TypeUse is a named type a Go symbol's code names.
type TypeUse struct {
	From int32  // index of the symbol in FileFacts.Symbols
	Pkg  uint16 // the type's package, as Ref.Pkg
	// Makes says the code makes a value of it: T{…}, &T{…}, []T{…},
	// new(T).
	Makes bool
	Name  string
}

// Field is a Go struct's field of a named type. A file's are sorted by
// struct and name.
type Field struct {
	Struct, Name, Type string
	Pkg                uint16 // the type's package, as Ref.Pkg
	// Elem says the field is a slice, map or channel of Type (elemSlice…).
	Elem uint8
}

func compareFields(a, b Field) int {
	return cmp.Or(strings.Compare(a.Struct, b.Struct), strings.Compare(a.Name, b.Name))
}

// fieldOf joins a struct's name and a field's, and the fields of a chain
// (s.a.b.M()), in the Recv of a call through a field of a struct the calling
// file does not declare; resolving it looks each field's type up in its
// package's Fields.
const fieldOf = "\x00"

// resultOf starts the Recv of a call on a local set from a function's
// result ("\x01NewClient"): resolving it looks up the function (of the
// package Ref.Pkg names) and its Def.Result.
const resultOf = "\x01"

// result2Of starts the Recv of a call on a local set from a function's
// second result ("\x03NewTransport" of addr, t := NewTransport()), as
// resultOf does from its first (Def.Result2).
const result2Of = "\x03"

// symbol returns the file's i-th symbol.
func (f *FileFacts) symbol(i int) Symbol {
	d := &f.Symbols[i]
	s := Symbol{Name: d.Name, Recv: d.Recv, Package: f.Package, PkgName: f.PkgName, Path: f.Path,
		Line: int(d.Line), EndLine: int(d.EndLine), Kind: d.Kind, Language: f.Language, Exported: d.Exported, Test: d.Test}
	if i < len(f.Signatures) {
		s.Signature = f.Signatures[i]
	}
	return s
}

// pkgOf returns the package path a call's callee is in.
func (f *FileFacts) pkgOf(r Ref) string {
	if r.Pkg == 0 || int(r.Pkg) > len(f.Imports) {
		return ""
	}
	return f.Imports[r.Pkg-1]
}

// GoImportName guesses the package name an import path brings in when the
// import has no explicit name: its last element, without a "go-" prefix or a
// ".vN" suffix, skipping a trailing major version element ("/v2").
func GoImportName(p string) string {
	elems := strings.Split(p, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) >= 2 && name[0] == 'v' && isDigits(name[1:]) {
		name = elems[len(elems)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 && isDigits(name[i+2:]) {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "go-")
	return strings.NewReplacer("-", "_", ".", "_").Replace(name)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// FromGo extracts the facts of a parsed Go file whose package has import path
// pkgPath.
func FromGo(p string, fset *token.FileSet, f *ast.File, pkgPath string) FileFacts {
	ff := FileFacts{Path: p, Language: "go", Package: pkgPath, PkgName: f.Name.Name}
	test := strings.HasSuffix(p, "_test.go")
	imports := map[string]uint16{} // local name -> Ref.Pkg
	for _, im := range f.Imports {
		ip, err := strconv.Unquote(im.Path.Value)
		if err != nil || len(ff.Imports) == math.MaxUint16 {
			continue
		}
		ff.Imports = append(ff.Imports, ip)
		name := GoImportName(ip)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name != "_" && name != "." {
			imports[name] = uint16(len(ff.Imports))
		}
	}
	line := func(pos token.Pos) int32 { return int32(fset.Position(pos).Line) }
	add := func(s Def) int32 {
		s.Test = test
		ff.Symbols = append(ff.Symbols, s)
		return int32(len(ff.Symbols) - 1)
	}
	// The named types of the fields of the file's structs, by struct and
	// field: a call through a field (s.db.Get()) goes to the field type's
	// method, an interface's when the field is one. A struct of the package
	// declared in another file is looked up when the graph is resolved
	// (FileFacts.Fields).
	fields := map[string]map[string]typeRef{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			fields[ts.Name.Name] = map[string]typeRef{}
			for _, fl := range st.Fields.List {
				t, ok := varType(fl.Type, imports)
				for _, n := range fl.Names {
					if ok {
						fields[ts.Name.Name][n.Name] = t
						if t.name != keyOnly && !isAnonStruct(t.name) {
							ff.Fields = append(ff.Fields, Field{Struct: ts.Name.Name, Name: n.Name, Type: t.name, Pkg: t.pkg, Elem: t.elem})
						}
					}
				}
			}
		}
	}
	// The fields of the file's anonymous struct types, under the names
	// that stand for them (anonStruct).
	namedStructs := map[*ast.StructType]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok {
			if st, ok := ts.Type.(*ast.StructType); ok {
				namedStructs[st] = true // its fields are its name's (above)
			}
		}
		st, ok := n.(*ast.StructType)
		if !ok || st.Fields == nil || namedStructs[st] {
			return true
		}
		m := map[string]typeRef{}
		for _, fl := range st.Fields.List {
			if t, ok := varType(fl.Type, imports); ok {
				for _, n := range fl.Names {
					m[n.Name] = t
				}
			}
		}
		fields[anonStructName(st)] = m
		return true
	})
	// The package-level variables of stated type: Fields of the struct ""
	// for the package's other files.
	globals, globalFields, rawGlobals := packageVars(f, imports)
	ff.Fields = append(ff.Fields, globalFields...)
	// Sorted by struct and field, for fieldType's binary search.
	slices.SortStableFunc(ff.Fields, compareFields)
	// The file's own types, variables and constants: not functions, so no
	// function is named where they are.
	notFuncs := map[string]bool{}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok {
			for name := range declaredNames(gd) {
				notFuncs[name] = true
			}
		}
	}
	// useType records that symbol from names type t (TypeUse), once a
	// symbol and type; a predeclared type is none of the project's.
	useType := func(from int32, t ast.Expr, makes bool) {
		r, ok := varType(t, imports)
		if !ok || r.pkg == 0 && universe[r.name] || r.name == keyOnly || isAnonStruct(r.name) {
			return
		}
		// A symbol's are the last ones: once a symbol and type.
		for k := len(ff.Types) - 1; k >= 0 && ff.Types[k].From == from; k-- {
			if u := &ff.Types[k]; u.Name == r.name && u.Pkg == r.pkg {
				u.Makes = u.Makes || makes
				return
			}
		}
		ff.Types = append(ff.Types, TypeUse{From: from, Pkg: r.pkg, Makes: makes, Name: r.name})
	}
	// calls records the call sites in node n as made by symbol from, and the
	// functions it names as values; vars are the function's receiver,
	// parameters and locals whose type is known, locals every name it
	// declares. A range statement's body and a type switch's cases are read
	// with their own variables in scope.
	calls := func(from int32, n ast.Node, vars map[string]typeRef, locals map[string]bool, scoped map[string][]scopedDecl) {
		var at token.Pos // the call whose receiver is looked up
		// typeIn returns what vars, else the declaration in scope of a
		// local declared with two types, else the file's package-level
		// variables, say of a name's type.
		typeIn := func(vars map[string]typeRef) func(string) (typeRef, bool) {
			return func(name string) (typeRef, bool) {
				if t, ok := vars[name]; ok {
					return t, true
				}
				if ds := scoped[name]; len(ds) > 0 {
					return scopedType(ds, at)
				}
				if locals[name] {
					return typeRef{}, false
				}
				t, ok := globals[name]
				return t, ok
			}
		}
		// value records e when it names a function or method without
		// calling it, where a function value goes: an argument, the right
		// side of an assignment, a result, an element of a literal.
		value := func(e ast.Expr, vars map[string]typeRef) {
			for {
				p, ok := e.(*ast.ParenExpr)
				if !ok {
					break
				}
				e = p.X
			}
			switch x := e.(type) {
			case *ast.Ident:
				if !locals[x.Name] && !notFuncs[x.Name] && !universe[x.Name] && x.Name != "_" {
					ff.Calls = append(ff.Calls, Ref{From: from, Line: line(x.Pos()), Name: x.Name, Value: true})
				}
			case *ast.SelectorExpr:
				if r, ok := valueRef(from, x, imports, vars, locals); ok {
					r.Line = line(x.Sel.Pos())
					ff.Calls = append(ff.Calls, r)
				} else if t, ok := methodExprType(x); ok {
					// (*Logger).With: the method, named as a value.
					if t, ok := namedType(t, imports); ok {
						ff.Calls = append(ff.Calls, Ref{From: from, Line: line(x.Sel.Pos()), Name: x.Sel.Name, Recv: t.name, Pkg: t.pkg, Value: true})
					}
				}
			}
		}
		if e, ok := n.(ast.Expr); ok {
			value(e, vars) // a package-level variable's value
		}
		var walk func(n ast.Node, vars map[string]typeRef)
		walk = func(n ast.Node, vars map[string]typeRef) {
			sc := goScope{imports: imports, fields: fields, typeOf: typeIn(vars)}
			ast.Inspect(n, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.RangeStmt:
					if x.Tok == token.DEFINE {
						walk(x.X, vars)
						walk(x.Body, sc.rangeScope(x, vars))
						return false
					}
				case *ast.TypeSwitchStmt:
					if x.Init != nil {
						walk(x.Init, vars)
					}
					walk(x.Assign, vars)
					for _, c := range x.Body.List {
						cc := c.(*ast.CaseClause)
						in := sc.caseScope(x, cc, vars)
						for _, st := range cc.Body {
							walk(st, in)
						}
					}
					return false
				case *ast.AssignStmt:
					for _, e := range x.Rhs {
						value(e, vars)
					}
				case *ast.ReturnStmt:
					for _, e := range x.Results {
						value(e, vars)
					}
				case *ast.CompositeLit:
					if x.Type != nil {
						useType(from, x.Type, true)
					}
					for _, e := range x.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							e = kv.Value
						}
						value(e, vars)
					}
				case *ast.ValueSpec:
					if x.Type != nil {
						useType(from, x.Type, false)
					}
					for _, e := range x.Values {
						value(e, vars)
					}
				case *ast.Field: // a local type's field, a function literal's parameter
					useType(from, x.Type, false)
				case *ast.TypeAssertExpr:
					if x.Type != nil {
						useType(from, x.Type, false)
					}
				}
				ce, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fun := ce.Fun
				for {
					switch x := fun.(type) {
					case *ast.ParenExpr:
						fun = x.X
						continue
					case *ast.IndexExpr:
						fun = x.X
						continue
					case *ast.IndexListExpr:
						fun = x.X
						continue
					}
					break
				}
				for _, a := range ce.Args {
					value(a, vars)
				}
				if id, ok := fun.(*ast.Ident); ok && id.Name == "new" && len(ce.Args) == 1 && !locals["new"] {
					useType(from, ce.Args[0], true)
				}
				at = ce.Lparen
				r := Ref{From: from, Line: line(ce.Lparen)}
				switch x := fun.(type) {
				case *ast.Ident:
					r.Name = x.Name
				case *ast.SelectorExpr:
					r.Name = x.Sel.Name
					if id, ok := x.X.(*ast.Ident); ok {
						if pkg, ok := imports[id.Name]; ok && !locals[id.Name] {
							r.Pkg = pkg
							break
						}
					}
					// v.Name(), v.field.Name(), v.a.b.Name(), items[i].Name(),
					// f().Name(): the method of the receiver's type when it
					// is known, or of a stand-in for it; by name otherwise.
					if t, ok := sc.exprType(x.X); ok && t.elem == elemNone {
						r.Recv, r.Pkg = t.name, t.pkg
						r.Loose = isStandIn(t.name)
						break
					}
					if id, ok := x.X.(*ast.Ident); ok && !locals[id.Name] && vars[id.Name] == (typeRef{}) {
						// A package-level variable of another file of the
						// package: its type in that file's Fields.
						r.Recv, r.Loose = fieldOf+id.Name, true
						break
					}
					r.Loose = true
				default:
					return true
				}
				ff.Calls = append(ff.Calls, r)
				return true
			})
		}
		walk(n, vars)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			s := Def{Name: d.Name.Name, Line: line(d.Pos()), EndLine: line(d.End()), Kind: "func", Exported: d.Name.IsExported(),
				Arity: arity(d.Type), Outs: outs(d.Type)}
			if t, ok := resultType(d.Type, imports, 0); ok {
				s.Result, s.ResultPkg, s.ResultElem = t.name, t.pkg, t.elem
			}
			if t, ok := resultType(d.Type, imports, 1); ok {
				s.Result2, s.Result2Pkg, s.Result2Elem = t.name, t.pkg, t.elem
			}
			vars := map[string]typeRef{}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				s.Recv = chunk.RecvTypeName(d.Recv.List[0].Type)
				s.Kind = "method"
				s.Exported = s.Exported && ast.IsExported(s.Recv)
				if names := d.Recv.List[0].Names; len(names) > 0 {
					vars[names[0].Name] = typeRef{name: s.Recv}
				}
			}
			for _, p := range d.Type.Params.List {
				t, ok := varType(p.Type, imports)
				for _, n := range p.Names {
					if _, isRecv := vars[n.Name]; ok && !isRecv {
						vars[n.Name] = t
					}
				}
			}
			idx := add(s)
			for _, fl := range slices.Concat(d.Type.Params.List, fieldList(d.Type.Results)) {
				useType(idx, fl.Type, false)
			}
			if d.Body != nil {
				scoped := localVars(d.Body, goScope{imports: imports, fields: fields}, globals, vars)
				calls(idx, d.Body, vars, declaredNames(d), scoped)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					it, iface := sp.Type.(*ast.InterfaceType)
					idx := add(Def{Name: sp.Name.Name, Line: line(sp.Pos()), EndLine: line(sp.End()), Kind: "type", Exported: sp.Name.IsExported(), Iface: iface})
					if iface {
						for _, m := range it.Methods.List {
							ft, ok := m.Type.(*ast.FuncType)
							if !ok {
								continue // an embedded interface or a type constraint
							}
							for _, n := range m.Names {
								md := Def{Name: n.Name, Recv: sp.Name.Name, Kind: "method", Line: line(n.Pos()), EndLine: line(m.End()),
									Exported: n.IsExported() && sp.Name.IsExported(), Iface: true, Arity: arity(ft), Outs: outs(ft)}
								// What it returns, as a function's: respCh :=
								// p.Consumer(), then <-respCh, has a type.
								if t, ok := resultType(ft, imports, 0); ok {
									md.Result, md.ResultPkg, md.ResultElem = t.name, t.pkg, t.elem
								}
								if t, ok := resultType(ft, imports, 1); ok {
									md.Result2, md.Result2Pkg, md.Result2Elem = t.name, t.pkg, t.elem
								}
								add(md)
							}
						}
					}
					for _, e := range embeddedTypes(sp.Type) {
						r := Ref{From: idx, Name: e.name, Line: line(e.pos), Embeds: true}
						if e.pkg != "" {
							pkg, ok := imports[e.pkg]
							if !ok {
								continue
							}
							r.Pkg = pkg
						}
						ff.Calls = append(ff.Calls, r)
					}
				case *ast.ValueSpec:
					kind := "const"
					if d.Tok == token.VAR {
						kind = "var"
					}
					first := int32(-1)
					for _, n := range sp.Names {
						if n.Name == "_" {
							continue
						}
						v := Def{Name: n.Name, Line: line(n.Pos()), EndLine: line(sp.End()), Kind: kind, Exported: n.IsExported()}
						if kind == "var" && sp.Type == nil && len(sp.Values) == len(sp.Names) {
							// Get = _pool.Get: a call of Get returns what the
							// function or method it holds returns.
							if t, ok := funcValueResult(sp.Values[slices.Index(sp.Names, n)], imports, rawGlobals); ok {
								v.Result, v.ResultPkg = t.name, t.pkg
							}
						}
						idx := add(v)
						if first < 0 {
							first = idx
						}
					}
					if first >= 0 {
						// The file's package-level variables, whose types a
						// stand-in may give (Get = _pool.Get, _pool set from
						// a call).
						for _, v := range sp.Values {
							calls(first, v, rawGlobals, declaredNames(v), nil)
						}
					}
				}
			}
		}
	}
	return ff
}

// fieldList returns a field list's fields, none for nil.
func fieldList(l *ast.FieldList) []*ast.Field {
	if l == nil {
		return nil
	}
	return l.List
}

// fieldChain splits v.a.b into the variable v and the fields a, b it goes
// through; ok is false for anything but a variable followed by fields.
func fieldChain(e ast.Expr) (base string, path []string, ok bool) {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			path = append(path, x.Sel.Name)
			e = x.X
		case *ast.Ident:
			slices.Reverse(path)
			return x.Name, path, len(path) > 0
		default:
			return "", nil, false
		}
	}
}

// valueRef returns the reference a selector not called makes to a function
// or method as a value: pkg.Func of an imported package, or v.Method of a
// variable whose type is known (a method value). Any other selector (a
// field, a method of a value of unknown type) is no reference.
func valueRef(from int32, x *ast.SelectorExpr, imports map[string]uint16, vars map[string]typeRef, locals map[string]bool) (Ref, bool) {
	id, ok := x.X.(*ast.Ident)
	if !ok {
		return Ref{}, false
	}
	if t, ok := vars[id.Name]; ok {
		if t.elem != elemNone {
			return Ref{}, false
		}
		return Ref{From: from, Name: x.Sel.Name, Recv: t.name, Pkg: t.pkg, Value: true}, true
	}
	if pkg, ok := imports[id.Name]; ok && !locals[id.Name] { // a local may hide a package's name
		return Ref{From: from, Name: x.Sel.Name, Pkg: pkg, Value: true}, true
	}
	return Ref{}, false
}

// funcValueResult returns a stand-in for the result of calling a function
// or method value a package-level variable is set to: F, pkg.F, or v.M
// with v a package-level variable of the file whose type is known or is a
// call's result (_pool = buffer.NewPool(); Get = _pool.Get).
func funcValueResult(e ast.Expr, imports map[string]uint16, globals map[string]typeRef) (typeRef, bool) {
	switch x := e.(type) {
	case *ast.Ident:
		if !universe[x.Name] && globals[x.Name] == (typeRef{}) {
			return typeRef{name: resultOf + x.Name}, true
		}
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok {
			return typeRef{}, false
		}
		if t, ok := globals[id.Name]; ok {
			if t.elem != elemNone || strings.ContainsAny(t.name, fieldOf+elemOf) {
				return typeRef{}, false
			}
			return typeRef{name: resultOf + t.name + "." + x.Sel.Name, pkg: t.pkg}, true
		}
		if pkg, ok := imports[id.Name]; ok {
			return typeRef{name: resultOf + x.Sel.Name, pkg: pkg}, true
		}
	}
	return typeRef{}, false
}

// methodExprType returns the type of a method expression on a pointer
// type, (*T).M or (*pkg.T).M: a form no value has.
func methodExprType(x *ast.SelectorExpr) (ast.Expr, bool) {
	p, ok := x.X.(*ast.ParenExpr)
	if !ok {
		return nil, false
	}
	st, ok := p.X.(*ast.StarExpr)
	if !ok {
		return nil, false
	}
	switch st.X.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return st.X, true
	}
	return nil, false
}

// declaredNames returns every name declared inside n (a function with its
// receiver, parameters and results, or an expression with function
// literals): an identifier of one of these names is a local, not the
// package's function of that name. One set for the whole function is a
// little coarse (a name declared in one block hides the function in
// another), which leaves out a reference rather than invent one.
func declaredNames(n ast.Node) map[string]bool {
	names := map[string]bool{}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				names[id.Name] = true
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fields(n.Recv)
		case *ast.FuncType:
			fields(n.TypeParams)
			fields(n.Params)
			fields(n.Results)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				names[id.Name] = true
			}
		case *ast.TypeSpec:
			names[n.Name.Name] = true
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					names[id.Name] = true
				}
			}
		case *ast.LabeledStmt:
			names[n.Label.Name] = true
		}
		return true
	})
	return names
}

// universe are Go's predeclared names: never a reference to the package's
// own function.
var universe = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64 int int8
		int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear
		close complex copy delete imag len make max min new panic print println real recover`) {
		m[n] = true
	}
	return m
}()

// typeRef is the named type of a variable: name in the caller's package
// (pkg 0) or in an imported one (1 + its index in FileFacts.Imports).
type typeRef struct {
	name string
	pkg  uint16
	elem uint8 // a slice, map or channel of the type (elemSlice…), not the type
	// key is a map's key's named type when the declaration says it
	// (map[Level]string): ranging over the map gives it. A pointer keeps
	// the struct small, as maps of it are many.
	key *typeRef
}

// localVars adds to vars the function body's variables whose type the
// code states where it declares them: var s store.Saver, s := &Disk{},
// s := Disk{}, s := new(Disk), s := x.(store.Saver), s, ok := x.(Saver),
// var s, ok = x.(Saver), c := s.cfg.Client, it := items[i], c := NewClient()
// (see goScope.exprType). One map serves the whole body, so a local
// declared twice — with two types, once with a type the code does not
// state, or over a parameter of another type — is dropped: a guess that
// might be wrong is worse than a call left to the name-based fallback.
// Range and type switch variables are scoped to their blocks when calls
// are read, not here; a function literal's variables count as the
// function's. sc gives the imports and the file's fields; globals
// are the file's package-level variables, which a local hides.
func localVars(body *ast.BlockStmt, sc goScope, globals map[string]typeRef, vars map[string]typeRef) map[string][]scopedDecl {
	declared := map[string]typeRef{}
	unknown := map[string]bool{}
	// A name declared more than once (multi) has its declarations read
	// again, each with the block it is in: declared with two types, in two
	// blocks, it is worked out call by call (scopedDecl). One struct holds
	// the second reading's state: one allocation a function.
	rs := &struct {
		multi     map[string]bool
		decls     map[string][]scopedDecl
		recording bool
		stack     []ast.Node
		at        token.Pos // the declaration being noted
	}{}
	scope := func() ast.Node {
		for k := len(rs.stack) - 1; k >= 0; k-- {
			switch rs.stack[k].(type) {
			case *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
				*ast.SelectStmt, *ast.CaseClause, *ast.CommClause, *ast.FuncLit:
				return rs.stack[k]
			}
		}
		return body
	}
	note := func(name string, t typeRef, known bool) {
		if rs.recording {
			if rs.multi[name] {
				sc := scope()
				rs.decls[name] = append(rs.decls[name], scopedDecl{from: sc.Pos(), to: sc.End(), at: rs.at, t: t, ok: known})
			}
			return
		}
		prev, seen := declared[name]
		if (seen || unknown[name]) && name != "_" {
			if rs.multi == nil {
				rs.multi = map[string]bool{}
			}
			rs.multi[name] = true
		}
		switch {
		case name == "_" || unknown[name]:
		case !known || (seen && !sameType(prev, t)):
			unknown[name] = true
			delete(declared, name)
		default:
			declared[name] = t
		}
	}
	// typeOf is what is known so far of a variable's type, for a call on it
	// (rows, err := db.Query()).
	sc.typeOf = func(name string) (typeRef, bool) {
		if t, ok := declared[name]; ok {
			return t, true
		}
		if unknown[name] {
			return typeRef{}, false
		}
		if t, ok := vars[name]; ok {
			return t, true
		}
		t, ok := globals[name]
		return t, ok
	}
	// first is the type a declaration's first name gets from the one value
	// of two names: c, err := NewClient(); v, ok := x.(Saver).
	first := func(e ast.Expr) (typeRef, bool) {
		if ta, ok := e.(*ast.TypeAssertExpr); ok && ta.Type != nil {
			return varType(ta.Type, sc.imports)
		}
		return calledResult(e, sc.imports, sc.typeOf)
	}
	// second is the type the second name gets: addr, t := NewTransport().
	second := func(e ast.Expr) (typeRef, bool) {
		if _, ok := e.(*ast.TypeAssertExpr); ok {
			return typeRef{}, false // ok, a bool
		}
		t, ok := calledResult(e, sc.imports, sc.typeOf)
		if !ok {
			return typeRef{}, false
		}
		return typeRef{name: result2Of + strings.TrimPrefix(t.name, resultOf), pkg: t.pkg}, true
	}
	visit := func(n ast.Node) bool {
		if rs.recording {
			if n == nil {
				rs.stack = rs.stack[:len(rs.stack)-1]
				return true
			}
			rs.stack = append(rs.stack, n)
			rs.at = n.Pos()
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			// Its parameters and locals join the function's: a name
			// declared with another type there is dropped, as any is.
			for _, p := range n.Type.Params.List {
				t, ok := varType(p.Type, sc.imports)
				for _, id := range p.Names {
					note(id.Name, t, ok)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				t, ok := typeRef{}, false
				switch {
				case n.Type != nil:
					t, ok = varType(n.Type, sc.imports)
				case len(n.Values) == len(n.Names):
					t, ok = sc.exprType(n.Values[i])
				case i == 0 && len(n.Values) == 1:
					t, ok = first(n.Values[0])
				case i == 1 && len(n.Values) == 1:
					t, ok = second(n.Values[0])
				}
				note(id.Name, t, ok)
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				break
			}
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					t, ok := typeRef{}, false
					switch {
					case len(n.Lhs) == len(n.Rhs):
						t, ok = sc.exprType(n.Rhs[i])
					case i == 0 && len(n.Rhs) == 1:
						t, ok = first(n.Rhs[0])
					case i == 1 && len(n.Rhs) == 1:
						t, ok = second(n.Rhs[0])
					}
					note(id.Name, t, ok)
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					note(id.Name, typeRef{}, false)
				}
			}
		case *ast.TypeSwitchStmt:
			if as, ok := n.Assign.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						note(id.Name, typeRef{}, false) // typed case by case
					}
				}
			}
		}
		return true
	}
	ast.Inspect(body, visit)
	// A parameter redeclared without a stated type (ctx, cancel :=
	// context.WithTimeout(ctx, d)) is most often the same variable, or one
	// of its type, so it keeps its type.
	for name, t := range declared {
		if prev, isParam := vars[name]; isParam && !sameType(prev, t) {
			delete(vars, name)
			continue
		}
		vars[name] = t
	}
	for name := range rs.multi {
		if !unknown[name] {
			delete(rs.multi, name) // one type throughout
		}
	}
	if len(rs.multi) == 0 {
		return nil
	}
	rs.recording, rs.decls = true, map[string][]scopedDecl{}
	ast.Inspect(body, visit)
	return rs.decls
}

// sameType reports whether two types are the same, a map's key compared
// by what it names.
func sameType(a, b typeRef) bool {
	ka, kb := a.key, b.key
	a.key, b.key = nil, nil
	return a == b && (ka == kb || ka != nil && kb != nil && *ka == *kb)
}

// scopedDecl is a declaration of a local, with the span of the block it is
// in (from, to) and where it is (at).
type scopedDecl struct {
	from, to, at token.Pos
	t            typeRef
	ok           bool
}

// scopedType returns the type of the declaration of a name in scope at
// pos: the innermost block's, declared before pos; false when it is not
// known or none is in scope.
func scopedType(ds []scopedDecl, pos token.Pos) (typeRef, bool) {
	best := -1
	for k, d := range ds {
		if d.at > pos || pos < d.from || pos > d.to {
			continue
		}
		if best < 0 || d.from > ds[best].from || d.from == ds[best].from && d.at > ds[best].at {
			best = k
		}
	}
	if best < 0 {
		return typeRef{}, false
	}
	return ds[best].t, ds[best].ok
}

// statedType returns the named type an expression states: T{}, &T{},
// new(T), x.(T).
func statedType(e ast.Expr, imports map[string]uint16) (typeRef, bool) {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		if e.Type != nil {
			return namedType(e.Type, imports)
		}
	case *ast.TypeAssertExpr:
		if e.Type != nil {
			return namedType(e.Type, imports)
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			return namedType(e.Args[0], imports)
		}
	}
	return typeRef{}, false
}

// calledResult returns, for a call of a function of this package or an
// imported one (NewClient(), http.NewRequest()) or of a method of a
// variable whose type typeOf knows (db.Query()), a type that stands for
// what it returns, resolved with the graph (see Def.Result): resultOf and
// the function's name, or resultOf, the receiver's type (itself maybe such
// a stand-in), "." and the method's name.
func calledResult(e ast.Expr, imports map[string]uint16, typeOf func(string) (typeRef, bool)) (typeRef, bool) {
	ce, ok := e.(*ast.CallExpr)
	if !ok {
		return typeRef{}, false
	}
	switch f := ce.Fun.(type) {
	case *ast.Ident:
		if !universe[f.Name] {
			return typeRef{name: resultOf + f.Name}, true
		}
	case *ast.SelectorExpr:
		if inner, ok := f.X.(*ast.CallExpr); ok {
			// NewPool().Get(): the method of what the inner call returns.
			if t, ok := calledResult(inner, imports, typeOf); ok && !strings.ContainsAny(t.name, fieldOf+elemOf) {
				return typeRef{name: resultOf + t.name + "." + f.Sel.Name, pkg: t.pkg}, true
			}
			return typeRef{}, false
		}
		if id, ok := f.X.(*ast.Ident); ok {
			if t, ok := typeOf(id.Name); ok {
				// A stand-in of fields or elements is not nested in another:
				// the graph could not tell its parts apart; but for an
				// element's whole (raft := c.rafts[0], then raft.Apply()),
				// which starts and ends the name.
				if t.elem != elemNone || strings.ContainsAny(t.name, fieldOf+elemOf) && !isElemStandIn(t.name) {
					return typeRef{}, false
				}
				return typeRef{name: resultOf + t.name + "." + f.Sel.Name, pkg: t.pkg}, true
			}
			if pkg, ok := imports[id.Name]; ok {
				return typeRef{name: resultOf + f.Sel.Name, pkg: pkg}, true
			}
		}
	}
	return typeRef{}, false
}

// isElemStandIn reports whether a stand-in is an element's alone, not
// nested in another and followed by no field: "\x02…\x02" with no elemOf
// between.
func isElemStandIn(name string) bool {
	return len(name) > 2 && strings.HasPrefix(name, elemOf) && strings.Index(name[1:], elemOf) == len(name)-2
}

// resultType returns the named type of a function's k-th result (from 0),
// which a caller's k-th variable gets (c, err := NewClient(); addr, t :=
// NewTransport()).
func resultType(ft *ast.FuncType, imports map[string]uint16, k int) (typeRef, bool) {
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return typeRef{}, false
	}
	var types []ast.Expr
	for _, f := range ft.Results.List {
		for range max(len(f.Names), 1) {
			types = append(types, f.Type)
		}
	}
	if k >= len(types) {
		return typeRef{}, false
	}
	if id, ok := types[k].(*ast.Ident); ok && universe[id.Name] {
		// error is kept: what a function returns as an error may be a
		// value of the project's (implicit.go); resolving takes it as
		// unknown.
		return typeRef{name: id.Name}, id.Name == "error" && k == 0
	}
	t, ok := varType(types[k], imports)
	return t, ok && t.name != keyOnly && !isAnonStruct(t.name)
}

// namedType returns the type a parameter's type expression names: T, *T,
// pkg.T or a generic T[X]; false for any other type (func, map, slice…).
func namedType(t ast.Expr, imports map[string]uint16) (typeRef, bool) {
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	switch ix := t.(type) {
	case *ast.IndexExpr:
		t = ix.X
	case *ast.IndexListExpr:
		t = ix.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return typeRef{name: t.Name}, true
	case *ast.SelectorExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			if pkg, ok := imports[id.Name]; ok {
				return typeRef{name: t.Sel.Name, pkg: pkg}, true
			}
		}
	}
	return typeRef{}, false
}

// outs returns a function type's result count plus one (see Def.Outs).
func outs(ft *ast.FuncType) int8 {
	n := 0
	if ft.Results != nil {
		for _, p := range ft.Results.List {
			n += max(len(p.Names), 1)
		}
	}
	return int8(min(n, math.MaxInt8-1) + 1)
}

// arity returns a function type's parameter count plus one (see Def.Arity).
func arity(ft *ast.FuncType) int16 {
	n := 0
	for _, p := range ft.Params.List {
		n += max(len(p.Names), 1)
	}
	return int16(min(n, math.MaxInt16-1) + 1)
}

// embedded is a type a struct or interface embeds: pkg.name, or name of
// the same package.
type embedded struct {
	pkg, name string
	pos       token.Pos
}

// embeddedTypes returns the types a struct's anonymous fields or an
// interface's embedded interfaces name; type constraints (~int | string)
// are not types to link.
func embeddedTypes(t ast.Expr) []embedded {
	var fields []*ast.Field
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields.List
	case *ast.InterfaceType:
		fields = t.Methods.List
	}
	var out []embedded
	for _, f := range fields {
		if len(f.Names) > 0 {
			continue
		}
		x := f.Type
		if st, ok := x.(*ast.StarExpr); ok {
			x = st.X
		}
		switch ix := x.(type) { // a generic type: Set[T]
		case *ast.IndexExpr:
			x = ix.X
		case *ast.IndexListExpr:
			x = ix.X
		}
		switch x := x.(type) {
		case *ast.Ident:
			out = append(out, embedded{name: x.Name, pos: x.Pos()})
		case *ast.SelectorExpr:
			if pkg, ok := x.X.(*ast.Ident); ok {
				out = append(out, embedded{pkg: pkg.Name, name: x.Sel.Name, pos: x.Pos()})
			}
		}
	}
	return out
}

var (
	reCallSite = regexp.MustCompile(`(?:([A-Za-z_$][\w$]*)\s*(\.|::|->)\s*)?([A-Za-z_$][\w$]*)\s*(?:::<[^>]*>\s*)?\(`)
	reImportPy = regexp.MustCompile(`(?m)^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))`)
	reImportJS = regexp.MustCompile(`(?m)(?:^\s*import\s[^'"]*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\))`)
	reImportRs = regexp.MustCompile(`(?m)^\s*(?:pub\s+)?use\s+([\w:]+)`)
	reImportJv = regexp.MustCompile(`(?m)^\s*import\s+(?:static\s+)?([\w.]+)`)
)

var (
	rePyBases  = regexp.MustCompile(`^class\s+\w+\s*(?:\[[^\]]*\])?\s*\(([^)]*)\)`)
	reExtends  = regexp.MustCompile(`\b(?:extends|implements)\b`)
	reTypeArgs = regexp.MustCompile(`<[^<>]*>`)
	reIdent    = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)
)

// baseTypes returns the names of the classes and interfaces a class
// declaration (its signature) extends or implements, each without its
// module or package: "class A(base.B, C):" gives B and C.
func baseTypes(lang, signature string) []string {
	var list []string
	switch lang {
	case "python":
		if m := rePyBases.FindStringSubmatch(signature); m != nil {
			list = strings.Split(m[1], ",")
		}
	case "java", "typescript", "javascript":
		sig := signature
		for reTypeArgs.MatchString(sig) { // List<Map<K, V>> → List
			sig = reTypeArgs.ReplaceAllString(sig, "")
		}
		if loc := reExtends.FindStringIndex(sig); loc != nil {
			sig, _, _ = strings.Cut(sig[loc[0]:], "{")
			sig, _, _ = strings.Cut(sig, " permits ") // subclasses, not bases
			list = strings.Split(reExtends.ReplaceAllString(sig, ","), ",")
		}
	}
	var out []string
	for _, b := range list {
		b = strings.TrimSpace(b)
		if b == "" || strings.Contains(b, "=") { // metaclass=ABCMeta
			continue
		}
		b = b[strings.LastIndexAny(b, ".")+1:]
		if reIdent.MatchString(b) && b != "object" && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

var notCalls = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true, "function": true,
	"def": true, "class": true, "fn": true, "match": true, "new": true, "typeof": true, "sizeof": true,
	"print": true, "super": true, "this": true, "self": true, "await": true, "async": true, "elif": true,
	"and": true, "or": true, "not": true, "in": true, "is": true, "with": true, "assert": true, "lambda": true,
	"synchronized": true, "throw": true, "yield": true, "delete": true, "void": true, "loop": true,
}

// callSites adds the calls that body, which starts at line bodyLine of the
// file, makes from symbol from (s), and the functions it names as values.
func (ff *FileFacts) callSites(lang string, from int32, s *Def, signature, body string, bodyLine int, tc tsContext) {
	locals := localClasses(lang, signature, body)
	sl := &scopedLocals{locals: locals}
	if lang == "typescript" || lang == "javascript" {
		// The body's declarations, each over its block; the signature's
		// parameters over all of it.
		locals = paramClasses(lang, signature)
		sl = &scopedLocals{locals: locals, decls: tsLocalDecls(body, s.Recv)}
		tsGuards(body, sl)
		for name, v := range tc.own {
			if locals[name] == "" {
				locals[name] = v
			}
		}
		tsCallbacks(body, s.Name, s.Recv, tc.ret, sl)
	}
	// lineOf counts lines from the last offset asked for: matches come in
	// order, and counting from the start each time would be quadratic in a
	// long body.
	line, at := bodyLine, 0
	lineOf := func(off int) int32 {
		if off < at {
			line, at = bodyLine, 0
		}
		line += strings.Count(body[at:off], "\n")
		at = off
		return int32(line)
	}
	re := reCallSite
	if lang == "typescript" || lang == "javascript" {
		re = reCallSiteTS
	}
	limit := cmp.Or(tc.limit, 500)
	for _, m := range re.FindAllStringSubmatchIndex(body, limit) {
		name := body[m[6]:m[7]]
		if notCalls[name] && m[2] < 0 && !onExpression(body[:m[6]]) || len(m) > 9 && m[8] >= 0 && !typeArgs(body[m[8]:m[9]]) {
			continue // a keyword, but for a method so named (this.delete(k))
		}
		if name == s.Name && strings.TrimSpace(body[:m[0]]) == "" && bodyLine == int(s.Line) {
			continue // a one-line declaration's own name: reportObserved(): boolean
		}
		r := Ref{From: from, Name: name, Line: lineOf(m[0])}
		if m[2] >= 0 {
			recv := body[m[2]:m[3]]
			if s.Recv != "" && !selfNames[recv] && (reSelfDot.MatchString(tailOf(body, m[2])) ||
				lang == "java" && isField(ff.Fields, s.Recv, recv)) {
				// this.db.get(), self.db.get(), Java's db.get() on a
				// field: the method of the field's class, when known.
				r.Recv, r.Loose = s.Recv+fieldOf+recv, true
			} else if selfNames[recv] && s.Recv != "" {
				r.Recv = s.Recv // the enclosing class's (or a base's) method
			} else if recv == "super" && s.Recv != "" {
				r.Recv, r.Super = s.Recv, true
			} else if class, ok := localField(tailOf(body, m[2]), max(0, m[2]-tailWindow), sl); ok && (lang == "typescript" || lang == "javascript") {
				r.Recv, r.Loose = class+fieldOf+recv, true // c.req.header() with c: Context
			} else if class := sl.at(recv, m[2]); class != "" && !strings.HasSuffix(strings.TrimRight(body[:m[2]], " \t"), ".") {
				r.Recv = class // x.m() with x = Foo(), const x = new Foo(), Foo x = …
			} else {
				r.Loose = true
				r.Recv = recv // a module, class or variable: a hint only
				if lang == "python" {
					r.Recv = dottedBefore(body[:m[2]]) + recv // pkg.util.format(): the module path
				}
			}
		} else if lang == "python" && s.Recv != "" && rePySuper.MatchString(tailOf(body, m[0])) {
			r.Recv, r.Super = s.Recv, true // super().m()
		} else if class, ok := newBefore(tailOf(body, m[6])); ok && (lang == "typescript" || lang == "javascript") {
			r.Recv = class // new Service(…).run()
		} else if fn, ok := calledBefore(tailOf(body, m[6])); ok && (lang == "typescript" || lang == "javascript" || lang == "python") {
			r.Recv = resultOf + fn // getAdm(x).get_(): the method of the class getAdm returns
		} else if class, ok := assertedLocal(tailOf(body, m[6]), max(0, m[6]-tailWindow), sl); ok && (lang == "typescript" || lang == "javascript") {
			r.Recv = class // x!.m(), x?.m() with x's class known
		} else if class, ok := castBefore(tailOf(body, m[6])); ok && (lang == "typescript" || lang == "javascript") {
			r.Recv = class // (x as Foo).m(), (<Foo>x).m()
		} else if field, ok := mapGetBefore(tailOf(body, m[6])); ok && s.Recv != "" && (lang == "typescript" || lang == "javascript") {
			// this.byKey.get(k)?.m(): the method of the class of the
			// values of the map the field is declared to be.
			r.Recv, r.Loose = s.Recv+fieldOf+field+mapValue, true
		} else if _, chain, ok := chainCallee(lang, body, m[7], s.Recv, sl); ok {
			r.Recv = chain // app.get(…).use(…): the class get's declaration returns
		} else if onExpression(body[:m[6]]) {
			r.Recv, r.Loose = exprRecv, true // matched by name, as x.m() is
		} else if lang == "java" && s.Recv != "" {
			// In Java a bare call inside a class is a call on this (or
			// a static method of the class or a base).
			r.Recv = s.Recv
		} else {
			r.Loose = true
		}
		ff.Calls = append(ff.Calls, r)
	}
	if lang == "typescript" || lang == "javascript" {
		ff.propertyReads(from, s, body, lineOf, sl)
		ff.tsImplicitCalls(from, body, lineOf)
	}
	// Functions passed as arguments: this.m and self.m, methods of the
	// enclosing class; a bare name, a function of the same file (a
	// name defined elsewhere may as well be a variable).
	for _, m := range reArgument.FindAllStringSubmatchIndex(body, limit) {
		if rest := strings.TrimLeft(body[m[1]:], " \t"); rest == "" || rest[0] != ',' && rest[0] != ')' {
			continue
		}
		r := Ref{From: from, Name: body[m[4]:m[5]], Line: lineOf(m[0]), Value: true}
		if m[2] >= 0 {
			if s.Recv == "" {
				continue
			}
			r.Recv = s.Recv
		} else if notCalls[r.Name] {
			continue
		}
		ff.Calls = append(ff.Calls, r)
	}
}

// tailWindow bounds the code before a call site that the patterns
// looking back from it read (this.x., new Foo(…)., (x as Foo).): a file's
// top-level statements are read as one body, and reading all the code
// before each of its calls would take time growing with the square of its
// length. chainWindow is the longer one a chain of calls is read in.
const (
	tailWindow  = 512
	chainWindow = 4096
)

// tailOf returns the code of body before offset k, at most tailWindow
// bytes of it.
func tailOf(body string, k int) string { return body[max(0, k-tailWindow):k] }

// chainTailOf returns the code of body before offset k, at most
// chainWindow bytes of it.
func chainTailOf(body string, k int) string { return body[max(0, k-chainWindow):k] }

// chainCallee returns the stand-in (chainOf) for the call a method
// whose name ends at offset end of body is called on, in TypeScript and
// JavaScript: app.get(…).use(…).
func chainCallee(lang, body string, end int, recv string, l *scopedLocals) (string, string, bool) {
	if lang != "typescript" && lang != "javascript" {
		return "", "", false
	}
	// Only after a call's parenthesis and a dot: the name, the dot, the
	// optional chain or assertion, then ")".
	t := strings.TrimRightFunc(tailOf(body, end), func(r rune) bool { return r < 128 && isWordByte(byte(r)) })
	t = strings.TrimRight(t, " \t\n\r")
	if !strings.HasSuffix(t, ".") || !strings.HasSuffix(strings.TrimRight(t[:len(t)-1], " \t\n\r?!"), ")") {
		return "", "", false
	}
	name, chain, ok := tsCallee(chainTailOf(body, end), max(0, end-chainWindow), recv, l, 0)
	return name, chain, ok && strings.HasPrefix(chain, chainOf)
}

// onExpression reports whether a call whose name comes right after code
// is of a method of what an expression gives: f(x).then(…), list[0].join(…),
// a?.m(…), also after a line break. A spread, ...f(x), is a plain call.
func onExpression(code string) bool {
	before := strings.TrimRight(code, " \t\n")
	return strings.HasSuffix(before, ".") && !strings.HasSuffix(before, "..") || strings.HasSuffix(before, "->")
}

// exprRecv stands for the receiver of a method called on an expression
// (f().m()): no class or module has that name.
const exprRecv = "(…)"

// moduleSymbol names the top-level statements of a file outside Go, as
// Python's tracebacks do.
const moduleSymbol = "<module>"

// lineText is a file's text with the offset where each line starts.
type lineText struct {
	text   string
	starts []int // starts[k] is the offset of line k+1
}

func newLineText(b []byte) lineText {
	t := lineText{text: string(b), starts: []int{0}}
	for i, c := range b {
		if c == '\n' {
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// lines returns lines from..to (1-based, inclusive), without the line
// break after the last.
func (t lineText) lines(from, to int) string {
	if from < 1 || from > to || from > len(t.starts) {
		return ""
	}
	end := len(t.text)
	if to < len(t.starts) {
		end = t.starts[to] - 1
	}
	return t.text[t.starts[from-1]:end]
}

// reArgument matches an argument that may be a function (what follows it,
// a comma or a closing parenthesis, is checked apart): "(name", ", this.m",
// "(key=self.by_name", Java's "(this::m", Rust's "(Self::m".
var reArgument = regexp.MustCompile(`[(,]\s*(?:[A-Za-z_]\w*\s*=\s*)?(?:(this|self|Self)\s*(?:\.|::)\s*)?([A-Za-z_$][\w$]*)`)

// rePySuper matches the text before a call through super: super().m(),
// super(Class, self).m().
var rePySuper = regexp.MustCompile(`\bsuper\([^()]*\)\s*\.\s*$`)

// selfNames are the receivers naming the enclosing class or its instance:
// this (TypeScript, JavaScript, Java), self and cls (Python), self and Self
// (Rust).
var selfNames = map[string]bool{"this": true, "self": true, "cls": true, "Self": true}

// FromChunks extracts the facts of a file in a language without a Go parser
// from its chunks: its definitions are its symbol chunks, its call sites the
// "name(" patterns in each definition's body, resolved later by name.
func FromChunks(p, lang string, cs []chunk.Chunk, src []byte) FileFacts {
	dir := path.Dir(p)
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	ff := FileFacts{Path: p, Language: lang, Package: dir, PkgName: stem}
	var re *regexp.Regexp
	switch lang {
	case "python":
		re = reImportPy
	case "typescript", "javascript":
		re = reImportJS
	case "rust":
		re = reImportRs
	case "java":
		re = reImportJv
	}
	if re != nil {
		for _, m := range re.FindAllStringSubmatch(string(src), 200) {
			for _, g := range m[1:] {
				if g != "" {
					ff.Imports = append(ff.Imports, g)
				}
			}
		}
	}
	code := newLineText(chunk.CodeOnly(p, lang, src))
	ff.Fields = classFields(lang, cs, code)
	switch lang {
	case "typescript", "javascript":
		ff.Bindings = tsBindings(string(src))
	case "python":
		ff.Bindings = pyBindings(code.text)
	}
	var traitImpls [][2]string                      // Rust: {trait, type} of each impl Trait for Type
	tsClassParams := map[string]map[string]string{} // a TypeScript class's type parameters, by name
	// Top-level statements call too: a test's describe and it callbacks, a
	// script's main().
	var module []chunk.Chunk
	for _, c := range cs {
		switch c.Kind {
		case chunk.Func, chunk.Method, chunk.Type, chunk.Var, chunk.Const:
		case chunk.Module:
			module = append(module, c)
			continue
		case chunk.Container:
			if lang == "rust" {
				if trait, typ, ok := rustTraitImpl(c.Signature); ok {
					traitImpls = append(traitImpls, [2]string{trait, typ})
				}
			}
			continue
		default:
			continue
		}
		s := Def{Name: c.Symbol, Line: int32(c.DeclLine), EndLine: int32(c.EndLine), Kind: string(c.Kind),
			Exported: c.Exported, Test: c.Test}
		if c.Kind == chunk.Func || c.Kind == chunk.Method {
			s.Result = returnedClass(lang, c.Signature)
		}
		if i := memberDot(c.Symbol); i >= 0 {
			s.Recv, s.Name = c.Symbol[:i], c.Symbol[i+1:]
			if j := strings.LastIndex(s.Recv, "."); j >= 0 {
				s.Recv = s.Recv[j+1:]
			}
		}
		ff.Symbols = append(ff.Symbols, s)
		if c.Signature != "" && ff.Signatures == nil {
			ff.Signatures = make([]string, len(ff.Symbols)-1)
		}
		if ff.Signatures != nil {
			ff.Signatures = append(ff.Signatures, c.Signature)
		}
		from := int32(len(ff.Symbols) - 1)
		var tc tsContext
		if lang == "typescript" {
			decl := code.lines(c.DeclLine, c.EndLine)
			if c.Kind == chunk.Type {
				// A type's members may be chunks of their own: its
				// declaration goes on to the bracket closing its body.
				decl = tsBalanced(decl, code.lines(c.DeclLine, len(code.starts)))
			}
			var classParams map[string]string
			if s.Recv != "" {
				classParams = tsClassParams[s.Recv]
			}
			t, ok := tsCallable(string(c.Kind), decl, classParams)
			guard := ""
			if c.Kind != chunk.Type {
				guard = tsGuard(decl)
			}
			if ok || guard != "" {
				ff.Callables = append(ff.Callables, Callable{Sym: from, Type: cmp.Or(t, "?"), Guard: guard})
			}
			if c.Kind == chunk.Type {
				if tp := tsDeclTypeParams(decl); tp != nil {
					tsClassParams[c.Symbol[memberDot(c.Symbol)+1:]] = tp
				}
			} else {
				tc.own = tsOwnParams(decl)
				if c.Kind == chunk.Func || c.Kind == chunk.Method {
					tc.ret = tsReturnDigest(decl)
				}
			}
		}
		if c.Kind == chunk.Type {
			for _, base := range baseTypes(lang, c.Signature) {
				ff.Calls = append(ff.Calls, Ref{From: from, Name: base, Line: int32(c.DeclLine), Embeds: true})
			}
			continue
		}
		// Call sites after a function's declaration line (on it, for a
		// one-line function; from it, for a variable's initialiser or a
		// statement), in the code alone: a comment's or a string's "name("
		// is no call.
		bodyLine := c.DeclLine
		if c.EndLine > c.DeclLine && (c.Kind == chunk.Func || c.Kind == chunk.Method) {
			bodyLine++
		}
		body := code.lines(bodyLine, c.EndLine)
		ff.callSites(lang, from, &s, c.Signature, body, bodyLine, tc)
	}
	if len(module) > 0 {
		// One symbol for all of them; overlapping windows of a long
		// statement are read once.
		from := int32(len(ff.Symbols))
		ff.Symbols = append(ff.Symbols, Def{Name: moduleSymbol, Kind: string(chunk.Module),
			Line: int32(module[0].StartLine), EndLine: int32(module[len(module)-1].EndLine), Test: module[0].Test})
		if ff.Signatures != nil {
			ff.Signatures = append(ff.Signatures, "")
		}
		s := &ff.Symbols[from]
		if lang == "typescript" || lang == "javascript" {
			// Read at once, the lines of other chunks blanked: a local
			// declared in one window (const app = new Hono()) is known
			// in the next, and a callback that windows cut stays whole.
			first, last := module[0].StartLine, module[len(module)-1].EndLine
			covered := make([]bool, last-first+1)
			for _, c := range module {
				for l := max(c.StartLine, first); l <= c.EndLine && l <= last; l++ {
					covered[l-first] = true
				}
			}
			var b strings.Builder
			for l := first; l <= last; l++ {
				if l > first {
					b.WriteByte('\n')
				}
				if covered[l-first] {
					b.WriteString(code.lines(l, l))
				}
			}
			ff.callSites(lang, from, s, "", b.String(), first, tsContext{limit: 500 * len(module)})
			module = nil
		}
		next := 1 // the first line not yet read
		for _, c := range module {
			if first := max(c.StartLine, next); first <= c.EndLine {
				ff.callSites(lang, from, s, "", code.lines(first, c.EndLine), first, tsContext{})
				next = c.EndLine + 1
			}
		}
	}
	// A Rust type implementing a trait in this file extends it, as a Java
	// class implementing an interface does: self.m() in the type's methods
	// reaches the trait's provided method m.
	for _, ti := range traitImpls {
		for k, d := range ff.Symbols {
			if d.Kind == string(chunk.Type) && d.Recv == "" && d.Name == ti[1] {
				ff.Calls = append(ff.Calls, Ref{From: int32(k), Name: ti[0], Line: d.Line, Embeds: true})
				break
			}
		}
	}
	return ff
}

// reSelfDot matches the text before a field's name in this.field.m() and
// self.field.m().
var reSelfDot = regexp.MustCompile(`\b(?:this|self)\s*\.\s*$`)

var (
	// A TypeScript class member: "private db: Database", "cache = new
	// Cache<string>()".
	reTSField = regexp.MustCompile(`^\s*(?:(?:public|private|protected|readonly|static|declare|override|accessor)\s+)*#?([A-Za-z_$][\w$]*)[?!]?\s*(?::\s*([A-Za-z_$][\w$.]*)|=\s*new\s+([A-Za-z_$][\w$.]*))`)
	// A constructor's parameter property: "private readonly repo: Repo".
	reTSParamField = regexp.MustCompile(`(?:public|private|protected|readonly)\s+(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*:\s*([A-Za-z_$][\w$.]*)`)
	// this.x = new Foo(), self.x = Foo(), self.x: Foo = …, self.x = connect().
	reSelfAssign = regexp.MustCompile(`\b(?:this|self)\.([A-Za-z_$][\w$]*)\s*(?::\s*([A-Za-z_][\w.]*)\s*)?=\s*(?:new\s+)?(?:await\s+)?([A-Za-z_$][\w$.]*)?(\s*\()?`)
	// A Python class attribute's annotation: "    store: Store".
	rePyClassAttr = regexp.MustCompile(`(?m)^\s+(\w+)\s*:\s*([A-Za-z_][\w.]*)`)
	// A Java field: "private final Repo repo;", "Cache<String> cache = …".
	reJavaField = regexp.MustCompile(`(?m)^\s*(?:(?:private|protected|public|static|final|transient|volatile)\s+)*([A-Za-z_][\w.]*)(?:<[^;=(){}]*>)?\s+(\w+)\s*(?:=|;)`)
)

// classFields returns the fields of a file's classes whose class the code
// states (a type annotation, a constructor called), for calls through
// them (this.db.get() goes to the method of db's class): TypeScript and
// JavaScript members and constructor parameter properties, fields set in
// methods (this.x = new Foo(), self.x = Foo(), self.x: Foo), Python class
// annotations and Java fields, read in the code alone (a comment's or a
// string's "this.x = new Foo()" says nothing). A class name starts with a
// capital, which leaves out string, int and the like; sorted as Go's are.
func classFields(lang string, cs []chunk.Chunk, code lineText) []Field {
	var out []Field
	add := func(class, name, typ string) {
		typ = typ[strings.LastIndexByte(typ, '.')+1:]
		if class == "" || name == "" || typ == "" || !unicode.IsUpper(rune(typ[0])) {
			return
		}
		out = append(out, Field{Struct: class, Name: name, Type: typ})
	}
	for _, c := range cs {
		// A class is known by its own name (a nested one's too), as a
		// method's Recv names it: a member's class is the last part of
		// its symbol before its own name.
		k := strings.LastIndex(c.Symbol, ".")
		isMember, class := k >= 0, ""
		if isMember {
			class = c.Symbol[:k]
			class = class[strings.LastIndex(class, ".")+1:]
		}
		text := code.lines(c.StartLine, c.EndLine)
		switch {
		case c.Kind == chunk.Type && lang == "python":
			for _, m := range rePyClassAttr.FindAllStringSubmatch(text, -1) {
				add(c.Symbol[k+1:], m[1], m[2])
			}
		case c.Kind == chunk.Type && lang == "java":
			for _, m := range reJavaField.FindAllStringSubmatch(text, -1) {
				add(c.Symbol[k+1:], m[2], m[1])
			}
		case !isMember:
		case (c.Kind == chunk.Var || c.Kind == chunk.Const) && (lang == "typescript" || lang == "javascript"):
			if name, t, ok := tsIndexedField(c.Signature); ok {
				out = append(out, Field{Struct: class, Name: name, Type: t})
			} else if m := reTSField.FindStringSubmatch(text); m != nil {
				add(class, m[1], constrained(typeParams(cs, c.Symbol[:k]), m[2])+m[3])
			}
			if name, v := tsMapField(c.Signature); v != "" {
				add(class, name+mapValue, v) // byKey: Map<string, Entry>
			}
		case c.Kind == chunk.Method:
			if t := getterClass(lang, c.Signature); t != "" {
				add(class, c.Symbol[k+1:], t) // get req(): HonoRequest: c.req.header() is HonoRequest's
			}
			if lang == "typescript" && strings.HasSuffix(c.Symbol, ".constructor") {
				for _, m := range reTSParamField.FindAllStringSubmatch(c.Signature, -1) {
					add(class, m[1], m[2])
				}
			}
			for _, m := range reSelfAssign.FindAllStringSubmatch(text, -1) {
				switch {
				case m[2] != "": // self.x: Foo = …: the annotation says
					add(class, m[1], m[2])
				case m[4] != "" && m[3] != "" && !strings.Contains(m[3], ".") && !unicode.IsUpper(rune(m[3][0])):
					// self.x = connect(): what connect returns, when the
					// graph is resolved.
					out = append(out, Field{Struct: class, Name: m[1], Type: resultOf + m[3]})
				default:
					add(class, m[1], m[3])
				}
			}
		}
	}
	slices.SortStableFunc(out, compareFields)
	// One entry a field; none for a field given two classes (self.x = Foo()
	// in one method, self.x = Bar() in another): a guess is worse than a
	// call matched by name.
	kept := out[:0]
	for i := 0; i < len(out); {
		j := i + 1
		same := true
		for ; j < len(out) && compareFields(out[i], out[j]) == 0; j++ {
			same = same && out[j].Type == out[i].Type
		}
		if same {
			kept = append(kept, out[i])
		}
		i = j
	}
	return kept
}

var (
	// const x = new Foo(…), let x: Foo = …, const x = (await) connect(…).
	reTSLocal = regexp.MustCompile(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*([A-Za-z_$][\w$]*)[^=;\n]*)?=\s*(?:new\s+([A-Za-z_$][\w$]*)|(?:await\s+)?([A-Za-z_$][\w$]*)\s*\()?`)
	// x = Foo(…), x: Foo = ….
	rePyLocal = regexp.MustCompile(`(?m)^\s*([A-Za-z_]\w*)\s*(?::\s*([A-Za-z_]\w*)[^=\n]*)?=\s*([A-Za-z_]\w*\s*\()?`)
	// Foo x = …, Foo<Bar> x = ….
	reJavaLocal = regexp.MustCompile(`\b([A-Za-z_]\w*)(?:<[^;=(){}]*>)?\s+([a-z_]\w*)\s*=`)
)

// localClasses returns the parameters a function's signature gives a class
// (paramClasses) and the local variables of its body whose class the code
// states where it sets them (const x = new Foo(), x = Foo(), Foo x = …), by
// name: a call x.m() goes to that class's method. One set from a function's
// call (c = connect()) has a stand-in, resultOf and the function's name,
// for the class the function's signature returns. A name set to two
// classes, or once to one and once to something else, is left out.
func localClasses(lang, signature, body string) map[string]string {
	var re *regexp.Regexp
	switch lang {
	case "typescript", "javascript":
		re = reTSLocal
	case "python":
		re = rePyLocal
	case "java":
		re = reJavaLocal
	default:
		return nil
	}
	out := paramClasses(lang, signature)
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		name, class := m[1], ""
		switch lang {
		case "typescript", "javascript":
			class = cmp.Or(m[2], m[3])
			if class == "" && m[4] != "" {
				class = resultOf + m[4] // const c = connect(): what it returns
			}
		case "python":
			class = cmp.Or(m[2], strings.TrimRight(m[3], " \t("))
			if class != "" && m[2] == "" && !unicode.IsUpper(rune(class[0])) {
				class = resultOf + class // c = connect(): what it returns
			}
		case "java":
			name, class = m[2], m[1]
		}
		if prev, seen := out[name]; seen && prev != class || class == "" ||
			!unicode.IsUpper(rune(class[0])) && !strings.HasPrefix(class, resultOf) {
			class = "" // left out, here and from now on
		}
		out[name] = class
	}
	return out
}

var (
	// A parameter's modifiers and spread: "private readonly ", "...", "**".
	reParamPrefix = regexp.MustCompile(`^(?:(?:public|private|protected|readonly|override)\s+)*(?:\.\.\.|\*\*?)?`)
	// A Java parameter's annotations and final: "@NonNull ", "final ".
	reJavaParamPrefix = regexp.MustCompile(`^(?:@[\w.]+(?:\([^)]*\))?\s*|final\s+)*`)
	// What wraps a Python annotation's class: "Optional[", "t.Optional[", quotes.
	rePyOptional = regexp.MustCompile(`^(?:(?:typing|t)\.)?Optional\[|["']`)
	reTypeName   = regexp.MustCompile(`^[A-Za-z_$][\w$.]*`)
)

// paramClasses returns the parameters whose class a TypeScript, Python or
// Java function's signature states (ctx: Context, ctx?: Context | null,
// ctx: Optional["Context"], Context ctx), by name, without the class's
// module. A class name starts with a capital; self, cls and this are the
// enclosing class's already.
func paramClasses(lang, signature string) map[string]string {
	out := map[string]string{}
	if lang != "typescript" && lang != "python" && lang != "java" {
		return out // JavaScript and Rust state no class this way
	}
	for _, p := range paramList(signature) {
		var name, typ string
		if lang == "java" {
			f := strings.Fields(reJavaParamPrefix.ReplaceAllString(strings.TrimSpace(p), ""))
			if len(f) != 2 || strings.ContainsAny(f[0], "<[") { // generics, arrays: another class
				continue
			}
			name, typ = f[1], f[0]
		} else {
			p = reParamPrefix.ReplaceAllString(strings.TrimSpace(p), "")
			n, t, ok := strings.Cut(p, ":")
			if !ok {
				continue
			}
			t, _, _ = strings.Cut(t, "=") // a default value
			name = strings.TrimSuffix(strings.TrimSpace(n), "?")
			typ = reTypeName.FindString(rePyOptional.ReplaceAllString(strings.TrimSpace(t), ""))
		}
		typ = typ[strings.LastIndexByte(typ, '.')+1:]
		if lang == "typescript" {
			typ = constrained(sigTypeParams(signature), typ) // x: T with <T extends Store>
		}
		if !reIdent.MatchString(name) || selfNames[name] || typ == "" || !unicode.IsUpper(rune(typ[0])) {
			continue
		}
		out[name] = typ
	}
	return out
}

// paramList returns the parameters of a signature (which the chunker gives
// without decorators or annotations): its first parenthesised list outside
// type parameters (<T extends (x: A) => B>), split at its top-level commas;
// none when it is not closed.
func paramList(signature string) []string {
	open, angle := -1, 0
	for i := 0; i < len(signature) && open < 0; i++ {
		switch signature[i] {
		case '<':
			angle++
		case '>':
			angle = max(angle-1, 0)
		case '(':
			if angle == 0 {
				open = i
			}
		}
	}
	if open < 0 {
		return nil
	}
	var out []string
	depth, start := 0, open+1
	for i := open; i < len(signature); i++ {
		switch signature[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if signature[i] == '>' && signature[i-1] == '=' {
				continue // an arrow in a default value or a function type
			}
			depth--
			if depth == 0 {
				return append(out, signature[start:i])
			}
		case ',':
			if depth == 1 {
				out = append(out, signature[start:i])
				start = i + 1
			}
		}
	}
	return nil
}

var (
	// A TypeScript function's return type: "): Database", "): Promise<Conn>".
	reTSReturn = regexp.MustCompile(`\)\s*:\s*(?:Promise\s*<\s*)?([A-Za-z_$][\w$.]*)`)
	// A Python function's annotation: "-> Database", "-> 'Conn'", "-> Optional[Conn]".
	rePyReturn = regexp.MustCompile(`->\s*(?:Optional\[)?["']?([A-Za-z_][\w.]*)`)
)

// returnedClass returns the class a TypeScript or Python function's
// signature says it returns, without its module, or "" when it names none
// (a class name starts with a capital). Java needs none: a local's declared
// type says it.
func returnedClass(lang, signature string) string {
	var typ string
	switch lang {
	case "typescript", "javascript":
		if ms := reTSReturn.FindAllStringSubmatch(signature, -1); len(ms) > 0 {
			typ = ms[len(ms)-1][1]
		}
	case "python":
		if m := rePyReturn.FindStringSubmatch(signature); m != nil {
			typ = m[1]
		}
	}
	typ = typ[strings.LastIndexByte(typ, '.')+1:]
	if typ == "" || !unicode.IsUpper(rune(typ[0])) {
		return ""
	}
	return typ
}

// findField returns the field name of class (or of a Go struct) among
// fields, sorted by compareFields.
func findField(fields []Field, class, name string) (Field, bool) {
	k, ok := slices.BinarySearchFunc(fields, Field{Struct: class, Name: name}, compareFields)
	if !ok {
		return Field{}, false
	}
	return fields[k], true
}

// isField reports whether class has the field name among fields.
func isField(fields []Field, class, name string) bool {
	_, ok := findField(fields, class, name)
	return ok
}

var reRustImpl = regexp.MustCompile(`^(?:unsafe\s+)?impl\s+!?(?:[\w:]+::)?(\w+)\s+for\s+&?(?:mut\s+)?(?:[\w:]+::)?(\w+)`)

// rustTraitImpl returns the trait and the type of "impl<T> fmt::Display
// for Wrapper<T>", without their paths and type arguments.
func rustTraitImpl(signature string) (trait, typ string, ok bool) {
	for reTypeArgs.MatchString(signature) {
		signature = reTypeArgs.ReplaceAllString(signature, "")
	}
	m := reRustImpl.FindStringSubmatch(signature)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}
