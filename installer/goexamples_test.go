package installer

import (
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// goBlockRE finds the Go code blocks of a rendered standard.
var goBlockRE = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

// exampleImports are the packages the Go examples may use without
// importing them, by the name they are used under.
var exampleImports = map[string]string{
	"atomic":   "sync/atomic",
	"bytes":    "bytes",
	"context":  "context",
	"errgroup": "golang.org/x/sync/errgroup",
	"errors":   "errors",
	"filepath": "path/filepath",
	"fmt":      "fmt",
	"http":     "net/http",
	"httptest": "net/http/httptest",
	"io":       "io",
	"json":     "encoding/json",
	"log":      "log",
	"order":    "example.com/check/order",
	"os":       "os",
	"signal":   "os/signal",
	"slog":     "log/slog",
	"sql":      "database/sql",
	"strconv":  "strconv",
	"strings":  "strings",
	"sync":     "sync",
	"syscall":  "syscall",
	"testing":  "testing",
	"time":     "time",
}

// newerStd are standard packages vet's stdversion analyzer cannot vouch
// for, because it says nothing about modules older than Go 1.21: they
// appeared in Go 1.21.
var newerStd = map[string]string{"log/slog": "1.21", "slices": "1.21", "maps": "1.21", "cmp": "1.21"}

// goTool returns the go command of the toolchain running the tests.
func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go command on PATH or in GOROOT: %v", err)
	}
	return p
}

// usedPackages returns the import paths of the packages a Go block refers
// to: identifiers followed by a dot that are not themselves selected, read
// with the Go scanner so that comments and strings do not count.
func usedPackages(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	seen := map[string]bool{}
	prev := token.ILLEGAL
	var ident string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.PERIOD && ident != "" {
			if path, ok := exampleImports[ident]; ok {
				seen[path] = true
			}
		}
		ident = ""
		if tok == token.IDENT && prev != token.PERIOD {
			ident = lit
		}
		prev = tok
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var packageClauseRE = regexp.MustCompile(`(?m)^package \w+\n`)

// checkGoExamples builds and vets the Go blocks of rendered Go standards
// (topic -> text) in a module whose go line is goVersion, with the local
// toolchain: the compiler then rejects language features newer than the go
// line, and vet's stdversion analyzer reports standard-library symbols
// newer than it (loopclosure reports loop variables shared by goroutines
// before Go 1.22).
func checkGoExamples(t *testing.T, goVersion string, rendered map[string]string) {
	t.Helper()
	dir := t.TempDir()
	testdata, err := filepath.Abs(filepath.Join("testdata", "goexamples"))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "go.mod"), "module example.com/check\n\ngo "+goVersion+
		"\n\nrequire golang.org/x/sync v0.0.0\n\nreplace golang.org/x/sync => "+filepath.ToSlash(filepath.Join(testdata, "xsync"))+"\n")
	copyTestFile(t, filepath.Join(testdata, "order", "order.go"), filepath.Join(dir, "order", "order.go"))
	for topic, text := range rendered {
		pkg := filepath.Join(dir, strings.ReplaceAll(topic, "-", ""))
		support := filepath.Join(testdata, "support", topic+".go")
		if _, err := os.Stat(support); err == nil {
			copyTestFile(t, support, filepath.Join(pkg, "support.go"))
		}
		for i, m := range goBlockRE.FindAllStringSubmatch(text, -1) {
			code := packageClauseRE.ReplaceAllString(m[1], "")
			var src strings.Builder
			src.WriteString("package example\n\n")
			for _, path := range usedPackages(code) {
				if min, ok := newerStd[path]; ok && !atLeast(goVersion, min) {
					t.Errorf("%s example %d imports %s, which needs Go %s (module is go %s)", topic, i+1, path, min, goVersion)
				}
				src.WriteString("import " + `"` + path + `"` + "\n")
			}
			src.WriteString("\n" + code)
			writeTestFile(t, filepath.Join(pkg, "example"+string(rune('a'+i))+".go"), src.String())
		}
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command(goTool(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GO111MODULE=on")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s of the Go examples at go %s: %v\n%s", strings.Join(args, " "), goVersion, err, out)
		}
	}
}

func copyTestFile(t *testing.T, from, to string) {
	t.Helper()
	writeTestFile(t, to, readTestFile(t, from))
}
