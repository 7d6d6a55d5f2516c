package lexical

import (
	"math/rand"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkSearch searches indexes of the ×1 and ×8 monorepo corpora's chunk
// counts (about 46k and 370k) whose words follow Zipf's law, with questions
// of four words, each with two expansions of weight 0.35, as the engine
// makes them: the search that skips postings and the one that scores them
// all. It reports the CPU time per search.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{46_000, 370_000} {
		r := rand.New(rand.NewSource(1))
		zipf := rand.NewZipf(r, 1.1, 2, 200_000)
		ix := New([]Field{{Name: "name", Weight: 3, B: 0.5}, {Name: "doc", Weight: 2, B: 0.75}, {Name: "body", Weight: 1, B: 0.75}})
		words := func(k int) string {
			var sb strings.Builder
			for range k {
				sb.WriteString(" w")
				sb.WriteString(strconv.FormatUint(zipf.Uint64(), 10))
			}
			return sb.String()
		}
		for d := range n {
			ix.Add(uint32(d), Analyze(words(2), words(r.Intn(20)), words(20+r.Intn(60))))
		}
		ix.Trim()
		var qs [][]QueryTerm
		for range 50 {
			var q []QueryTerm
			for g := range 4 {
				// Question words range from common to rare.
				q = append(q, QueryTerm{Term: "w" + strconv.Itoa([]int{5, 30, 200, 2000}[g]+r.Intn(50)), Weight: 1, Group: g})
				for range 2 {
					q = append(q, QueryTerm{Term: "w" + strconv.Itoa(r.Intn(5000)), Weight: 0.35, Group: g})
				}
			}
			qs = append(qs, q)
		}
		for _, m := range []struct {
			name   string
			search func([]QueryTerm, int, func(uint32) bool) []Hit
		}{{"skip", ix.Search}, {"all", ix.searchAll}} {
			b.Run(strconv.Itoa(n)+"/"+m.name, func(b *testing.B) {
				defer processCPU(b)()
				i := 0
				for b.Loop() {
					m.search(qs[i%len(qs)], 200, nil)
					i++
				}
			})
		}
	}
}

// processCPU reports, when the returned function runs, the process's CPU
// time per iteration: on a shared machine the wall time says more about the
// neighbours than the code.
func processCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
