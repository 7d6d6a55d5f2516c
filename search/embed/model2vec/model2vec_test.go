package model2vec

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentos-dev/agentos/search/embed/model2vec/m2vtest"
)

var wpVocab = []string{"[PAD]", "[UNK]", "hello", "world", "read", "##ing", "file", ",", "!", "cafe"}

var wpRows = [][]float32{
	{0, 0, 0}, // [PAD]
	{9, 9, 9}, // [UNK]: must never count
	{1, 0, 0}, // hello
	{0, 1, 0}, // world
	{0, 0, 2}, // read
	{1, 1, 0}, // ##ing
	{2, 0, 0}, // file
	{0, 0, 4}, // ,
	{4, 0, 0}, // !
	{0, 3, 0}, // cafe
}

func writeWordPiece(t *testing.T, dtype string, normalize bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiny-wp")
	err := m2vtest.Write(dir, m2vtest.WordPiece(wpVocab),
		map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix(dtype, wpRows)}, normalize)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func near(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func unit(v ...float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(s))
	}
	return out
}

func TestWordPieceEmbeddings(t *testing.T) {
	for _, dtype := range []string{"F32", "F16"} {
		t.Run(dtype, func(t *testing.T) {
			m, err := Load(writeWordPiece(t, dtype, false))
			if err != nil {
				t.Fatal(err)
			}
			if m.Dim() != 3 || !strings.HasPrefix(m.Name(), "model2vec:tiny-wp@") || m.Normalized() {
				t.Fatalf("dim %d name %q normalized %v", m.Dim(), m.Name(), m.Normalized())
			}
			for _, c := range []struct {
				text string
				want []float32
			}{
				{"Hello, World!", []float32{1.25, 0.25, 1}}, // hello , world !
				{"reading", []float32{0.5, 0.5, 1}},         // read ##ing
				{"Café", []float32{0, 3, 0}},                // accents stripped, lower-cased
				{"xyzzy hello", []float32{1, 0, 0}},         // [UNK] dropped
				{"readx", []float32{0, 0, 0}},               // a word with no full split is [UNK]
				{"", []float32{0, 0, 0}},
				{"\tFILE\x00\n", []float32{2, 0, 0}}, // control characters cleaned
			} {
				vs, err := m.Embed(context.Background(), []string{c.text})
				if err != nil {
					t.Fatal(err)
				}
				if !near(vs[0], c.want) {
					t.Errorf("%q: got %v, want %v", c.text, vs[0], c.want)
				}
			}
			if got := m.Tokenizer().Encode("Hello, World! xyzzy"); !slices.Equal(got, []int{2, 7, 3, 8, 1}) {
				t.Errorf("ids %v", got)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	m, err := Load(writeWordPiece(t, "F32", true))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Normalized() {
		t.Fatal("config normalize ignored")
	}
	if got, want := m.Vector("Hello, World!"), unit(1.25, 0.25, 1); !near(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := m.Vector("xyzzy"); !near(got, []float32{0, 0, 0}) {
		t.Errorf("no tokens: %v", got)
	}
	raw := m.WithNormalize(false)
	if raw.Name() == m.Name() || m.WithNormalize(true).Name() != m.Name() {
		t.Errorf("names: %s %s", raw.Name(), m.Name())
	}
	if got := raw.Vector("Hello, World!"); !near(got, []float32{1.25, 0.25, 1}) {
		t.Errorf("WithNormalize(false): %v", got)
	}
}

func TestNameFollowsContent(t *testing.T) {
	a, err := Load(writeWordPiece(t, "F32", false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(writeWordPiece(t, "F16", false))
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := Load(writeWordPiece(t, "F32", false))
	if a.Name() == b.Name() || a.Name() != a2.Name() {
		t.Errorf("names %s %s %s", a.Name(), b.Name(), a2.Name())
	}
}

func TestUnigramEmbeddings(t *testing.T) {
	pieces := []string{"[UNK]", "▁hello", "▁world", "▁hello▁world", "▁he", "llo", "l", "▁"}
	scores := []float64{0, -1.5, -1.5, -2, -2, -2, -3, -4}
	rows := [][]float32{{9, 9}, {1, 0}, {0, 1}, {2, 2}, {4, 0}, {0, 4}, {1, 1}, {0, 8}}
	dir := t.TempDir()
	if err := m2vtest.Write(dir, m2vtest.Unigram(pieces, scores, 0),
		map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix("F32", rows)}, false); err != nil {
		t.Fatal(err)
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		ids  []int
		want []float32
	}{
		{"Hello  World ", []int{3}, []float32{2, 2}}, // the multiword piece beats two pieces
		{"hello", []int{1}, []float32{1, 0}},
		{"hellx", []int{4, 6, 6, 0}, []float32{2, 2.0 / 3}}, // ▁he l l [UNK]
		{"", nil, []float32{0, 0}},
	} {
		if ids := m.Tokenizer().Encode(c.text); !slices.Equal(ids, c.ids) {
			t.Errorf("%q: ids %v, want %v", c.text, ids, c.ids)
		}
		if got := m.Vector(c.text); !near(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.text, got, c.want)
		}
	}
}

func TestQuantisedVocabulary(t *testing.T) {
	dir := t.TempDir()
	rows := [][]float32{{0, 0}, {1, 0}, {0, 1}}
	// Ten tokens share three rows; "hello" counts double.
	mapping := []int32{0, 0, 1, 2, 1, 1, 1, 1, 1, 1}
	weights := make([]float32, 10)
	for i := range weights {
		weights[i] = 1
	}
	weights[2] = 2
	err := m2vtest.Write(dir, m2vtest.WordPiece(wpVocab), map[string]m2vtest.Tensor{
		"embeddings": m2vtest.Matrix("F32", rows),
		"mapping":    {DType: "I32", Shape: []int{10}, Ints: mapping},
		"weights":    {DType: "F32", Shape: []int{10}, Floats: weights},
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Vector("hello world"); !near(got, []float32{1, 0.5}) { // (2·[1,0] + [0,1]) / 2
		t.Errorf("got %v", got)
	}
}

func TestTruncation(t *testing.T) {
	m, err := Load(writeWordPiece(t, "F32", false))
	if err != nil {
		t.Fatal(err)
	}
	// Only the first MaxTokens tokens count.
	text := strings.Repeat("hello ", MaxTokens) + strings.Repeat("world ", 100)
	if got := m.Vector(text); !near(got, []float32{1, 0, 0}) {
		t.Errorf("got %v", got)
	}
}

func TestConcurrentEmbed(t *testing.T) {
	m, err := Load(writeWordPiece(t, "F16", true))
	if err != nil {
		t.Fatal(err)
	}
	want := m.Vector("reading a file")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got := m.Vector("reading a file"); !near(got, want) {
					t.Error("concurrent embeddings differ")
					return
				}
			}
		})
	}
	wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"x"}); err == nil {
		t.Error("cancelled context ignored")
	}
}

func TestInspect(t *testing.T) {
	dir := writeWordPiece(t, "F16", false)
	info, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if info.Dim != 3 || info.Rows != 10 || info.DType != "F16" || info.Weight == 0 {
		t.Errorf("%+v", info)
	}
}

func TestMalformed(t *testing.T) {
	good := m2vtest.Safetensors(map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix("F32", wpRows)})
	hdrLen := int(binary.LittleEndian.Uint64(good))
	withLen := func(n uint64, rest []byte) []byte {
		return append(binary.LittleEndian.AppendUint64(nil, n), rest...)
	}
	short := m2vtest.Matrix("F32", wpRows)
	short.Shape = []int{10, 4} // more than the data holds
	for _, c := range []struct {
		name      string
		weights   []byte
		tokenizer []byte
		want      string
	}{
		{"tiny file", []byte{1, 2, 3}, nil, "too short to hold the 8-byte header length"},
		{"truncated header", good[:8+hdrLen/2], nil, "truncated: the header needs"},
		{"truncated data", good[:len(good)-8], nil, "outside the file's"},
		{"implausible header", withLen(1<<40, nil), nil, "implausible"},
		{"bad JSON", withLen(5, []byte("{oops")), nil, "header is not valid JSON"},
		{"missing tensor", m2vtest.Safetensors(map[string]m2vtest.Tensor{"vectors": m2vtest.Matrix("F32", wpRows)}), nil,
			`no "embeddings" tensor (tensors: vectors)`},
		{"one-dimensional", m2vtest.Safetensors(map[string]m2vtest.Tensor{"embeddings": {DType: "F32", Shape: []int{3}, Floats: []float32{1, 2, 3}}}), nil,
			"expected [tokens, dimensions]"},
		{"shape larger than data", m2vtest.Safetensors(map[string]m2vtest.Tensor{"embeddings": short}), nil, "needs 160 bytes, the file holds 120"},
		{"fewer rows than tokens", m2vtest.Safetensors(map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix("F32", wpRows[:5])}), nil,
			"the tokenizer has 10 tokens but the embeddings matrix has 5 rows"},
		{"integer embeddings", m2vtest.Safetensors(map[string]m2vtest.Tensor{"embeddings": {DType: "I32", Shape: []int{10, 1}, Ints: make([]int32, 10)}}), nil,
			"element type I32"},
		{"unknown tokenizer type", nil, []byte(`{"model": {"type": "BPE", "vocab": {}}}`), `unsupported tokenizer model type "BPE"`},
		{"unknown normalizer", nil, []byte(`{"normalizer": {"type": "Precompiled"}, "model": {"type": "WordLevel", "vocab": {}}}`),
			`unsupported normalizer type "Precompiled"`},
		{"unknown pre-tokenizer", nil, []byte(`{"pre_tokenizer": {"type": "ByteLevel"}, "model": {"type": "WordLevel", "vocab": {}}}`),
			`unsupported pre_tokenizer type "ByteLevel"`},
		{"no unknown token", nil, []byte(`{"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"a": 0}}}`),
			`the unknown token "[UNK]" is not in the vocabulary`},
		{"tokenizer not JSON", nil, []byte(`<html>`), "tokenizer.json: not valid JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeWordPiece(t, "F32", false)
			if c.weights != nil {
				os.WriteFile(filepath.Join(dir, WeightsFile), c.weights, 0o644)
			}
			if c.tokenizer != nil {
				os.WriteFile(filepath.Join(dir, TokenizerFile), c.tokenizer, 0o644)
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}

	dir := writeWordPiece(t, "F32", false)
	os.Remove(filepath.Join(dir, TokenizerFile))
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), TokenizerFile) {
		t.Errorf("missing tokenizer: %v", err)
	}
	dir = writeWordPiece(t, "F32", false)
	os.WriteFile(filepath.Join(dir, ConfigFile), []byte("{"), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "config.json: not valid JSON") {
		t.Errorf("bad config: %v", err)
	}
	dir = writeWordPiece(t, "F32", true)
	os.Remove(filepath.Join(dir, ConfigFile))
	if m, err := Load(dir); err != nil || m.Normalized() {
		t.Errorf("without config.json: %v, normalized %v", err, m != nil && m.Normalized())
	}
}

func TestHalf(t *testing.T) {
	for _, c := range []struct {
		h    uint16
		want float32
	}{
		{0x3c00, 1}, {0xc000, -2}, {0x3555, 0.33325195}, {0x0001, 5.9604645e-08}, {0x8000, float32(math.Copysign(0, -1))},
		{0x7bff, 65504}, {0x7c00, float32(math.Inf(1))},
	} {
		if got := halfToFloat(c.h); got != c.want {
			t.Errorf("%#04x: %v, want %v", c.h, got, c.want)
		}
	}
	if !math.IsNaN(float64(halfToFloat(0x7e00))) {
		t.Error("NaN")
	}
	for _, f := range []float32{1, -2.5, 0.125, 1000, 0.1} {
		if got := halfToFloat(m2vtest.FloatToHalf(f)); math.Abs(float64(got-f)) > math.Abs(float64(f))*1e-3 {
			t.Errorf("round trip %v: %v", f, got)
		}
	}
}
