package embed

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/agentos-dev/agentos/search/tokenize"
)

func cos(h *Hashing, a, b string) float32 { return Dot(h.Vector(a), h.Vector(b)) }

func TestHashingIsNormalisedAndDeterministic(t *testing.T) {
	h := NewHashing(0)
	if h.Dim() != DefaultDim || h.Name() == "" {
		t.Fatalf("dim %d name %q", h.Dim(), h.Name())
	}
	w := DefaultHashingWeights
	w.Trigram = 0
	if h.WithWeights(w).Name() == h.Name() {
		t.Errorf("other weights, same name")
	}
	vs, err := h.Embed(context.Background(), []string{"read a file", "read a file", ""})
	if err != nil || len(vs) != 3 {
		t.Fatal(err)
	}
	if n := Dot(vs[0], vs[0]); math.Abs(float64(n)-1) > 1e-5 {
		t.Errorf("norm² %v", n)
	}
	for i := range vs[0] {
		if vs[0][i] != vs[1][i] {
			t.Fatal("not deterministic")
		}
	}
	if Dot(vs[2], vs[2]) != 0 {
		t.Errorf("empty text is not the zero vector")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Embed(ctx, []string{"x"}); err == nil {
		t.Errorf("cancelled context ignored")
	}
}

func TestHashingCapturesRelations(t *testing.T) {
	h := NewHashing(512)
	for _, c := range []struct{ q, near, far string }{
		// Vocabulary: synonyms and abbreviations.
		{"compute the digest of data", "Checksum returns the CRC of data", "OpenFile opens the named file"},
		{"close the connection", "func (c *Conn) Close() error", "func Sqrt(x float64) float64"},
		// Identifier parts and stems.
		{"parsing a header", "func ParseHeader(s string) Header", "func WriteBody(w io.Writer)"},
		// Character trigrams: morphology beyond the stemmer.
		{"initialization of the cache", "func initCache()", "func dropTable()"},
	} {
		n, f := cos(h, c.q, c.near), cos(h, c.q, c.far)
		if n <= f {
			t.Errorf("%q: near %.3f <= far %.3f", c.q, n, f)
		}
	}
}

func TestVocabulary(t *testing.T) {
	if len(Concepts("digest")) == 0 || len(Concepts("conn")) == 0 {
		t.Fatalf("vocabulary not loaded")
	}
	rel := map[string]bool{}
	for _, r := range Related("conn") {
		rel[r] = true
	}
	if !rel["connect"] { // "connection" stems to "connect"
		t.Errorf("Related(conn) = %v", Related("conn"))
	}
	if Concepts("xyzzy") != nil {
		t.Errorf("unknown word has concepts")
	}
}

func TestOpposites(t *testing.T) {
	for _, c := range []struct{ word, opposite string }{{"encode", "decode"}, {"Unmarshal", "marshal"}, {"read", "write"}, {"min", "max"}} {
		w, o := tokenize.Terms(c.word)[0], tokenize.Terms(c.opposite)[0]
		if !slices.Contains(Opposites(w), o) || !slices.Contains(Opposites(o), w) {
			t.Errorf("%s and %s are not opposites: %v, %v", c.word, c.opposite, Opposites(w), Opposites(o))
		}
	}
	if got := Opposites("checksum"); len(got) != 0 {
		t.Errorf("checksum has opposites %v", got)
	}
}
