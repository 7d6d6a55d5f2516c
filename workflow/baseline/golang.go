package baseline

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
)

func stubGo(path string, base, current []byte) ([]byte, []string, error) {
	fset := token.NewFileSet()
	// Object resolution tells a package's name from a local variable
	// that shadows it, which the import bookkeeping below relies on.
	f, err := parser.ParseFile(fset, path, current, parser.ParseComments)
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	old := codes{}
	if base != nil {
		bset := token.NewFileSet()
		bf, err := parser.ParseFile(bset, path, base, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, fmt.Errorf("parse %s at the base: %w", path, err)
		}
		for _, fn := range goFuncs(bf) {
			old.add(fn.name, goCode(bset, base, fn.node))
		}
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var (
		edits   []edit
		names   []string
		stubbed []*ast.BlockStmt
	)
	for _, fn := range goFuncs(f) {
		if old.take(fn.name, goCode(fset, current, fn.node)) {
			continue
		}
		edits = append(edits, goStub(fset, current, fn)...)
		names = append(names, fn.name)
		stubbed = append(stubbed, fn.body)
	}
	if len(edits) == 0 {
		return current, nil, nil
	}
	for _, r := range unusedImports(f, stubbed) {
		from, to := importSpan(current, off(r[0]), off(r[1]))
		edits = append(edits, edit{from, to, ""})
	}
	out := apply(current, edits)
	if _, err := parser.ParseFile(token.NewFileSet(), path, out, parser.SkipObjectResolution); err != nil {
		return nil, nil, fmt.Errorf("stubbed %s does not parse: %w", path, err)
	}
	return out, names, nil
}

// goFunc is a function Stub may empty: a declared function or method, or a
// function literal in the value of a package-level variable.
type goFunc struct {
	name string
	node ast.Node // *ast.FuncDecl or *ast.FuncLit
	typ  *ast.FuncType
	recv *ast.FieldList // nil but for a method
	body *ast.BlockStmt
}

// goFuncs returns the functions of a file with a body, in source order:
// declared functions and methods, and the function literals of the
// package-level variables' values, which are named after the variable
// (goLits).
func goFuncs(f *ast.File) []goFunc {
	var out []goFunc
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				out = append(out, goFunc{goName(d), d, d.Type, d.Recv, d.Body})
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				vs := s.(*ast.ValueSpec)
				for i, v := range vs.Values {
					var name string
					if len(vs.Names) == len(vs.Values) {
						name = vs.Names[i].Name
					} else {
						var ns []string
						for _, n := range vs.Names {
							ns = append(ns, n.Name)
						}
						name = strings.Join(ns, ",")
					}
					n := 0
					goLits(v, name, &n, &out)
				}
			}
		}
	}
	return out
}

// goLits appends the function literals of a variable's value e, named by
// where they lie: "V" for the value itself, "V.F" for a struct's field F,
// "V[k]" for a map's key k or the k-th element of a slice or array, and
// "V.funcN" for the N-th literal elsewhere in the value (an argument, an
// operand). A literal inside another is part of it.
func goLits(e ast.Expr, name string, n *int, out *[]goFunc) {
	switch e := e.(type) {
	case *ast.FuncLit:
		*out = append(*out, goFunc{name: name, node: e, typ: e.Type, body: e.Body})
	case *ast.ParenExpr:
		goLits(e.X, name, n, out)
	case *ast.UnaryExpr:
		goLits(e.X, name, n, out)
	case *ast.CompositeLit:
		for i, elt := range e.Elts {
			key := "[" + strconv.Itoa(i) + "]"
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				switch k := kv.Key.(type) {
				case *ast.Ident:
					key = "." + k.Name
				case *ast.BasicLit:
					key = "[" + k.Value + "]"
				}
				elt = kv.Value
			}
			goLits(elt, name+key, n, out)
		}
	default:
		ast.Inspect(e, func(x ast.Node) bool {
			fl, ok := x.(*ast.FuncLit)
			if ok {
				*n++
				*out = append(*out, goFunc{name: name + ".func" + strconv.Itoa(*n), node: fl, typ: fl.Type, body: fl.Body})
			}
			return !ok
		})
	}
}

// goName names a function as the base and the current file are matched:
// "F", or "Recv.M" for a method (type parameters and pointer dropped).
func goName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return chunk.RecvTypeName(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

// goCode returns a function's tokens without its doc comment, the
// comments inside it or its layout: equal code gives equal tokens, however
// it was formatted. (go/printer keeps a blank line where a comment was, so
// printed code would differ by a comment.)
func goCode(fset *token.FileSet, src []byte, fn ast.Node) string {
	from, to := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
	fs := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fs.AddFile("", -1, to-from), src[from:to], nil, 0)
	var b strings.Builder
	var pending bool // a semicolon, written unless a closer follows
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return b.String()
		}
		if tok == token.SEMICOLON {
			// One-line and multi-line bodies differ only by the
			// semicolon inserted before a closing brace.
			pending = true
			continue
		}
		if pending && tok != token.RBRACE && tok != token.RPAREN {
			b.WriteString("; ")
		}
		pending = false
		if lit != "" {
			b.WriteString(lit)
		} else {
			b.WriteString(tok.String())
		}
		b.WriteByte(' ')
	}
}

// goStub returns the edits that empty fn: its body replaced by one that
// returns its results' zero values, laid out as gofmt lays out a body on
// the lines of the one it replaces. Nothing else changes, but in one case:
// when a parameter shadows a name the unnamed results' types use
// (func Parse(url string) (*url.URL, error)), the body cannot spell those
// types, so the results are named in the signature instead, their types
// kept as written, and the body returns bare.
func goStub(fset *token.FileSet, src []byte, fn goFunc) []edit {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	from, to := off(fn.body.Lbrace), off(fn.body.Rbrace)+1
	ind := lineIndent(src, from)
	res := fn.typ.Results
	switch {
	case res == nil || len(res.List) == 0:
		return []edit{{from, to, "{\n" + ind + "}"}}
	case len(res.List[0].Names) > 0:
		return []edit{{from, to, "{\n" + ind + "\treturn\n" + ind + "}"}}
	}
	// Unnamed results: a variable of each type, named apart from every
	// name the signature uses, since the body shares the parameters' scope.
	used := map[string]bool{}
	declared := map[string]bool{} // names the body's scope binds
	for _, fl := range []*ast.FieldList{fn.recv, fn.typ.Params} {
		if fl == nil {
			continue
		}
		for _, field := range fl.List {
			for _, n := range field.Names {
				declared[n.Name] = n.Name != "_"
			}
		}
	}
	idents := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	idents(fn.typ)
	if fn.recv != nil {
		idents(fn.recv)
	}
	shadowed := false
	for _, field := range res.List {
		ast.Inspect(field.Type, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && declared[id.Name] {
				shadowed = true
			}
			return !shadowed
		})
	}
	var vars, types []string
	for _, field := range res.List {
		v := ""
		for i := len(vars); ; i++ {
			if v = "r" + strconv.Itoa(i); !used[v] {
				break
			}
		}
		used[v] = true
		vars = append(vars, v)
		types = append(types, string(src[off(field.Type.Pos()):off(field.Type.End())]))
	}
	if shadowed {
		named := make([]string, len(vars))
		for i := range vars {
			named[i] = vars[i] + " " + types[i]
		}
		return []edit{
			{off(res.Pos()), off(res.End()), "(" + strings.Join(named, ", ") + ")"},
			{from, to, "{\n" + ind + "\treturn\n" + ind + "}"},
		}
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i := range vars {
		fmt.Fprintf(&b, "%s\tvar %s %s\n", ind, vars[i], types[i])
	}
	fmt.Fprintf(&b, "%s\treturn %s\n%s}", ind, strings.Join(vars, ", "), ind)
	return []edit{{from, to, b.String()}}
}

// lineIndent returns the blanks that open the line holding offset at.
func lineIndent(src []byte, at int) string {
	start := bytes.LastIndexByte(src[:at], '\n') + 1
	end := start
	for end < at && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// importSpan widens the span of an import declaration or spec to go:
// through a ";" that ends it on its line and the blanks after it, and to
// its whole line, line end included, when nothing else is on that line. A declaration gone from
// between two blank lines takes one of them along.
func importSpan(src []byte, from, to int) (int, int) {
	blank := func(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }
	spaces := func(j int) int {
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		return j
	}
	if j := spaces(to); j < len(src) && src[j] == ';' {
		to = spaces(j + 1) // and the blanks before what follows on the line
	}
	start := bytes.LastIndexByte(src[:from], '\n') + 1
	end := len(src)
	if i := bytes.IndexByte(src[to:], '\n'); i >= 0 {
		end = to + i + 1
	}
	if !blank(src[start:from]) || !blank(src[to:end]) {
		return from, to
	}
	// The whole line goes; a blank line after it too, when one is before.
	if start > 0 {
		prev := bytes.LastIndexByte(src[:start-1], '\n') + 1
		next := len(src)
		if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
			next = end + i + 1
		}
		if end < len(src) && blank(src[prev:start]) && blank(src[end:next]) {
			end = next
		}
	}
	return start, end
}

// unusedImports returns the spans of the import declarations or specs that
// only the stubbed bodies used. A package is used as the X of a selector
// that resolves to nothing in the file; which name an import binds is its
// explicit name or, without one, guessed from its path (importName).
func unusedImports(f *ast.File, stubbed []*ast.BlockStmt) [][2]token.Pos {
	inStub := map[*ast.BlockStmt]bool{}
	for _, b := range stubbed {
		inStub[b] = true
	}
	before, after := map[string]bool{}, map[string]bool{}
	var walk func(n ast.Node, stub bool)
	walk = func(n ast.Node, stub bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			if b, ok := n.(*ast.BlockStmt); ok && !stub && inStub[b] {
				walk(b, true)
				return false
			}
			// Obj is nil for names the parser could not resolve in the
			// file: packages, and declarations in the package's other
			// files.
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
					before[id.Name] = true
					if !stub {
						after[id.Name] = true
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue
		}
		walk(d, false)
	}
	dropped := map[string]bool{}
	for n := range before {
		if !after[n] {
			dropped[n] = true
		}
	}
	if len(dropped) == 0 {
		return nil
	}
	// Names bound by imports: explicit or guessed; an import whose guess
	// names nothing the file uses binds a dropped name only when exactly
	// one such name fits its path.
	name := map[*ast.ImportSpec]string{}
	claimed := map[string]bool{}
	var unknown []*ast.ImportSpec
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil || p == "C" {
			continue
		}
		switch {
		case is.Name != nil:
			name[is] = is.Name.Name
		case before[importName(p)]:
			name[is] = importName(p)
		default:
			unknown = append(unknown, is)
			continue
		}
		claimed[name[is]] = true
	}
	for _, is := range unknown {
		p, _ := strconv.Unquote(is.Path.Value)
		fit := ""
		for n := range dropped {
			if !claimed[n] && strings.Contains(letters(p), strings.ToLower(n)) {
				if fit != "" {
					fit = ""
					break
				}
				fit = n
			}
		}
		if fit != "" {
			name[is] = fit
		}
	}
	var spans [][2]token.Pos
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var gone []*ast.ImportSpec
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			if n := name[is]; n != "" && n != "_" && n != "." && dropped[n] {
				gone = append(gone, is)
			}
		}
		switch {
		case len(gone) == 0:
		case len(gone) == len(gd.Specs):
			from := gd.Pos()
			if gd.Doc != nil {
				from = gd.Doc.Pos()
			}
			spans = append(spans, [2]token.Pos{from, gd.End()})
		default:
			for _, is := range gone {
				from, to := is.Pos(), is.End()
				if is.Doc != nil {
					from = is.Doc.Pos()
				}
				if is.Comment != nil {
					to = is.Comment.End()
				}
				spans = append(spans, [2]token.Pos{from, to})
			}
		}
	}
	return spans
}

// importName guesses the name a package binds from its import path: the
// last element, skipping a major version (/v2) and a gopkg.in version
// (.v3), without a "go-" prefix or a "-go" suffix.
func importName(p string) string {
	n := lastElem(p)
	if i := strings.IndexByte(n, '.'); i > 0 {
		n = n[:i]
	}
	n = strings.TrimSuffix(strings.TrimPrefix(n, "go-"), "-go")
	return strings.ReplaceAll(n, "-", "")
}

// lastElem returns an import path's last element, or the one before a
// major version (/v2).
func lastElem(p string) string {
	elems := strings.Split(p, "/")
	n := elems[len(elems)-1]
	if len(elems) > 1 && len(n) > 1 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
		n = elems[len(elems)-2]
	}
	return n
}

// letters returns the lower-case letters and digits of a path's last
// element, where a package's real name is most often spelled.
func letters(p string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(lastElem(p)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
