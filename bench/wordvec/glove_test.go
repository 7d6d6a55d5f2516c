package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// TestReadGlove: spellings of one stem become one term, words that are not
// a single lowercase word are skipped, and every vector comes out of unit
// length.
func TestReadGlove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "glove.txt")
	text := "the 1 0 0\nconnect 0 1 0\nconnected 0 0.8 0.2\nNew 1 1 1\nnode 0 0 1\nu.s. 1 0 1\nnodes 0 0.1 1\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	words, vecs, d, err := readGlove(path, 100, false)
	if err != nil {
		t.Fatal(err)
	}
	if d != 3 {
		t.Fatalf("dimension %d, want 3", d)
	}
	want := []string{tokenize.Stem("connect"), tokenize.Stem("node")}
	if strings.Join(words, ",") != strings.Join(want, ",") {
		t.Fatalf("terms %q, want %q (a stop word, a capitalised word and a non-word are skipped)", words, want)
	}
	for i := range words {
		var n float64
		for _, x := range vecs[i*d : (i+1)*d] {
			n += float64(x * x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Errorf("%s: squared length %.4f, want 1", words[i], n)
		}
	}
	if _, _, _, err := readGlove(filepath.Join(t.TempDir(), "missing"), 10, false); err == nil {
		t.Error("a missing file gave no error")
	}
}

// TestReadWordNet reads a two-sense word from WordNet-format files: the
// synonyms of its two most frequent senses are kept, a third sense's are not,
// and multi-word lemmas are skipped.
func TestReadWordNet(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"data.verb": "  1 licence header\n" +
			"00000001 30 v 02 delete 0 erase 0 000 | remove\n" +
			"00000002 30 v 02 delete 0 cancel 0 000 | strike out\n" +
			"00000003 30 v 02 delete 0 omit 0 000 | leave out\n" +
			"00000004 30 v 02 start 0 begin 0 000 | set in motion\n",
		"index.verb": "  1 licence header\n" +
			"delete v 3 1 @ 3 0 00000001 00000002 00000003\n" +
			"start v 1 0 1 0 00000004\n" +
			"take_out v 1 0 1 0 00000001\n",
	}
	for _, pos := range []string{"noun", "adj", "adv"} {
		files["data."+pos], files["index."+pos] = "", ""
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	words, nbs, err := readWordNet(dir)
	if err != nil {
		t.Fatal(err)
	}
	of := func(w string) []string {
		for i, x := range words {
			if x == tokenize.Stem(w) {
				var out []string
				for _, n := range nbs[i] {
					out = append(out, words[n.id])
				}
				return out
			}
		}
		return nil
	}
	if got, want := strings.Join(of("delete"), ","), tokenize.Stem("erase")+","+tokenize.Stem("cancel"); got != want {
		t.Errorf("delete's synonyms %q, want %q", got, want)
	}
	if got, want := strings.Join(of("start"), ","), tokenize.Stem("begin"); got != want {
		t.Errorf("start's synonyms %q, want %q", got, want)
	}
	if _, _, err := readWordNet(t.TempDir()); err == nil {
		t.Error("a folder without WordNet gave no error")
	}
}

// TestBridgeLearnsPairs trains a bridge on pairs whose description words
// and code words go together only through the pairing (concept k: words
// "descN…" on one side, "codeN…" on the other, with shared noise words), and
// checks it then finds held-out pairs' code from their descriptions, which
// an untrained bridge cannot.
func TestBridgeLearnsPairs(t *testing.T) {
	b := &bridgeCorpus{ids: map[string]int32{}, seen: map[string]bool{}}
	word := func(prefix string, k int) string {
		return prefix + string(rune('a'+k%26)) + string(rune('a'+k/26%26)) + "word"
	}
	r := rng(3)
	for i := 0; i < 20000; i++ {
		k := int(r.next() % 300)
		noise := word("noise", int(r.next()%40))
		q := b.terms(word("desc", k)+" "+word("desc", k+1000)+" "+noise, nil)
		c := b.terms(word("code", k)+" "+word("code", k+2000)+" "+noise, nil)
		for _, id := range append(append([]int32(nil), q...), c...) {
			b.df[id]++
		}
		b.pairs = append(b.pairs, bridgePair{q: q, c: c})
	}
	p := bridgeParams{dim: 16, vocab: 5000, minDF: 2, batch: 64, epochs: 0, lr: 0.05, scale: 20}
	_, _, _, untrained := trainBridge(b, p)
	p.epochs = 2
	_, _, _, trained := trainBridge(b, p)
	if untrained > 0.2 || trained < 0.5 {
		t.Fatalf("held-out MRR@10 %.3f untrained, %.3f trained; want under 0.2, then over 0.5", untrained, trained)
	}
}
