package vector

import (
	"math/rand/v2"
	"strconv"
	"syscall"
	"testing"
)

// benchStore fills a store of n documents with random unit-ish vectors of
// 256 dimensions, the built-in embedder's, and returns it with a query that
// is non-zero in nz dimensions.
func benchStore(b *testing.B, n, nz int) (*Store, []float32) {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	s := New(256)
	v := make([]float32, 256)
	for id := range n {
		for d := range v {
			v[d] = float32(r.NormFloat64())
		}
		if err := s.Set(uint32(id), v); err != nil {
			b.Fatal(err)
		}
	}
	s.Trim()
	q := make([]float32, 256)
	for _, d := range r.Perm(256)[:nz] {
		q[d] = float32(r.NormFloat64())
	}
	return s, q
}

// BenchmarkScoreAll scans the ×1 and ×8 monorepo corpora's chunk counts
// (about 46k and 370k) with a query of 40 non-zero dimensions, as many as
// the built-in embedder gives a question of four or five words.
func BenchmarkScoreAll(b *testing.B) {
	for _, n := range []int{46_000, 370_000} {
		s, q := benchStore(b, n, 40)
		dst := make([]float32, 0, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			defer processCPU(b)()
			for b.Loop() {
				dst = s.ScoreAll(q, dst)
			}
		})
	}
}

// processCPU reports, when the returned function runs, the process's CPU
// time per iteration (the scan's workers included): on a shared machine the
// wall time says more about the neighbours than the code.
func processCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
