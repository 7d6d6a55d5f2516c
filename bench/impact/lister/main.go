// lister prints, as JSON lines, the functions of a Go module's non-test files
// with what a mutation needs: the body's opening line and the zero results.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

type fn struct {
	File    string `json:"file"`
	Name    string `json:"name"`
	Recv    string `json:"recv"`
	Open    int    `json:"open"` // line of the body's {
	OpenCol int    `json:"open_col"`
	Ret     string `json:"ret"` // the return statement making the function do nothing
	Lines   int    `json:"lines"`
}

func main() {
	root := os.Args[1]
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() && (strings.HasPrefix(info.Name(), ".") || info.Name() == "testdata" || info.Name() == "vendor") && p != root {
			if info != nil && info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if info.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return nil
		}
		src, _ := os.ReadFile(p)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Name.Name == "init" || fd.Name.Name == "main" || len(fd.Body.List) == 0 {
				continue
			}
			ret := "return"
			if res := fd.Type.Results; res != nil && len(res.List) > 0 && len(res.List[0].Names) == 0 {
				var zs []string
				for _, r := range res.List {
					t := string(src[fset.Position(r.Type.Pos()).Offset:fset.Position(r.Type.End()).Offset])
					n := max(len(r.Names), 1)
					for range n {
						zs = append(zs, "*new("+t+")")
					}
				}
				ret = "return " + strings.Join(zs, ", ")
			}
			recv := ""
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				recv = string(src[fset.Position(fd.Recv.List[0].Type.Pos()).Offset:fset.Position(fd.Recv.List[0].Type.End()).Offset])
			}
			rel, _ := filepath.Rel(root, p)
			open := fset.Position(fd.Body.Lbrace)
			b, _ := json.Marshal(fn{File: rel, Name: fd.Name.Name, Recv: recv, Open: open.Line, OpenCol: open.Column, Ret: ret,
				Lines: fset.Position(fd.Body.Rbrace).Line - open.Line})
			fmt.Println(string(b))
		}
		return nil
	})
}
