package lexical

import (
	"encoding/binary"
	"math/bits"
)

// postingList is one term's postings, compressed: for each document, in
// increasing order, the gap from the previous one (uvarint), a byte whose
// bit f says field f holds the term, and the frequencies of those fields,
// four bits each, two to a byte. Most postings are a one-byte gap, a mask
// and one byte of frequencies: three bytes instead of the eight of a
// (doc, packed frequencies) pair, which at monorepo size (14M postings) is
// 60 MB less for the index to hold.
type postingList struct {
	data []byte
	n    uint32 // postings, dead documents' included
	last uint32 // the last posting's document
}

// add appends doc's posting; tfs packs its frequencies four bits a field,
// field f at bit 4f (see packTF).
func (l *postingList) add(doc, tfs uint32) {
	if l.n > 0 && doc <= l.last {
		l.insert(doc, tfs)
		return
	}
	l.data = appendPosting(l.data, doc-l.last, tfs)
	l.n++
	l.last = doc
}

// insert adds a posting out of order (documents are numbered in the order
// they are added, so this does not happen in an index's own use).
func (l *postingList) insert(doc, tfs uint32) {
	type p struct{ doc, tfs uint32 }
	var ps []p
	c := l.cursor()
	for d, t, ok := c.next(); ok; d, t, ok = c.next() {
		if d != doc {
			ps = append(ps, p{d, t})
		}
	}
	i := 0
	for i < len(ps) && ps[i].doc < doc {
		i++
	}
	ps = append(ps[:i], append([]p{{doc, tfs}}, ps[i:]...)...)
	*l = postingList{}
	for _, x := range ps {
		l.add(x.doc, x.tfs)
	}
}

func appendPosting(b []byte, gap, tfs uint32) []byte {
	b = binary.AppendUvarint(b, uint64(gap))
	var mask byte
	for f := range MaxFields {
		if tfs>>(4*f)&maxTF != 0 {
			mask |= 1 << f
		}
	}
	b = append(b, mask)
	var cur byte
	half := false
	for f := range MaxFields {
		n := byte(tfs >> (4 * f) & maxTF)
		if n == 0 {
			continue
		}
		if half {
			b = append(b, cur|n<<4)
		} else {
			cur = n
		}
		half = !half
	}
	if half {
		b = append(b, cur)
	}
	return b
}

// cursor returns a reader of the list's postings from the first.
func (l *postingList) cursor() cursor { return cursor{b: l.data} }

// cursor reads a posting list.
type cursor struct {
	b   []byte
	doc uint32
}

// next returns the next posting's document and frequencies (packed as
// packTF packs them), or ok false at the end.
func (c *cursor) next() (doc, tfs uint32, ok bool) {
	b := c.b
	if len(b) == 0 {
		return 0, 0, false
	}
	var gap uint32
	i := 0
	for shift := uint(0); ; shift += 7 {
		x := b[i]
		i++
		gap |= uint32(x&0x7f) << shift
		if x < 0x80 {
			break
		}
	}
	c.doc += gap
	mask := b[i]
	i++
	var cur byte
	half := false
	for f := uint(0); mask != 0; f, mask = f+1, mask>>1 {
		if mask&1 == 0 {
			continue
		}
		var n byte
		if half {
			n = cur >> 4
		} else {
			cur = b[i]
			i++
			n = cur & maxTF
		}
		half = !half
		tfs |= uint32(n) << (4 * f)
	}
	c.b = b[i:]
	return c.doc, tfs, true
}

// countDocs counts the list's documents for which keep is true, stopping
// once the count passes limit. It reads only the gaps, stepping over the
// frequencies: counting is done for every term of a query when some
// documents do not count in the statistics (Index.SetBackground).
func (l *postingList) countDocs(keep []bool, limit int) int {
	data, doc, n := l.data, uint32(0), 0
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
		i += 1 + (bits.OnesCount8(data[i])+1)/2
		if keep[doc] {
			if n++; n > limit {
				break
			}
		}
	}
	return n
}

// checkedNext is next for data not made by this package: it reports a
// posting cut short instead of reading past the end.
func (c *cursor) checkedNext() (doc uint32, ok bool, err error) {
	b := c.b
	if len(b) == 0 {
		return 0, false, nil
	}
	gap, k := binary.Uvarint(b)
	if k <= 0 || gap > 1<<32-1 || len(b) < k+1 {
		return 0, false, errShort
	}
	mask := b[k]
	size := k + 1 + (bits.OnesCount8(mask)+1)/2
	if len(b) < size {
		return 0, false, errShort
	}
	c.doc += uint32(gap)
	c.b = b[size:]
	return c.doc, true, nil
}

// packLists moves the lists' data into one array, each list's part of it
// exactly as long as its data: no spare room and one allocation the
// collector need not look into, instead of one for each of hundreds of
// thousands of terms. A list that grows later moves out of the array.
func packLists(lists []postingList) {
	total := 0
	for i := range lists {
		total += len(lists[i].data)
	}
	all := make([]byte, total)
	off := 0
	for i := range lists {
		n := copy(all[off:], lists[i].data)
		lists[i].data = all[off : off+n : off+n]
		off += n
	}
}

// listBuilder makes posting lists one after another in one growing array,
// without a small allocation for each term (a load makes hundreds of
// thousands); lists returns them cut from an array of their exact size.
type listBuilder struct {
	all   []byte
	lists []postingList
	ends  []int
	cur   postingList // the list being made; its data is the tail of all
}

// add appends a posting to the current list; docs must increase.
func (b *listBuilder) add(doc, tfs uint32) {
	b.all = appendPosting(b.all, doc-b.cur.last, tfs)
	b.cur.n++
	b.cur.last = doc
}

// end ends the current list.
func (b *listBuilder) end() {
	b.lists = append(b.lists, b.cur)
	b.ends = append(b.ends, len(b.all))
	b.cur = postingList{}
}

// done returns the lists made.
func (b *listBuilder) done() []postingList {
	all := b.all
	if cap(all) > len(all) {
		all = append(make([]byte, 0, len(all)), all...)
	}
	start := 0
	for i, end := range b.ends {
		b.lists[i].data = all[start:end:end]
		start = end
	}
	return b.lists
}
