package model2vec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is the part of a Hugging Face tokenizer (tokenizer.json) that a
// static model needs: normalizer, pre-tokenizer and model, turning a text
// into token ids. It never adds special tokens (model2vec encodes with
// add_special_tokens=False) and does not split the input on added tokens.
//
// Supported: models WordPiece, Unigram and WordLevel; normalizers
// BertNormalizer, Lowercase, NFC, NFD, NFKC, NFKD, StripAccents, Strip,
// Replace, Prepend and Sequence; pre-tokenizers BertPreTokenizer,
// Whitespace, WhitespaceSplit, Punctuation, Metaspace and Sequence. Anything
// else is an error at load time rather than silently different tokens.
type Tokenizer struct {
	normalize func(string) string
	pre       func([]string) []string
	model     tokenModel
	vocab     map[string]int // every token and its id, added tokens included
	unk       int            // the unknown token's id, or -1
	special   map[int]bool   // ids of special added tokens
}

// tokenModel splits one pre-token into ids.
type tokenModel interface {
	encode(word string, out []int) []int
}

type tokenizerJSON struct {
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Model        json.RawMessage `json:"model"`
	AddedTokens  []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
}

// ParseTokenizer reads a tokenizer.json document.
func ParseTokenizer(data []byte) (*Tokenizer, error) {
	var j tokenizerJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	t := &Tokenizer{special: map[int]bool{}}
	var err error
	if t.normalize, err = buildNormalizer(j.Normalizer); err != nil {
		return nil, err
	}
	if t.pre, err = buildPreTokenizer(j.PreTokenizer); err != nil {
		return nil, err
	}
	if t.model, t.vocab, t.unk, err = buildModel(j.Model); err != nil {
		return nil, err
	}
	for _, a := range j.AddedTokens {
		if _, ok := t.vocab[a.Content]; !ok {
			t.vocab[a.Content] = a.ID
		}
		if a.Special {
			t.special[a.ID] = true
		}
	}
	return t, nil
}

// Encode returns the ids of text's tokens, unknown ones included.
func (t *Tokenizer) Encode(text string) []int {
	out := make([]int, 0, len(text)/4)
	for _, w := range t.pre([]string{t.normalize(text)}) {
		if w != "" {
			out = t.model.encode(w, out)
		}
	}
	return out
}

// VocabSize is one more than the largest token id.
func (t *Tokenizer) VocabSize() int {
	n := 0
	for _, id := range t.vocab {
		n = max(n, id+1)
	}
	return n
}

// typeOf reads the "type" of a tokenizer.json component; null gives "".
func typeOf(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var h struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", err
	}
	return h.Type, nil
}

// ---- normalizers ----

func buildNormalizer(raw json.RawMessage) (func(string) string, error) {
	typ, err := typeOf(raw)
	if err != nil {
		return nil, fmt.Errorf("normalizer: %v", err)
	}
	switch typ {
	case "":
		return func(s string) string { return s }, nil
	case "Sequence":
		var j struct {
			Normalizers []json.RawMessage `json:"normalizers"`
		}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("normalizer Sequence: %v", err)
		}
		var fs []func(string) string
		for _, r := range j.Normalizers {
			f, err := buildNormalizer(r)
			if err != nil {
				return nil, err
			}
			fs = append(fs, f)
		}
		return func(s string) string {
			for _, f := range fs {
				s = f(s)
			}
			return s
		}, nil
	case "BertNormalizer":
		j := struct {
			CleanText    bool  `json:"clean_text"`
			Chinese      bool  `json:"handle_chinese_chars"`
			StripAccents *bool `json:"strip_accents"`
			Lowercase    bool  `json:"lowercase"`
		}{CleanText: true, Chinese: true, Lowercase: true}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("normalizer BertNormalizer: %v", err)
		}
		strip := j.Lowercase // strip_accents: null follows lowercase
		if j.StripAccents != nil {
			strip = *j.StripAccents
		}
		return func(s string) string {
			if j.CleanText {
				s = cleanText(s)
			}
			if j.Chinese {
				s = spaceChinese(s)
			}
			if strip && !isASCII(s) { // ASCII has no accents to strip
				s = stripAccents(norm.NFD.String(s))
			}
			if j.Lowercase {
				s = strings.ToLower(s)
			}
			return s
		}, nil
	case "Lowercase":
		return strings.ToLower, nil
	case "NFC":
		return norm.NFC.String, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKC":
		return norm.NFKC.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	case "StripAccents":
		return stripAccents, nil
	case "Strip":
		j := struct {
			Left  bool `json:"strip_left"`
			Right bool `json:"strip_right"`
		}{true, true}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("normalizer Strip: %v", err)
		}
		return func(s string) string {
			if j.Left {
				s = strings.TrimLeftFunc(s, unicode.IsSpace)
			}
			if j.Right {
				s = strings.TrimRightFunc(s, unicode.IsSpace)
			}
			return s
		}, nil
	case "Prepend":
		var j struct {
			Prepend string `json:"prepend"`
		}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("normalizer Prepend: %v", err)
		}
		return func(s string) string {
			if s == "" {
				return s
			}
			return j.Prepend + s
		}, nil
	case "Replace":
		var j struct {
			Pattern struct {
				String *string `json:"String"`
				Regex  *string `json:"Regex"`
			} `json:"pattern"`
			Content string `json:"content"`
		}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("normalizer Replace: %v", err)
		}
		switch {
		case j.Pattern.String != nil:
			old := *j.Pattern.String
			return func(s string) string { return strings.ReplaceAll(s, old, j.Content) }, nil
		case j.Pattern.Regex != nil:
			re, err := regexp.Compile(*j.Pattern.Regex)
			if err != nil {
				return nil, fmt.Errorf("normalizer Replace: unsupported regular expression %q: %v", *j.Pattern.Regex, err)
			}
			return func(s string) string { return re.ReplaceAllLiteralString(s, j.Content) }, nil
		}
		return nil, fmt.Errorf("normalizer Replace: no pattern")
	}
	return nil, fmt.Errorf("unsupported normalizer type %q", typ)
}

// cleanText drops control characters and turns every whitespace into a
// space, as BERT's normalizer does.
func cleanText(s string) string {
	if isASCII(s) {
		b := []byte(s)
		n := 0
		for _, c := range b {
			switch {
			case c == '\t' || c == '\n' || c == '\r':
				c = ' '
			case c < 0x20 || c == 0x7f:
				continue
			}
			b[n] = c
			n++
		}
		return string(b[:n])
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == 0 || r == utf8.RuneError:
			return -1
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.Is(unicode.C, r):
			return -1
		case unicode.IsSpace(r):
			return ' '
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// spaceChinese puts spaces around CJK ideographs.
func spaceChinese(s string) string {
	if !strings.ContainsFunc(s, isCJK) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isCJK(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B920 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// stripAccents drops combining marks (of text already decomposed).
func stripAccents(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

// ---- pre-tokenizers ----

func buildPreTokenizer(raw json.RawMessage) (func([]string) []string, error) {
	typ, err := typeOf(raw)
	if err != nil {
		return nil, fmt.Errorf("pre_tokenizer: %v", err)
	}
	each := func(split func(string, []string) []string) func([]string) []string {
		return func(in []string) []string {
			var out []string
			for _, s := range in {
				out = split(s, out)
			}
			return out
		}
	}
	switch typ {
	case "":
		return func(in []string) []string { return in }, nil
	case "Sequence":
		var j struct {
			PreTokenizers []json.RawMessage `json:"pretokenizers"`
		}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("pre_tokenizer Sequence: %v", err)
		}
		var fs []func([]string) []string
		for _, r := range j.PreTokenizers {
			f, err := buildPreTokenizer(r)
			if err != nil {
				return nil, err
			}
			fs = append(fs, f)
		}
		return func(in []string) []string {
			for _, f := range fs {
				in = f(in)
			}
			return in
		}, nil
	case "BertPreTokenizer":
		return each(func(s string, out []string) []string { return splitRuns(s, out, isBertPunct, true) }), nil
	case "Punctuation":
		return each(func(s string, out []string) []string { return splitRuns(s, out, isBertPunct, false) }), nil
	case "WhitespaceSplit":
		return each(func(s string, out []string) []string { return append(out, strings.Fields(s)...) }), nil
	case "Whitespace":
		return each(splitWordsAndSymbols), nil
	case "Metaspace":
		j := struct {
			Replacement   string  `json:"replacement"`
			PrependScheme string  `json:"prepend_scheme"`
			AddPrefix     *bool   `json:"add_prefix_space"`
			Split         *bool   `json:"split"`
			StrRep        *string `json:"str_rep"`
		}{Replacement: "▁"}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("pre_tokenizer Metaspace: %v", err)
		}
		if j.Replacement == "" && j.StrRep != nil {
			j.Replacement = *j.StrRep
		}
		if j.PrependScheme == "" { // older files: add_prefix_space
			j.PrependScheme = "always"
			if j.AddPrefix != nil && !*j.AddPrefix {
				j.PrependScheme = "never"
			}
		}
		split := j.Split == nil || *j.Split
		rep := j.Replacement
		return func(in []string) []string {
			var out []string
			for i, s := range in {
				s = strings.ReplaceAll(s, " ", rep)
				if (j.PrependScheme == "always" || (j.PrependScheme == "first" && i == 0)) && s != "" && !strings.HasPrefix(s, rep) {
					s = rep + s
				}
				if !split {
					out = append(out, s)
					continue
				}
				for s != "" { // each piece but the first starts with the replacement
					k := strings.Index(s[1:], rep)
					if k < 0 {
						out = append(out, s)
						break
					}
					out = append(out, s[:k+1])
					s = s[k+1:]
				}
			}
			return out
		}, nil
	}
	return nil, fmt.Errorf("unsupported pre_tokenizer type %q", typ)
}

// splitRuns splits s at whitespace (dropped) and isolates each punctuation
// character; with dropSpace false, whitespace stays in the words.
func splitRuns(s string, out []string, punct func(rune) bool, dropSpace bool) []string {
	start := -1
	for i, r := range s {
		switch {
		case dropSpace && unicode.IsSpace(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		case punct(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, string(r))
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func isBertPunct(r rune) bool {
	if r < 128 {
		return (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126)
	}
	return unicode.IsPunct(r)
}

// splitWordsAndSymbols is the Whitespace pre-tokenizer, \w+|[^\w\s]+.
func splitWordsAndSymbols(s string, out []string) []string {
	start, kind := -1, 0 // kind 1: word, 2: symbols
	for i, r := range s {
		k := 2
		if unicode.IsSpace(r) {
			k = 0
		} else if isWordRune(r) {
			k = 1
		}
		if k != kind {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start, kind = i, k
			if k == 0 {
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) || unicode.Is(unicode.Pc, r)
}

// ---- models ----

func buildModel(raw json.RawMessage) (m tokenModel, vocab map[string]int, unk int, err error) {
	typ, err := typeOf(raw)
	if err != nil {
		return nil, nil, -1, fmt.Errorf("model: %v", err)
	}
	switch typ {
	case "WordPiece":
		j := struct {
			Vocab    map[string]int `json:"vocab"`
			Unk      string         `json:"unk_token"`
			Prefix   *string        `json:"continuing_subword_prefix"`
			MaxChars int            `json:"max_input_chars_per_word"`
		}{Unk: "[UNK]", MaxChars: 100}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, nil, -1, fmt.Errorf("WordPiece model: %v", err)
		}
		prefix := "##"
		if j.Prefix != nil {
			prefix = *j.Prefix
		}
		unk, ok := j.Vocab[j.Unk]
		if !ok {
			return nil, nil, -1, fmt.Errorf("WordPiece model: the unknown token %q is not in the vocabulary", j.Unk)
		}
		wp := &wordPiece{first: map[string]int{}, cont: map[string]int{}, unk: unk, maxChars: j.MaxChars}
		for tok, id := range j.Vocab {
			wp.first[tok] = id
			if rest, ok := strings.CutPrefix(tok, prefix); ok && prefix != "" {
				wp.cont[rest] = id
			}
		}
		if prefix == "" {
			wp.cont = wp.first
		}
		return wp, j.Vocab, unk, nil
	case "WordLevel":
		j := struct {
			Vocab map[string]int `json:"vocab"`
			Unk   string         `json:"unk_token"`
		}{}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, nil, -1, fmt.Errorf("WordLevel model: %v", err)
		}
		unk, ok := j.Vocab[j.Unk]
		if !ok {
			unk = -1
		}
		return wordLevel{vocab: j.Vocab, unk: unk}, j.Vocab, unk, nil
	case "Unigram":
		var j struct {
			Vocab        [][2]json.RawMessage `json:"vocab"`
			UnkID        *int                 `json:"unk_id"`
			ByteFallback bool                 `json:"byte_fallback"`
		}
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, nil, -1, fmt.Errorf("Unigram model: %v", err)
		}
		pieces := make([]string, len(j.Vocab))
		scores := make([]float64, len(j.Vocab))
		for i, e := range j.Vocab {
			if json.Unmarshal(e[0], &pieces[i]) != nil || json.Unmarshal(e[1], &scores[i]) != nil {
				return nil, nil, -1, fmt.Errorf("Unigram model: vocabulary entry %d is not [piece, score]", i)
			}
		}
		unk := -1
		if j.UnkID != nil {
			if *j.UnkID < 0 || *j.UnkID >= len(pieces) {
				return nil, nil, -1, fmt.Errorf("Unigram model: unk_id %d outside the vocabulary of %d", *j.UnkID, len(pieces))
			}
			unk = *j.UnkID
		}
		u := newUnigram(pieces, scores, unk, j.ByteFallback)
		return u, u.vocab, unk, nil
	case "":
		return nil, nil, -1, fmt.Errorf("the tokenizer has no model type")
	}
	return nil, nil, -1, fmt.Errorf("unsupported tokenizer model type %q (supported: WordPiece, Unigram, WordLevel)", typ)
}

// wordPiece is BERT's greedy longest-match-first subword model.
type wordPiece struct {
	first, cont map[string]int // whole vocabulary; continuation pieces without their prefix
	unk         int
	maxChars    int
}

func (w *wordPiece) encode(word string, out []int) []int {
	if utf8.RuneCountInString(word) > w.maxChars {
		return append(out, w.unk)
	}
	n := len(out)
	for start := 0; start < len(word); {
		vocab := w.first
		if start > 0 {
			vocab = w.cont
		}
		end := len(word)
		for ; end > start; end = prevBoundary(word, end) {
			if id, ok := vocab[word[start:end]]; ok {
				out = append(out, id)
				break
			}
		}
		if end == start { // no piece fits: the whole word is unknown
			return append(out[:n], w.unk)
		}
		start = end
	}
	return out
}

func prevBoundary(s string, i int) int {
	_, size := utf8.DecodeLastRuneInString(s[:i])
	return i - size
}

type wordLevel struct {
	vocab map[string]int
	unk   int
}

func (w wordLevel) encode(word string, out []int) []int {
	if id, ok := w.vocab[word]; ok {
		return append(out, id)
	}
	if w.unk >= 0 {
		return append(out, w.unk)
	}
	return out
}

// unigram is SentencePiece's unigram model: the segmentation with the best
// total score (Viterbi over a byte trie of the pieces).
type unigram struct {
	vocab    map[string]int
	scores   []float64
	unk      int
	unkScore float64
	bytes    *[256]int // byte-fallback pieces <0xNN>, when enabled and complete
	children map[uint64]int32
	tokenAt  []int32 // trie node → piece id, or -1
}

func newUnigram(pieces []string, scores []float64, unk int, byteFallback bool) *unigram {
	u := &unigram{vocab: make(map[string]int, len(pieces)), scores: scores, unk: unk,
		children: map[uint64]int32{}, tokenAt: []int32{-1}}
	minScore := 0.0
	for id, p := range pieces {
		if _, dup := u.vocab[p]; !dup {
			u.vocab[p] = id
		}
		minScore = min(minScore, scores[id])
		node := int32(0)
		for i := 0; i < len(p); i++ {
			key := uint64(node)<<8 | uint64(p[i])
			next, ok := u.children[key]
			if !ok {
				next = int32(len(u.tokenAt))
				u.tokenAt = append(u.tokenAt, -1)
				u.children[key] = next
			}
			node = next
		}
		if p != "" && u.tokenAt[node] < 0 {
			u.tokenAt[node] = int32(id)
		}
	}
	u.unkScore = minScore - 10
	if byteFallback {
		var b [256]int
		ok := true
		for i := range b {
			id, found := u.vocab[fmt.Sprintf("<0x%02X>", i)]
			b[i], ok = id, ok && found
		}
		if ok {
			u.bytes = &b
		}
	}
	return u
}

func (u *unigram) encode(s string, out []int) []int {
	type cell struct {
		score float64
		id    int // piece ending here; -2 for unknown
		start int
		set   bool
	}
	best := make([]cell, len(s)+1)
	best[0].set = true
	for start := 0; start < len(s); {
		_, size := utf8.DecodeRuneInString(s[start:])
		if best[start].set {
			base := best[start].score
			single := false
			node := int32(0)
			for end := start; end < len(s); end++ {
				next, ok := u.children[uint64(node)<<8|uint64(s[end])]
				if !ok {
					break
				}
				node = next
				if id := u.tokenAt[node]; id >= 0 {
					sc := base + u.scores[id]
					if c := &best[end+1]; !c.set || sc > c.score {
						*c = cell{score: sc, id: int(id), start: start, set: true}
					}
					single = single || end+1 == start+size
				}
			}
			if !single {
				sc := base + u.unkScore
				if c := &best[start+size]; !c.set || sc > c.score {
					*c = cell{score: sc, id: -2, start: start, set: true}
				}
			}
		}
		start += size
	}
	var rev []int
	for end := len(s); end > 0; end = best[end].start {
		c := best[end]
		if c.id != -2 {
			rev = append(rev, c.id)
			continue
		}
		switch {
		case u.bytes != nil:
			for i := end - 1; i >= c.start; i-- {
				rev = append(rev, u.bytes[s[i]])
			}
		case u.unk >= 0:
			if len(rev) == 0 || rev[len(rev)-1] != -1 { // consecutive unknowns fuse
				rev = append(rev, -1)
			}
		}
	}
	for i := len(rev) - 1; i >= 0; i-- {
		if rev[i] == -1 {
			out = append(out, u.unk)
		} else {
			out = append(out, rev[i])
		}
	}
	return out
}
