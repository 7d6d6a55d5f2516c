package examplecheck

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// knownPackages resolves the package names an example uses without
// importing them: standard packages, and errgroup (resolved through
// Options.GoMod). rand is math/rand: an example that needs crypto/rand
// imports it.
var knownPackages = map[string]string{
	"errgroup": "golang.org/x/sync/errgroup",
	"atomic":   "sync/atomic", "base64": "encoding/base64", "bufio": "bufio", "bytes": "bytes",
	"cmp": "cmp", "context": "context", "errors": "errors", "exec": "os/exec",
	"filepath": "path/filepath", "fmt": "fmt", "hex": "encoding/hex", "hmac": "crypto/hmac",
	"http": "net/http", "httptest": "net/http/httptest", "io": "io", "json": "encoding/json",
	"log": "log", "mail": "net/mail", "maps": "maps", "math": "math", "net": "net",
	"netip": "net/netip", "os": "os", "path": "path", "rand": "math/rand", "regexp": "regexp",
	"sha256": "crypto/sha256", "signal": "os/signal", "slices": "slices", "slog": "log/slog",
	"sort": "sort", "sql": "database/sql", "strconv": "strconv", "strings": "strings",
	"subtle": "crypto/subtle", "sync": "sync", "testing": "testing", "time": "time",
	"url": "net/url", "utf8": "unicode/utf8",
}

const goModule = "examples"

var (
	packageRE  = regexp.MustCompile(`(?m)^package (\w+)`)
	testFuncRE = regexp.MustCompile(`(?m)^func (Test|Benchmark|Fuzz)[A-Z_]`)
)

// checkGo writes each block as a package of one generated module and runs
// go vet over all of them.
func checkGo(ctx context.Context, dir string, blocks []Block, opts Options) ([]Problem, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, skipError{"go is not on PATH"}
	}
	version := opts.GoVersion
	if version == "" {
		version = "1.21"
	}
	var requires = map[string]string{} // module path → version
	modRequires := requirements(opts.GoMod)
	files := map[string]goSource{} // b000/example.go → where its lines come from
	var problems []Problem
	for i, b := range blocks {
		pkg := fileName(i, "")
		if err := os.Mkdir(filepath.Join(dir, pkg), 0o755); err != nil {
			return nil, err
		}
		sources, err := goSources(b)
		if err != nil {
			problems = append(problems, Problem{Block: b, Line: b.Line, Message: err.Error()})
			continue
		}
		for _, src := range sources {
			for _, path := range src.imports {
				if m, ok := moduleFor(path, modRequires); ok {
					requires[m] = modRequires[m]
				} else if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
					problems = append(problems, Problem{Block: b, Line: b.Line,
						Message: fmt.Sprintf("imports %s, a module the checker does not have", path)})
				}
			}
			rel := pkg + "/" + src.name
			files[rel] = src
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), src.text, 0o644); err != nil {
				return nil, err
			}
		}
	}
	mod := "module " + goModule + "\n\ngo " + version + "\n"
	paths := make([]string, 0, len(requires))
	for p := range requires {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		mod += "\nrequire " + p + " " + requires[p] + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), opts.GoSum, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, goBin, "vet", "./...")
	cmd.Dir = dir
	// The examples' own module: no workspace, the local toolchain, and
	// go.mod completed from go.sum rather than rejected.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return problems, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	found := false
	diag := regexp.MustCompile(`(?m)(?:^|\s)(?:\./)?(b\d{3}/[\w.]+\.go):(\d+)(?::\d+)?: (.*)$`)
	for _, m := range diag.FindAllStringSubmatch(string(out), -1) {
		origin, ok := files[m[1]]
		if !ok {
			continue
		}
		found = true
		line, _ := strconv.Atoi(m[2])
		msg := m[3]
		docLine := origin.block.Line + line - origin.prefix
		if origin.name == "assume.go" {
			msg = "in its assumed declarations: " + msg
			docLine = origin.block.Line
		}
		problems = append(problems, Problem{Block: origin.block, Line: docLine, Message: msg})
	}
	if !found {
		return nil, fmt.Errorf("go vet: %v\n%s", err, bytes.TrimSpace(out))
	}
	return problems, nil
}

// goSource is one Go file the checker writes for a block.
type goSource struct {
	block   Block
	name    string // example.go, example_test.go or assume.go
	text    []byte
	prefix  int // lines the harness put before the block's code
	imports []string
}

// goSources completes a block, and its assumed declarations, into the Go
// files of one package.
func goSources(b Block) ([]goSource, error) {
	pkgName := "example"
	if m := packageRE.FindStringSubmatch(b.Code); m != nil {
		pkgName = m[1]
	}
	name := "example.go"
	if testFuncRE.MatchString(b.Code) {
		name = "example_test.go"
	}
	parts := [][2]string{{name, b.Code}}
	if b.Assume != "" {
		parts = append(parts, [2]string{"assume.go", b.Assume})
	}
	var out []goSource
	for _, p := range parts {
		text, prefix, imports, err := goFile(pkgName, p[1], b.GoVersion)
		if err != nil {
			return nil, err
		}
		out = append(out, goSource{block: b, name: p[0], text: text, prefix: prefix, imports: imports})
	}
	return out, nil
}

// goFile completes code into a Go source file: a build constraint for a
// newer Go version, the package clause and the imports it needs when it has
// no package clause. It returns the file, how many lines were added before
// the code, and the file's import paths.
func goFile(pkgName, code, goVersion string) (src []byte, prefix int, imports []string, err error) {
	var head strings.Builder
	if goVersion != "" {
		// A file's build constraint sets its language version, and vet's
		// stdversion check reads it.
		fmt.Fprintf(&head, "//go:build go%s\n\n", goVersion)
	}
	hasPackage := packageRE.MatchString(code)
	if !hasPackage {
		fmt.Fprintf(&head, "package %s\n\n", pkgName)
	}
	full := head.String() + code
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "example.go", full, parser.ParseComments)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("does not parse as Go: %w", err)
	}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		imports = append(imports, p)
	}
	if !hasPackage && len(f.Imports) == 0 {
		var add []string
		seen := map[string]bool{}
		//lint:ignore SA1019 the parser's resolution is exactly "names this file does not declare"
		for _, id := range f.Unresolved { //nolint:staticcheck
			if p, ok := knownPackages[id.Name]; ok && !seen[p] && usedAsPackage(f, id.Name) {
				seen[p] = true
				add = append(add, p)
			}
		}
		sort.Strings(add)
		if len(add) > 0 {
			head.WriteString("import (\n")
			for _, p := range add {
				fmt.Fprintf(&head, "\t%q\n", p)
			}
			head.WriteString(")\n\n")
		}
		imports = add
	}
	return []byte(head.String() + code), strings.Count(head.String(), "\n"), imports, nil
}

// usedAsPackage reports whether name appears as the left side of a
// selector (name.X) in f.
func usedAsPackage(f *ast.File, name string) bool {
	used := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && id.Obj == nil {
				used = true
			}
		}
		return !used
	})
	return used
}

// requirements reads the required modules and their versions from a
// go.mod (both the single-line and the block form).
func requirements(gomod []byte) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`^\s*(?:require\s+)?([\w.~/-]+\.[\w.~/-]+)\s+(v[^\s/]+)`)
	for _, line := range strings.Split(string(gomod), "\n") {
		if m := re.FindStringSubmatch(line); m != nil && !strings.HasPrefix(strings.TrimSpace(line), "module") {
			out[m[1]] = m[2]
		}
	}
	return out
}

// moduleFor returns the required module that provides the import path.
func moduleFor(path string, reqs map[string]string) (string, bool) {
	best := ""
	for m := range reqs {
		if (path == m || strings.HasPrefix(path, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	return best, best != ""
}

// GoFiles returns the Go source files the checker compiles for a Go block,
// by name (example.go or example_test.go, and assume.go when the block
// assumes declarations), so that a test can run an example with code of
// its own beside it.
func GoFiles(b Block) (map[string][]byte, error) {
	sources, err := goSources(b)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, src := range sources {
		files[src.name] = src.text
	}
	return files, nil
}
