package review

import (
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/workflow"
)

// commentView is a comment on lines the person sent with a request for
// changes, as it stands in the spec now: Open while the lines it is on
// still read as they did (Now is where they are, which moves when lines
// were added above them), resolved once they changed or went away.
type commentView struct {
	workflow.LineComment
	Open bool   `json:"open"`
	Now  int    `json:"now,omitempty"` // the line the quoted lines start at now, when open
	Why  string `json:"why"`           // in words: "open: line 12 still reads so", "resolved: the line changed"
}

// Comment states in commentView.Why.
const (
	whyOpen     = "open: the line still reads as you commented on it"
	whyMoved    = "open: the line still reads as you commented on it, now at line "
	whyChanged  = "resolved: the line changed"
	whyVanished = "resolved: the file is gone"
)

// resolve says, for each comment, whether the spec as it is (files: path
// → its text) still holds the lines it is on.
func resolve(comments []workflow.LineComment, files map[string]string) []commentView {
	out := make([]commentView, 0, len(comments))
	for _, c := range comments {
		v := commentView{LineComment: c}
		text, ok := files[c.File]
		if !ok {
			v.Why = whyVanished
			out = append(out, v)
			continue
		}
		if at := findQuote(workflow.SpecLines([]byte(text)), c); at > 0 {
			v.Open, v.Now = true, at
			v.Why = whyOpen
			if at != c.Line {
				v.Why = whyMoved + strconv.Itoa(at)
			}
		} else {
			v.Why = whyChanged
		}
		out = append(out, v)
	}
	return out
}

// findQuote is the line where the comment's quoted lines start in lines,
// nearest to where they were; 0 when they are nowhere.
func findQuote(lines []string, c workflow.LineComment) int {
	quote := strings.Split(c.Quote, "\n")
	n := len(quote)
	if c.Quote == "" || strings.HasSuffix(c.Quote, "…") {
		// Nothing quoted, or a quote cut short: only its own place counts.
		n = max(1, c.EndLine-c.Line+1)
		if c.Line >= 1 && c.Line-1+n <= len(lines) && strings.HasPrefix(strings.Join(lines[c.Line-1:c.Line-1+n], "\n"), strings.TrimSuffix(c.Quote, "…")) && c.Quote != "" {
			return c.Line
		}
		return 0
	}
	matches := func(at int) bool { // at is 0-based
		if at < 0 || at+n > len(lines) {
			return false
		}
		for i := range n {
			if lines[at+i] != quote[i] {
				return false
			}
		}
		return true
	}
	for d := 0; d <= max(len(lines), c.Line); d++ {
		if matches(c.Line - 1 - d) {
			return c.Line - d
		}
		if d > 0 && matches(c.Line-1+d) {
			return c.Line + d
		}
	}
	return 0
}
