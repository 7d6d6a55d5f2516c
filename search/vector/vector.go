// Package vector stores embeddings by document number and scores a query
// against all of them by exhaustive dot product (the vectors are
// L2-normalised, so this is cosine similarity). Exhaustive search is exact up
// to quantisation and, for the tens of thousands of chunks of a project, fast
// enough: vectors are stored dimension by dimension, so a query touches only
// the dimensions where it is not zero (most of them, for a short query and the
// built-in hashing embedder), and the scan is split across the available
// cores.
//
// Each vector is kept as signed bytes with one scale factor (its largest
// component maps to ±127): a quarter of the memory of float32, at a cost in
// score precision (below 1%) that does not change rankings in practice.
//
// A Store is not safe for concurrent writes; the caller serialises writers
// against readers (ScoreAll, Search, Score and Vector only read).
package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Dead is the score ScoreAll gives a removed or missing document.
const Dead = -2

// Store holds one vector per document.
type Store struct {
	dim   int
	cols  [][]int8  // cols[d][id]: dimension d of document id, quantised
	scale []float32 // by document: the value of 1 in cols
	live  []bool
	nLive int
	dead  int
}

// New returns an empty store of dim-dimensional vectors.
func New(dim int) *Store { return &Store{dim: dim, cols: make([][]int8, dim)} }

// Dim returns the vectors' dimension.
func (s *Store) Dim() int { return s.dim }

// Len returns the number of live vectors.
func (s *Store) Len() int { return s.nLive }

// Dead returns how many removed vectors still take space.
func (s *Store) Dead() int { return s.dead }

// Trim moves the vectors into arrays of their exact size, giving back the
// spare room that growing one document at a time leaves (up to as much
// again as the vectors).
func (s *Store) Trim() {
	s.live = exact(s.live)
	s.scale = exact(s.scale)
	cols := columns(s.dim, len(s.live))
	for d := range cols {
		copy(cols[d], s.cols[d])
	}
	s.cols = cols
}

// columns returns dim columns of n components cut from one array. An array
// for each would be rounded up to whole pages once over 32 KiB: a sixth more
// memory for a project of fifty thousand chunks (48 KiB a column, 56 KiB
// allocated).
func columns(dim, n int) [][]int8 {
	all := make([]int8, dim*n)
	cols := make([][]int8, dim)
	for d := range cols {
		cols[d] = all[d*n : (d+1)*n : (d+1)*n] // full: a Set beyond n moves the column out
	}
	return cols
}

// exact returns a copy of x with no spare capacity (slices.Clone may leave
// some).
func exact[T any](x []T) []T {
	c := make([]T, len(x))
	copy(c, x)
	return c
}

// Set stores v (of length Dim) as document id's vector.
func (s *Store) Set(id uint32, v []float32) error {
	if len(v) != s.dim {
		return fmt.Errorf("vector of %d dimensions in a store of %d", len(v), s.dim)
	}
	for int(id) >= len(s.live) {
		s.live = append(s.live, false)
		s.scale = append(s.scale, 0)
	}
	var m float32
	for _, x := range v {
		m = max(m, abs(x))
	}
	scale := m / 127
	inv := float32(0)
	if scale > 0 {
		inv = 1 / scale
	}
	for d := range s.cols {
		for int(id) >= len(s.cols[d]) {
			s.cols[d] = append(s.cols[d], 0)
		}
		s.cols[d][id] = int8(math.Round(float64(v[d] * inv)))
	}
	s.scale[id] = scale
	if !s.live[id] {
		s.live[id] = true
		s.nLive++
	}
	return nil
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// Remove drops document id's vector.
func (s *Store) Remove(id uint32) {
	if int(id) < len(s.live) && s.live[id] {
		s.live[id] = false
		s.nLive--
		s.dead++
	}
}

// Score returns the dot product of q with document id's vector, or Dead.
func (s *Store) Score(id uint32, q []float32) float32 {
	if int(id) >= len(s.live) || !s.live[id] || len(q) != s.dim {
		return Dead
	}
	var sum float32
	for d, x := range q {
		sum += x * float32(s.cols[d][id])
	}
	return sum * s.scale[id]
}

// Vector returns document id's vector (as stored, quantised), or nil.
func (s *Store) Vector(id uint32) []float32 {
	if int(id) >= len(s.live) || !s.live[id] {
		return nil
	}
	v := make([]float32, s.dim)
	for d := range v {
		v[d] = float32(s.cols[d][id]) * s.scale[id]
	}
	return v
}

// ScoreAll writes the score of every document id (Dead for removed ones) to
// dst, grown as needed, and returns it.
func (s *Store) ScoreAll(q []float32, dst []float32) []float32 {
	n := len(s.live)
	dst = slices.Grow(dst[:0], n)[:n]
	if len(q) != s.dim {
		for i := range dst {
			dst[i] = Dead
		}
		return dst
	}
	// The query's non-zero dimensions.
	var dims []int
	for d, x := range q {
		if x != 0 {
			dims = append(dims, d)
		}
	}
	// Each non-zero dimension's products, a table of its query component
	// times each of the 256 values a component takes: the scan adds a
	// table's entry instead of converting and multiplying, the same
	// products summed in the same order (half the scan's time).
	tp, _ := tabPool.Get().(*[][256]float32)
	if tp == nil {
		tp = new([][256]float32)
	}
	defer tabPool.Put(tp)
	tabs := slices.Grow((*tp)[:0], len(dims))[:len(dims)]
	*tp = tabs
	for j, d := range dims {
		for c := range 256 {
			tabs[j][c] = q[d] * float32(int8(uint8(c)))
		}
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, n*len(dims)/(1<<20)))
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := dst[lo:hi]
			clear(out)
			// Four dimensions a pass: each score is read and written once
			// for four of them instead of once each.
			j := 0
			for ; j+4 <= len(dims); j += 4 {
				d := dims[j : j+4]
				add4(out, s.cols[d[0]][lo:hi], s.cols[d[1]][lo:hi], s.cols[d[2]][lo:hi], s.cols[d[3]][lo:hi],
					&tabs[j], &tabs[j+1], &tabs[j+2], &tabs[j+3])
			}
			for ; j < len(dims); j++ {
				add1(out, s.cols[dims[j]][lo:hi], &tabs[j])
			}
			for i := lo; i < hi; i++ {
				if s.live[i] {
					dst[i] *= s.scale[i]
				} else {
					dst[i] = Dead
				}
			}
		}()
	}
	wg.Wait()
	return dst
}

// tabPool recycles the scans' tables of products (a kilobyte for each
// dimension of a query), which would otherwise be most of a scan's garbage.
var tabPool sync.Pool

// add1 adds to each y[i] the product t holds for x[i] (t[uint8(c)] is a
// query component times c).
func add1(y []float32, x []int8, t *[256]float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += t[uint8(x[i])]
	}
}

// add4 is add1 for four dimensions at once, adding their products to each
// y[i] in the order given: the same sums as four calls of add1.
func add4(y []float32, x0, x1, x2, x3 []int8, t0, t1, t2, t3 *[256]float32) {
	x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
	for i := range y {
		v := y[i]
		v += t0[uint8(x0[i])]
		v += t1[uint8(x1[i])]
		v += t2[uint8(x2[i])]
		v += t3[uint8(x3[i])]
		y[i] = v
	}
}

// Hit is one scored document.
type Hit struct {
	ID    uint32
	Score float32
}

// Search returns the k documents most similar to q, best first; accept, when
// not nil, filters them.
func (s *Store) Search(q []float32, k int, accept func(uint32) bool) []Hit {
	scores := s.ScoreAll(q, nil)
	return Top(scores, k, accept)
}

// Top returns the k best entries of scores (ignoring Dead ones), best first.
func Top(scores []float32, k int, accept func(uint32) bool) []Hit {
	if k <= 0 {
		return nil
	}
	// Min-heap of the best k.
	h := make([]Hit, 0, k)
	worse := func(a, b Hit) bool { return a.Score < b.Score || a.Score == b.Score && a.ID > b.ID }
	for i, sc := range scores {
		if sc <= Dead {
			continue
		}
		x := Hit{ID: uint32(i), Score: sc}
		if len(h) == k && !worse(h[0], x) {
			continue
		}
		if accept != nil && !accept(x.ID) {
			continue
		}
		if len(h) < k {
			h = append(h, x)
			for j := len(h) - 1; j > 0; {
				p := (j - 1) / 2
				if !worse(h[j], h[p]) {
					break
				}
				h[j], h[p] = h[p], h[j]
				j = p
			}
			continue
		}
		h[0] = x
		for j := 0; ; {
			l := 2*j + 1
			if l >= len(h) {
				break
			}
			m := l
			if r := l + 1; r < len(h) && worse(h[r], h[l]) {
				m = r
			}
			if !worse(h[m], h[j]) {
				break
			}
			h[j], h[m] = h[m], h[j]
			j = m
		}
	}
	slices.SortFunc(h, func(a, b Hit) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return h
}

// Compact drops removed vectors and renumbers: a kept document's new id is
// its position in keep.
func (s *Store) Compact(keep []uint32) {
	cols := columns(s.dim, len(keep))
	scale := make([]float32, len(keep))
	live := make([]bool, len(keep))
	n := 0
	for i, old := range keep {
		if int(old) < len(s.live) && s.live[old] {
			for d := range cols {
				cols[d][i] = s.cols[d][old]
			}
			scale[i] = s.scale[old]
			live[i] = true
			n++
		}
	}
	s.cols, s.scale, s.live, s.nLive, s.dead = cols, scale, live, n, 0
}

// MarshalBinary encodes the store: dimension and count, then per document a
// live byte and, when live, its scale (float32) and quantised components.
func (s *Store) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 16+len(s.live)+s.nLive*(s.dim+4))
	b = binary.LittleEndian.AppendUint32(b, uint32(s.dim))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.live)))
	for i, l := range s.live {
		if !l {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.scale[i]))
		for d := range s.cols {
			b = append(b, byte(s.cols[d][i]))
		}
	}
	return b, nil
}

var errCorrupt = errors.New("vector data is truncated or corrupt")

// UnmarshalBinary replaces the store's content with data from MarshalBinary.
// The dimension must match.
func (s *Store) UnmarshalBinary(b []byte) error {
	if len(b) < 8 {
		return errCorrupt
	}
	dim, n := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
	b = b[8:]
	if dim != s.dim {
		return fmt.Errorf("stored vectors have %d dimensions, want %d", dim, s.dim)
	}
	if n > len(b) {
		return errCorrupt
	}
	cols := columns(dim, n)
	scale := make([]float32, n)
	live := make([]bool, n)
	nLive := 0
	for i := 0; i < n; i++ {
		if len(b) < 1 {
			return errCorrupt
		}
		l := b[0]
		b = b[1:]
		if l == 0 {
			continue
		}
		if len(b) < 4+dim {
			return errCorrupt
		}
		scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		for d := 0; d < dim; d++ {
			cols[d][i] = int8(b[4+d])
		}
		b = b[4+dim:]
		live[i] = true
		nLive++
	}
	if len(b) != 0 {
		return errCorrupt
	}
	s.cols, s.scale, s.live, s.nLive, s.dead = cols, scale, live, nLive, 0
	return nil
}
