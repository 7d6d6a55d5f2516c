package chunk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// ParseGo parses a Go file with its comments. The file set and syntax tree are
// returned so that a caller can reuse them (the code graph does).
func ParseGo(p string, src []byte) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	return fset, f, nil
}

// GoChunks cuts a parsed Go file into one chunk per function, method, type,
// and const or var group, plus one chunk for the package clause and imports.
func GoChunks(p string, src []byte, fset *token.FileSet, f *ast.File) []Chunk {
	ls := lines(src)
	line := func(pos token.Pos) int { return fset.Position(pos).Line }
	offset := func(pos token.Pos) int { return fset.Position(pos).Offset }
	var out []Chunk
	add := func(c Chunk) {
		c.Path, c.Language = p, "go"
		c.Text = span(ls, c.StartLine, c.EndLine)
		out = append(out, c)
	}

	// Package clause, package doc and imports.
	hdrStart, hdrEnd := line(f.Package), line(f.Name.End())
	if f.Doc != nil {
		hdrStart = line(f.Doc.Pos())
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			hdrEnd = max(hdrEnd, line(g.End()))
		}
	}
	hdr := Chunk{Kind: Imports, Symbol: f.Name.Name, StartLine: hdrStart, DeclLine: line(f.Package), EndLine: hdrEnd,
		Signature: "package " + f.Name.Name}
	if f.Doc != nil {
		hdr.Kind, hdr.Doc = Package, f.Doc.Text()
	}
	add(hdr)

	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			c := Chunk{Kind: Func, Symbol: d.Name.Name, DeclLine: line(d.Pos()), EndLine: line(d.End()),
				Exported: d.Name.IsExported()}
			c.StartLine = c.DeclLine
			if d.Doc != nil {
				c.StartLine, c.Doc = line(d.Doc.Pos()), d.Doc.Text()
			}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := RecvTypeName(d.Recv.List[0].Type)
				c.Kind, c.Symbol = Method, recv+"."+d.Name.Name
				c.Exported = c.Exported && ast.IsExported(recv)
				c.Types = append(c.Types, recv)
			}
			var tparams []string
			if d.Type.TypeParams != nil {
				for _, f := range d.Type.TypeParams.List {
					for _, n := range f.Names {
						tparams = append(tparams, n.Name)
					}
				}
			}
			if d.Type.Results != nil {
				for _, r := range d.Type.Results.List {
					t := r.Type
					if st, ok := t.(*ast.StarExpr); ok {
						t = st.X
					}
					if id, ok := t.(*ast.Ident); ok && !isPredeclared(id.Name) && !slices.Contains(tparams, id.Name) && !slices.Contains(c.Types, id.Name) {
						c.Types = append(c.Types, id.Name)
					}
				}
			}
			end := d.End()
			if d.Body != nil {
				end = d.Body.Lbrace
			}
			c.Signature = collapse(string(src[offset(d.Pos()):offset(end)]))
			add(c)
		case *ast.GenDecl:
			switch d.Tok {
			case token.TYPE:
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					c := Chunk{Kind: Type, Symbol: ts.Name.Name, DeclLine: line(ts.Pos()), EndLine: line(ts.End()),
						Exported: ts.Name.IsExported()}
					c.StartLine = c.DeclLine
					doc := ts.Doc
					if len(d.Specs) == 1 {
						c.DeclLine = line(d.Pos())
						c.StartLine, c.EndLine = c.DeclLine, line(d.End())
						if d.Doc != nil {
							doc = d.Doc
						}
					}
					if doc != nil {
						c.StartLine, c.Doc = line(doc.Pos()), doc.Text()
					}
					c.Signature = "type " + firstLine(string(src[offset(ts.Pos()):offset(ts.End())]))
					add(c)
				}
			case token.CONST, token.VAR:
				kind := Const
				if d.Tok == token.VAR {
					kind = Var
				}
				var names []string
				exported := false
				for _, s := range d.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						if n.Name == "_" {
							continue
						}
						names = append(names, n.Name)
						exported = exported || n.IsExported()
					}
				}
				c := Chunk{Kind: kind, Symbol: groupName(names), DeclLine: line(d.Pos()), EndLine: line(d.End()),
					Exported: exported}
				c.StartLine = c.DeclLine
				var docs []string
				if d.Doc != nil {
					c.StartLine = line(d.Doc.Pos())
					docs = append(docs, d.Doc.Text())
				}
				// Specs' own comments document a group's members.
				for _, s := range d.Specs {
					if vs := s.(*ast.ValueSpec); vs.Doc != nil && len(docs) < 8 {
						docs = append(docs, vs.Doc.Text())
					}
				}
				c.Doc = strings.Join(docs, "\n")
				c.Signature = d.Tok.String() + " " + strings.Join(names[:min(len(names), 12)], ", ")
				add(c)
			}
		}
	}
	return out
}

func isPredeclared(name string) bool {
	switch name {
	case "bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16",
		"int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "any":
		return true
	}
	return false
}

// RecvTypeName returns the type name of a method receiver expression:
// "T" for T, *T, T[K] and *T[K, V].
func RecvTypeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

// groupName names a const or var group by its members, shortened.
func groupName(names []string) string {
	switch {
	case len(names) == 0:
		return "_"
	case len(names) <= 3:
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:3], ", ") + ", …"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return collapse(s)
}
