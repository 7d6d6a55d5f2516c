package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// MarshalBinary encodes the index's documents and postings (not its field
// configuration, which the reader supplies to New).
func (ix *Index) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 1<<20)
	b = binary.AppendUvarint(b, uint64(len(ix.fields)))
	b = binary.AppendUvarint(b, uint64(len(ix.live)))
	for d, live := range ix.live {
		if !live {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		for f := range ix.fields {
			b = binary.AppendUvarint(b, uint64(ix.lengths[d][f]))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(ix.terms)))
	for t, term := range ix.terms {
		b = binary.AppendUvarint(b, uint64(len(term)))
		b = append(b, term...)
		// The postings as the index keeps them (postingList), without the
		// dead documents' when there are any.
		l := &ix.postings[t]
		if ix.dead > 0 {
			var live postingList
			c := l.cursor()
			for doc, tfs, ok := c.next(); ok; doc, tfs, ok = c.next() {
				if ix.live[doc] {
					live.add(doc, tfs)
				}
			}
			l = &live
		}
		b = binary.AppendUvarint(b, uint64(l.n))
		b = binary.AppendUvarint(b, uint64(len(l.data)))
		b = append(b, l.data...)
	}
	return b, nil
}

var errShort = errors.New("lexical index data is truncated")

// UnmarshalBinary replaces the index's content with data from
// MarshalBinary. The field count must match the index's.
func (ix *Index) UnmarshalBinary(data []byte) error {
	r := reader{b: data}
	nf := int(r.uvarint())
	if r.err == nil && nf != len(ix.fields) {
		return fmt.Errorf("lexical index has %d fields, want %d", nf, len(ix.fields))
	}
	nd := int(r.uvarint())
	if r.err != nil || nd > len(data) {
		return errShort
	}
	*ix = Index{fields: ix.fields, k1: ix.k1, dict: map[string]uint32{}}
	ix.live = make([]bool, nd)
	ix.lengths = make([][MaxFields]uint16, nd)
	for d := 0; d < nd && r.err == nil; d++ {
		if r.byte() == 0 {
			continue
		}
		ix.live[d] = true
		ix.nLive++
		for f := 0; f < nf; f++ {
			ix.lengths[d][f] = uint16(r.uvarint())
			ix.sumLen[f] += float64(ix.lengths[d][f])
		}
	}
	nt := int(r.uvarint())
	if r.err != nil || nt > len(data) {
		return errShort
	}
	ix.terms = make([]string, 0, nt)
	ix.terms = make([]string, 0, nt)
	ix.postings = make([]postingList, nt)
	ends := make([]int, nt)
	var all []byte
	for t := 0; t < nt && r.err == nil; t++ {
		term := string(r.bytes(int(r.uvarint())))
		n := r.uvarint()
		size := int(r.uvarint())
		if r.err != nil || size > len(r.b) {
			return errShort
		}
		list := r.bytes(size)
		// Each list is walked once: it must name documents of the index,
		// in increasing order, and hold n of them.
		c := cursor{b: list}
		count, prev := uint64(0), -1
		for {
			doc, ok, err := c.checkedNext()
			if err != nil {
				return fmt.Errorf("lexical index data is corrupt: term %q: %w", term, err)
			}
			if !ok {
				break
			}
			if int(doc) >= nd || int(doc) <= prev {
				return fmt.Errorf("lexical index data is corrupt: term %q: document %d after %d of %d", term, doc, prev, nd)
			}
			prev = int(doc)
			count++
		}
		if count != n {
			return fmt.Errorf("lexical index data is corrupt: term %q holds %d postings, not %d", term, count, n)
		}
		if all == nil {
			// The postings are most of what is left to read.
			all = make([]byte, 0, len(r.b))
		}
		all = append(all, list...)
		ends[t] = len(all)
		ix.postings[t].n, ix.postings[t].last = uint32(n), uint32(max(prev, 0))
		ix.dict[term] = uint32(len(ix.terms))
		ix.terms = append(ix.terms, term)
	}
	if r.err != nil {
		return r.err
	}
	all = slices.Clip(all)
	start := 0
	for t := range ix.postings {
		ix.postings[t].data = all[start:ends[t]:ends[t]]
		start = ends[t]
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("lexical index data is corrupt: %d trailing bytes", len(r.b))
	}
	return nil
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShort
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n > len(r.b) || n < 0 {
		r.err = errShort
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}
