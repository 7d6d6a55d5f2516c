// Package store declares the interfaces and types the app package calls
// through: embedded structs, fields of containers, a Load of its own.
package store

import "sync/atomic"

// Getter gets a key.
type Getter interface {
	Get(key string) string
}

// Store gets and puts.
type Store interface {
	Getter
	Put(key, v string)
}

// Syncer is satisfied by Disk alone.
type Syncer interface {
	Sync()
}

// Base holds what every store shares.
type Base struct{ hits atomic.Int64 }

func (b *Base) Hits() int64 { return b.hits.Load() }

func (b *Base) Get(key string) string {
	b.hits.Add(1)
	return key
}

// Mem is a store in memory; it gets Get from Base.
type Mem struct {
	*Base
	m map[string]string
}

func (m *Mem) Put(key, v string) { m.m[key] = v }

// Disk gets Get from Base through Mem, and Put from Mem.
type Disk struct {
	Mem
	path string
}

func (d *Disk) Sync() {}

// Map has a Load, which no call on an atomic value reaches.
type Map struct{ m map[string]string }

func (m *Map) Load(key string) string { return m.m[key] }

// Item is an element of List.
type Item struct {
	Name string
	next *Item
}

func (i *Item) Touch() {}

// Next is the item after i.
func (i *Item) Next() *Item { return i.next }

// Close makes Disk an io.Closer.
func (d *Disk) Close() error { return nil }

// ErrMissing is an error of the store.
type ErrMissing struct{ Key string }

func (e *ErrMissing) Error() string { return e.Key }

// Open returns a path and a Syncer: two results, neither an error.
func Open(path string) (string, Syncer) { return path, &Disk{path: path} }

// Feed hands out items on a channel.
func (l *List) Feed() <-chan *Item { return l.feed }
