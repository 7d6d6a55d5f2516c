package embed

import (
	"context"
	"fmt"
	"math"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// DefaultDim is the Hashing embedder's dimension unless told otherwise.
const DefaultDim = 256

// Hashing is the built-in offline embedder (see the package documentation).
type Hashing struct {
	dim int
	w   HashingWeights
}

// HashingWeights tune how much each kind of feature counts.
type HashingWeights struct {
	Word    float64 // a word or identifier part
	Whole   float64 // a whole multi-part identifier
	Trigram float64 // all character trigrams of a word together
	Concept float64 // a vocabulary concept
	Common  float64 // factor for very common programming words
	Bigram  float64 // a pair of adjacent words
}

// DefaultHashingWeights are the weights NewHashing uses.
var DefaultHashingWeights = HashingWeights{Word: 1, Whole: 0.6, Trigram: 0.6, Concept: 1.2, Common: 0.3}

// NewHashing returns the built-in embedder with dim dimensions (DefaultDim
// when dim <= 0).
func NewHashing(dim int) *Hashing {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Hashing{dim: dim, w: DefaultHashingWeights}
}

// WithWeights returns a copy of h using w.
func (h *Hashing) WithWeights(w HashingWeights) *Hashing {
	c := *h
	c.w = w
	return &c
}

// Name implements Embedder. It carries a hash of the vocabulary and the
// weights, so that stored vectors are rebuilt whenever either changes.
func (h *Hashing) Name() string {
	return fmt.Sprintf("agentos-hashing-v2-%08x", uint32(fnv('v', fmt.Sprintf("%s\n%+v", vocabulary, h.w))))
}

// Dim implements Embedder.
func (h *Hashing) Dim() int { return h.dim }

// Embed implements Embedder.
func (h *Hashing) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = h.Vector(t)
	}
	return out, nil
}

// EmbedWeighted implements WeightedEmbedder.
func (h *Hashing) EmbedWeighted(ctx context.Context, texts []string, weight func(string) float64) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = h.vector(t, weight)
	}
	return out, nil
}

// EmbedQueryWeighted implements WeightedQueryEmbedder: each word's features
// (the word, its trigrams, its concepts) are scaled by weight(word).
func (h *Hashing) EmbedQueryWeighted(ctx context.Context, query string, weight func(string) float64) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return h.vector(query, weight), nil
}

// Vector embeds one text.
func (h *Hashing) Vector(text string) []float32 { return h.vector(text, nil) }

func (h *Hashing) vector(text string, weight func(string) float64) []float32 {
	v := make([]float32, h.dim)
	type tf struct {
		n     float64
		whole bool
	}
	counts := make(map[string]tf, 64)
	var order []string
	var bigrams map[[2]string]float64
	if h.w.Bigram > 0 {
		bigrams = map[[2]string]float64{}
	}
	prev := ""
	tokenize.Each(text, func(t tokenize.Term) {
		c, ok := counts[t.Text]
		if !ok {
			order = append(order, t.Text)
		}
		c.n++
		c.whole = c.whole || t.Whole
		counts[t.Text] = c
		if bigrams != nil && !t.Whole {
			if prev != "" && prev != t.Text {
				bigrams[[2]string{prev, t.Text}]++
			}
			prev = t.Text
		}
	})
	vocabOnce.Do(loadVocab)
	for _, term := range order {
		c := counts[term]
		w := 1 + math.Log(c.n)
		if common[term] {
			w *= h.w.Common
		}
		if weight != nil {
			w *= weight(term)
		}
		if c.whole {
			h.add(v, 'w', term, w*h.w.Whole, 2)
		} else {
			h.add(v, 'w', term, w*h.w.Word, 2)
			if len(term) >= 4 && h.w.Trigram > 0 {
				h.trigrams(v, term, w*h.w.Trigram)
			}
		}
		if cs := vocab[term]; len(cs) > 0 && h.w.Concept > 0 {
			cw := w * h.w.Concept / math.Sqrt(float64(len(cs)))
			for _, concept := range cs {
				h.add(v, 'c', concept, cw, 2)
			}
		}
	}
	for bg, n := range bigrams {
		w := (1 + math.Log(n)) * h.w.Bigram
		if weight != nil {
			w *= (weight(bg[0]) + weight(bg[1])) / 2
		}
		h.add(v, 'b', bg[0]+" "+bg[1], w, 1)
	}
	Normalize(v)
	return v
}

// trigrams adds the character trigrams of "<term>", their total weight w.
func (h *Hashing) trigrams(v []float32, term string, w float64) {
	var buf [72]byte
	s := append(append(append(buf[:0], '<'), term...), '>')
	n := len(s) - 2
	if n <= 0 {
		return
	}
	each := w / math.Sqrt(float64(n))
	for i := 0; i+3 <= len(s); i++ {
		h.add(v, 'g', string(s[i:i+3]), each, 1)
	}
}

// add hashes feature (kind, s) into k signed positions of v with weight w.
func (h *Hashing) add(v []float32, kind byte, s string, w float64, k int) {
	x := fnv(kind, s)
	share := float32(w / math.Sqrt(float64(k)))
	for i := 0; i < k; i++ {
		idx := int((x >> 1) % uint64(h.dim))
		if x&1 == 0 {
			v[idx] += share
		} else {
			v[idx] -= share
		}
		x = mix(x + uint64(i) + 1)
	}
}

func fnv(kind byte, s string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	x := uint64(offset)
	x ^= uint64(kind)
	x *= prime
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= prime
	}
	return mix(x)
}

// mix is a 64-bit finaliser (splitmix64) spreading fnv's bits.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// common are stems of words so frequent in code and its comments that they
// say little about what a piece of code does.
var common = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"return", "returns", "value", "values", "given", "use", "used", "uses", "call",
		"calls", "called", "new", "true", "false", "nil", "null", "none", "self", "this", "func", "function",
		"method", "type", "var", "const", "let", "def", "result", "case", "make", "get", "set", "default",
		"package", "int", "string", "byte", "bool", "error", "err", "ok", "len", "struct", "interface",
		"object", "public", "private", "static", "void", "class", "import", "from", "see", "note", "must",
		"need", "like", "one", "two", "first", "example", "following", "implement", "implementation", "otherwise"} {
		for _, t := range tokenize.Terms(w) {
			m[t] = true
		}
	}
	return m
}()
