// Package tokenize turns prose and source code into search terms, the same way
// for documents and for queries, so that what an index stores and what a query
// asks for meet.
//
// It is identifier-aware: a word such as "parseHTTPHeader", "parse_http_header"
// or "ParseHTTPHeader" yields its parts ("pars", "http", "header", after
// stemming) and the whole identifier folded to lower case without underscores
// ("parsehttpheader"), so both a prose query and an exact identifier match.
// Letters and digits are split too ("sha512" gives "sha", "512" and
// "sha512"). Parts are stemmed with the Porter algorithm ("parsing",
// "parser's" and "parses" meet at "pars"), and common English function words
// are dropped. Whole identifiers are not stemmed.
package tokenize

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Term is one search term with where it came from.
type Term struct {
	Text string
	// Whole is true for a whole multi-part identifier ("splitpath" from
	// "SplitPath"); false for a part or a plain word.
	Whole bool
}

// Terms returns the search terms of text, in order, with repeats.
func Terms(text string) []string {
	var out []string
	Each(text, func(t Term) { out = append(out, t.Text) })
	return out
}

// Each calls fn for every search term of text, in order.
func Each(text string, fn func(Term)) {
	var parts [24]string
	i := 0
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if !isWordByte(c) {
				i++
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				i += size
				continue
			}
		}
		j := i
		for j < len(text) {
			c := text[j]
			if c < utf8.RuneSelf {
				if !isWordByte(c) {
					break
				}
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			j += size
		}
		word(text[i:j], parts[:0], fn)
		i = j
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// word emits the terms of one word: its parts and, when it has several, the
// whole identifier.
func word(w string, parts []string, fn func(Term)) {
	w = strings.Trim(w, "_")
	if w == "" || len(w) > 64 {
		return
	}
	parts = appendSplit(parts, w)
	if len(parts) > 1 {
		whole := strings.ToLower(strings.ReplaceAll(w, "_", ""))
		fn(Term{Text: whole, Whole: true})
	}
	for _, p := range parts {
		if len(p) < 2 {
			continue
		}
		lp := lower(p)
		if stop[lp] {
			continue
		}
		fn(Term{Text: Stem(lp)})
	}
}

// Split returns the parts of an identifier: it splits at underscores, at
// lower-to-upper case changes, before the last capital of a run of capitals
// followed by a lower-case letter ("HTTPServer" gives "HTTP", "Server"), and
// between letters and digits.
func Split(ident string) []string {
	return appendSplit(nil, ident)
}

func appendSplit(dst []string, s string) []string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return appendSplitASCII(dst, s)
	}
	start := -1
	runes := []rune(s)
	// Offsets of each rune, for slicing the original string.
	offs := make([]int, len(runes)+1)
	o := 0
	for k, r := range runes {
		offs[k] = o
		o += utf8.RuneLen(r)
	}
	offs[len(runes)] = o
	class := func(r rune) int {
		switch {
		case unicode.IsUpper(r):
			return 1
		case unicode.IsLower(r):
			return 2
		case unicode.IsDigit(r):
			return 3
		case r == '_':
			return 0
		}
		return 2
	}
	for k := 0; k < len(runes); k++ {
		c := class(runes[k])
		if c == 0 {
			if start >= 0 {
				dst = append(dst, s[offs[start]:offs[k]])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = k
			continue
		}
		prev := class(runes[k-1])
		brk := false
		switch {
		case prev == 2 && c == 1: // fooBar
			brk = true
		case prev == 1 && c == 1 && k+1 < len(runes) && class(runes[k+1]) == 2: // HTTPServer
			brk = true
		case (prev == 3) != (c == 3): // sha256, utf8Valid
			brk = true
		}
		if brk {
			dst = append(dst, s[offs[start]:offs[k]])
			start = k
		}
	}
	if start >= 0 {
		dst = append(dst, s[offs[start]:])
	}
	return dst
}

func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

var stemCache sync.Map

// ForgetStems empties the cache of stems. A build fills it with every word of
// the code, word by word among the build's garbage, and what it keeps then
// holds most spans of the heap (a hundred megabytes at 8× the Go standard
// library, for ten of stems); emptied, the spans go back to the system, and
// searches and later changes fill it again with the few words they use.
func ForgetStems() { stemCache.Clear() }

// Stem returns the stem of a lower-case word (Porter's algorithm; words with
// digits or non-ASCII letters are kept as they are).
func Stem(w string) string {
	if len(w) < 4 {
		return w
	}
	if v, ok := stemCache.Load(w); ok {
		return v.(string)
	}
	s := porter(w)
	if len(w) <= 40 {
		// w is most often a slice of a whole chunk's text, and porter
		// returns a word with digits (int64, x509) as it is: cached as it
		// came, it would keep that text alive for good (15 MB of chunk
		// texts, spread over a build's heap, at 8× the Go standard library).
		k := strings.Clone(w)
		if s == w {
			s = k
		}
		stemCache.Store(k, s)
	}
	return s
}

// IsStop reports whether a lower-case word is a common English function word
// that carries no meaning in a search.
func IsStop(w string) bool { return stop[w] }

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or nor but if then else of to in on at by for from with
		without into onto out over under up down as is are was were be been being am do does did doing
		done have has had having it its it's this that these those there here which who whom whose what
		when where why how i me my we our us you your he she him her they them their not no so than too
		very can could should would will shall may might must just also only own same such both each
		any all some most more other another via per about above below again further
		s t d ll re ve m o y e g eg ie etc`) {
		m[w] = true
	}
	return m
}()

func asciiClass(c byte) int {
	switch {
	case 'A' <= c && c <= 'Z':
		return 1
	case '0' <= c && c <= '9':
		return 3
	case c == '_':
		return 0
	}
	return 2
}

func appendSplitASCII(dst []string, s string) []string {
	start := -1
	for k := 0; k < len(s); k++ {
		c := asciiClass(s[k])
		if c == 0 {
			if start >= 0 {
				dst = append(dst, s[start:k])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = k
			continue
		}
		prev := asciiClass(s[k-1])
		if prev == 2 && c == 1 ||
			prev == 1 && c == 1 && k+1 < len(s) && asciiClass(s[k+1]) == 2 ||
			(prev == 3) != (c == 3) {
			dst = append(dst, s[start:k])
			start = k
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}
