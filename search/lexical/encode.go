package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
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
		b = binary.AppendUvarint(b, uint64(ix.df(uint32(t))))
		c := ix.postings[t].cursor()
		for doc, tfs, ok := c.next(); ok; doc, tfs, ok = c.next() {
			if !ix.live[doc] {
				continue
			}
			b = binary.AppendUvarint(b, uint64(doc))
			for f := range ix.fields {
				b = append(b, tfOf(tfs, f))
			}
		}
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
	// The compressed postings take about a third of their encoded size.
	lb := listBuilder{all: make([]byte, 0, len(data)/3), lists: make([]postingList, 0, nt), ends: make([]int, 0, nt)}
	for t := 0; t < nt && r.err == nil; t++ {
		term := string(r.bytes(int(r.uvarint())))
		n := int(r.uvarint())
		if r.err != nil || n > len(data) {
			return errShort
		}
		prev := -1
		for range n {
			doc := uint32(r.uvarint())
			if r.err == nil && int(doc) >= nd {
				return fmt.Errorf("lexical index data is corrupt: document %d of %d", doc, nd)
			}
			var tf [MaxFields]uint8
			for f := 0; f < nf; f++ {
				tf[f] = r.byte()
			}
			if r.err != nil {
				return r.err
			}
			if int(doc) <= prev {
				return fmt.Errorf("lexical index data is corrupt: document %d after %d", doc, prev)
			}
			prev = int(doc)
			lb.add(doc, packTF(tf))
		}
		lb.end()
		ix.dict[term] = uint32(len(ix.terms))
		ix.terms = append(ix.terms, term)
	}
	ix.postings = lb.done()
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
