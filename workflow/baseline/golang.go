package baseline

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
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
		for _, d := range bf.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				old.add(goName(fd), goCode(bset, base, fd))
			}
		}
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var (
		edits   []edit
		names   []string
		stubbed []*ast.BlockStmt
	)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := goName(fd)
		if old.take(name, goCode(fset, current, fd)) {
			continue
		}
		body, err := goStubBody(fset, fd)
		if err != nil {
			return nil, nil, fmt.Errorf("stub %s in %s: %w", name, path, err)
		}
		edits = append(edits, edit{off(fd.Body.Lbrace), off(fd.Body.Rbrace) + 1, body})
		names = append(names, name)
		stubbed = append(stubbed, fd.Body)
	}
	if len(edits) == 0 {
		return current, nil, nil
	}
	for _, r := range unusedImports(f, stubbed) {
		edits = append(edits, edit{off(r[0]), off(r[1]), ""})
	}
	out, err := format.Source(apply(current, edits))
	if err != nil {
		return nil, nil, fmt.Errorf("stubbed %s does not parse: %w", path, err)
	}
	return out, names, nil
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
func goCode(fset *token.FileSet, src []byte, fd *ast.FuncDecl) string {
	from, to := fset.Position(fd.Pos()).Offset, fset.Position(fd.End()).Offset
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

// goStubBody returns a body for fd that returns its results' zero values.
func goStubBody(fset *token.FileSet, fd *ast.FuncDecl) (string, error) {
	res := fd.Type.Results
	switch {
	case res == nil || len(res.List) == 0:
		return "{\n}", nil
	case len(res.List[0].Names) > 0:
		return "{\n\treturn\n}", nil
	}
	// Unnamed results: a variable of each type, named apart from every
	// name the signature uses, since the body shares the parameters' scope.
	used := map[string]bool{}
	ast.Inspect(fd.Type, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	if fd.Recv != nil {
		ast.Inspect(fd.Recv, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	var b strings.Builder
	var vars []string
	b.WriteString("{\n")
	for _, field := range res.List {
		var t bytes.Buffer
		if err := printer.Fprint(&t, fset, field.Type); err != nil {
			return "", fmt.Errorf("print result type: %w", err)
		}
		v := ""
		for i := len(vars); ; i++ {
			if v = "r" + strconv.Itoa(i); !used[v] {
				break
			}
		}
		used[v] = true
		vars = append(vars, v)
		fmt.Fprintf(&b, "\tvar %s %s\n", v, t.String())
	}
	fmt.Fprintf(&b, "\treturn %s\n}", strings.Join(vars, ", "))
	return b.String(), nil
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
