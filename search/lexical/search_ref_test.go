package lexical

import (
	"fmt"
	"math/bits"
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// searchAll is the exhaustive search Search must agree with: every posting
// of every query term scored, one term at a time (the index's search before
// it skipped any).
func (ix *Index) searchAll(q []QueryTerm, k int, accept func(doc uint32) bool) []Hit {
	if ix.nLive == 0 || k <= 0 {
		return nil
	}
	nd := len(ix.live)
	var sc struct {
		score, best   []float64
		fields        []uint8
		groups        []uint16
		touch, gtouch []uint32
	}
	sc.score = make([]float64, nd)
	sc.best = make([]float64, nd)
	sc.fields = make([]uint8, nd)
	sc.groups = make([]uint16, nd)
	norms, st := ix.weights()
	nf := len(ix.fields)
	// Group the query terms: within a group a document takes its best term.
	order := slices.Clone(q)
	slices.SortStableFunc(order, func(a, b QueryTerm) int { return a.Group - b.Group })
	flushGroup := func() {
		for _, d := range sc.gtouch {
			if sc.score[d] == 0 && sc.groups[d] == 0 {
				sc.touch = append(sc.touch, d)
			}
			sc.score[d] += sc.best[d]
			sc.groups[d]++
			sc.best[d] = 0
		}
		sc.gtouch = sc.gtouch[:0]
	}
	for i, qt := range order {
		if i > 0 && qt.Group != order[i-1].Group {
			flushGroup()
		}
		t, ok := ix.dict[qt.Term]
		if !ok || qt.Weight <= 0 {
			continue
		}
		var idf float64
		if st.filtered {
			idf = idfOf(st.n, ix.counted(t, st)) * qt.Weight
		} else {
			idf = ix.idf(ix.df(t)) * qt.Weight
		}
		// The postings are decoded here rather than through a cursor: this
		// loop is most of a lexical search's time. A posting's fields are
		// added in field order, as the frequencies' packing had them.
		data, doc := ix.postings[t].data, uint32(0)
		for i := 0; i < len(data); {
			var gap uint32
			for shift := uint(0); ; shift += 7 {
				x := data[i]
				i++
				gap |= uint32(x&0x7f) << shift
				if x < 0x80 {
					break
				}
			}
			doc += gap
			fieldMask := data[i]
			i++
			if !ix.live[doc] {
				i += (bits.OnesCount8(fieldMask) + 1) / 2
				continue
			}
			var tf float32
			var mask uint8
			w := &norms[doc]
			var cur byte
			half := false
			for f := 0; fieldMask != 0; f, fieldMask = f+1, fieldMask>>1 {
				if fieldMask&1 == 0 {
					continue
				}
				var n byte
				if half {
					n = cur >> 4
				} else {
					cur = data[i]
					i++
					n = cur & maxTF
				}
				half = !half
				if f < nf {
					mask |= 1 << f
					tf += float32(n) * w[f]
				}
			}
			s := idf * float64(tf) / (ix.k1 + float64(tf))
			if sc.best[doc] == 0 {
				sc.gtouch = append(sc.gtouch, doc)
			}
			if s > sc.best[doc] {
				sc.best[doc] = s
			}
			sc.fields[doc] |= mask
		}
	}
	flushGroup()
	// The best k of the matching documents (a common word matches most of
	// them) are kept as they come, without a list of them all.
	best := bestK{k: k}
	for _, d := range sc.touch {
		if accept == nil || accept(d) {
			best.offer(Hit{Doc: d, Score: sc.score[d], Fields: sc.fields[d], Groups: int(sc.groups[d])})
		}
		sc.score[d], sc.fields[d], sc.groups[d] = 0, 0, 0
	}
	return best.sorted()
}

// randomIndex makes an index of n documents over a small vocabulary whose
// words are of very different frequencies (word i in about one document in
// i+1), some removed, some in the background.
func randomIndex(r *rand.Rand, n int, fs []Field) *Index {
	ix := New(fs)
	for d := range n {
		texts := make([]string, len(fs))
		for f := range fs {
			var words []string
			for range r.Intn(12) {
				w := int(float64(40) * r.Float64() * r.Float64() * r.Float64())
				words = append(words, fmt.Sprintf("w%d", w))
			}
			for i := range words {
				if r.Intn(8) == 0 {
					words[i] += " " + words[i] + " " + words[i] // a word repeated
				}
			}
			texts[f] = fmt.Sprint(words)
		}
		ix.Add(uint32(d), Analyze(texts...))
	}
	for range n / 10 {
		ix.Remove(uint32(r.Intn(n)))
	}
	if r.Intn(2) == 0 {
		m := r.Intn(5) + 2
		ix.SetBackground(func(d uint32) bool { return d%uint32(m) == 0 })
	}
	if r.Intn(3) == 0 {
		var keep []uint32
		for d := range uint32(n) {
			if r.Intn(4) != 0 {
				keep = append(keep, d)
			}
		}
		ix.Compact(keep)
	}
	return ix
}

// randomQuery returns a query of a few groups, some with expansions of lower
// weight, some terms absent from the index, some of weight 0.
func randomQuery(r *rand.Rand) []QueryTerm {
	var q []QueryTerm
	for g := range r.Intn(5) + 1 {
		for i := range r.Intn(4) + 1 {
			w := 1.0
			if i > 0 {
				w = []float64{0.35, 0.5, 1, 0}[r.Intn(4)]
			}
			word := fmt.Sprintf("w%d", int(45*r.Float64()*r.Float64()))
			q = append(q, QueryTerm{Term: word, Weight: w, Group: g})
		}
	}
	r.Shuffle(len(q), func(i, j int) { q[i], q[j] = q[j], q[i] })
	return q
}

// TestSearchSkipsNothingItShouldNot compares Search, which skips postings
// that cannot reach the best k, with scoring every posting, on random
// indexes and queries: the same hits, scores to the bit, fields and groups,
// in the same order, whatever k and the filter.
func TestSearchSkipsNothingItShouldNot(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	fieldSets := [][]Field{
		fields,
		{{Name: "name", Weight: 3, B: 0.5}, {Name: "doc", Weight: 2, B: 0.75}, {Name: "body", Weight: 1, B: 1}},
		// A field of weight 0: its matches score 0 and still count.
		{{Name: "name", Weight: 0, B: 0.5}, {Name: "body", Weight: 1, B: 0}},
	}
	rounds := 300
	if testing.Short() {
		rounds = 20
	}
	defer func(w int) { window = w }(window)
	for round := range rounds {
		n := []int{5, 40, 300, 1500}[round%4]
		// Terms are only looked into from one window to the next: small
		// windows for small indexes.
		window = []int{4, 16, 64, 4096}[r.Intn(4)]
		ix := randomIndex(r, n, fieldSets[round%len(fieldSets)])
		for range 25 {
			q := randomQuery(r)
			k := []int{1, 3, 10, 50, 200}[r.Intn(5)]
			var accept func(uint32) bool
			if r.Intn(3) == 0 {
				m := uint32(r.Intn(3) + 2)
				accept = func(d uint32) bool { return d%m != 1 }
			}
			got, want := ix.Search(q, k, accept), ix.searchAll(q, k, accept)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %d documents, k %d, query %+v:\n got %+v\nwant %+v", round, n, k, q, got, want)
			}
		}
	}
}

// TestSearchSkipsLongLists makes lists long enough for skip points, with a
// rare word beside common ones so that the common ones' lists are looked
// into rather than walked, and checks that the skips were used and the hits
// are those of an exhaustive search.
func TestSearchSkipsLongLists(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ix := New(fields)
	for d := range 20000 {
		body := "common"
		if d%2 == 0 {
			body += " often"
		}
		name := fmt.Sprintf("f%d", r.Intn(50))
		if d%97 == 0 {
			name += " rare" // in another field than the common words
		}
		if d%13 == 0 {
			body += " seldom seldom"
		}
		ix.Add(uint32(d), Analyze(name, body))
	}
	// (Query words are the analyzer's terms: "sometimes" would be
	// "sometim", and match nothing.)
	for _, k := range []int{1, 10, 100, 300} {
		for _, q := range [][]QueryTerm{
			q("rare", "common"),
			q("rare", "often", "common"),
			q("seldom", "rare", "often"),
			{{Term: "rare", Weight: 1}, {Term: "often", Weight: 0.35}, {Term: "common", Weight: 1, Group: 1}},
			// A term below the best of its group's in every document it
			// shares with it: it cannot change their scores, and still
			// names the field it matched in.
			{{Term: "rare", Weight: 1}, {Term: "common", Weight: 0.35}},
		} {
			got, want := ix.Search(q, k, nil), ix.searchAll(q, k, nil)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("k %d, query %+v:\n got %+v\nwant %+v", k, q, got, want)
			}
		}
	}
	if len(ix.skipCache) == 0 {
		t.Errorf("no list was looked into with skip points")
	}
	// A change forgets them.
	ix.Add(20000, Analyze("x", "common rare"))
	ix.Search(q("rare", "common"), 10, nil)
	if got, want := ix.Search(q("rare", "common"), 10, nil), ix.searchAll(q("rare", "common"), 10, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("after an add:\n got %+v\nwant %+v", got, want)
	}
}

// TestSkipPoints checks that seeking with skip points finds each document's
// posting, or the next one, from any position.
func TestSkipPoints(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var l postingList
	var docs []uint32
	doc := uint32(0)
	for range 5000 {
		doc += uint32(r.Intn(300)) + 1
		docs = append(docs, doc)
		l.add(doc, packTF([MaxFields]uint8{uint8(r.Intn(3)), uint8(r.Intn(20)), 1}))
	}
	sk := l.skipPoints()
	if len(sk) != 5000/skipEvery {
		t.Fatalf("%d skip points, want %d", len(sk), 5000/skipEvery)
	}
	for range 200 {
		c := termCursor{data: l.data, skips: sk}
		c.advance()
		for target := uint32(0); ; target += uint32(r.Intn(5000)) {
			c.seek(target)
			i, _ := slices.BinarySearch(docs, target)
			if i == len(docs) {
				if c.doc != 1<<32-1 {
					t.Fatalf("seek(%d) past the end: at %d", target, c.doc)
				}
				break
			}
			if c.doc != docs[i] {
				t.Fatalf("seek(%d) = %d, want %d", target, c.doc, docs[i])
			}
		}
	}
}
