package model2vec

import (
	"slices"
	"testing"
)

func pre(t *testing.T, spec, text string) []string {
	t.Helper()
	f, err := buildPreTokenizer([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	return f([]string{text})
}

func TestPreTokenizers(t *testing.T) {
	for _, c := range []struct {
		spec, text string
		want       []string
	}{
		{`{"type":"BertPreTokenizer"}`, "Hi, there!  a.b", []string{"Hi", ",", "there", "!", "a", ".", "b"}},
		{`{"type":"Whitespace"}`, "foo_bar(x)+= 1", []string{"foo_bar", "(", "x", ")+=", "1"}},
		{`{"type":"WhitespaceSplit"}`, " a\tb,c ", []string{"a", "b,c"}},
		{`{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}`, "hey  friend", []string{"▁hey", "▁", "▁friend"}},
		{`{"type":"Metaspace","replacement":"▁","add_prefix_space":true}`, "a b", []string{"▁a", "▁b"}},
		{`{"type":"Metaspace","replacement":"▁","prepend_scheme":"never","split":false}`, "a b", []string{"a▁b"}},
		{`{"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},{"type":"Punctuation"}]}`, "a,b c", []string{"a", ",", "b", "c"}},
	} {
		if got := pre(t, c.spec, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %q, want %q", c.spec, c.text, got, c.want)
		}
	}
}

func TestNormalizers(t *testing.T) {
	for _, c := range []struct {
		spec, text, want string
	}{
		{`{"type":"BertNormalizer","lowercase":false}`, "Ça\u00a0va\u2028\u0085\v!", "Ça va !"},
		{`{"type":"BertNormalizer","lowercase":true}`, "Ça 你好", "ca  你  好 "},
		{`{"type":"Sequence","normalizers":[{"type":"NFD"},{"type":"StripAccents"},{"type":"Lowercase"}]}`, "Éte", "ete"},
		{`{"type":"Replace","pattern":{"String":","},"content":" , "}`, "a,b", "a , b"},
		{`{"type":"Strip","strip_left":false,"strip_right":true}`, " a ", " a"},
		{`{"type":"Prepend","prepend":"▁"}`, "a", "▁a"},
		{`null`, "As Is", "As Is"},
	} {
		f, err := buildNormalizer([]byte(c.spec))
		if err != nil {
			t.Fatal(err)
		}
		if got := f(c.text); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.spec, c.text, got, c.want)
		}
	}
	if _, err := buildNormalizer([]byte(`{"type":"Replace","pattern":{"Regex":"(?<=a)b"},"content":""}`)); err == nil {
		t.Error("unsupported regular expression accepted")
	}
}

func TestWordLevel(t *testing.T) {
	tok, err := ParseTokenizer([]byte(`{"pre_tokenizer":{"type":"WhitespaceSplit"},
		"model":{"type":"WordLevel","unk_token":"<unk>","vocab":{"<unk>":0,"go":1,"test":2}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Encode("go vet test"); !slices.Equal(got, []int{1, 0, 2}) {
		t.Errorf("%v", got)
	}
	if tok.VocabSize() != 3 {
		t.Errorf("vocab size %d", tok.VocabSize())
	}
}

func TestUnigramByteFallback(t *testing.T) {
	pieces := []string{"<unk>", "▁a"}
	for i := range 256 {
		pieces = append(pieces, "<0x"+string("0123456789ABCDEF"[i>>4])+string("0123456789ABCDEF"[i&15])+">")
	}
	u := newUnigram(pieces, make([]float64, len(pieces)), 0, true)
	// "▁aé": ▁a, then é as its two UTF-8 bytes 0xC3 0xA9.
	if got := u.encode("▁aé", nil); !slices.Equal(got, []int{1, 2 + 0xC3, 2 + 0xA9}) {
		t.Errorf("%v", got)
	}
}
