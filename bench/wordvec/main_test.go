package main

import (
	"os"
	"slices"
	"testing"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// TestTrainingIsDeterministic: the same stream gives the same vectors, so a
// rerun of the recipe on the pinned sources gives the same table.
func TestTrainingIsDeterministic(t *testing.T) {
	var stream []int32
	freq := make([]int, 50)
	r := rng(7)
	for i := 0; i < 20000; i++ {
		id := int32(r.next() % 50)
		if i%100 == 99 {
			id = -1
		} else {
			freq[id]++
		}
		stream = append(stream, id)
	}
	p := params{dim: 16, window: 3, negative: 3, epochs: 1, sample: 1e-3, alpha: 0.025}
	a, b := train(stream, freq, p), train(stream, freq, p)
	if !slices.Equal(a.in, b.in) {
		t.Fatal("two trainings on one stream differ")
	}
}

// TestLearnedNeighbours checks a trained table (WORDVEC_TABLE, as the
// recipe writes it) on general pairs of related programming words, written
// down before any table was trained and taken from no question set; each
// pair counts when either word lists the other among its neighbours.
func TestLearnedNeighbours(t *testing.T) {
	path := os.Getenv("WORDVEC_TABLE")
	if path == "" {
		t.Skip("WORDVEC_TABLE names no table (bench/wordvec/README.md)")
	}
	words, nbs, err := readNeighbours(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for i, w := range words {
		ids[w] = i
	}
	near := func(a, b string) bool {
		ia, ok := ids[a]
		if !ok {
			return false
		}
		ib, ok := ids[b]
		if !ok {
			return false
		}
		return slices.ContainsFunc(nbs[ia], func(n neighbour) bool { return int(n.id) == ib }) ||
			slices.ContainsFunc(nbs[ib], func(n neighbour) bool { return int(n.id) == ia })
	}
	pairs := [][2]string{
		{"remove", "delete"}, {"fetch", "download"}, {"begin", "start"}, {"error", "failure"},
		{"quit", "exit"}, {"big", "large"}, {"sort", "order"}, {"hash", "digest"}, {"send", "receive"},
	}
	found := 0
	for _, p := range pairs {
		a, b := tokenize.Stem(p[0]), tokenize.Stem(p[1])
		ok := near(a, b)
		t.Logf("%s ~ %s: %v", a, b, ok)
		if ok {
			found++
		}
	}
	if found < len(pairs)-3 {
		t.Errorf("%d of %d pairs are neighbours", found, len(pairs))
	}
}
