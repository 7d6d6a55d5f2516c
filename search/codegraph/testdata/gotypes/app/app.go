// Package app calls the store's methods in every way the graph resolves.
package app

import (
	"os"
	"sync"
	"sync/atomic"

	"example.com/fix/store"
)

// Server holds a store, fields of standard library types and a chain of
// structs down to a disk.
type Server struct {
	st   store.Store
	list *store.List
	cfg  *Config
	n    atomic.Int64
	mu   sync.Map
	f    *os.File
}

// Config leads to a Backend.
type Config struct{ Backend *Backend }

// Backend holds the disk.
type Backend struct{ Disk *store.Disk }

// Load and Close are the app's own: no call on a standard library value
// reaches them.
type Cache struct{}

func (c *Cache) Load(key string) string { return key }
func (c *Cache) Close() error           { return nil }

// Assert calls on the results of type assertions.
func Assert(x any) {
	if g, ok := x.(store.Getter); ok {
		g.Get("a")
	}
	d := x.(*store.Disk)
	d.Sync()
	var s, ok = x.(store.Syncer)
	if ok {
		s.Sync()
	}
}

// Switch calls on a type switch's variable.
func Switch(x any) {
	switch v := x.(type) {
	case *store.Disk:
		v.Sync()
	case store.Getter:
		v.Get("b")
	case *store.Item, nil:
		_ = v
	}
}

// Promoted calls methods a type gets from the structs it embeds.
func Promoted(d *store.Disk, m store.Mem) {
	d.Get("c")
	d.Put("c", "d")
	m.Hits()
}

// Range calls on range variables.
func Range(l *store.List, items []*store.Item, byName map[string]store.Item, ch chan *store.Item) {
	for _, it := range items {
		it.Touch()
	}
	for _, it := range byName {
		it.Touch()
	}
	for it := range ch {
		it.Touch()
	}
	for _, it := range l.Items() {
		it.Next()
	}
}

// Chain calls on locals copied from chains of fields.
func (s *Server) Chain() {
	b := s.cfg.Backend
	b.Disk.Sync()
	d := s.cfg.Backend.Disk
	d.Put("e", "f")
}

// Std calls methods of standard library types, none of them the app's.
func (s *Server) Std() {
	s.n.Load()
	s.mu.Load("k")
	s.f.Close()
	var c atomic.Int64
	c.Load()
	s.st.Get("g")
}

// Use calls through the interfaces.
func Use(g store.Getter, st store.Store, sy store.Syncer) {
	g.Get("x")
	st.Put("x", "y")
	sy.Sync()
}

// Closure calls on a function literal's parameter and local.
func Closure(run func(func(d *store.Disk))) {
	run(func(d *store.Disk) {
		m := &store.Mem{}
		m.Put("h", "i")
		d.Sync()
	})
}

// Embedded calls a method through an embedded field named by its type.
func Embedded(d *store.Disk) {
	d.Mem.Put("j", "k")
}
