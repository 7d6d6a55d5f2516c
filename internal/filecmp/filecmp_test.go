package filecmp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSame(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := strings.Repeat("0123456789abcdef", chunk/16*3+5) // several chunks and a tail
	a := write("a", big)
	b := write("b", big)
	lastByte := write("c", big[:len(big)-1]+"X")
	firstChunk := write("d", "X"+big[1:])
	shorter := write("e", big[:len(big)-1])
	empty1, empty2 := write("f", ""), write("g", "")
	link := filepath.Join(dir, "link")
	if err := os.Link(a, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{a, b, true}, {a, a, true}, {a, link, true}, {empty1, empty2, true},
		{a, lastByte, false}, {a, firstChunk, false}, {a, shorter, false}, {shorter, a, false}, {empty1, a, false},
	} {
		got, err := Same(c.x, c.y)
		if err != nil || got != c.want {
			t.Errorf("Same(%s, %s) = %v, %v; want %v", filepath.Base(c.x), filepath.Base(c.y), got, err, c.want)
		}
	}
	if _, err := Same(a, filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing file: %v", err)
	}
}
