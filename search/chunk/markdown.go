package chunk

import (
	"regexp"
	"strings"
)

// MarkdownOptions bound the size of markdown chunks.
type MarkdownOptions struct {
	MaxTokens     int // a section longer than this is split at paragraphs (default 350)
	OverlapTokens int // a split piece repeats up to this many tokens of the previous one (default 40)
}

var (
	reHeading  = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$`)
	reFence    = regexp.MustCompile("^ {0,3}(```|~~~)")
	reKeywords = regexp.MustCompile(`(?i)^\s*>?\s*[*_]*keywords[*_]*\s*:[*_]*\s*(.*?)\s*$`)
	reTLDRLine = regexp.MustCompile(`(?i)^\s*>?\s*[*_]*tl;?dr[*_]*\s*:?[*_]*\s*(.*)$`)
)

// Tokens estimates the model tokens of s: about four bytes each.
func Tokens(s string) int { return (len(s) + 3) / 4 }

// Markdown cuts a markdown file at its H1, H2 and H3 headings. Every chunk
// carries its heading path and the file's keywords line and TL;DR; a section
// over the token budget is split at paragraph boundaries, each piece repeating
// the end of the previous one.
func Markdown(p string, src []byte, opt MarkdownOptions) []Chunk {
	if opt.MaxTokens <= 0 {
		opt.MaxTokens = 350
	}
	if opt.OverlapTokens < 0 || opt.OverlapTokens >= opt.MaxTokens/2 {
		opt.OverlapTokens = 0
	} else if opt.OverlapTokens == 0 {
		opt.OverlapTokens = 40
	}
	ls := lines(src)
	// Headings outside fenced code.
	type heading struct {
		line, level int
		text        string
	}
	var hs []heading
	inFence := make([]bool, len(ls)+1)
	fence := ""
	for i, l := range ls {
		if m := reFence.FindStringSubmatch(l); m != nil {
			switch {
			case fence == "":
				fence = m[1]
				inFence[i+1] = true
				continue
			case fence == m[1]:
				fence = ""
				inFence[i+1] = true
				continue
			}
		}
		if fence != "" {
			inFence[i+1] = true
			continue
		}
		if m := reHeading.FindStringSubmatch(l); m != nil {
			hs = append(hs, heading{line: i + 1, level: len(m[1]), text: strings.TrimSpace(m[2])})
		}
	}

	keywords, summary := "", ""
	for i := 0; i < len(ls) && i < 12; i++ {
		if m := reKeywords.FindStringSubmatch(ls[i]); m != nil && !inFence[i+1] {
			keywords = m[1]
			break
		}
	}
	// TL;DR: a section so named, or a paragraph that starts "TL;DR:".
	for k, h := range hs {
		if norm := strings.Map(keepAlnum, strings.ToLower(h.text)); norm == "tldr" {
			end := len(ls)
			for _, h2 := range hs[k+1:] {
				if h2.level <= h.level {
					end = h2.line - 1
					break
				}
			}
			summary = span(ls, h.line+1, end)
			break
		}
	}
	if summary == "" {
		for i := 0; i < len(ls) && i < 40; i++ {
			if inFence[i+1] {
				continue
			}
			if m := reTLDRLine.FindStringSubmatch(ls[i]); m != nil {
				para := []string{m[1]}
				for j := i + 1; j < len(ls) && strings.TrimSpace(ls[j]) != ""; j++ {
					para = append(para, ls[j])
				}
				summary = strings.Join(para, "\n")
				break
			}
		}
	}
	summary = strings.TrimSpace(summary)
	if len(summary) > 600 {
		summary = summary[:600]
	}

	// Sections between H1–H3 headings.
	type section struct {
		start, end int
		path       []string
	}
	var secs []section
	var stack [3]string
	prev := 1
	var prevPath []string
	for _, h := range hs {
		if h.level > 3 {
			continue
		}
		if h.line > prev {
			secs = append(secs, section{prev, h.line - 1, prevPath})
		}
		for l := h.level; l < 3; l++ {
			stack[l] = ""
		}
		stack[h.level-1] = h.text
		prevPath = nil
		for _, s := range stack {
			if s != "" {
				prevPath = append(prevPath, s)
			}
		}
		prev = h.line
	}
	if prev <= len(ls) {
		secs = append(secs, section{prev, len(ls), prevPath})
	}

	var out []Chunk
	for _, s := range secs {
		// Skip a section that is only its heading (and the keywords line).
		body := false
		for l := s.start; l <= s.end; l++ {
			t := strings.TrimSpace(ls[l-1])
			if t == "" || reKeywords.MatchString(t) && !inFence[l] {
				continue
			}
			if l == s.start && reHeading.MatchString(ls[l-1]) && !inFence[l] {
				continue
			}
			body = true
			break
		}
		if !body {
			continue
		}
		for s.end > s.start && strings.TrimSpace(ls[s.end-1]) == "" {
			s.end--
		}
		for _, piece := range splitSection(ls, inFence, s.start, s.end, opt) {
			out = append(out, Chunk{
				Path: p, Language: "markdown", Kind: Section, Heading: append([]string(nil), s.path...),
				StartLine: piece[0], DeclLine: s.start, EndLine: piece[1], Text: span(ls, piece[0], piece[1]),
				Keywords: keywords, Summary: summary, Exported: true,
			})
		}
	}
	return out
}

func keepAlnum(r rune) rune {
	if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
		return r
	}
	return -1
}

// splitSection cuts lines [start, end] into pieces of at most opt.MaxTokens
// at paragraph boundaries (a fenced block is one paragraph), each piece but
// the first starting with up to opt.OverlapTokens of the previous one.
func splitSection(ls []string, inFence []bool, start, end int, opt MarkdownOptions) [][2]int {
	total := 0
	for l := start; l <= end; l++ {
		total += Tokens(ls[l-1]) + 1
	}
	if total <= opt.MaxTokens {
		return [][2]int{{start, end}}
	}
	// Paragraph units.
	type unit struct{ start, end, tokens int }
	var units []unit
	cur := unit{start: -1}
	flush := func() {
		if cur.start > 0 {
			units = append(units, cur)
		}
		cur = unit{start: -1}
	}
	for l := start; l <= end; l++ {
		blank := strings.TrimSpace(ls[l-1]) == "" && !inFence[l]
		if blank {
			flush()
			continue
		}
		if cur.start < 0 {
			cur.start = l
		}
		cur.end = l
		cur.tokens += Tokens(ls[l-1]) + 1
	}
	flush()
	// A unit over budget is cut by lines.
	var fine []unit
	for _, u := range units {
		if u.tokens <= opt.MaxTokens {
			fine = append(fine, u)
			continue
		}
		part := unit{start: u.start}
		for l := u.start; l <= u.end; l++ {
			t := Tokens(ls[l-1]) + 1
			if part.tokens > 0 && part.tokens+t > opt.MaxTokens {
				fine = append(fine, part)
				part = unit{start: l}
			}
			part.end = l
			part.tokens += t
		}
		fine = append(fine, part)
	}
	var out [][2]int
	pieceStart, pieceTokens := fine[0].start, 0
	pieceEnd := fine[0].start
	for _, u := range fine {
		if pieceTokens > 0 && pieceTokens+u.tokens > opt.MaxTokens {
			out = append(out, [2]int{pieceStart, pieceEnd})
			// Overlap: whole trailing lines of the previous piece.
			ov, ovStart := 0, u.start
			for l := pieceEnd; l > pieceStart && opt.OverlapTokens > 0; l-- {
				t := Tokens(ls[l-1]) + 1
				if ov+t > opt.OverlapTokens {
					break
				}
				ov += t
				ovStart = l
			}
			pieceStart, pieceTokens = min(ovStart, u.start), ov
		}
		pieceEnd = u.end
		pieceTokens += u.tokens
	}
	out = append(out, [2]int{pieceStart, pieceEnd})
	return out
}
