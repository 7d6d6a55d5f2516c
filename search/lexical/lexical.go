// Package lexical is an in-memory inverted index ranked with BM25F: BM25 over
// several weighted fields (a symbol's name, its doc comment, its signature,
// its path, its body…), each field length-normalised on its own, the weighted
// term frequencies summed before saturation.
//
// Documents are numbered by the caller. Removing one marks it dead; its
// postings are dropped by Compact, which also renumbers documents. Document
// frequencies count live documents only. An Index is not safe for concurrent
// writes; the caller serialises writers against readers (Search only reads).
package lexical

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// MaxFields is the largest number of fields an Index has.
const MaxFields = 8

// Field configures one field.
type Field struct {
	Name   string
	Weight float64 // how much a match in this field counts
	B      float64 // length normalisation, 0 (none) to 1 (full)
}

// Doc is a document analysed into terms, ready to add. Build it with Analyze
// (safe to call from many goroutines at once).
type Doc struct {
	Lengths [MaxFields]uint16
	Terms   map[string][MaxFields]uint8
}

// Analyze tokenizes each field's text (see package tokenize) into a Doc.
// Fields beyond the index's are ignored when added.
func Analyze(fields ...string) Doc {
	d := Doc{Terms: make(map[string][MaxFields]uint8, 32)}
	for f, text := range fields {
		if f >= MaxFields {
			break
		}
		n := 0
		tokenize.Each(text, func(t tokenize.Term) {
			tf := d.Terms[t.Text]
			if tf[f] < 255 {
				tf[f]++
			}
			d.Terms[t.Text] = tf
			n++
		})
		d.Lengths[f] = uint16(min(n, math.MaxUint16))
	}
	return d
}

// A posting is one document's frequencies of a term, four bits a field: a
// third less memory than a byte each, and BM25 saturates long before 15
// (k1 = 1.2 puts 15 occurrences within 4% of 30). They are kept compressed
// (postingList).

// maxTF is the largest frequency a posting keeps for one field.
const maxTF = 15

func packTF(tf [MaxFields]uint8) uint32 {
	var v uint32
	for f, n := range tf {
		v |= uint32(min(n, maxTF)) << (4 * f)
	}
	return v
}

// tfOf returns field f's frequency in packed frequencies.
func tfOf(tfs uint32, f int) uint8 { return uint8(tfs >> (4 * f) & maxTF) }

// Index is a BM25F inverted index.
type Index struct {
	fields   []Field
	k1       float64
	dict     map[string]uint32
	terms    []string
	postings []postingList       // by term
	lengths  [][MaxFields]uint16 // by doc
	live     []bool              // by doc
	nLive    int
	dead     int                // dead docs still in postings
	sumLen   [MaxFields]float64 // over live docs

	// norms[doc][f] is field f's weight over its length normalisation,
	// computed on the first search after a change.
	normMu sync.Mutex
	norms  [][MaxFields]float32
	normOK bool
	stats  stats // with norms
	// countedDF caches, by term, how many counted documents hold it when
	// some are background (stats.filtered): counting them walks the
	// term's whole posting list, as long as scoring it, and a search asks
	// for every term it scores. Emptied with the norms.
	countedDF map[uint32]int
	// skipCache holds, by term, the skip points of the long lists a
	// search has looked into since the last change (see Search). Emptied
	// with the norms.
	skipCache map[uint32][]skip
	// scratch holds searches' window buffers between searches.
	scratchMu sync.Mutex
	scratch   []*scratch

	// background, when set, names documents that are searched but do not
	// shape the statistics: the average field lengths and the document
	// frequencies are those of the other documents.
	background func(doc uint32) bool
}

// stats are the collection statistics scoring uses.
type stats struct {
	n        int    // documents counted: live ones, less the background
	filtered bool   // some live documents are background
	counted  []bool // by doc: live and counted (set when filtered)
}

// New returns an empty index over the given fields (at most MaxFields).
func New(fields []Field) *Index {
	if len(fields) > MaxFields {
		panic("lexical: too many fields")
	}
	return &Index{fields: slices.Clone(fields), k1: 1.2, dict: map[string]uint32{}}
}

// SetFields changes the fields' weights and normalisation (not their
// number). Like Add, it must not run concurrently with Search.
func (ix *Index) SetFields(fields []Field) {
	if len(fields) != len(ix.fields) {
		panic("lexical: SetFields changes the number of fields")
	}
	ix.fields = slices.Clone(fields)
	ix.normOK = false
}

// SetBackground names, by a function of the document id, the documents that
// are searched but whose words and lengths do not count in the statistics
// (nil: none), such as a repository's tests, which repeat its code's words:
// counting them would make those words look common and the code's chunks
// short. When every live document is background, all count. The function
// is called while searching; like Add, SetBackground must not run
// concurrently with Search, and a change in what the function answers must
// come with an Add or Remove.
func (ix *Index) SetBackground(bg func(doc uint32) bool) {
	ix.background = bg
	ix.normOK = false
}

// SetK1 sets BM25's term frequency saturation (default 1.2).
func (ix *Index) SetK1(k1 float64) {
	if k1 > 0 {
		ix.k1 = k1
	}
}

// Fields returns the index's fields.
func (ix *Index) Fields() []Field { return ix.fields }

// Len returns the number of live documents.
func (ix *Index) Len() int { return ix.nLive }

// Add indexes d as document id, which must not be live already.
func (ix *Index) Add(id uint32, d Doc) {
	for int(id) >= len(ix.live) {
		ix.live = append(ix.live, false)
		ix.lengths = append(ix.lengths, [MaxFields]uint16{})
	}
	if ix.live[id] {
		panic("lexical: document added twice")
	}
	ix.live[id] = true
	ix.nLive++
	ix.normOK = false
	ix.lengths[id] = d.Lengths
	for f := range ix.fields {
		ix.sumLen[f] += float64(d.Lengths[f])
	}
	for term, tf := range d.Terms {
		nonzero := false
		for f := range ix.fields {
			if tf[f] > 0 {
				nonzero = true
			}
		}
		if !nonzero {
			continue
		}
		t, ok := ix.dict[term]
		if !ok {
			// The term may share memory with a whole source file.
			term = strings.Clone(term)
			t = uint32(len(ix.terms))
			ix.dict[term] = t
			ix.terms = append(ix.terms, term)
			ix.postings = append(ix.postings, postingList{})
		}
		ix.postings[t].add(id, packTF(tf))
	}
}

// Trim moves the postings into one array of their exact size, giving back
// the spare room that growing them one document at a time leaves (a fifth
// of them after a build), as a load leaves them.
func (ix *Index) Trim() {
	ix.terms = slices.Clone(ix.terms)
	ix.postings = slices.Clone(ix.postings)
	packLists(ix.postings)
}

// Remove marks document id dead.
func (ix *Index) Remove(id uint32) {
	if int(id) >= len(ix.live) || !ix.live[id] {
		return
	}
	ix.live[id] = false
	ix.nLive--
	ix.dead++
	ix.normOK = false
	for f := range ix.fields {
		ix.sumLen[f] -= float64(ix.lengths[id][f])
	}
}

// Dead returns how many removed documents still hold postings.
func (ix *Index) Dead() int { return ix.dead }

// Compact drops dead documents' postings and renumbers documents: keep lists
// the old ids to keep, and a document's new id is its position in keep.
func (ix *Index) Compact(keep []uint32) {
	remap := make([]int32, len(ix.live))
	for i := range remap {
		remap[i] = -1
	}
	lengths := make([][MaxFields]uint16, len(keep))
	live := make([]bool, len(keep))
	var sum [MaxFields]float64
	n := 0
	for newID, old := range keep {
		if int(old) < len(ix.live) && ix.live[old] {
			remap[old] = int32(newID)
			lengths[newID] = ix.lengths[old]
			live[newID] = true
			n++
			for f := range ix.fields {
				sum[f] += float64(lengths[newID][f])
			}
		}
	}
	dict := make(map[string]uint32, len(ix.dict))
	var terms []string
	var lb listBuilder
	type posting struct{ doc, tfs uint32 }
	var out []posting
	for t := range ix.postings {
		out = out[:0]
		c := ix.postings[t].cursor()
		for doc, tfs, ok := c.next(); ok; doc, tfs, ok = c.next() {
			if int(doc) < len(remap) && remap[doc] >= 0 {
				out = append(out, posting{uint32(remap[doc]), tfs})
			}
		}
		if len(out) == 0 {
			continue
		}
		slices.SortFunc(out, func(a, b posting) int { return int(a.doc) - int(b.doc) })
		dict[ix.terms[t]] = uint32(len(terms))
		terms = append(terms, ix.terms[t])
		for _, p := range out {
			lb.add(p.doc, p.tfs)
		}
		lb.end()
	}
	ix.dict, ix.terms, ix.postings = dict, terms, lb.done()
	ix.lengths, ix.live, ix.nLive, ix.dead, ix.sumLen = lengths, live, n, 0, sum
	ix.normOK = false
}

// weights returns the per-document field factors, computing them if stale.
// Writers never run concurrently with Search, so the lock only orders
// concurrent searches.
func (ix *Index) weights() ([][MaxFields]float32, stats) {
	ix.normMu.Lock()
	defer ix.normMu.Unlock()
	if ix.normOK && len(ix.norms) == len(ix.live) {
		return ix.norms, ix.stats
	}
	sum, n := ix.sumLen, ix.nLive
	counted := ix.stats.counted[:0]
	if ix.background != nil {
		var fsum [MaxFields]float64
		fn := 0
		counted = slices.Grow(counted, len(ix.live))[:len(ix.live)]
		for d, live := range ix.live {
			counted[d] = live && !ix.background(uint32(d))
			if counted[d] {
				fn++
				for f := range ix.fields {
					fsum[f] += float64(ix.lengths[d][f])
				}
			}
		}
		if fn > 0 {
			sum, n = fsum, fn
		}
	}
	if n == ix.nLive {
		counted = nil // every live document counts: no flags to keep
	}
	ix.stats = stats{n: n, filtered: n < ix.nLive, counted: counted}
	var avg [MaxFields]float64
	for f := range ix.fields {
		avg[f] = max(sum[f]/float64(max(n, 1)), 1)
	}
	norms := ix.norms[:0]
	norms = slices.Grow(norms, len(ix.live))[:len(ix.live)]
	for d := range ix.live {
		for f, fd := range ix.fields {
			norm := 1 - fd.B + fd.B*float64(ix.lengths[d][f])/avg[f]
			norms[d][f] = float32(fd.Weight / norm)
		}
	}
	ix.norms, ix.normOK = norms, true
	ix.countedDF = nil
	ix.skipCache = nil
	return norms, ix.stats
}

// QueryTerm is one term of a query with its weight (1 for a term the user
// typed, less for an expansion).
type QueryTerm struct {
	Term   string
	Weight float64
	// Group ties expansions to the query word they came from: a document's
	// score for a group is the best of the group's terms, not their sum.
	Group int
}

// Hit is one scored document.
type Hit struct {
	Doc    uint32
	Score  float64
	Fields uint8 // bit f set when field f matched
	Groups int   // how many query groups matched
}

// DF returns how many live documents hold a term.
func (ix *Index) DF(term string) int {
	t, ok := ix.dict[term]
	if !ok {
		return 0
	}
	return ix.df(t)
}

// Counted returns how many live documents the statistics count: all of
// them but the background (see SetBackground).
func (ix *Index) Counted() int {
	_, st := ix.weights()
	return st.n
}

// DFCounted returns how many of the documents the statistics count hold a
// term, stopping once the count passes limit.
func (ix *Index) DFCounted(term string, limit int) int {
	t, ok := ix.dict[term]
	if !ok {
		return 0
	}
	_, st := ix.weights()
	if !st.filtered {
		return ix.df(t)
	}
	ix.normMu.Lock()
	n, ok := ix.countedDF[t]
	ix.normMu.Unlock()
	if ok {
		return min(n, limit+1)
	}
	return ix.postings[t].countDocs(st.counted, limit)
}

// maxCountedDF bounds the cache of counts: a server asked many distinct
// words between two changes starts it again rather than grow.
const maxCountedDF = 1 << 16

// counted returns how many counted documents hold term t (st.filtered),
// from the cache when a search has counted them since the last change.
// Writers never run concurrently with searches, so a count made outside
// the lock is still right when stored.
func (ix *Index) counted(t uint32, st stats) int {
	ix.normMu.Lock()
	n, ok := ix.countedDF[t]
	ix.normMu.Unlock()
	if ok {
		return n
	}
	n = ix.postings[t].countDocs(st.counted, math.MaxInt)
	ix.normMu.Lock()
	if ix.normOK {
		if ix.countedDF == nil || len(ix.countedDF) >= maxCountedDF {
			ix.countedDF = map[uint32]int{}
		}
		ix.countedDF[t] = n
	}
	ix.normMu.Unlock()
	return n
}

// IDF returns the inverse document frequency of a term (0 when absent).
func (ix *Index) IDF(term string) float64 {
	t, ok := ix.dict[term]
	if !ok {
		return 0
	}
	return ix.idf(ix.df(t))
}

func (ix *Index) idf(df int) float64 { return idfOf(ix.nLive, df) }

func idfOf(docs, df int) float64 {
	n := float64(docs)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

func (ix *Index) df(t uint32) int {
	l := &ix.postings[t]
	if ix.dead == 0 {
		return int(l.n)
	}
	n := 0
	c := l.cursor()
	for doc, _, ok := c.next(); ok; doc, _, ok = c.next() {
		if ix.live[doc] {
			n++
		}
	}
	return n
}

// better orders hits: higher score first, ties by document.
func better(a, b Hit) bool { return a.Score > b.Score || a.Score == b.Score && a.Doc < b.Doc }

// bestK keeps the k best hits offered, in a heap whose root is the worst
// of them.
type bestK struct {
	k int
	h []Hit
}

func (b *bestK) offer(x Hit) {
	h := b.h
	if len(h) < b.k {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !better(h[p], h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		b.h = h
		return
	}
	if !better(x, h[0]) {
		return
	}
	h[0] = x
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && better(h[l], h[r]) {
			m = r
		}
		if !better(h[i], h[m]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// sorted returns the hits kept, best first.
func (b *bestK) sorted() []Hit {
	sortHits(b.h)
	return b.h
}

func sortHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
}

// TopK returns the k best hits, highest score first (ties by doc).
func TopK(hits []Hit, k int) []Hit {
	if len(hits) > 2*k {
		best := bestK{k: k, h: make([]Hit, 0, k)}
		for _, x := range hits {
			best.offer(x)
		}
		hits = best.h
	}
	sortHits(hits)
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}
