// Package embed turns texts into vectors for similarity search.
//
// Embedder is the interface every provider implements: the built-in offline
// Hashing embedder here, a static model2vec model loaded from disk (package
// model2vec) and an Ollama or OpenAI-compatible endpoint (package httpembed).
// FromConfig picks one from the search.embedder settings. An index records
// the embedder's Name and Dim with its vectors and re-embeds everything when
// either changes.
//
// # The built-in embedder
//
// Hashing needs no download and no network: it is a pure function of the
// text. It captures
//
//   - words and identifier parts, stemmed (package tokenize), so "parsing a
//     header" meets "ParseHeader";
//   - character trigrams of each word, so "initialization" is near "init" and
//     "concurrently" near "concurrency", and a misspelling still lands close;
//   - a built-in table of programming vocabulary (vocab.go): synonyms,
//     abbreviations and closely related terms ("digest", "hash" and
//     "checksum"; "conn" and "connection"; "retry" and "backoff") which
//     share a concept feature.
//
// Features are weighted (sub-linear term frequency, common programming words
// damped), hashed with a sign into a fixed number of dimensions and the vector
// is L2-normalised, so the dot product of two vectors is their cosine.
//
// What it cannot do: it has no knowledge beyond its table. Two texts that
// share neither words, word pieces nor a listed relation are unrelated to it,
// however close their meaning ("stop the world" and "pause all goroutines");
// it does not weigh word order or negation; hashing collisions add a little
// noise that grows as the dimension shrinks. It is a fuzzy, vocabulary-aware
// lexical signal, meant to be fused with BM25 and graph signals, not a
// language model.
package embed

import (
	"context"
	"fmt"
	"math"
)

// Embedder turns texts into vectors of Dim() float32s. Implementations must
// be safe for concurrent use and return one vector per text, in order.
type Embedder interface {
	// Name identifies the model and its version; vectors from embedders with
	// different names are not comparable.
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// QueryEmbedder is implemented by embedders that embed a search query
// differently from a document (models trained with query prefixes, for one).
// Callers use EmbedQuery for queries when it is available.
type QueryEmbedder interface {
	EmbedQuery(ctx context.Context, query string) ([]float32, error)
}

// WeightedQueryEmbedder is implemented by embedders that can weigh the words
// of a query, typically by how rare they are in the indexed corpus (the
// built-in Hashing embedder does). weight receives a search term as package
// tokenize makes it.
type WeightedQueryEmbedder interface {
	EmbedQueryWeighted(ctx context.Context, query string, weight func(term string) float64) ([]float32, error)
}

// WeightedEmbedder is implemented by embedders that can weigh the words of
// documents the same way.
type WeightedEmbedder interface {
	EmbedWeighted(ctx context.Context, texts []string, weight func(term string) float64) ([][]float32, error)
}

// Query embeds one query with e, preferring EmbedQuery.
func Query(ctx context.Context, e Embedder, q string) ([]float32, error) {
	if qe, ok := e.(QueryEmbedder); ok {
		return qe.EmbedQuery(ctx, q)
	}
	vs, err := e.Embed(ctx, []string{q})
	if err != nil {
		return nil, err
	}
	if len(vs) != 1 {
		return nil, fmt.Errorf("embedder %s returned %d vectors for one text", e.Name(), len(vs))
	}
	return vs[0], nil
}

// Normalize scales v to unit length in place (a zero vector stays zero).
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Dot returns the dot product of two equal-length vectors.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
