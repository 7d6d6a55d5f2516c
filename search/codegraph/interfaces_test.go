package codegraph

import (
	"errors"
	"strings"
	"testing"
)

// interfaceGraph is a store package declaring interfaces, two types that
// implement them and one that almost does, and a web package calling
// through them.
func interfaceGraph(t *testing.T) *Graph {
	g := New()
	g.SetFile(goFacts(t, "store/store.go", "example.com/app/store", `package store

// Reader reads a key.
type Reader interface {
	Get(key string) ([]byte, error)
}

// ReadWriter reads and writes keys.
type ReadWriter interface {
	Reader
	Put(key string, v []byte) error
}

type Mem struct{}

func (m *Mem) Get(key string) ([]byte, error) { return nil, nil }
func (m *Mem) Put(key string, v []byte) error  { return nil }

// Stub has Put with another parameter count: not a ReadWriter.
type Stub struct{}

func (s Stub) Get(key string) ([]byte, error) { return nil, nil }
func (s Stub) Put(key string) error            { return nil }
`))
	g.SetFile(goFacts(t, "store/disk.go", "example.com/app/store", `package store

type Disk struct{ path string }

func (d *Disk) Get(key string) ([]byte, error) { return nil, nil }
func (d *Disk) Put(key string, v []byte) error  { return nil }

func Copy(dst ReadWriter, src Reader, key string) error {
	v, _ := src.Get(key)
	return dst.Put(key, v)
}
`))
	g.SetFile(goFacts(t, "web/web.go", "example.com/app/web", `package web

import "example.com/app/store"

type Handler struct {
	db *store.Disk
	r  store.Reader
}

func Serve(r store.Reader) { r.Get("k") }

func Save(rw store.ReadWriter, d *store.Disk) {
	rw.Put("k", nil)
	d.Get("k")
}

func (h *Handler) Load() {
	h.db.Get("k")
	h.r.Get("k")
}
`))
	return g
}

// A call through a parameter or a receiver's field of interface type links
// to the interface's method, exactly; one through a parameter or field of a
// concrete type to that type's method.
func TestCallsThroughInterfaces(t *testing.T) {
	g := interfaceGraph(t)
	wantCalls(t, g, map[string]string{
		"Serve":      "store.Reader.Get",
		"Save":       "store.ReadWriter.Put store.Disk.Get",
		"store.Copy": "store.Reader.Get store.ReadWriter.Put",
		// Through the receiver's fields, of a concrete and an interface type.
		"Handler.Load": "store.Disk.Get store.Reader.Get",
	})
	w, err := g.Callers("Reader.Get", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(w.Nodes), " "); got != "store.Copy web.Serve web.Handler.Load" {
		t.Errorf("callers of Reader.Get: %q", got)
	}
}

// A call through a chain of fields (a.cfg.Store.Put()) links to the method
// of the last field's type, however many files and packages the chain's
// structs are declared in.
func TestCallsThroughChainsOfFields(t *testing.T) {
	g := interfaceGraph(t)
	g.SetFile(goFacts(t, "store/options.go", "example.com/app/store", `package store

type Options struct{ Backend Reader }
`))
	g.SetFile(goFacts(t, "web/config.go", "example.com/app/web", `package web

import "example.com/app/store"

type Config struct{ Store store.ReadWriter }
`))
	g.SetFile(goFacts(t, "web/app.go", "example.com/app/web", `package web

import "example.com/app/store"

type inner struct{ rw store.ReadWriter }

type App struct {
	h   Handler
	cfg *Config
	opt store.Options
	in  inner
}

func (a *App) ViaHandler() { a.h.db.Get("k"); a.h.r.Get("k") }
func (a *App) ViaConfig()  { a.cfg.Store.Put("k", nil) }
func (a *App) ViaOptions() { a.opt.Backend.Get("k") }
func (a *App) ViaInner()   { a.in.rw.Put("k", nil) }

// Sync's chain has a field no struct declares: by name, as before.
func (a *App) Sync() { a.cfg.Missing.Put("k", nil) }
`))
	wantCalls(t, g, map[string]string{
		// Through structs of another file (Handler, Config), of another
		// package (store.Options), and of this file (inner).
		"App.ViaHandler": "store.Disk.Get store.Reader.Get",
		"App.ViaConfig":  "store.ReadWriter.Put",
		"App.ViaOptions": "store.Reader.Get",
		"App.ViaInner":   "store.ReadWriter.Put",
	})
	// Put's only bodies are Disk's and Mem's: no single method by name.
	if got := calls(t, g, "App.Sync"); got != "" {
		t.Errorf("App.Sync calls %q, want nothing", got)
	}
}

// The types implementing an interface are those whose methods include the
// interface's and its embedded interfaces', by name and parameter count.
func TestImplementations(t *testing.T) {
	g := interfaceGraph(t)
	impl := func(name string) string {
		t.Helper()
		w, err := g.Implementations(name, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return strings.Join(names(w.Nodes), " ")
	}
	if got := impl("Reader"); got != "store.Disk store.Mem store.Stub" {
		t.Errorf("Reader implemented by %q", got)
	}
	if got := impl("ReadWriter"); got != "store.Disk store.Mem" {
		t.Errorf("ReadWriter implemented by %q", got)
	}
	if got := impl("ReadWriter.Put"); got != "store.Disk.Put store.Mem.Put" {
		t.Errorf("ReadWriter.Put implemented by %q", got)
	}
	w, _ := g.Implementations("Reader", 2)
	if len(w.Nodes) != 2 || !w.Truncated {
		t.Errorf("limit 2: %d nodes, truncated %v", len(w.Nodes), w.Truncated)
	}
	var ni *NotInterfaceError
	if _, err := g.Implementations("Disk", 0); !errors.As(err, &ni) {
		t.Errorf("Disk is not an interface: %v", err)
	}
	// A struct that shares the interface's name does not make it
	// ambiguous: implementations are of an interface. Callers still ask
	// which one.
	g.SetFile(goFacts(t, "web/reader.go", "example.com/app/web", `package web

type Reader struct{ Disk bool }
`))
	if got := impl("Reader"); got != "store.Disk store.Mem store.Stub" {
		t.Errorf("Reader beside a struct Reader implemented by %q", got)
	}
	var amb *AmbiguousError
	if _, err := g.Callers("Reader", 1, 0); !errors.As(err, &amb) {
		t.Errorf("callers of Reader: %v, want it ambiguous", err)
	}
}

// A method call on a value of unknown type is matched to a method with a
// body, never to an interface's declaration of it.
func TestLooseCallsSkipInterfaceMethods(t *testing.T) {
	g := New()
	g.SetFile(goFacts(t, "a/a.go", "example.com/a", `package a

type Closer interface{ Close() error }

type File struct{}

func (f *File) Close() error { return nil }

func Shut(open func() *File) { open().Close() }

func Open() *File { return nil }

func ShutOpen() { Open().Close() }
`))
	if got := calls(t, g, "Shut"); got != "a.File.Close(loose)" {
		t.Errorf("Shut calls %q", got)
	}
	// On a function's result, the method of the type it returns, exactly.
	if got := calls(t, g, "ShutOpen"); got != "a.File.Close a.Open" {
		t.Errorf("ShutOpen calls %q", got)
	}
}

// A call through a local variable links to its type's method when the code
// states the type where it declares the variable; a name declared with two
// types, or once without a stated one, is left to the name-based fallback.
func TestCallsThroughLocalVariables(t *testing.T) {
	g := interfaceGraph(t)
	g.SetFile(goFacts(t, "job/job.go", "example.com/app/job", `package job

import "example.com/app/store"

func Declared() {
	var r store.Reader
	r.Get("k")
}

func Composite() {
	d := &store.Disk{}
	d.Get("k")
	m := new(store.Mem)
	m.Put("k", nil)
}

func Asserted(x any) {
	rw := x.(store.ReadWriter)
	rw.Put("k", nil)
}

func Shadowed(x any) {
	if true {
		d := &store.Disk{}
		d.Get("k")
	}
	d := pick(x)
	d.Get("k")
}

func pick(x any) *store.Mem { return nil }

func Param(r store.Reader) {
	r, _ = x()
	r.Get("k")
}

func x() (store.Reader, error) { return nil, nil }
`))
	wantCalls(t, g, map[string]string{
		"Declared":  "store.Reader.Get",
		"Composite": "store.Disk.Get store.Mem.Put",
		"Asserted":  "store.ReadWriter.Put",
		"Param":     "job.x store.Reader.Get",
	})
	// d declared in two blocks with two types: each call on the one in
	// scope.
	if got := calls(t, g, "Shadowed"); got != "store.Disk.Get job.pick store.Mem.Get" {
		t.Errorf("Shadowed: d, declared in two blocks with two types, gave %q", got)
	}
}

// A call on a local set from a function's or a method's result (c :=
// store.NewClient(), c, err := Open(), c := newLocal(), rows, err :=
// c.Query()) goes to the method of the type it returns, though another type
// has a method of that name; so does one through a field of that type.
func TestCallsOnFunctionResults(t *testing.T) {
	g := New()
	g.SetFile(goFacts(t, "store/client.go", "example.com/app/store", `package store

type Pool struct{}

func (p *Pool) Do() {}

type Client struct{ pool *Pool }

func NewClient() *Client { return &Client{} }

func Open(name string) (*Client, error) { return nil, nil }

func (c *Client) Do() {}

func Count() int { return 0 }

type Rows struct{}

func (c *Client) Query() (*Rows, error) { return nil, nil }

func (r *Rows) Next() bool { return false }

func (p *Pool) Next() bool { return false }
`))
	g.SetFile(goFacts(t, "web/web.go", "example.com/app/web", `package web

import "example.com/app/store"

type Other struct{}

func (o *Other) Do() {}

func newLocal() (c *store.Client) { return nil }

func Use() {
	c := store.NewClient()
	c.Do()
}

func UseOpen() {
	d, err := store.Open("x")
	_ = err
	d.Do()
}

func UseLocal() {
	e := newLocal()
	e.Do()
}

func UseField() {
	c := store.NewClient()
	c.pool.Do()
}

func UseCount() {
	n := store.Count()
	n.Do()
}

func UseChain() {
	c := store.NewClient()
	rows, err := c.Query()
	_ = err
	rows.Next()
}

func UseParam(c *store.Client) {
	rows, _ := c.Query()
	rows.Next()
}
`))
	wantCalls(t, g, map[string]string{
		"Use":      "store.NewClient store.Client.Do",
		"UseOpen":  "store.Open store.Client.Do",
		"UseLocal": "web.newLocal store.Client.Do",
		"UseField": "store.NewClient store.Pool.Do",
		// No named type: by name, loosely, as before.
		"UseCount": "store.Count web.Other.Do(loose)",
		// Through a method's result, on a local or on a parameter.
		"UseChain": "store.NewClient store.Client.Query store.Rows.Next",
		"UseParam": "store.Client.Query store.Rows.Next",
	})
}
