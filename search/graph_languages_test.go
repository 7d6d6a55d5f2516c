package search

import (
	"strings"
	"testing"
)

// The call graph the index builds resolves this, self and cls to the
// class's methods (or its base's), and Go calls through interface
// parameters to the interface's method, whose implementations it lists.
func TestGraphInEveryLanguageThroughIndex(t *testing.T) {
	root := writeProject(t, map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n",
		"store/store.go": `package store

// Saver saves an order.
type Saver interface{ Save(id string) error }

// Disk saves orders on disk.
type Disk struct{}

func (d *Disk) Save(id string) error { return nil }

// Record saves through any Saver.
func Record(s Saver, id string) error { return s.Save(id) }
`,
		"ui/cart.ts": `export class Base {
  clear(): void {}
}

export class Cart extends Base {
  empty(): void {
    this.clear()
  }
}

export class Basket {
  clear(): void {}
}
`,
		"jobs/report.py": `class Job:
    def run(self):
        return self.step()

    def step(self):
        return 1

    @classmethod
    def make(cls):
        return cls.default()

    @classmethod
    def default(cls):
        return None


class Other:
    def step(self):
        return 2

    @classmethod
    def default(cls):
        return None
`,
	})
	ix := build(t, CodeOptions(root, nil, nil))
	g := ix.Graph()
	callees := func(name string) string {
		t.Helper()
		w, err := g.Callees(name, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range w.Nodes {
			if !n.Embeds {
				out = append(out, n.Symbol.Display())
			}
		}
		return strings.Join(out, " ")
	}
	for caller, want := range map[string]string{
		"store.Record": "store.Saver.Save",
		"Cart.empty":   "cart.Base.clear",
		"Job.run":      "report.Job.step",
		"Job.make":     "report.Job.default",
	} {
		if got := callees(caller); got != want {
			t.Errorf("%s calls %q, want %q", caller, got, want)
		}
	}
	w, err := g.Implementations("Saver", 0)
	if err != nil || len(w.Nodes) != 1 || w.Nodes[0].Symbol.Display() != "store.Disk" {
		t.Errorf("implementations of Saver: %+v %v", w.Nodes, err)
	}
}

// A Rust impl block in another file of the crate extends the struct it
// names: self.m() there reaches the struct's methods, even when a class of
// the same name in another language and folder has one too.
func TestGraphSelfAcrossFilesOfACrate(t *testing.T) {
	root := writeProject(t, map[string]string{
		"Cargo.toml":   "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n",
		"src/model.rs": "pub struct Cart {}\n\nimpl Cart {\n    pub fn clear(&mut self) {}\n}\n\npub struct Basket {}\n\nimpl Basket {\n    pub fn clear(&mut self) {}\n}\n",
		"src/ops.rs":   "use crate::model::Cart;\n\nimpl Cart {\n    pub fn empty(&mut self) {\n        self.clear()\n    }\n}\n",
		"web/cart.ts":  "export class Cart {\n  clear(): void {}\n}\n",
	})
	ix := build(t, CodeOptions(root, nil, nil))
	w, err := ix.Graph().Callees("Cart.empty", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range w.Nodes {
		got = append(got, n.Symbol.Display()+" in "+n.Symbol.Path)
	}
	if want := "model.Cart.clear in src/model.rs"; strings.Join(got, ", ") != want {
		t.Errorf("Cart.empty calls %q, want %q", got, want)
	}
}

// A Go call through a field of a struct declared in another file of the
// package, or in another package, goes to the method of the field's type
// (an interface's, when the field is one), not to a method of the same name
// elsewhere.
func TestGraphGoFieldsOfStructsInOtherFiles(t *testing.T) {
	root := writeProject(t, map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n",
		"server/server.go": `package server

import "example.com/shop/db"

// Server serves orders.
type Server struct {
	store Store
	conn  *db.Conn
}
`,
		"server/store.go": `package server

// Store keeps orders.
type Store interface{ Get(id string) string }
`,
		"server/handlers.go": `package server

import "example.com/shop/db"

// Handle answers a request.
func (s *Server) Handle(id string) {
	s.store.Get(id)
	s.conn.Query(id)
}

// Ping checks a pool's first connection.
func Ping(p *db.Pool) { p.First.Query("") }
`,
		"db/conn.go": `package db

// Conn is a connection.
type Conn struct{}

// Query runs a query.
func (c *Conn) Query(q string) {}

// Pool holds connections.
type Pool struct{ First *Conn }
`,
		"cache/cache.go": `package cache

// Cache is a cache.
type Cache struct{}

// Get reads a key.
func (c *Cache) Get(id string) string { return "" }

// Query looks a key up.
func (c *Cache) Query(q string) {}
`,
	})
	ix := build(t, CodeOptions(root, nil, nil))
	for name, want := range map[string]string{
		"Server.Handle": "server.Store.Get in server/store.go, db.Conn.Query in db/conn.go",
		"server.Ping":   "db.Conn.Query in db/conn.go",
	} {
		w, err := ix.Graph().Callees(name, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range w.Nodes {
			got = append(got, n.Symbol.Display()+" in "+n.Symbol.Path)
		}
		if strings.Join(got, ", ") != want {
			t.Errorf("%s calls %q, want %s", name, got, want)
		}
	}
}
