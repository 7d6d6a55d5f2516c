package baseline

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stdSource imports packages of the standard library from their source,
// each read once for all the tests.
var stdSource = importer.ForCompiler(token.NewFileSet(), "source", nil)

// typeCheck fails the test when src is not a package that compiles, its
// imports read from the standard library's source.
func typeCheck(t *testing.T, src []byte) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatalf("stubbed source does not parse: %v\n%s", err, src)
	}
	conf := types.Config{Importer: stdSource}
	if _, err := conf.Check("x", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("stubbed source does not compile: %v\n%s", err, src)
	}
}

func stubGoT(t *testing.T, base, current string) (string, []string) {
	t.Helper()
	var b []byte
	if base != "" {
		b = []byte(base)
	}
	out, names, err := Stub("go", "x.go", b, []byte(current))
	if err != nil {
		t.Fatal(err)
	}
	typeCheck(t, out)
	// The stubs are laid out as gofmt lays them out: a file gofmt would
	// leave as it is stays so.
	if f, err := format.Source([]byte(current)); err == nil && string(f) == current {
		if f, err := format.Source(out); err != nil || !bytes.Equal(f, out) {
			t.Errorf("the stubbed file of a gofmt'ed one is not gofmt'ed:\n%s", out)
		}
	}
	return string(out), names
}

const goBase = `package x

import (
	"fmt"
	"strings"
)

// Greet says hello.
func Greet(name string) string {
	return "hello " + strings.TrimSpace(name)
}

func Shout(s string) string { return strings.ToUpper(s) }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
`

const goCurrent = `package x

import (
	"errors"
	"fmt"
	"strings"
)

// Greet says hello, with a comment that changed.
func Greet(name string) string {
	// the code is the same
	return "hello " + strings.TrimSpace(name)
}

func Shout(s string) string { return strings.ToUpper(s) + "!" }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

// Pop is new.
func (s *Stack[T]) Pop() (T, bool) {
	if len(s.items) == 0 {
		var zero T
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func Parse(r0 string) (n int, err error) {
	if r0 == "" {
		return 0, errors.New("empty")
	}
	_, err = fmt.Sscan(r0, &n)
	return n, err
}

func Map[K, V comparable](m map[K]V, r0 int) (map[V]K, error) {
	out := map[V]any{}
	_ = out
	return nil, fmt.Errorf("no")
}
`

func TestGoStubsNewAndChangedFunctions(t *testing.T) {
	out, names := stubGoT(t, goBase, goCurrent)
	want := []string{"Shout", "Stack.Pop", "Parse", "Map"}
	if !slices.Equal(names, want) {
		t.Errorf("stubbed %v, want %v", names, want)
	}
	for _, s := range []string{
		// unchanged, comments aside: kept as it is now
		"// Greet says hello, with a comment that changed.\nfunc Greet(name string) string {\n\t// the code is the same\n\treturn \"hello \" + strings.TrimSpace(name)\n}",
		"func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }",
		// changed, a result unnamed
		"func Shout(s string) string {\n\tvar r0 string\n\treturn r0\n}",
		// a method of a generic type, results unnamed
		"func (s *Stack[T]) Pop() (T, bool) {\n\tvar r0 T\n\tvar r1 bool\n\treturn r0, r1\n}",
		// named results: a bare return
		"func Parse(r0 string) (n int, err error) {\n\treturn\n}",
		// a parameter named r0: the variables are named apart
		"func Map[K, V comparable](m map[K]V, r0 int) (map[V]K, error) {\n\tvar r1 map[V]K\n\tvar r2 error\n\treturn r1, r2\n}",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks\n%s\n--- output:\n%s", s, out)
		}
	}
	// errors and fmt were used only by stubbed bodies; strings still is.
	if strings.Contains(out, `"errors"`) || strings.Contains(out, `"fmt"`) || !strings.Contains(out, `"strings"`) {
		t.Errorf("imports not trimmed to those in use:\n%s", out)
	}
}

func TestGoImports(t *testing.T) {
	current := `package x

import (
	"math/rand/v2"
	p "path"
	"path/filepath"
	"strings" // kept: an unchanged function uses it
)

func A() string { return p.Join("a", strings.ToLower("B")) }

func N() int { return rand.IntN(3) }

func B() {}

func C(s string) string { return strings.TrimSpace(s) + filepath.Base(s) }

// D is unchanged; its variable filepath shadows the package.
func D() {
	filepath := struct{ Base string }{}
	_ = filepath.Base
}
`
	base := "package x\n\nimport \"strings\"\n\nfunc D() {\n\tfilepath := struct{ Base string }{}\n\t_ = filepath.Base\n}\n\nfunc B() {}\n\nfunc C(s string) string { return strings.TrimSpace(s) }\n"
	out, names := stubGoT(t, base, current)
	if want := []string{"A", "N", "C"}; !slices.Equal(names, want) {
		t.Errorf("stubbed %v, want %v", names, want)
	}
	for _, gone := range []string{`"math/rand/v2"`, `p "path"`, `"path/filepath"`, `"strings"`} {
		if strings.Contains(out, gone) {
			t.Errorf("import %s kept though nothing uses it:\n%s", gone, out)
		}
	}
}

func TestGoImportNames(t *testing.T) {
	for path, want := range map[string]string{
		"fmt": "fmt", "math/rand/v2": "rand", "gopkg.in/yaml.v3": "yaml", "github.com/mattn/go-isatty": "isatty",
		"github.com/x/client-go": "client", "github.com/charmbracelet/bubbletea": "bubbletea",
	} {
		if got := importName(path); got != want {
			t.Errorf("importName(%q) = %q, want %q", path, got, want)
		}
	}
	// A package whose name its path does not give is found among the
	// names the stubs stopped using, when its path spells exactly one.
	src := `package x

import (
	"fmt"
	"github.com/x/lib-kit"
	tea "github.com/charmbracelet/bubbletea"
)

func A() { kit.Run(); fmt.Println(); tea.Quit() }
func B() { fmt.Println() }
`
	out, _, err := Stub("go", "x.go", []byte("package x\n\nimport \"fmt\"\n\nfunc B() { fmt.Println() }\n"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); strings.Contains(s, "lib-kit") || strings.Contains(s, "bubbletea") || !strings.Contains(s, `"fmt"`) {
		t.Errorf("imports wrong after stubbing A:\n%s", s)
	}
}

func TestGoNewFileAndOddFunctions(t *testing.T) {
	current := `package x

import "unsafe"

func init() { println("a") }
func init() { println("b") }

// asm has no body: its code is elsewhere.
func asm(x int) int

func _() {}

func Size[T any](v T) uintptr { return unsafe.Sizeof(v) }
`
	out, names, err := Stub("go", "x.go", nil, []byte(current))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"init", "init", "_", "Size"}; !slices.Equal(names, want) {
		t.Errorf("stubbed %v, want %v", names, want)
	}
	if s := string(out); !strings.Contains(s, "func asm(x int) int\n") || strings.Contains(s, "unsafe") || strings.Contains(s, "println") {
		t.Errorf("new file not stubbed as expected:\n%s", s)
	}
	// One init unchanged, one changed: only the changed one is stubbed.
	base := "package x\n\nfunc init() { println(\"a\") }\n"
	cur := "package x\n\nfunc init() { println(\"a\") }\n\nfunc init() { println(\"c\") }\n"
	out2, names := stubGoT(t, base, cur)
	if !slices.Equal(names, []string{"init"}) || strings.Count(out2, "println") != 1 {
		t.Errorf("stubbed %v:\n%s", names, out2)
	}
}

func TestGoUnparsable(t *testing.T) {
	if _, _, err := Stub("go", "x.go", nil, []byte("package x\nfunc {")); err == nil {
		t.Error("no error for a current file that does not parse")
	}
	if _, _, err := Stub("go", "x.go", []byte("package"), []byte("package x\n")); err == nil {
		t.Error("no error for a base that does not parse")
	}
}

// TestGoStubBuilds builds a stubbed file with the go tool in a module of
// its own, beside a test that calls the stubs: the before-run's base must
// build and the test fail by its assertion.
func TestGoStubBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, _ := stubGoT(t, goBase, goCurrent)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module x\n\ngo 1.22\n",
		"x.go":   string(out),
		"x_test.go": `package x

import "testing"

func TestPop(t *testing.T) {
	var s Stack[int]
	s.Push(1)
	if v, ok := s.Pop(); !ok || v != 1 {
		t.Fatalf("Pop() = %v, %v", v, ok)
	}
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gobin, "test", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	res, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(res), "Pop() = 0, false") {
		t.Fatalf("the test did not fail by its assertion on the stubs: %v\n%s", err, res)
	}
}

// TestGoFunctionLiterals stubs the function literals of package-level
// variables: a variable's value, a struct's field, a map's or a slice's
// element, an argument; each named by where it lies, and each kept as it
// is when the session did not change it.
func TestGoFunctionLiterals(t *testing.T) {
	for _, c := range []struct {
		name, base, current, want string
		stubbed                   []string
	}{{
		name:    "a variable's value",
		current: "package x\n\nimport \"strings\"\n\nvar Greet = func(name string) string { return \"hi \" + strings.TrimSpace(name) }\n",
		want:    "package x\n\nvar Greet = func(name string) string {\n\tvar r0 string\n\treturn r0\n}\n",
		stubbed: []string{"Greet"},
	}, {
		name:    "unchanged, comments and layout aside",
		base:    "package x\n\nvar Greet = func(name string) string { return \"hi \" + name }\n\nvar Shout = func(s string) string { return s + \"!\" }\n",
		current: "package x\n\n// Greet greets.\nvar Greet = func(name string) string {\n\treturn \"hi \" + name // kept\n}\n\nvar Shout = func(s string) string { return s + \"!!\" }\n",
		want:    "package x\n\n// Greet greets.\nvar Greet = func(name string) string {\n\treturn \"hi \" + name // kept\n}\n\nvar Shout = func(s string) string {\n\tvar r0 string\n\treturn r0\n}\n",
		stubbed: []string{"Shout"},
	}, {
		name:    "struct fields, one changed",
		base:    "package x\n\ntype Op struct {\n\tName string\n\tRun  func(a, b int) (int, error)\n\tUndo func()\n}\n\nvar add = &Op{\n\tName: \"add\",\n\tRun: func(a, b int) (int, error) {\n\t\treturn a + b, nil\n\t},\n\tUndo: func() {},\n}\n",
		current: "package x\n\ntype Op struct {\n\tName string\n\tRun  func(a, b int) (int, error)\n\tUndo func()\n}\n\nvar add = &Op{\n\tName: \"add\",\n\tRun: func(a, b int) (int, error) {\n\t\treturn a + b + 0, nil\n\t},\n\tUndo: func() {},\n}\n",
		want:    "package x\n\ntype Op struct {\n\tName string\n\tRun  func(a, b int) (int, error)\n\tUndo func()\n}\n\nvar add = &Op{\n\tName: \"add\",\n\tRun: func(a, b int) (int, error) {\n\t\tvar r0 int\n\t\tvar r1 error\n\t\treturn r0, r1\n\t},\n\tUndo: func() {},\n}\n",
		stubbed: []string{"add.Run"},
	}, {
		name:    "map and slice elements, named results",
		current: "package x\n\nvar ops = map[string]func(int) (n int){\n\t\"inc\": func(i int) (n int) { return i + 1 },\n}\n\nvar hooks = []func(){func() { println(1) }}\n",
		want:    "package x\n\nvar ops = map[string]func(int) (n int){\n\t\"inc\": func(i int) (n int) {\n\t\treturn\n\t},\n}\n\nvar hooks = []func(){func() {\n}}\n",
		stubbed: []string{`ops["inc"]`, "hooks[0]"},
	}, {
		name:    "an argument, and a literal inside another",
		current: "package x\n\nfunc once(f func() int) func() int { return f }\n\nvar value = once(func() int {\n\tg := func() int { return 2 }\n\treturn g()\n})\n",
		want:    "package x\n\nfunc once(f func() int) func() int { return f }\n\nvar value = once(func() int {\n\tvar r0 int\n\treturn r0\n})\n",
		base:    "package x\n\nfunc once(f func() int) func() int { return f }\n",
		stubbed: []string{"value.func1"},
	}, {
		// As in func Parse(url string) (*url.URL, error): the body cannot
		// spell the results' types.
		name:    "a parameter shadows a result's package",
		current: "package x\n\nimport \"strings\"\n\nfunc New(strings string) (*strings.Builder, error) { return nil, nil }\n\nvar Must = func(strings string) *strings.Reader { return nil }\n\nfunc (int T) Get() int { return 1 }\n\ntype T struct{}\n",
		want:    "package x\n\nimport \"strings\"\n\nfunc New(strings string) (r0 *strings.Builder, r1 error) {\n\treturn\n}\n\nvar Must = func(strings string) (r0 *strings.Reader) {\n\treturn\n}\n\nfunc (int T) Get() (r0 int) {\n\treturn\n}\n\ntype T struct{}\n",
		stubbed: []string{"New", "Must", "T.Get"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			out, names := stubGoT(t, c.base, c.current)
			if out != c.want {
				t.Errorf("stubbed source:\n%s\n--- want:\n%s", out, c.want)
			}
			if !slices.Equal(names, c.stubbed) {
				t.Errorf("stubbed %v, want %v", names, c.stubbed)
			}
		})
	}
}

// TestGoBytesKept checks that Stub changes nothing but the bodies it
// empties and the imports only they used: a file laid out as gofmt would
// not lay it out keeps its layout.
func TestGoBytesKept(t *testing.T) {
	for _, c := range []struct{ name, current, want string }{{
		name:    "layout outside the bodies",
		current: "package x\nimport (\n\t\"errors\" // for New\n\t\"strings\"\n)\nfunc  Old( a int )int{return a}\nfunc New() { _ = errors.New(strings.Join(strings.Fields(\"\"), \"\")) }\nvar  keep  =  strings.Fields\n",
		want:    "package x\nimport (\n\t\"strings\"\n)\nfunc  Old( a int )int{\n\tvar r0 int\n\treturn r0\n}\nfunc New() {\n}\nvar  keep  =  strings.Fields\n",
	}, {
		name:    "an import declaration alone, and its blank line",
		current: "package x\n\nimport \"errors\"\n\nfunc New() { _ = errors.ErrUnsupported }\n",
		want:    "package x\n\nfunc New() {\n}\n",
	}, {
		name:    "imports on one line",
		current: "package x; import \"errors\"; import \"strings\"; func New() { _ = errors.ErrUnsupported }; var _ = strings.Fields\n",
		want:    "package x; import \"strings\"; func New() {\n}; var _ = strings.Fields\n",
	}, {
		name:    "specs on one line",
		current: "package x\n\nimport (\"errors\"; \"strings\")\n\nfunc New() { _ = errors.New(strings.Join(strings.Fields(\"\"), \"\")) }\n\nvar _ = strings.Fields\n",
		want:    "package x\n\nimport (\"strings\")\n\nfunc New() {\n}\n\nvar _ = strings.Fields\n",
	}} {
		t.Run(c.name, func(t *testing.T) {
			base := "package x\n\nfunc Old(a int) int { return a - 1 }\n"
			out, _ := stubGoT(t, base, c.current)
			if out != c.want {
				t.Errorf("stubbed source:\n%q\n--- want:\n%q", out, c.want)
			}
		})
	}
}
