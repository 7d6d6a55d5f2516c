package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/tokenize"
)

// joinedEmbedder is the built-in embedder with a second vector after its
// own, weighted: a cosine of two such vectors is the built-in one plus
// weight² times the second's, over 1 + weight². It exists to measure
// vectors the product does not make (-bridge, -static, -external; the figures
// are in docs/benchmarks.md).
type joinedEmbedder struct {
	*embed.Hashing
	name   string
	dim    int
	weight float32
	doc    func(text string) []float32 // a chunk's second vector
	query  func(text string) []float32 // a query's
}

func (e *joinedEmbedder) Name() string { return e.Hashing.Name() + "+" + e.name }
func (e *joinedEmbedder) Dim() int     { return e.Hashing.Dim() + e.dim }

func (e *joinedEmbedder) join(h, v []float32) []float32 {
	out := append([]float32(nil), h...)
	for _, x := range v {
		out = append(out, e.weight*x)
	}
	embed.Normalize(out)
	return out
}

func (e *joinedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	hs, err := e.Hashing.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, t := range texts {
		hs[i] = e.join(hs[i], e.doc(t))
	}
	return hs, nil
}

func (e *joinedEmbedder) EmbedWeighted(ctx context.Context, texts []string, weight func(string) float64) ([][]float32, error) {
	hs, err := e.Hashing.EmbedWeighted(ctx, texts, weight)
	if err != nil {
		return nil, err
	}
	for i, t := range texts {
		hs[i] = e.join(hs[i], e.doc(t))
	}
	return hs, nil
}

func (e *joinedEmbedder) EmbedQueryWeighted(ctx context.Context, query string, weight func(string) float64) ([]float32, error) {
	h, err := e.Hashing.EmbedQueryWeighted(ctx, query, weight)
	if err != nil {
		return nil, err
	}
	return e.join(h, e.query(query)), nil
}

// wordTables are word vectors by search term, in one table or two (a
// bridge's question side and code side): a text's vector is the normalised
// sum of its distinct terms' rows.
type wordTables struct {
	ids    map[string]int32
	d      int
	qt, ct []float32
}

func (m *wordTables) encode(table []float32, text string) []float32 {
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

func (m *wordTables) embedder(h *embed.Hashing, name string, weight float64) *joinedEmbedder {
	return &joinedEmbedder{Hashing: h, name: name, dim: m.d, weight: float32(weight),
		doc:   func(t string) []float32 { return m.encode(m.ct, t) },
		query: func(t string) []float32 { return m.encode(m.qt, t) }}
}

// readWordTables reads what bench/wordvec writes: gzip of the magic ("ABR1"
// for a bridge's two tables, "AWV1" for one table of word vectors), the term
// count and dimension as uint32, the terms each after its length in a byte,
// then each table's rows as a float32 scale and int8 components.
func readWordTables(path string) (*wordTables, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("word vectors %s: %w", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("word vectors %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("word vectors %s: %w", path, err)
	}
	tables := map[string]int{"ABR1": 2, "AWV1": 1}[string(raw[:min(4, len(raw))])]
	if len(raw) < 12 || tables == 0 {
		return nil, fmt.Errorf("word vectors %s: not a table of word vectors", path)
	}
	n := int(binary.LittleEndian.Uint32(raw[4:]))
	d := int(binary.LittleEndian.Uint32(raw[8:]))
	m := &wordTables{ids: make(map[string]int32, n), d: d}
	p := 12
	for i := 0; i < n; i++ {
		if p >= len(raw) || p+1+int(raw[p]) > len(raw) {
			return nil, fmt.Errorf("word vectors %s: truncated at term %d", path, i)
		}
		l := int(raw[p])
		m.ids[string(raw[p+1:p+1+l])] = int32(i)
		p += 1 + l
	}
	if len(raw)-p != tables*n*(4+d) {
		return nil, fmt.Errorf("word vectors %s: %d bytes of rows, want %d", path, len(raw)-p, tables*n*(4+d))
	}
	read := func() []float32 {
		t := make([]float32, n*d)
		for i := 0; i < n; i++ {
			scale := math.Float32frombits(binary.LittleEndian.Uint32(raw[p:]))
			p += 4
			for x := 0; x < d; x++ {
				t[i*d+x] = float32(int8(raw[p+x])) * scale
			}
			p += d
		}
		return t
	}
	m.qt = read()
	m.ct = m.qt
	if tables == 2 {
		m.ct = read()
	}
	return m, nil
}

// externalVectors are vectors another program computed (a sentence encoder
// the product cannot run, bench/sentencemodel): vectors.tsv in dir holds, a
// line each, a text's SHA-256 and its vector. A text it lacks gets zeros and
// is written to missing.jsonl, for that program to embed before the next run.
type externalVectors struct {
	d    int
	vecs map[string][]float32
	mu   sync.Mutex
	miss *os.File
}

func readExternal(dir string, d int) (*externalVectors, error) {
	e := &externalVectors{d: d, vecs: map[string][]float32{}}
	if f, err := os.Open(filepath.Join(dir, "vectors.tsv")); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			key, rest, _ := strings.Cut(sc.Text(), "\t")
			fs := strings.Fields(rest)
			if len(fs) != d {
				return nil, fmt.Errorf("%s: a vector of %d, want %d", f.Name(), len(fs), d)
			}
			v := make([]float32, d)
			for i, s := range fs {
				x, err := strconv.ParseFloat(s, 32)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Name(), err)
				}
				v[i] = float32(x)
			}
			embed.Normalize(v)
			e.vecs[key] = v
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	var err error
	if e.miss, err = os.Create(filepath.Join(dir, "missing.jsonl")); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *externalVectors) vector(text string) []float32 {
	sum := sha256.Sum256([]byte(text))
	key := hex.EncodeToString(sum[:])
	e.mu.Lock()
	defer e.mu.Unlock()
	if v, ok := e.vecs[key]; ok {
		return v
	}
	b, _ := json.Marshal(map[string]string{"key": key, "text": text})
	e.miss.Write(append(b, '\n'))
	return make([]float32, e.d)
}
