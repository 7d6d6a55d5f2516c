package lexical

import (
	"math"
	"math/bits"
	"slices"
)

// A search finds the best k documents without scoring every posting of its
// terms (MaxScore, a window of documents at a time). At monorepo size a common word of a
// question ("get", "file", "error") holds a few hundred thousand postings,
// and scoring each was most of a lexical search; most of those documents
// hold that word alone and cannot reach the best k.
//
// It is exact: the hits are those of scoring every posting (same documents,
// scores to the bit, fields and groups). A document's score is a sum over
// the query's groups of the best of each group's term scores, each one
// idf·w·tf/(k1+tf) with tf ≥ 0, so each term's score is below idf·w (its
// bound), a group's below the largest bound of its terms, and a document's
// below the sum of its groups'. With the terms ordered by bound, the first
// ones whose groups' bounds sum to no more than the k-th best score so far
// cannot make a document enter the best k by themselves: their lists are no
// longer walked, only looked into (with their skip points) for documents
// the other terms bring. A document is dropped only when its bound, widened
// against rounding, is no more than the k-th best score so far: its score
// is then below that one, and it could not have entered the best k
// whatever the order of documents (ties go to the lower document, as in an
// exhaustive search).

// skipEvery is how many postings a skip point passes over.
const skipEvery = 128

// minSkipList is the shortest list given skip points: a shorter one is
// read through as fast.
const minSkipList = 2 * skipEvery

// skip is a point in a posting list: the document of the posting before
// it (the one its first gap counts from) and the byte offset of its
// posting.
type skip struct{ base, off uint32 }

// boundSlack widens the bounds compared to the k-th score so that float
// rounding (a score is a float32 sum of fields, a ratio and a sum of
// groups) never makes a bound fall below a score it bounds.
const boundSlack = 1 + 1e-9

// termCursor reads one query term's postings, one document at a time.
type termCursor struct {
	data  []byte
	next  int    // offset of the next posting
	doc   uint32 // the current posting's document; math.MaxUint32 at the end
	mask  byte   // its fields
	tfAt  int    // offset of its frequencies
	skips []skip // nil when not yet needed or the list is short
	si    int    // skips before si are behind the cursor

	term  uint32
	idf   float64 // idf times the term's weight
	ub    float64 // bound of its score
	group int     // index of its group, in the query's group order
	hitAt int64   // the document whose score s is; -1 for none
	s     float64
	fmask uint8 // fields of the hit, within the index's
}

// advance moves to the next posting.
func (c *termCursor) advance() {
	data, i := c.data, c.next
	if i >= len(data) {
		c.doc = math.MaxUint32
		return
	}
	var gap uint32
	for shift := uint(0); ; shift += 7 {
		x := data[i]
		i++
		gap |= uint32(x&0x7f) << shift
		if x < 0x80 {
			break
		}
	}
	c.doc += gap
	c.mask = data[i]
	c.tfAt = i + 1
	c.next = c.tfAt + (bits.OnesCount8(c.mask)+1)/2
}

// seek moves to the first posting of a document at or after target.
func (c *termCursor) seek(target uint32) {
	if c.doc >= target {
		return
	}
	// The last skip point whose previous posting is before target: the
	// postings it passes over are all before target.
	j := c.si
	for j < len(c.skips) && c.skips[j].base < target {
		j++
	}
	if j > c.si {
		if sk := c.skips[j-1]; int(sk.off) > c.next {
			c.doc, c.next = sk.base, int(sk.off)
		}
		c.si = j
	}
	for c.doc < target {
		c.advance()
	}
}

// score returns the current posting's score and the fields it holds,
// computed exactly as an exhaustive search computes them.
func (c *termCursor) score(w *[MaxFields]float32, nf int, k1 float64) (float64, uint8) {
	data, i, fieldMask := c.data, c.tfAt, c.mask
	var tf float32
	var mask uint8
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
	return c.idf * float64(tf) / (k1 + float64(tf)), mask
}

// skipsOf returns term t's skip points, from the cache when a search has
// made them since the last change (nil for a short list).
func (ix *Index) skipsOf(t uint32) []skip {
	l := &ix.postings[t]
	if l.n < minSkipList {
		return nil
	}
	ix.normMu.Lock()
	sk, ok := ix.skipCache[t]
	ix.normMu.Unlock()
	if ok {
		return sk
	}
	sk = l.skipPoints()
	ix.normMu.Lock()
	if ix.normOK {
		if ix.skipCache == nil || len(ix.skipCache) >= maxCountedDF {
			ix.skipCache = map[uint32][]skip{}
		}
		ix.skipCache[t] = sk
	}
	ix.normMu.Unlock()
	return sk
}

// skipPoints returns a skip point every skipEvery postings, reading only
// the gaps.
func (l *postingList) skipPoints() []skip {
	out := make([]skip, 0, l.n/skipEvery)
	data, doc := l.data, uint32(0)
	for i, n := 0, 0; i < len(data); n++ {
		if n > 0 && n%skipEvery == 0 {
			out = append(out, skip{base: doc, off: uint32(i)})
		}
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
		i += 1 + (bits.OnesCount8(data[i])+1)/2
	}
	return out
}

// window is how many documents a search takes at a time: the walked lists
// are read one after the other over a window (as fast, a posting, as
// scoring every posting), then the window's documents are judged. A
// variable for the tests, whose indexes are smaller than one window.
var window = 4096

// wHit is a walked list's posting in the current window: its term's score
// and fields, and the previous one of the same document.
type wHit struct {
	s     float64
	next  int32 // index of the document's previous hit; -1 for none
	term  int32 // index in the query's terms
	fmask uint8
}

// scratch is a search's buffers for a window, kept between searches (not
// in a sync.Pool, which every collection empties: allocating them again
// made most of the garbage of searching).
type scratch struct {
	head    []int32 // by document of the window: its last hit, -1 for none
	hits    []wHit
	touched []int32
}

// maxScratch is how many searches' buffers an index keeps.
const maxScratch = 4

func (ix *Index) getScratch() *scratch {
	ix.scratchMu.Lock()
	defer ix.scratchMu.Unlock()
	if n := len(ix.scratch); n > 0 {
		sc := ix.scratch[n-1]
		ix.scratch = ix.scratch[:n-1]
		return sc
	}
	return &scratch{head: slices.Repeat([]int32{-1}, window)}
}

func (ix *Index) putScratch(sc *scratch) {
	ix.scratchMu.Lock()
	defer ix.scratchMu.Unlock()
	if len(ix.scratch) < maxScratch {
		ix.scratch = append(ix.scratch, sc)
	}
}

// Search scores the live documents that match any query term and returns the
// best k, highest first (ties by document); accept, when not nil, filters
// documents. The result is that of scoring every matching document, found
// without scoring most of those that cannot be among the best k (see the
// top of this file).
func (ix *Index) Search(q []QueryTerm, k int, accept func(doc uint32) bool) []Hit {
	if ix.nLive == 0 || k <= 0 {
		return nil
	}
	norms, st := ix.weights()
	nf := len(ix.fields)
	// Group the query terms: within a group a document takes its best term.
	order := slices.Clone(q)
	slices.SortStableFunc(order, func(a, b QueryTerm) int { return a.Group - b.Group })
	var cs []termCursor // in group order
	g := 0
	for i, qt := range order {
		if i > 0 && qt.Group != order[i-1].Group {
			g++
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
		c := termCursor{data: ix.postings[t].data, term: t, idf: idf, ub: idf * boundSlack, group: g, hitAt: -1}
		c.advance()
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return nil
	}
	ng := g + 1
	// byBound orders the terms by bound; bound[i] bounds the score of a
	// document found only in the lists of the first i of them: the sum,
	// over groups, of the largest bound of the group's terms among them.
	byBound := make([]int, len(cs))
	for i := range byBound {
		byBound[i] = i
	}
	slices.SortStableFunc(byBound, func(a, b int) int {
		switch {
		case cs[a].ub < cs[b].ub:
			return -1
		case cs[a].ub > cs[b].ub:
			return 1
		}
		return 0
	})
	gmax := make([]float64, ng)
	bound := make([]float64, len(cs)+1)
	for i, j := range byBound {
		gmax[cs[j].group] = max(gmax[cs[j].group], cs[j].ub)
		sum := 0.0
		for _, m := range gmax {
			sum += m
		}
		bound[i+1] = sum * boundSlack
	}
	// The terms byBound[:lazy] are looked into, not walked; lazyUB[g] is
	// the largest bound of group g's among them.
	lazy := 0
	lazyUB := make([]float64, ng)
	lazyAll := 0.0 // their sum
	probed := make([]bool, len(cs))
	best := bestK{k: k}
	theta := math.Inf(-1) // the k-th best score once there are k
	sc := ix.getScratch()
	defer ix.putScratch(sc)
	if len(sc.head) < window { // a test's window grew
		sc.head = slices.Repeat([]int32{-1}, window)
	}
	head, hits, touched := sc.head, sc.hits, sc.touched
	defer func() { sc.hits, sc.touched = hits[:0], touched[:0] }()
	for {
		// A term whose bound no longer reaches the k-th score is looked
		// into from now on (only between windows: a window's walked
		// postings are all read before its documents are judged).
		for lazy < len(cs) && bound[lazy+1] <= theta {
			c := &cs[byBound[lazy]]
			c.skips = ix.skipsOf(c.term)
			lazyUB[c.group] = max(lazyUB[c.group], c.ub)
			lazy++
			lazyAll = 0
			for _, u := range lazyUB {
				lazyAll += u
			}
		}
		base := uint32(math.MaxUint32)
		for _, j := range byBound[lazy:] {
			base = min(base, cs[j].doc)
		}
		if base == math.MaxUint32 {
			break
		}
		end := uint64(base) + uint64(window)
		// Walk the window's postings of the walked terms.
		hits, touched = hits[:0], touched[:0]
		for _, j := range byBound[lazy:] {
			c := &cs[j]
			for uint64(c.doc) < end {
				d := c.doc
				if ix.live[d] {
					s, fm := c.score(&norms[d], nf, ix.k1)
					w := d - base
					if head[w] < 0 {
						touched = append(touched, int32(w))
					}
					hits = append(hits, wHit{s: s, next: head[w], term: int32(j), fmask: fm})
					head[w] = int32(len(hits) - 1)
				}
				c.advance()
			}
		}
		// Judge them in order, the looked-into lists being read forwards:
		// sorted, or in the order of the window when they are many of it.
		if len(touched) < window/16 {
			slices.Sort(touched)
		} else {
			touched = touched[:0]
			for w, h := range head {
				if h >= 0 {
					touched = append(touched, int32(w))
				}
			}
		}
		for _, w := range touched {
			d := base + uint32(w)
			clear(gmax)
			for h := head[w]; h >= 0; h = hits[h].next {
				x := &hits[h]
				c := &cs[x.term]
				c.hitAt, c.s, c.fmask = int64(d), x.s, x.fmask
				gmax[c.group] = max(gmax[c.group], x.s)
			}
			head[w] = -1
			if len(best.h) == k {
				// A group scores its best term: at most the larger of
				// its walked terms' score and its looked-into terms'
				// bound.
				b := lazyAll
				for g, m := range gmax {
					if m > lazyUB[g] {
						b += m - lazyUB[g]
					}
				}
				if b*boundSlack <= theta {
					continue
				}
			}
			if accept != nil && !accept(d) {
				continue
			}
			// The lists looked into, highest bound first; one whose bound
			// is below its group's best so far cannot change the score.
			for i := lazy - 1; i >= 0; i-- {
				j := byBound[i]
				c := &cs[j]
				if probed[j] = c.ub > gmax[c.group]; !probed[j] {
					continue
				}
				c.seek(d)
				if c.doc == d {
					c.s, c.fmask = c.score(&norms[d], nf, ix.k1)
					c.hitAt = int64(d)
					gmax[c.group] = max(gmax[c.group], c.s)
				}
			}
			// The score, summed group by group in the query's order as an
			// exhaustive search sums it.
			h := Hit{Doc: d}
			for _, m := range gmax {
				h.Score += m
			}
			if len(best.h) == k && !better(h, best.h[0]) {
				continue
			}
			// It is among the best k so far: its fields and its count of
			// groups need every term (a group's matches are counted as an
			// exhaustive search counts them: a term that scores 0 counts
			// each time).
			for i := lazy - 1; i >= 0; i-- {
				j := byBound[i]
				c := &cs[j]
				if !probed[j] {
					c.seek(d)
					if c.doc == d {
						c.s, c.fmask = c.score(&norms[d], nf, ix.k1)
						c.hitAt = int64(d)
					}
				}
			}
			for i := 0; i < len(cs); {
				grp, gbest := cs[i].group, 0.0
				for ; i < len(cs) && cs[i].group == grp; i++ {
					c := &cs[i]
					if c.hitAt != int64(d) {
						continue
					}
					if gbest == 0 {
						h.Groups++
					}
					gbest = max(gbest, c.s)
					h.Fields |= c.fmask
				}
			}
			best.offer(h)
			if len(best.h) == k {
				theta = best.h[0].Score
			}
		}
	}
	return best.sorted()
}
