package search

import (
	"bytes"
	"compress/flate"
	"encoding/gob"
	"fmt"
	"sync"

	"github.com/agentos-dev/agentos/search/codegraph"
)

// lazyGraph holds an index's call graph facts, or, until something needs
// them, their encoded form from the snapshot. Searches never read the facts
// (the use counts ranking weighs in are kept per chunk); only graph queries,
// changed files and a save that must write them again do. Decoded, a
// monorepo's facts (1.4M call sites) took 100 MB of heap full of pointers for
// the collector to mark; encoded they are half that, pointer-free, and a
// restart does not spend time decoding them. Encoded, they are also
// compressed (packFacts).
type lazyGraph struct {
	mu    sync.Mutex
	g     *codegraph.Graph // nil while only data is held
	data  []byte           // the []codegraph.FileFacts packed (packFacts), while g is nil
	stats codegraph.Stats  // the facts' Stats, while g is nil
}

func newLazyGraph() *lazyGraph { return &lazyGraph{g: codegraph.New()} }

// encodedGraph returns a graph held as data until first used.
func encodedGraph(data []byte, stats codegraph.Stats) *lazyGraph {
	return &lazyGraph{data: data, stats: stats}
}

// get returns the graph, decoding it first when it is held as data. The
// data passed the snapshot's checksum when it was loaded, so it decodes as
// it was encoded; should it not, the graph is empty rather than the process
// stopped (searches do not need it).
func (l *lazyGraph) get() *codegraph.Graph {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.g != nil {
		return l.g
	}
	g := codegraph.New()
	var facts []codegraph.FileFacts
	if err := gob.NewDecoder(flate.NewReader(bytes.NewReader(l.data))).Decode(&facts); err == nil {
		// Decoding gives every string its own copy; names repeat.
		in := interner{}
		for i := range facts {
			internFacts(&facts[i], in)
			g.SetFile(facts[i])
		}
	}
	l.g, l.data = g, nil
	return g
}

// Stats returns the graph's size without decoding it.
func (l *lazyGraph) Stats() codegraph.Stats {
	l.mu.Lock()
	g := l.g
	st := l.stats
	l.mu.Unlock()
	if g == nil {
		return st
	}
	return g.Stats()
}

// encoded returns the graph's snapshot section: the data it holds as it
// is, else the facts encoded.
func (l *lazyGraph) encoded() ([]byte, error) {
	l.mu.Lock()
	g, data := l.g, l.data
	l.mu.Unlock()
	if g == nil {
		return data, nil
	}
	return packFacts(g.Files())
}

// packFacts encodes a graph's facts as the snapshot stores them and the
// index keeps them between graph queries: gob, compressed with flate at its
// fastest. Names and paths repeat, so they shrink to under a third (8.7 MB
// to 2.5 MB for the Go standard library, in 0.06 s), which is that much
// less memory held by a server that never gets a graph query.
func packFacts(files []codegraph.FileFacts) ([]byte, error) {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(w).Encode(files); err != nil {
		return nil, fmt.Errorf("encode the graph: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compress the graph: %w", err)
	}
	return b.Bytes(), nil
}

// shelve holds the graph as data (the section just saved) again, unless a
// query resolved it: resolving a monorepo's graph again takes seconds.
func (l *lazyGraph) shelve(data []byte, stats codegraph.Stats) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.g != nil && !l.g.Resolved() {
		l.g, l.data, l.stats = nil, data, stats
	}
}
