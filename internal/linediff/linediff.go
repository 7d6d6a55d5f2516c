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
