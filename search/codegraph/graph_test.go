package codegraph

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

func goFacts(t *testing.T, p, pkg, src string) FileFacts {
	t.Helper()
	fset, f, err := chunk.ParseGo(p, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return FromGo(p, fset, f, pkg)
}

func testGraph(t *testing.T) *Graph {
	g := New()
	g.SetFile(goFacts(t, "web/server.go", "example.com/app/web", `package web

import (
	"example.com/app/store"
	u "net/url"
)

type Server struct{ db *store.DB }

// Serve handles a request.
func (s *Server) Serve(raw string) error {
	if _, err := u.Parse(raw); err != nil {
		return err
	}
	s.load()
	return nil
}

func (s *Server) load() { s.db.Get("k"); store.Open() }

// Halt stops.
func (s *Server) Halt() { s.db.Close() }

func Start() { srv := &Server{}; srv.Serve("x"); helper() }

func helper() {}

var defaultServer = newServer()

func newServer() *Server { return &Server{} }
`))
	g.SetFile(goFacts(t, "store/store.go", "example.com/app/store", `package store

type DB struct{}

func Open() *DB { return connect() }

func connect() *DB { return &DB{} }

func (d *DB) Get(k string) string { return d.read(k) }

func (d *DB) read(k string) string { return k }

func (d *DB) Close() {}

// Parse reads a config.
func Parse(s string) {}
`))
	g.SetFile(goFacts(t, "store/store_test.go", "example.com/app/store", `package store

func TestOpen() { Open() }
`))
	return g
}

func names(nodes []Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Symbol.Display())
	}
	return out
}

func TestCallersAndCallees(t *testing.T) {
	g := testGraph(t)
	w, err := g.Callees("Server.Serve", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(w.Nodes), " "); got != "web.Server.load" {
		t.Errorf("callees depth 1 = %q", got)
	}
	w, _ = g.Callees("web.Server.Serve", 3, 0)
	got := strings.Join(names(w.Nodes), " ")
	for _, want := range []string{"web.Server.load", "store.Open", "store.connect"} {
		if !strings.Contains(got, want) {
			t.Errorf("callees depth 3 = %q, missing %s", got, want)
		}
	}
	// s.db.Get is a call through the receiver's field of type *store.DB:
	// linked exactly to DB.Get.
	if !strings.Contains(got, "store.DB.Get") {
		t.Errorf("call through a field not resolved: %q", got)
	}
	for _, n := range w.Nodes {
		if n.Symbol.Name == "Get" && n.Loose {
			t.Errorf("call through a field marked loose")
		}
	}
	w, _ = g.Callers("connect", 2, 0)
	if got := names(w.Nodes); len(got) != 3 || got[0] != "store.Open" || w.Nodes[1].Depth != 2 {
		t.Errorf("callers of connect = %v", got)
	}
	// Package-level var initialisers call too.
	w, _ = g.Callers("newServer", 1, 0)
	if got := names(w.Nodes); len(got) != 1 || got[0] != "web.defaultServer" {
		t.Errorf("callers of newServer = %v", got)
	}
	// Limits.
	w, _ = g.Callees("Start", 5, 1)
	if len(w.Nodes) != 1 || !w.Truncated {
		t.Errorf("limit: %v truncated %v", names(w.Nodes), w.Truncated)
	}
	// Imports for a package.
	w, err = g.Callees("example.com/app/web", 1, 0)
	if err != nil || len(w.Nodes) != 2 || w.Root.Kind != "package" {
		t.Errorf("package imports: %+v %v", w, err)
	}
	w, err = g.Callers("store", 1, 0)
	if err != nil || len(w.Nodes) != 1 || w.Nodes[0].Symbol.Package != "example.com/app/web" {
		t.Errorf("package importers: %+v %v", w, err)
	}
}

func TestPaths(t *testing.T) {
	g := testGraph(t)
	ps, _, err := g.Paths("Start", "connect", 6, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 {
		t.Fatalf("paths = %+v", ps)
	}
	var chain []string
	for _, s := range ps[0].Symbols {
		chain = append(chain, s.Qualified())
	}
	if strings.Join(chain, " > ") != "Start > Server.Serve > Server.load > Open > connect" || len(ps[0].Lines) != 4 {
		t.Errorf("path = %v lines %v", chain, ps[0].Lines)
	}
	if ps, _, _ := g.Paths("Start", "connect", 2, 5); len(ps) != 0 {
		t.Errorf("depth limit ignored: %v", ps)
	}
	if ps, _, _ := g.Paths("connect", "Start", 6, 5); len(ps) != 0 {
		t.Errorf("reverse path found")
	}
}

func TestLookupAmbiguousAndUnknown(t *testing.T) {
	g := testGraph(t)
	// "Parse" is store.Parse only: net/url is not in the graph.
	if s, err := g.Lookup("Parse"); err != nil || s.Package != "example.com/app/store" {
		t.Errorf("Parse: %+v %v", s, err)
	}
	g.SetFile(goFacts(t, "cfg/cfg.go", "example.com/app/cfg", "package cfg\n\nfunc Parse() {}\n"))
	_, err := g.Lookup("Parse")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("ambiguous: %v", err)
	}
	for _, q := range []string{"cfg.Parse", "example.com/app/cfg.Parse", "cfg/cfg.go:Parse", "cfg:Parse"} {
		if s, err := g.Lookup(q); err != nil || s.Package != "example.com/app/cfg" {
			t.Errorf("%s: %+v %v", q, s, err)
		}
	}
	if s, err := g.Lookup("DB.Close"); err != nil || s.Recv != "DB" {
		t.Errorf("DB.Close: %+v %v", s, err)
	}
	if s, err := g.Lookup("store.DB.Close"); err != nil || s.Recv != "DB" {
		t.Errorf("store.DB.Close: %+v %v", s, err)
	}
	// Test files lose ties.
	if s, err := g.Lookup("TestOpen"); err != nil || !s.Test {
		t.Errorf("TestOpen: %+v %v", s, err)
	}
	_, err = g.Lookup("Hlat")
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Suggestions) == 0 || nf.Suggestions[0] != "web.Server.Halt" {
		t.Fatalf("unknown: %v", err)
	}
	if !strings.Contains(nf.Error(), "web.Server.Halt") {
		t.Errorf("message %q", nf.Error())
	}
	g.RemoveFile("cfg/cfg.go")
	if _, err := g.Lookup("Parse"); err != nil {
		t.Errorf("after remove: %v", err)
	}
}

func TestUses(t *testing.T) {
	g := testGraph(t)
	u := g.Uses()
	// The test caller does not count.
	if got := u["store/store.go"]["Open"]; got != (Use{Callers: 1, CallerPkgs: 1, PkgImporter: 1}) {
		t.Errorf("use of Open = %+v", got)
	}
	if got := u["store/store.go"]["DB.Get"]; got != (Use{Callers: 1, CallerPkgs: 1, PkgImporter: 1}) {
		t.Errorf("use of DB.Get = %+v", got)
	}
	if st := g.Stats(); st.Symbols == 0 || st.Calls == 0 || st.Packages != 2 {
		t.Errorf("stats %+v", st)
	}
}

// Callers in examples, like callers in tests, say how a library is shown,
// not how much it is used: they do not count.
func TestUsesLeaveOutExamples(t *testing.T) {
	lib := "class View:\n    def render(self, x):\n        return x\n\n    def page(self, x):\n        return self.render(x)\n"
	ex := "def demo(v):\n    v.render(1)\n\n\ndef other(v):\n    v.render(3)\n"
	g := chunkGraph(map[string]string{"pkg/view.py": lib, "examples/demo.py": ex, "tests/test_view.py": ex})
	if got := g.Uses()["pkg/view.py"]["View.render"]; got.Callers != 1 || got.CallerPkgs != 0 {
		t.Errorf("use of render = %+v, want the library's one caller only", got)
	}
}

func TestOtherLanguages(t *testing.T) {
	src := `import os
from app.db import connect


def load(path):
    data = read(path)
    return parse(data)


def read(path):
    return open(path).read()


def parse(text):
    return text


class Repo:
    def save(self, x):
        self.validate(x)
        connect()

    def validate(self, x):
        return parse(x)
`
	g := chunkGraph(map[string]string{"app/repo.py": src})
	w, err := g.Callees("load", 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(w.Nodes), " "); got != "repo.read repo.parse" {
		t.Errorf("python callees = %q", got)
	}
	w, _ = g.Callers("parse", 1, 0)
	if got := strings.Join(names(w.Nodes), " "); got != "repo.load repo.Repo.validate" {
		t.Errorf("python callers = %q", got)
	}
	ps, _, _ := g.Paths("Repo.save", "parse", 4, 3)
	if len(ps) != 1 || len(ps[0].Symbols) != 3 {
		t.Errorf("python path = %+v", ps)
	}
	w, _ = g.Callees("app", 1, 0)
	if len(w.Nodes) != 2 {
		t.Errorf("python imports = %+v", w)
	}
}

// A type's embedded types (Go) and base classes and interfaces (Python,
// Java, TypeScript) link it to them, marked embeds: its callers list the
// types embedding it, its dependencies what it embeds. Calls, call paths
// and usage counts leave them out.
func TestEmbeddingAndInheritance(t *testing.T) {
	g := New()
	g.SetFile(goFacts(t, "store/store.go", "example.com/app/store", `package store

type Base struct{}

func (b *Base) Close() {}

type Reader interface{ Read() }

type Cache[T any] struct{}

type Number interface{ ~int | ~float64 }
`))
	g.SetFile(goFacts(t, "web/web.go", "example.com/app/web", `package web

import (
	"io"
	"example.com/app/store"
)

type Conn struct {
	*store.Base
	store.Cache[int]
	io.Writer
	name string
}

type ReadCloser interface {
	store.Reader
	Close()
}

type Pool struct{ Conn }

func (p *Pool) Drain() { p.Close() }
`))
	deps := func(name string) string {
		w, err := g.Callees(name, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range w.Nodes {
			if !n.Embeds {
				t.Errorf("%s: %s not marked embeds", name, n.Symbol.Display())
			}
			out = append(out, n.Symbol.Display())
		}
		return strings.Join(out, " ")
	}
	if got := deps("Conn"); got != "store.Base store.Cache" {
		t.Errorf("Conn embeds %q", got)
	}
	if got := deps("ReadCloser"); got != "store.Reader" {
		t.Errorf("ReadCloser embeds %q", got)
	}
	w, _ := g.Callers("Base", 2, 0)
	if got := strings.Join(names(w.Nodes), " "); got != "web.Conn web.Pool" {
		t.Errorf("types embedding Base, two levels: %q", got)
	}
	if st := g.Stats(); st.Embeds != 5 || st.Calls != 1 {
		t.Errorf("stats %+v", st) // Base, Cache, Writer (unresolved), Reader, Conn; one call
	}
	if u := g.Uses()["store/store.go"]["Base"]; u != (Use{PkgImporter: 1}) {
		t.Errorf("embedding counted as use: %+v", u)
	}
	if ps, _, _ := g.Paths("Pool", "Base", 4, 3); len(ps) != 0 {
		t.Errorf("a call path through embedding: %+v", ps)
	}

	for _, tc := range []struct{ lang, path, src, class, want string }{
		{"python", "app/models.py", "import abc\n\n\nclass Model(base.Entity, Mixin, metaclass=abc.ABCMeta):\n    pass\n\n\nclass Entity:\n    pass\n\n\nclass Mixin(object):\n    pass\n", "Model", "models.Entity models.Mixin"},
		{"java", "app/Repo.java", "package app;\n\npublic class Repo extends Base<Map<String, Integer>> implements Store, Closeable {\n}\n\nclass Base<T> {\n}\n\ninterface Store {\n}\n", "Repo", "Repo.Base Repo.Store"},
		{"typescript", "app/repo.ts", "export class Repo extends Base implements Store {\n}\n\nclass Base {\n}\n\ninterface Store {\n}\n", "Repo", "repo.Base repo.Store"},
	} {
		g := chunkGraph(map[string]string{tc.path: tc.src})
		w, err := g.Callees(tc.class, 1, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.lang, err)
		}
		if got := strings.Join(names(w.Nodes), " "); got != tc.want {
			t.Errorf("%s: %s extends %q, want %q", tc.lang, tc.class, got, tc.want)
		}
	}
}
