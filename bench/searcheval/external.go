package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/embed"
)

// externalEmbedder joins to the built-in embedder's vectors ones computed
// by another program: vectors.tsv in dir holds, a line each, a text's
// SHA-256 and its vector; a text it lacks gets zeros and is written to
// missing.jsonl for that program to embed before the next run. It exists
// to measure what a model the product cannot run (a sentence encoder) would
// bring (-external); the product has no such embedder.
type externalEmbedder struct {
	*embed.Hashing
	dir    string
	d      int
	weight float32
	vecs   map[string][]float32
	mu     sync.Mutex
	miss   *os.File
}

func newExternalEmbedder(h *embed.Hashing, dir string, d int, weight float32) (*externalEmbedder, error) {
	e := &externalEmbedder{Hashing: h, dir: dir, d: d, weight: weight, vecs: map[string][]float32{}}
	f, err := os.Open(filepath.Join(dir, "vectors.tsv"))
	if err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			key, rest, _ := strings.Cut(sc.Text(), "\t")
			fs := strings.Fields(rest)
			if len(fs) != d {
				f.Close()
				return nil, fmt.Errorf("%s: a vector of %d, want %d", f.Name(), len(fs), d)
			}
			v := make([]float32, d)
			for i, s := range fs {
				x, _ := strconv.ParseFloat(s, 32)
				v[i] = float32(x)
			}
			embed.Normalize(v)
			e.vecs[key] = v
		}
		f.Close()
	}
	if e.miss, err = os.Create(filepath.Join(dir, "missing.jsonl")); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *externalEmbedder) Name() string { return e.Hashing.Name() + "+external" }
func (e *externalEmbedder) Dim() int     { return e.Hashing.Dim() + e.d }

func (e *externalEmbedder) vector(text string) []float32 {
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

func (e *externalEmbedder) join(h []float32, text string) []float32 {
	out := append([]float32(nil), h...)
	for _, x := range e.vector(text) {
		out = append(out, e.weight*x)
	}
	embed.Normalize(out)
	return out
}

func (e *externalEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	hs, err := e.Hashing.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, t := range texts {
		hs[i] = e.join(hs[i], t)
	}
	return hs, nil
}

func (e *externalEmbedder) EmbedQueryWeighted(ctx context.Context, query string, weight func(string) float64) ([]float32, error) {
	h, err := e.Hashing.EmbedQueryWeighted(ctx, query, weight)
	if err != nil {
		return nil, err
	}
	return e.join(h, query), nil
}
