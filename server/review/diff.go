package review

import (
	"fmt"
	"strings"

	"github.com/agentos-dev/agentos/internal/linediff"
)

// diffLine is one line of a diff: Op is "=" (unchanged), "-" (only in the
// approved version), "+" (only now) or "…" (unchanged lines left out; Text
// says how many).
type diffLine struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// maxDiffCells bounds the work of one diff (lines before × lines after,
// of what changed between the lines both begin and end with).
const maxDiffCells = 4_000_000

// diffContext is how many unchanged lines are shown around a change.
const diffContext = 3

// diffLines returns the line diff of old and now, with unchanged runs
// shortened to their context; or a note saying why there is none.
func diffLines(old, now string) ([]diffLine, string) {
	lines, ok := linediff.Diff(splitLines(old), splitLines(now), maxDiffCells)
	if !ok {
		return nil, "too large to diff here: too many lines changed"
	}
	all := make([]diffLine, len(lines))
	for k, l := range lines {
		all[k] = diffLine{string(l.Op), l.Text}
	}
	return shorten(all), ""
}

// shorten leaves out unchanged lines farther than diffContext from a change.
func shorten(all []diffLine) []diffLine {
	near := make([]bool, len(all))
	for k, l := range all {
		if l.Op == "=" {
			continue
		}
		for d := max(0, k-diffContext); d <= min(len(all)-1, k+diffContext); d++ {
			near[d] = true
		}
	}
	var out []diffLine
	for k := 0; k < len(all); {
		if near[k] {
			out = append(out, all[k])
			k++
			continue
		}
		n := 0
		for k < len(all) && !near[k] {
			n, k = n+1, k+1
		}
		out = append(out, diffLine{"…", fmt.Sprintf("%d unchanged %s", n, plural(n, "line", "lines"))})
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
