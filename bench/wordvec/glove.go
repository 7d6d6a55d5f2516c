package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// readGlove reads pre-trained word vectors in GloVe's text format (a word and
// its components on each line, most frequent word first) and returns them as
// search terms: each word is cut by package tokenize as the index cuts text,
// and the words that share a term (a stem) are averaged, each weighted by
// 1/rank so that the common spelling speaks for the stem. At most maxWords
// lowercase alphabetic words are read; stop words and words that are not one
// term are skipped. The vectors are centred and normalised as trained ones are.
func readGlove(path string, maxWords int, zipf bool) ([]string, []float32, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	var (
		words []string
		ranks []int // the first (most frequent) word's rank of each term
		ids   = map[string]int{}
		sums  [][]float64
		d     int
		read  int
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && read < maxWords {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || !lowerAlpha(fields[0]) {
			continue
		}
		if d == 0 {
			d = len(fields) - 1
		}
		if len(fields)-1 != d {
			return nil, nil, 0, fmt.Errorf("reading %s: %q has %d components, want %d", path, fields[0], len(fields)-1, d)
		}
		read++
		var terms []string
		tokenize.Each(fields[0], func(t tokenize.Term) {
			if !t.Whole {
				terms = append(terms, t.Text)
			}
		})
		if len(terms) != 1 {
			continue
		}
		v := make([]float64, d)
		var norm float64
		for i, s := range fields[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("reading %s: %q: %w", path, fields[0], err)
			}
			v[i] = x
			norm += x * x
		}
		if norm == 0 {
			continue
		}
		weight := 1 / (math.Sqrt(norm) * float64(read))
		id, ok := ids[terms[0]]
		if !ok {
			id = len(words)
			ids[terms[0]] = id
			words = append(words, terms[0])
			ranks = append(ranks, read)
			sums = append(sums, make([]float64, d))
		}
		for i := range v {
			sums[id][i] += v[i] * weight
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(words) == 0 {
		return nil, nil, 0, fmt.Errorf("reading %s: no vectors", path)
	}
	mean := make([]float64, d)
	for _, s := range sums {
		norm := 0.0
		for _, x := range s {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		for i := range s {
			s[i] /= norm
			mean[i] += s[i] / float64(len(sums))
		}
	}
	vecs := make([]float32, len(words)*d)
	for w, s := range sums {
		norm := 0.0
		for i := range s {
			s[i] -= mean[i]
			norm += s[i] * s[i]
		}
		norm = math.Sqrt(norm)
		if zipf {
			// A frequent word says less: its length grows with the log of
			// its rank, as in a sum of words' vectors rarer words should
			// weigh more (the table keeps each row's length).
			norm /= math.Log(1 + float64(ranks[w]))
		}
		for i := range s {
			vecs[w*d+i] = float32(s[i] / norm)
		}
	}
	return words, vecs, d, nil
}

func lowerAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// readWordNet reads WordNet's database files (index.* and data.* in dir, as
// Debian's wordnet-base installs them) and returns a neighbour table of
// search terms: each one-word lemma's synonyms in its two most frequent
// senses, at cosine 1. Senses of more than six lemmas are skipped: they are
// loose groupings more than synonyms.
func readWordNet(dir string) ([]string, [][]neighbour, error) {
	var words []string
	ids := map[string]int32{}
	var nbs [][]neighbour
	term := func(w string) int32 {
		if !lowerAlpha(w) {
			return -1
		}
		var text string
		tokenize.Each(w, func(t tokenize.Term) {
			if !t.Whole && text == "" {
				text = t.Text
			}
		})
		if text == "" {
			return -1
		}
		i, ok := ids[text]
		if !ok {
			i = int32(len(words))
			ids[text] = i
			words = append(words, text)
			nbs = append(nbs, nil)
		}
		return i
	}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		// data.POS: "offset lexfile type count(hex) lemma lexid lemma lexid …"
		synsets := map[string][]string{}
		if err := eachLine(filepath.Join(dir, "data."+pos), func(f []string) {
			if len(f) < 4 {
				return
			}
			n, err := strconv.ParseInt(f[3], 16, 32)
			if err != nil || len(f) < 4+2*int(n) {
				return
			}
			lemmas := make([]string, n)
			for i := range lemmas {
				l := strings.ToLower(f[4+2*i])
				if j := strings.IndexByte(l, '('); j > 0 { // "big(a)": an adjective's position
					l = l[:j]
				}
				lemmas[i] = l
			}
			synsets[f[0]] = lemmas
		}); err != nil {
			return nil, nil, err
		}
		// index.POS: "lemma pos senses pointers ptr… senses tagged offset…",
		// the offsets most frequent sense first.
		if err := eachLine(filepath.Join(dir, "index."+pos), func(f []string) {
			if len(f) < 4 {
				return
			}
			senses, _ := strconv.Atoi(f[2])
			ptrs, _ := strconv.Atoi(f[3])
			offsets := f[min(len(f), 6+ptrs):]
			if senses < 1 || len(offsets) != senses {
				return
			}
			head := term(f[0])
			if head < 0 {
				return
			}
			for _, off := range offsets[:min(2, senses)] {
				lemmas := synsets[off]
				if len(lemmas) > 6 {
					continue
				}
				for _, l := range lemmas {
					n := term(l)
					if n < 0 || n == head || slices.ContainsFunc(nbs[head], func(x neighbour) bool { return x.id == n }) {
						continue
					}
					nbs[head] = append(nbs[head], neighbour{id: n, sim: 1})
				}
			}
		}); err != nil {
			return nil, nil, err
		}
	}
	if len(words) == 0 {
		return nil, nil, fmt.Errorf("reading %s: no WordNet database", dir)
	}
	for i := range nbs {
		nbs[i] = nbs[i][:min(len(nbs[i]), 8)]
	}
	return words, nbs, nil
}

// eachLine calls fn with the fields of every line of a WordNet file but its
// licence header (lines that start with spaces).
func eachLine(path string, fn func([]string)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, " ") {
			fn(strings.Fields(line))
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
