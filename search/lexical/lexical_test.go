package lexical

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var fields = []Field{{Name: "name", Weight: 3, B: 0.5}, {Name: "body", Weight: 1, B: 0.75}}

func q(words ...string) []QueryTerm {
	var out []QueryTerm
	for i, w := range words {
		out = append(out, QueryTerm{Term: w, Weight: 1, Group: i})
	}
	return out
}

func docs(hs []Hit) []uint32 {
	var out []uint32
	for _, h := range hs {
		out = append(out, h.Doc)
	}
	return out
}

func TestSearchRanksNameOverBody(t *testing.T) {
	ix := New(fields)
	ix.Add(0, Analyze("ParseRatio", "converts text to a fraction"))
	ix.Add(1, Analyze("Format", "the result of parsing a ratio is used here"))
	ix.Add(2, Analyze("Unrelated", "nothing to see"))
	hs := ix.Search(q("pars", "ratio"), 10, nil)
	if got := docs(hs); !reflect.DeepEqual(got, []uint32{0, 1}) {
		t.Fatalf("order %v", got)
	}
	if hs[0].Fields != 1 || hs[1].Fields != 2 || hs[0].Groups != 2 {
		t.Errorf("fields/groups %+v", hs)
	}
	// The whole identifier is a term of its own.
	if hs := ix.Search(q("parseratio"), 10, nil); len(hs) != 1 || hs[0].Doc != 0 {
		t.Errorf("whole identifier: %+v", hs)
	}
	// Filter.
	if hs := ix.Search(q("pars"), 10, func(d uint32) bool { return d != 0 }); !reflect.DeepEqual(docs(hs), []uint32{1}) {
		t.Errorf("filter: %+v", hs)
	}
}

func TestGroupsTakeTheBestTerm(t *testing.T) {
	ix := New(fields)
	ix.Add(0, Analyze("", "hash hash digest"))
	ix.Add(1, Analyze("", "checksum"))
	// One group with three alternatives: doc 0 must not get the sum of
	// "hash" and "digest".
	one := []QueryTerm{{Term: "hash", Weight: 1}, {Term: "digest", Weight: 1}, {Term: "checksum", Weight: 1}}
	sep := []QueryTerm{{Term: "hash", Weight: 1, Group: 0}, {Term: "digest", Weight: 1, Group: 1}}
	a := ix.Search(one, 10, nil)
	b := ix.Search(sep, 10, nil)
	var sa, sb float64
	for _, h := range a {
		if h.Doc == 0 {
			sa = h.Score
		}
	}
	sb = b[0].Score
	if !(sa < sb) || a[0].Groups != 1 {
		t.Errorf("group score %v not below separate %v", sa, sb)
	}
}

func TestRemoveCompactAndEncode(t *testing.T) {
	ix := New(fields)
	rng := rand.New(rand.NewSource(1))
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
	text := func() string {
		s := ""
		for i := 0; i < 5; i++ {
			s += words[rng.Intn(len(words))] + " "
		}
		return s
	}
	for i := 0; i < 50; i++ {
		ix.Add(uint32(i), Analyze(words[i%len(words)], text()))
	}
	for i := 0; i < 50; i += 3 {
		ix.Remove(uint32(i))
	}
	before := ix.Search(q("gamma", "beta"), 100, nil)
	for _, h := range before {
		if h.Doc%3 == 0 {
			t.Fatalf("dead doc %d returned", h.Doc)
		}
	}
	// Round trip through the encoding keeps results.
	data, _ := ix.MarshalBinary()
	cp := New(fields)
	if err := cp.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if got := cp.Search(q("gamma", "beta"), 100, nil); !reflect.DeepEqual(got, before) {
		t.Errorf("after decode:\n%v\nwant\n%v", got, before)
	}
	if err := cp.UnmarshalBinary(data[:len(data)/2]); err == nil {
		t.Errorf("truncated data decoded")
	}
	// Compaction renumbers: keep live docs in order.
	var keep []uint32
	for i := 0; i < 50; i++ {
		if i%3 != 0 {
			keep = append(keep, uint32(i))
		}
	}
	ix.Compact(keep)
	if ix.Dead() != 0 || ix.Len() != len(keep) {
		t.Fatalf("after compact: dead %d len %d", ix.Dead(), ix.Len())
	}
	after := ix.Search(q("gamma", "beta"), 100, nil)
	if len(after) != len(before) {
		t.Fatalf("compact changed hit count %d -> %d", len(before), len(after))
	}
	for i := range after {
		if keep[after[i].Doc] != before[i].Doc || after[i].Score != before[i].Score {
			t.Errorf("hit %d: %+v vs %+v", i, after[i], before[i])
		}
	}
}

// Trim cuts the postings to their length without changing a search, and
// documents added after it do not write over a neighbour's postings.
func TestTrim(t *testing.T) {
	ix := New(fields)
	for i := range 40 {
		ix.Add(uint32(i), Analyze(fmt.Sprintf("alpha beta%d", i%3), "gamma delta"))
	}
	before := ix.Search(q("alpha", "beta1", "gamma"), 100, nil)
	ix.Trim()
	for t2, l := range ix.postings {
		if cap(l.data) != len(l.data) {
			t.Fatalf("term %q keeps %d bytes of postings in room for %d", ix.terms[t2], len(l.data), cap(l.data))
		}
	}
	if got := ix.Search(q("alpha", "beta1", "gamma"), 100, nil); !reflect.DeepEqual(got, before) {
		t.Errorf("after Trim:\n%v\nwant\n%v", got, before)
	}
	ix.Add(40, Analyze("alpha beta1", "gamma"))
	if got := ix.Search(q("beta2"), 100, nil); len(got) != 13 {
		t.Errorf("beta2 matches %d documents after an Add, want 13", len(got))
	}
	if got := ix.Search(q("beta1"), 100, nil); len(got) != 14 || !slices.ContainsFunc(got, func(h Hit) bool { return h.Doc == 40 }) {
		t.Errorf("beta1 after an Add: %v", got)
	}
}

// A posting list gives back the postings added, in document order, whatever
// the gaps between documents and the fields and frequencies; one added out
// of order takes its place.
func TestPostingList(t *testing.T) {
	type p struct{ doc, tfs uint32 }
	rng := rand.New(rand.NewSource(2))
	var want []p
	var l postingList
	doc := uint32(0)
	for i := range 2000 {
		doc += uint32(1 + rng.Intn([]int{1, 200, 40000, 1 << 20}[i%4]))
		var tf [MaxFields]uint8
		for f := range MaxFields {
			if rng.Intn(3) == 0 {
				tf[f] = uint8(rng.Intn(20))
			}
		}
		tf[rng.Intn(MaxFields)] = uint8(1 + rng.Intn(15))
		want = append(want, p{doc, packTF(tf)})
		l.add(doc, packTF(tf))
	}
	k := 1 // want[k] and want[k+1] have room between them
	for want[k+1].doc-want[k].doc < 2 {
		k++
	}
	l.add(want[k].doc+1, 0x30000001)
	want = slices.Insert(want, k+1, p{want[k].doc + 1, 0x30000001})
	var got []p
	c := l.cursor()
	for d, tfs, ok := c.next(); ok; d, tfs, ok = c.next() {
		got = append(got, p{d, tfs})
	}
	if !reflect.DeepEqual(got, want) || int(l.n) != len(want) {
		t.Fatalf("%d postings read back (n %d), want %d; first difference at %d", len(got), l.n, len(want),
			slices.IndexFunc(got, func(x p) bool { return !slices.Contains(want, x) }))
	}
	keep := make([]bool, want[len(want)-1].doc+1)
	kept := 0
	for i, x := range want {
		if i%3 == 0 {
			keep[x.doc] = true
			kept++
		}
	}
	if n := l.countDocs(keep, math.MaxInt); n != kept {
		t.Errorf("countDocs counts %d, want %d", n, kept)
	}
	if n := l.countDocs(keep, 10); n != 11 {
		t.Errorf("countDocs with a limit of 10 stops at %d, want 11", n)
	}
	lists := []postingList{l, {}}
	packLists(lists)
	c = lists[0].cursor()
	for i := 0; ; i++ {
		d, tfs, ok := c.next()
		if !ok {
			break
		}
		if (p{d, tfs}) != want[i] {
			t.Fatalf("after packing, posting %d is %v, want %v", i, p{d, tfs}, want[i])
		}
	}
}

func TestTopK(t *testing.T) {
	var hs []Hit
	for i := 0; i < 100; i++ {
		hs = append(hs, Hit{Doc: uint32(i), Score: float64((i * 37) % 100)})
	}
	got := TopK(hs, 5)
	for i, want := range []float64{99, 98, 97, 96, 95} {
		if got[i].Score != want {
			t.Fatalf("TopK = %+v", got)
		}
	}
}

// A posting keeps up to 15 occurrences a field: beyond that a term scores
// the same, and the cap survives encoding.
func TestFrequencyCap(t *testing.T) {
	ix := New(fields)
	words := func(cache, other int) string { // the same length for each doc
		return strings.Repeat("cache ", cache) + strings.Repeat("zebra ", other)
	}
	ix.Add(0, Analyze("evict", words(15, 25)))
	ix.Add(1, Analyze("evict", words(40, 0)))
	ix.Add(2, Analyze("evict", words(3, 37)))
	hs := ix.Search(q("cach"), 3, nil)
	if len(hs) != 3 || hs[0].Score != hs[1].Score || hs[2].Score >= hs[0].Score {
		t.Fatalf("hits %+v", hs)
	}
	c := ix.postings[ix.dict["cach"]].cursor()
	c.next()
	if _, tfs, _ := c.next(); tfOf(tfs, 1) != 15 || tfOf(tfs, 0) != 0 {
		t.Errorf("posting of 40 occurrences: name %d body %d", tfOf(tfs, 0), tfOf(tfs, 1))
	}
	data, err := ix.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back := New(fields)
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if got := back.Search(q("cach"), 3, nil); !reflect.DeepEqual(got, hs) {
		t.Errorf("after encoding: %+v, want %+v", got, hs)
	}
}

// Data that is not what MarshalBinary wrote is refused or read, never a
// panic, and an index read from it can be searched.
func TestUnmarshalDamaged(t *testing.T) {
	ix := New(fields)
	for i := range 30 {
		ix.Add(uint32(i*7), Analyze(fmt.Sprintf("alpha beta%d", i%4), "gamma delta gamma"))
	}
	data, _ := ix.MarshalBinary()
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := slices.Clone(data)
			bad[i] ^= x
			cp := New(fields)
			if err := cp.UnmarshalBinary(bad); err == nil {
				cp.Search(q("alpha", "beta1", "gamma"), 10, nil)
			}
		}
	}
}

func TestDFCounted(t *testing.T) {
	ix := New(fields)
	for i := range 6 {
		ix.Add(uint32(i), Analyze("Table", "draw a table"))
	}
	ix.Remove(0)
	if got := ix.DFCounted("draw", 10); got != 5 || ix.Counted() != 5 {
		t.Errorf("no background: DFCounted = %d, Counted = %d, want 5 and 5", got, ix.Counted())
	}
	ix.SetBackground(func(d uint32) bool { return d%2 == 1 })
	if got := ix.DFCounted("draw", 10); got != 2 || ix.Counted() != 2 {
		t.Errorf("DFCounted = %d, Counted = %d, want 2 and 2 (documents 2 and 4; 0 is removed)", got, ix.Counted())
	}
	if got := ix.DFCounted("draw", 0); got != 1 {
		t.Errorf("DFCounted with limit 0 = %d, want 1: it stops once past the limit", got)
	}
	if got := ix.DFCounted("chair", 10); got != 0 {
		t.Errorf("DFCounted of an absent term = %d", got)
	}
	// A search counts its terms once and keeps the counts; a change
	// forgets them.
	ix.Search([]QueryTerm{{Term: "draw", Weight: 1}}, 10, nil)
	if got := ix.DFCounted("draw", 10); got != 2 {
		t.Errorf("DFCounted after a search = %d, want 2", got)
	}
	if got := ix.DFCounted("draw", 0); got != 1 {
		t.Errorf("DFCounted with limit 0 after a search = %d, want 1", got)
	}
	ix.Add(6, Analyze("Table", "draw a table"))
	if got := ix.DFCounted("draw", 10); got != 3 {
		t.Errorf("DFCounted after an add = %d, want 3 (documents 2, 4 and 6)", got)
	}
}

// Background documents are found, but the scores of the others are those of
// an index without them.
func TestBackground(t *testing.T) {
	a, b := New(fields), New(fields)
	for _, ix := range []*Index{a, b} {
		ix.Add(0, Analyze("DrawTable", "draw rows as a table"))
		ix.Add(1, Analyze("Render", "render a page of text"))
	}
	a.Add(2, Analyze("TestDraw", strings.Repeat("draw table draw rows page ", 20)))
	a.SetBackground(func(d uint32) bool { return d == 2 })
	ha, hb := a.Search(q("draw", "page"), 10, nil), b.Search(q("draw", "page"), 10, nil)
	if len(ha) != 3 || len(hb) != 2 {
		t.Fatalf("hits %+v and %+v", ha, hb)
	}
	score := func(hs []Hit, d uint32) float64 {
		for _, h := range hs {
			if h.Doc == d {
				return h.Score
			}
		}
		return -1
	}
	for _, d := range []uint32{0, 1} {
		if sa, sb := score(ha, d), score(hb, d); math.Abs(sa-sb) > 1e-9 {
			t.Errorf("doc %d scores %v beside a background document, %v without it", d, sa, sb)
		}
	}
	// Every document in the background: all count.
	a.SetBackground(func(uint32) bool { return true })
	a.Add(3, Analyze("Other", "nothing"))
	a.Remove(3)
	c := New(fields)
	c.Add(0, Analyze("DrawTable", "draw rows as a table"))
	c.Add(1, Analyze("Render", "render a page of text"))
	c.Add(2, Analyze("TestDraw", strings.Repeat("draw table draw rows page ", 20)))
	if sa, sc := score(a.Search(q("draw"), 10, nil), 0), score(c.Search(q("draw"), 10, nil), 0); math.Abs(sa-sc) > 1e-9 {
		t.Errorf("all background: %v, want %v as with none", sa, sc)
	}
}
