// Package filecmp owns telling whether two files hold the same bytes, the
// check install and doctor make on the pinned agentos binary (tens of
// megabytes) every time they run.
package filecmp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// chunk is how much of each file is compared at a time: large enough that
// the reads cost little, small enough not to show in memory.
const chunk = 256 << 10

// Same reports whether the files at a and b hold the same bytes. Files of
// different sizes differ without a read; otherwise they are read side by
// side and the first differing chunk ends the comparison — a byte
// comparison, several times cheaper than hashing both.
func Same(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, fmt.Errorf("compare: %w", err)
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, fmt.Errorf("compare: %w", err)
	}
	defer fb.Close()
	ia, err := fa.Stat()
	if err != nil {
		return false, fmt.Errorf("compare: %w", err)
	}
	ib, err := fb.Stat()
	if err != nil {
		return false, fmt.Errorf("compare: %w", err)
	}
	if ia.Size() != ib.Size() {
		return false, nil
	}
	if os.SameFile(ia, ib) {
		return true, nil
	}
	bufA, bufB := make([]byte, chunk), make([]byte, chunk)
	for {
		na, errA := io.ReadFull(fa, bufA)
		nb, errB := io.ReadFull(fb, bufB)
		if !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false, nil
		}
		endA, endB := isEnd(errA), isEnd(errB)
		switch {
		case errA != nil && !endA:
			return false, fmt.Errorf("compare: read %s: %w", a, errA)
		case errB != nil && !endB:
			return false, fmt.Errorf("compare: read %s: %w", b, errB)
		case endA || endB:
			return endA && endB, nil
		}
	}
}

func isEnd(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
