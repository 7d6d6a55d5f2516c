package gates

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/workflow/gates/internal/english"
)

// What a filled-in section must have to count as written, beyond not being
// empty. The shares were tuned on testdata/substance/tune and checked on
// testdata/substance/heldout (substance_test.go).
const (
	// DefaultMinWords is the minimum of a section listed without min_words.
	DefaultMinWords = 10
	// MaxMinWords bounds min_words.
	MaxMinWords = 5000
	// maxGuidanceShare: over this share of a section's word 5-grams found in
	// its template, the section is the template's guidance copied.
	maxGuidanceShare = 0.5
	// maxRepeatShare: over this share of a section's words being one word,
	// the section is that word repeated.
	maxRepeatShare = 0.5
	// maxUnknownShare: over this share of a section's words (identifiers,
	// code, numbers, paths and URLs aside) in no English word list, the
	// section does not read as English.
	maxUnknownShare = 0.4
	// minJudged is the fewest words the English share is judged on.
	minJudged = 5
	shingle   = 5
)

// Section problems, as SectionIssue.Problem.
const (
	ProblemShort      = "too_short"
	ProblemGuidance   = "template_guidance"
	ProblemNoSentence = "no_sentence"
	ProblemRepeated   = "repeated_word"
	ProblemNotEnglish = "not_english"
)

// TemplateNames lists the embedded spec templates a markdown_sections check
// may name as its template.
func TemplateNames() []string {
	sub, err := assets.Sub(assets.SpecTemplates)
	if err != nil {
		return nil
	}
	names, _ := fs.Glob(sub, "*.md")
	return names
}

// specTemplate returns an embedded spec template by name. The template comes
// from the binary, never from the project, so editing the copy in the spec
// folder to match a section changes nothing.
func specTemplate(name string) ([]byte, error) {
	if path.Base(name) != name || !slices.Contains(TemplateNames(), name) {
		return nil, fmt.Errorf("template %q is not a spec template (known: %s)", name, strings.Join(TemplateNames(), ", "))
	}
	return assets.Read(assets.SpecTemplates + "/" + name)
}

// substance is what a section's content says about how much was written.
type substance struct {
	words     int     // prose words, plus code words up to as many as the prose has
	prose     int     // words outside code blocks
	code      int     // words inside fenced code blocks
	sentences int     // sentences, and list items and table rows of several words
	top       string  // the most frequent word of the prose
	topShare  float64 // its share of the prose's words
	judged    int     // prose words judged English or not
	unknown   float64 // share of the judged words in no English word list
	guidance  float64 // share of the prose's 5-grams found in the template
}

var (
	codeSpanRe = regexp.MustCompile("`[^`]*`")
	linkRe     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	sentEndRe  = regexp.MustCompile(`[.!?;:]["')\]*_]*(?:\s|$)`)
)

// measure reads the content lines of a section (as contentLines keeps them).
// template is the words of the spec template, or nil.
//
// Sentences are counted per paragraph and list item (blocks), never per
// line, so a sentence wrapped across lines counts. A fenced code block is
// substance only when prose explains it: its words count toward min_words up
// to as many words as the section's prose has, and never toward a sentence,
// the repeat rule or the English rule, where identifiers and keywords would
// judge nothing. So a code block alone, or pasted filler with a few words
// around it, stays short of its minimum.
func measure(lines []mdLine, template map[string]bool) substance {
	var s substance
	var prose []string // every prose token, lower case, for repeats and 5-grams
	known, unknown, names := 0, 0, 0
	for _, b := range blocks(lines) {
		text := b.text
		if b.kind == blockCode {
			s.code += len(strings.Fields(text))
			continue
		}
		if b.kind == blockRow {
			text = strings.ReplaceAll(text, "|", " ; ")
		}
		text = linkRe.ReplaceAllString(text, "$1")
		spans := len(codeSpanRe.FindAllString(text, -1))
		text = codeSpanRe.ReplaceAllString(text, " ")
		toks := tokens(text)
		s.prose += len(toks) + spans
		if b.kind == blockParagraph {
			s.sentences += countSentences(text)
		} else if len(toks)+spans >= 3 {
			s.sentences++
		}
		for _, t := range toks {
			prose = append(prose, strings.ToLower(t))
			switch classify(t) {
			case wordKnown:
				known++
			case wordUnknown:
				unknown++
			case wordName:
				names++
			}
		}
	}
	s.words = s.prose + min(s.code, s.prose)
	if len(prose) > 0 {
		counts := map[string]int{}
		for _, w := range prose {
			counts[w]++
			if counts[w] > counts[s.top] || s.top == "" {
				s.top = w
			}
		}
		s.topShare = float64(counts[s.top]) / float64(len(prose))
	}
	if names > known {
		// More "names" than English words is not prose that mentions a few
		// products: it is Capitalised Filler.
		unknown += names
	}
	if s.judged = known + unknown; s.judged > 0 {
		s.unknown = float64(unknown) / float64(s.judged)
	}
	if template != nil && len(prose) >= shingle {
		found := 0
		for i := 0; i+shingle <= len(prose); i++ {
			if template[strings.Join(prose[i:i+shingle], " ")] {
				found++
			}
		}
		s.guidance = float64(found) / float64(len(prose)-shingle+1)
	}
	return s
}

// countSentences counts the runs of three or more words in text that end
// with sentence punctuation.
func countSentences(text string) int {
	n, start := 0, 0
	text += " "
	for _, loc := range sentEndRe.FindAllStringIndex(text, -1) {
		if len(tokens(text[start:loc[0]])) >= 3 {
			n++
		}
		start = loc[1]
	}
	return n
}

// tokens splits prose into words with the punctuation around them trimmed.
func tokens(text string) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		f = strings.TrimFunc(f, func(r rune) bool {
			return unicode.IsPunct(r) && r != '/' && r != '#' || unicode.IsSymbol(r) && r != '$' && r != '%'
		})
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

type wordClass int

const (
	wordNeutral wordClass = iota // identifier, number, path, URL, acronym
	wordKnown
	wordUnknown
	wordName // a capitalised word the list lacks
)

// classify tells whether a token is an English word, a word in no English
// word list, a name (a capitalised word the list lacks: Grafana, Kafka), or
// neither: identifiers, code, numbers, paths, URLs and acronyms are not judged.
func classify(t string) wordClass {
	if strings.ContainsAny(t, "0123456789_/\\.@#=<>{}()[]:$%&+*") {
		return wordNeutral
	}
	upper := 0
	for _, r := range t {
		if unicode.IsUpper(r) {
			upper++
		}
		if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '’' {
			return wordNeutral
		}
	}
	first := []rune(t)[0]
	if upper > 1 || (upper == 1 && !unicode.IsUpper(first)) {
		return wordNeutral // HTTP, OAuth, camelCase
	}
	class := wordKnown
	for _, part := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r == '-' }) {
		part = trimContraction(part)
		if part == "" || english.Known(part) {
			continue
		}
		if unicode.IsUpper(first) {
			return wordName
		}
		class = wordUnknown
	}
	return class
}

// trimContraction removes an English contraction's ending: "don't" → "do",
// "service's" → "service".
func trimContraction(w string) string {
	w = strings.ReplaceAll(w, "’", "'")
	for _, suf := range []string{"n't", "'s", "'re", "'ll", "'ve", "'d", "'m", "'"} {
		if strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// templateShingles returns the word 5-grams of a template: its guidance, its
// [[fill: …]] hints and everything else it says.
func templateShingles(src []byte) map[string]bool {
	set := map[string]bool{}
	var words []string
	flush := func() {
		for i := 0; i+shingle <= len(words); i++ {
			set[strings.Join(words[i:i+shingle], " ")] = true
		}
		words = words[:0]
	}
	for _, l := range splitMarkdown(src) {
		text := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l.text), ">"))
		if text == "" || l.level > 0 {
			flush() // a 5-gram does not run across paragraphs
			continue
		}
		if m := listItemRe.FindStringSubmatch(text); m != nil {
			flush()
			text = m[3]
		}
		text = strings.NewReplacer("[[fill:", " ", "[[fill", " ", "]]", " ", "|", " ").Replace(text)
		text = codeSpanRe.ReplaceAllString(linkRe.ReplaceAllString(text, "$1"), " ")
		for _, t := range tokens(text) {
			words = append(words, strings.ToLower(t))
		}
	}
	flush()
	return set
}

// weakness returns what is wrong with a filled-in section, or "" when
// nothing is, and the one-sentence account and fix of it.
func (s substance) weakness(section string, line, minWords int) (problem, what, fix string) {
	topic := strings.ToLower(section)
	switch {
	case s.code > 0 && s.sentences == 0:
		// Checked before the minimum: a code block alone counts for no
		// words, and "0 words" would misread a section that has code.
		return ProblemNoSentence, fmt.Sprintf("%s at line %d has a code block but no sentence explaining it", section, line),
			fmt.Sprintf("explain the code under %s (line %d) in sentences or list items that say what it does for this feature", section, line)
	case s.words < minWords && s.code > s.prose:
		return ProblemShort, fmt.Sprintf("%s at line %d has %s, its code counted for no more words than the prose explaining it; at least %d are needed", section, line, plural(s.words, "word", "words"), minWords),
			fmt.Sprintf("explain the code under %s (line %d) in more words of prose: a code block counts for at most as many words as the sentences around it, and the section needs %d", section, line, minWords)
	case s.words < minWords:
		return ProblemShort, fmt.Sprintf("%s at line %d has %s; at least %d are needed", section, line, plural(s.words, "word", "words"), minWords),
			fmt.Sprintf("write this feature's %s under %s (line %d): at least %d words, in sentences or list items", topic, section, line, minWords)
	case s.guidance > maxGuidanceShare:
		return ProblemGuidance, fmt.Sprintf("most of %s at line %d is the template's guidance copied (%.0f%% of its 5-word runs)", section, line, 100*s.guidance),
			fmt.Sprintf("replace the template's guidance under %s (line %d) with this feature's own %s", section, line, topic)
	case s.sentences == 0:
		return ProblemNoSentence, fmt.Sprintf("%s at line %d has no sentence (no sentence-ending punctuation, no list item of several words)", section, line),
			fmt.Sprintf("write %s (line %d) as sentences or list items that say what this feature needs", section, line)
	case s.topShare > maxRepeatShare:
		return ProblemRepeated, fmt.Sprintf("%s at line %d is one word repeated (%q is %.0f%% of its words)", section, line, s.top, 100*s.topShare),
			fmt.Sprintf("write %s (line %d) as sentences that say what this feature needs", section, line)
	case s.judged >= minJudged && s.unknown > maxUnknownShare:
		return ProblemNotEnglish, fmt.Sprintf("%s at line %d does not read as English sentences (%.0f%% of its words are in no English word list)", section, line, 100*s.unknown),
			fmt.Sprintf("write %s (line %d) as English sentences about this feature; identifiers, code, paths and names are not counted against it", section, line)
	}
	return "", "", ""
}
