package vector

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestSearchRemoveCompactEncode(t *testing.T) {
	s := New(2)
	vs := [][]float32{{1, 0}, {0, 1}, {0.6, 0.8}, {0.8, 0.6}, {-1, 0}}
	for i, v := range vs {
		if err := s.Set(uint32(i), v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Set(9, []float32{1}); err == nil {
		t.Fatal("wrong dimension accepted")
	}
	q := []float32{1, 0}
	ids := func(hs []Hit) []uint32 {
		var out []uint32
		for _, h := range hs {
			out = append(out, h.ID)
		}
		return out
	}
	if got := ids(s.Search(q, 3, nil)); !reflect.DeepEqual(got, []uint32{0, 3, 2}) {
		t.Fatalf("Search = %v", got)
	}
	if got := ids(s.Search(q, 2, func(id uint32) bool { return id != 0 })); !reflect.DeepEqual(got, []uint32{3, 2}) {
		t.Fatalf("filtered = %v", got)
	}
	s.Remove(3)
	if got := ids(s.Search(q, 2, nil)); !reflect.DeepEqual(got, []uint32{0, 2}) || s.Score(3, q) != Dead {
		t.Fatalf("after remove = %v", got)
	}
	data, _ := s.MarshalBinary()
	c := New(2)
	if err := c.UnmarshalBinary(data); err != nil || c.Len() != 4 {
		t.Fatalf("decode: %v len %d", err, c.Len())
	}
	if !reflect.DeepEqual(c.Search(q, 5, nil), s.Search(q, 5, nil)) {
		t.Errorf("decoded store differs")
	}
	if err := c.UnmarshalBinary(data[:len(data)-3]); err == nil {
		t.Errorf("truncated data accepted")
	}
	if err := New(3).UnmarshalBinary(data); err == nil {
		t.Errorf("dimension mismatch accepted")
	}
	s.Compact([]uint32{4, 0, 2})
	if got := ids(s.Search(q, 5, nil)); !reflect.DeepEqual(got, []uint32{1, 2, 0}) || s.Dead() != 0 {
		t.Fatalf("after compact = %v", got)
	}
}

func TestScoreAllParallel(t *testing.T) {
	s := New(4)
	for i := 0; i < 20000; i++ {
		v := []float32{float32(i % 7), 1, 0, 0}
		s.Set(uint32(i), v)
	}
	sc := s.ScoreAll([]float32{1, 0, 0, 0}, nil)
	for i, x := range sc {
		if math.Abs(float64(x)-float64(i%7)) > 0.01*float64(i%7)+1e-6 {
			t.Fatalf("score %d = %v", i, x)
		}
	}
	// Quantisation keeps scores within 1%.
	v := []float32{0.9, -0.3, 0.001, 0.3}
	s.Set(0, v)
	if got, want := s.Score(0, v), float32(0.9*0.9+0.3*0.3+0.001*0.001+0.3*0.3); math.Abs(float64(got-want)) > 0.01 {
		t.Errorf("Score = %v, want %v", got, want)
	}
}

// Trim gives back spare room and keeps every vector.
func TestTrim(t *testing.T) {
	s := New(4)
	for i := range 100 {
		if err := s.Set(uint32(i), []float32{float32(i), 1, 0, 0}); err != nil {
			t.Fatal(err)
		}
	}
	before := s.ScoreAll([]float32{1, 0, 0, 0}, nil)
	s.Trim()
	if c := cap(s.cols[0]); c != len(s.cols[0]) {
		t.Errorf("column capacity %d for %d vectors", c, len(s.cols[0]))
	}
	if after := s.ScoreAll([]float32{1, 0, 0, 0}, nil); !reflect.DeepEqual(after, before) {
		t.Error("scores changed")
	}
}

// ScoreAll gives every document the score Score gives it, exactly, across
// the workers' ranges; removed documents score Dead.
func TestScoreAllMatchesScore(t *testing.T) {
	const n, dim = 12_345, 16
	s := New(dim)
	v := make([]float32, dim)
	for i := range n {
		for d := range v {
			v[d] = float32((i*31+d*17)%23) - 11
		}
		s.Set(uint32(i), v)
	}
	for i := 0; i < n; i += 97 {
		s.Remove(uint32(i))
	}
	q := make([]float32, dim)
	for d := range q {
		if d%3 != 0 {
			q[d] = float32(d) / 10
		}
	}
	sc := s.ScoreAll(q, nil)
	if len(sc) != n {
		t.Fatalf("%d scores for %d documents", len(sc), n)
	}
	for i, x := range sc {
		if want := s.Score(uint32(i), q); x != want {
			t.Fatalf("ScoreAll[%d] = %v, Score = %v", i, x, want)
		}
	}
}

// The scan adds precomputed products four dimensions at a time: its scores
// are still exactly Score's, for any number of non-zero dimensions and any
// values (sums of float32 products, whose rounding depends on their order).
func TestScoreAllExactForAnyQuery(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, dim = 3_000, 64
	s := New(dim)
	v := make([]float32, dim)
	for i := range n {
		for d := range v {
			v[d] = float32(r.NormFloat64())
		}
		s.Set(uint32(i), v)
	}
	for _, nz := range []int{1, 2, 3, 4, 5, 7, 8, 9, 40, dim} {
		q := make([]float32, dim)
		for _, d := range r.Perm(dim)[:nz] {
			q[d] = float32(r.NormFloat64())
		}
		for i, x := range s.ScoreAll(q, nil) {
			if want := s.Score(uint32(i), q); x != want {
				t.Fatalf("%d dimensions: ScoreAll[%d] = %v, Score = %v", nz, i, x, want)
			}
		}
	}
}
