package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/tokenize"
)

// neighbourTable is a table of learned word neighbours as bench/wordvec
// writes it: for each frequent search term of public programming text, the
// terms whose trained vectors are nearest, with their cosines.
type neighbourTable struct {
	ids   map[string]int32
	words []string
	nbs   [][]neighbour
}

type neighbour struct {
	id  int32
	sim float64
}

func readNeighbourTable(path string) (*neighbourTable, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("word table: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("word table %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("word table %s: %w", path, err)
	}
	if len(raw) < 8 || string(raw[:4]) != "AWN1" {
		return nil, fmt.Errorf("word table %s: not a neighbour table", path)
	}
	n := int(binary.LittleEndian.Uint32(raw[4:]))
	p := 8
	t := &neighbourTable{ids: make(map[string]int32, n), words: make([]string, n), nbs: make([][]neighbour, n)}
	for i := 0; i < n; i++ {
		if p >= len(raw) || p+1+int(raw[p]) > len(raw) {
			return nil, fmt.Errorf("word table %s: truncated at term %d", path, i)
		}
		l := int(raw[p])
		t.words[i] = string(raw[p+1 : p+1+l])
		t.ids[t.words[i]] = int32(i)
		p += 1 + l
	}
	for i := 0; i < n; i++ {
		if p >= len(raw) || p+1+3*int(raw[p]) > len(raw) {
			return nil, fmt.Errorf("word table %s: truncated at the neighbours of term %d", path, i)
		}
		ns := make([]neighbour, raw[p])
		p++
		for j := range ns {
			id := int32(binary.LittleEndian.Uint16(raw[p:]))
			if int(id) >= n {
				return nil, fmt.Errorf("word table %s: neighbour %d of term %d out of range", path, id, i)
			}
			ns[j] = neighbour{id: id, sim: float64(raw[p+2]) / 255}
			p += 3
		}
		t.nbs[i] = ns
	}
	if p != len(raw) {
		return nil, fmt.Errorf("word table %s: %d bytes left over", path, len(raw)-p)
	}
	return t, nil
}

// expandingEmbedder is the built-in embedder with each query word's learned
// neighbours added to the query's vector, each weighted by weight × its
// cosine with the word × the word's own query weight, damped when the
// neighbour is commoner in the index than the word. Documents are embedded
// as the built-in embedder does, so only the query moves. It exists to
// measure learned neighbours (-wordvec); the product does not ship them
// (docs/benchmarks.md, "Learned word vectors in the built-in embedder").
type expandingEmbedder struct {
	*embed.Hashing
	table  *neighbourTable
	weight float64
	absent bool // expand only words the index does not hold
}

func (e *expandingEmbedder) EmbedQueryWeighted(ctx context.Context, query string, weight func(string) float64) ([]float32, error) {
	v, err := e.Hashing.EmbedQueryWeighted(ctx, query, weight)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	tokenize.Each(query, func(t tokenize.Term) { have[t.Text] = true })
	seen := map[string]bool{}
	tokenize.Each(query, func(t tokenize.Term) {
		id, ok := e.table.ids[t.Text]
		if t.Whole || !ok || seen[t.Text] {
			return
		}
		seen[t.Text] = true
		wt := 1.0
		if weight != nil {
			wt = weight(t.Text)
		}
		// The query weight is 1 exactly for a word with no posting in the
		// index (search/query.go, idfWeight).
		if e.absent && wt < 1 {
			return
		}
		for _, n := range e.table.nbs[id] {
			nt := e.table.words[n.id]
			if have[nt] {
				continue
			}
			w := e.weight * n.sim * wt
			if weight != nil && wt > 0 {
				w *= min(1, weight(nt)/wt)
			}
			nv := e.Hashing.Vector(nt)
			for i := range v {
				v[i] += float32(w) * nv[i]
			}
		}
	})
	embed.Normalize(v)
	return v, nil
}
