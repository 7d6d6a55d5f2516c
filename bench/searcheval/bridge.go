package main

import (
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/tokenize"
)

// bridgeModel holds the word tables bench/wordvec -bridge trains: a
// question side and a code side, one row per term.
type bridgeModel struct {
	ids    map[string]int32
	d      int
	qt, ct []float32
}

func readBridge(path string) (*bridgeModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bridge %s: %w", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("bridge %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("bridge %s: %w", path, err)
	}
	if len(raw) < 12 || string(raw[:4]) != "ABR1" {
		return nil, fmt.Errorf("bridge %s: not a bridge table", path)
	}
	n := int(binary.LittleEndian.Uint32(raw[4:]))
	d := int(binary.LittleEndian.Uint32(raw[8:]))
	m := &bridgeModel{ids: make(map[string]int32, n), d: d}
	p := 12
	for i := 0; i < n; i++ {
		l := int(raw[p])
		m.ids[string(raw[p+1:p+1+l])] = int32(i)
		p += 1 + l
	}
	for _, table := range []*[]float32{&m.qt, &m.ct} {
		*table = make([]float32, n*d)
		for i := 0; i < n; i++ {
			scale := math.Float32frombits(binary.LittleEndian.Uint32(raw[p:]))
			p += 4
			for x := 0; x < d; x++ {
				(*table)[i*d+x] = float32(int8(raw[p+x])) * scale
			}
			p += d
		}
	}
	if p != len(raw) {
		return nil, fmt.Errorf("bridge %s: %d bytes left over", path, len(raw)-p)
	}
	return m, nil
}

// encode returns the normalised sum of the rows of text's distinct terms in
// table, or zeros when it holds none of them.
func (m *bridgeModel) encode(table []float32, text string) []float32 {
	v := make([]float32, m.d)
	seen := map[int32]bool{}
	tokenize.Each(text, func(t tokenize.Term) {
		id, ok := m.ids[t.Text]
		if t.Whole || !ok || seen[id] {
			return
		}
		seen[id] = true
		row := table[int(id)*m.d : int(id)*m.d+m.d]
		for x := range v {
			v[x] += row[x]
		}
	})
	embed.Normalize(v)
	return v
}

// bridgeEmbedder is the built-in embedder with a bridge's vector after its
// own, weighted: a cosine of two such vectors is the built-in one plus
// weight² times the bridge's, over 1 + weight². It exists to measure a
// trained bridge (-bridge); the product does not ship one.
type bridgeEmbedder struct {
	*embed.Hashing
	m      *bridgeModel
	weight float32
}

func (e *bridgeEmbedder) Name() string { return e.Hashing.Name() + "+bridge" }
func (e *bridgeEmbedder) Dim() int     { return e.Hashing.Dim() + e.m.d }

func (e *bridgeEmbedder) join(h []float32, b []float32) []float32 {
	out := make([]float32, 0, len(h)+len(b))
	out = append(out, h...)
	for _, x := range b {
		out = append(out, e.weight*x)
	}
	embed.Normalize(out)
	return out
}

func (e *bridgeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	hs, err := e.Hashing.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, t := range texts {
		hs[i] = e.join(hs[i], e.m.encode(e.m.ct, t))
	}
	return hs, nil
}

func (e *bridgeEmbedder) EmbedWeighted(ctx context.Context, texts []string, weight func(string) float64) ([][]float32, error) {
	hs, err := e.Hashing.EmbedWeighted(ctx, texts, weight)
	if err != nil {
		return nil, err
	}
	for i, t := range texts {
		hs[i] = e.join(hs[i], e.m.encode(e.m.ct, t))
	}
	return hs, nil
}

func (e *bridgeEmbedder) EmbedQuery(ctx context.Context, query string) ([]float32, error) {
	return e.EmbedQueryWeighted(ctx, query, nil)
}

func (e *bridgeEmbedder) EmbedQueryWeighted(ctx context.Context, query string, weight func(string) float64) ([]float32, error) {
	h, err := e.Hashing.EmbedQueryWeighted(ctx, query, weight)
	if err != nil {
		return nil, err
	}
	return e.join(h, e.m.encode(e.m.qt, query)), nil
}

// readStatic reads a table of word vectors as bench/wordvec -vectors writes
// it (gzip of "AWV1", the term count and dimension as uint32, the terms each
// after its length in a byte, then per term a float32 scale and int8
// components) as a bridge whose two sides are the same table: static word
// embeddings, a text's vector the normalised sum of its words'.
func readStatic(path string) (*bridgeModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vectors %s: %w", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("vectors %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("vectors %s: %w", path, err)
	}
	if len(raw) < 12 || string(raw[:4]) != "AWV1" {
		return nil, fmt.Errorf("vectors %s: not a vector table", path)
	}
	n := int(binary.LittleEndian.Uint32(raw[4:]))
	d := int(binary.LittleEndian.Uint32(raw[8:]))
	m := &bridgeModel{ids: make(map[string]int32, n), d: d, qt: make([]float32, n*d)}
	p := 12
	for i := 0; i < n; i++ {
		l := int(raw[p])
		m.ids[string(raw[p+1:p+1+l])] = int32(i)
		p += 1 + l
	}
	for i := 0; i < n; i++ {
		scale := math.Float32frombits(binary.LittleEndian.Uint32(raw[p:]))
		p += 4
		for x := 0; x < d; x++ {
			m.qt[i*d+x] = float32(int8(raw[p+x])) * scale
		}
		p += d
	}
	if p != len(raw) {
		return nil, fmt.Errorf("vectors %s: %d bytes left over", path, len(raw)-p)
	}
	m.ct = m.qt
	return m, nil
}
