package linediff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Diff's lines give back both texts, and pair as many lines as a longest
// common subsequence does, whatever it pairs first.
func TestDiffIsALongestCommonSubsequence(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c"}
	for n := range 2000 {
		a, b := make([]string, r.IntN(8)), make([]string, r.IntN(8))
		for i := range a {
			a[i] = words[r.IntN(len(words))]
		}
		for i := range b {
			b[i] = words[r.IntN(len(words))]
		}
		lines, ok := Diff(a, b, 64)
		if !ok {
			t.Fatalf("%d: %v %v not diffed", n, a, b)
		}
		var gotA, gotB []string
		paired := 0
		for _, l := range lines {
			if l.Op != '+' {
				gotA = append(gotA, l.Text)
			}
			if l.Op != '-' {
				gotB = append(gotB, l.Text)
			}
			if l.Op == '=' {
				paired++
			}
		}
		lcs := 0
		for _, j := range Matches(a, b) {
			if j >= 0 {
				lcs++
			}
		}
		if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) || paired != lcs {
			t.Fatalf("%d: %v → %v: %+v (paired %d, LCS %d)", n, a, b, lines, paired, lcs)
		}
	}
}

// The bound applies to what changed, not to the files' length.
func TestDiffBoundsWhatChanged(t *testing.T) {
	a := make([]string, 5000)
	for i := range a {
		a[i] = fmt.Sprint("line ", i)
	}
	b := slices.Clone(a)
	b[2] = "changed"
	lines, ok := Diff(a, b, 100)
	if !ok || len(lines) != 5001 || lines[2] != (Line{'-', "line 2"}) || lines[3] != (Line{'+', "changed"}) {
		t.Fatalf("one line changed near the start: ok %v, %d lines", ok, len(lines))
	}
	c := slices.Clone(a)
	for i := 100; i < 4900; i++ {
		c[i] = "other"
	}
	if _, ok := Diff(a, c, 100); ok {
		t.Error("4,800 lines changed were diffed under a bound of 100 cells")
	}
}
