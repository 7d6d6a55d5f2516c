// Package linediff pairs the lines of two texts along a longest common
// subsequence: the one line-matching rule behind upgrade's three-way merge
// and the review page's diff of a spec against its approved version.
package linediff

// Matches maps each line of a to the line of b it is paired with in a
// longest common subsequence, or -1. Where several subsequences are as
// long, a line of a is left unpaired (a deletion) before one of b is (an
// insertion). It costs len(a)×len(b) time and memory: callers bound it.
func Matches(a, b []string) []int {
	n, m := len(a), len(b)
	// lcs[i][j] = LCS length of a[i:], b[j:], in one flat slice.
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out[i] = j
			i++
			j++
		case *at(i+1, j) >= *at(i, j+1):
			i++
		default:
			j++
		}
	}
	return out
}

// Line is one line of a diff: Op '=' is in both texts, '-' only in the
// first, '+' only in the second.
type Line struct {
	Op   byte
	Text string
}

// Diff returns the line diff of a and b. The lines both begin and end with
// are paired first, so that maxCells bounds only the work on what lies
// between (Matches costs its length × its length): a few lines changed in
// a long file are diffed whatever its length. ok is false, and nothing is
// diffed, when that middle is over maxCells.
func Diff(a, b []string, maxCells int) (lines []Line, ok bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(midA)*len(midB) > maxCells {
		return nil, false
	}
	lines = make([]Line, 0, len(a)+len(midB))
	for _, l := range a[:pre] {
		lines = append(lines, Line{'=', l})
	}
	match := Matches(midA, midB)
	for i, j := 0, 0; i < len(midA) || j < len(midB); {
		switch {
		case i < len(midA) && match[i] == j:
			lines = append(lines, Line{'=', midA[i]})
			i, j = i+1, j+1
		case i < len(midA) && match[i] < 0:
			lines = append(lines, Line{'-', midA[i]})
			i++
		default:
			lines = append(lines, Line{'+', midB[j]})
			j++
		}
	}
	for _, l := range a[len(a)-suf:] {
		lines = append(lines, Line{'=', l})
	}
	return lines, true
}
