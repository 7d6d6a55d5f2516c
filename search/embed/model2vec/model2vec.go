// Package model2vec loads static embedding models in the model2vec format
// from a local directory and embeds texts with them, in pure Go.
//
// A model directory holds
//
//   - model.safetensors: the embeddings matrix, one row per token (tensor
//     "embeddings", F32, F16, BF16, F64 or I8), and optionally the
//     vocabulary-quantisation tensors "mapping" (token → row) and "weights"
//     (a factor per token);
//   - tokenizer.json: a Hugging Face tokenizer (see Tokenizer for what is
//     supported);
//   - config.json: model2vec's settings, of which "normalize" is used.
//
// A text's embedding is what model2vec's StaticModel.encode computes: the
// text is cut to 512 × the median token length characters, tokenised
// without special tokens, unknown (and special) tokens are dropped, the
// first 512 tokens are kept, their rows (times their weights) are averaged,
// and the mean is L2-normalised when the model says so. A text with no
// known token embeds to the zero vector.
//
// The package depends on nothing in agentos; package embed wraps it as an
// Embedder.
package model2vec

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"
)

// The files of a model directory.
const (
	WeightsFile   = "model.safetensors"
	TokenizerFile = "tokenizer.json"
	ConfigFile    = "config.json"
)

// MaxTokens is how many tokens of a text count, as in model2vec.
const MaxTokens = 512

// Model is a loaded static model. It is immutable and safe for concurrent use.
type Model struct {
	name      string
	dim       int
	rows      []float32 // row-major, dim columns
	mapping   []int     // token id → row; nil: the id is the row
	weights   []float32 // token id → factor; nil: 1
	tok       *Tokenizer
	normalize bool
	maxChars  int // texts are cut to this many characters before tokenising
	digest    string
}

// Load reads the model in dir. Errors name the file and say what is wrong.
func Load(dir string) (*Model, error) {
	m := &Model{}
	h := sha256.New()

	data, err := os.ReadFile(filepath.Join(dir, WeightsFile))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	h.Write(data)
	if err := m.readWeights(data); err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", filepath.Join(dir, WeightsFile), err)
	}

	data, err = os.ReadFile(filepath.Join(dir, TokenizerFile))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %w", err)
	}
	h.Write(data)
	if m.tok, err = ParseTokenizer(data); err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", filepath.Join(dir, TokenizerFile), err)
	}

	var cfg struct {
		Normalize *bool `json:"normalize"`
	}
	data, err = os.ReadFile(filepath.Join(dir, ConfigFile))
	switch {
	case errors.Is(err, os.ErrNotExist): // defaults
	case err != nil:
		return nil, fmt.Errorf("model2vec: %w", err)
	default:
		if err := json.Unmarshal(data, &cfg); err != nil {
			return nil, fmt.Errorf("model2vec: %s: not valid JSON: %v", filepath.Join(dir, ConfigFile), err)
		}
	}
	m.normalize = cfg.Normalize != nil && *cfg.Normalize // model2vec's default is false

	if err := m.check(); err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", dir, err)
	}
	m.maxChars = MaxTokens * medianLen(m.tok.vocab)
	m.digest = hex.EncodeToString(h.Sum(nil))
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	m.name = filepath.Base(abs)
	return m, nil
}

func (m *Model) readWeights(data []byte) error {
	ts, start, err := readHeader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for _, t := range ts {
		t.data = data[start+t.Offsets[0] : start+t.Offsets[1]]
	}
	emb := ts["embeddings"]
	if emb == nil {
		emb = ts["0"] // older exports
	}
	if emb == nil {
		return fmt.Errorf(`no "embeddings" tensor (tensors: %s)`, names(ts))
	}
	if len(emb.Shape) != 2 || emb.Shape[0] == 0 || emb.Shape[1] == 0 {
		return fmt.Errorf("tensor %q has shape %v; expected [tokens, dimensions]", emb.Name, emb.Shape)
	}
	if m.rows, err = emb.floats(); err != nil {
		return err
	}
	m.dim = int(emb.Shape[1])
	if t := ts["mapping"]; t != nil {
		if m.mapping, err = t.ints(); err != nil {
			return err
		}
	}
	if t := ts["weights"]; t != nil {
		if m.weights, err = t.floats(); err != nil {
			return err
		}
	}
	return nil
}

// check that every token has a row (and a weight).
func (m *Model) check() error {
	vocab := m.tok.VocabSize()
	nRows := len(m.rows) / m.dim
	if m.mapping == nil {
		if vocab > nRows {
			return fmt.Errorf("the tokenizer has %d tokens but the embeddings matrix has %d rows", vocab, nRows)
		}
	} else {
		if len(m.mapping) < vocab {
			return fmt.Errorf("the tokenizer has %d tokens but the mapping tensor has %d entries", vocab, len(m.mapping))
		}
		for id, r := range m.mapping {
			if r < 0 || r >= nRows {
				return fmt.Errorf("the mapping sends token %d to row %d of %d", id, r, nRows)
			}
		}
	}
	if m.weights != nil && len(m.weights) < vocab {
		return fmt.Errorf("the tokenizer has %d tokens but the weights tensor has %d entries", vocab, len(m.weights))
	}
	return nil
}

// medianLen is the median length in characters of the vocabulary's tokens,
// rounded down (numpy's median of an even count is the mean of the middle two).
func medianLen(vocab map[string]int) int {
	ls := make([]int, 0, len(vocab))
	for t := range vocab {
		ls = append(ls, utf8.RuneCountInString(t))
	}
	if len(ls) == 0 {
		return 1
	}
	slices.Sort(ls)
	n := len(ls)
	med := ls[n/2]
	if n%2 == 0 {
		med = (ls[n/2-1] + ls[n/2]) / 2
	}
	return max(med, 1)
}

// Name identifies the model: the directory's name and a digest of its
// weights and tokenizer, so that a changed model gets a new name.
func (m *Model) Name() string { return "model2vec:" + m.name + "@" + m.digest[:12] }

// Dim is the number of dimensions.
func (m *Model) Dim() int { return m.dim }

// Normalized says whether embeddings are scaled to unit length.
func (m *Model) Normalized() bool { return m.normalize }

// WithNormalize returns a model sharing m's weights that normalises (or
// not) regardless of config.json. Its Name differs from m's when the
// setting does.
func (m *Model) WithNormalize(on bool) *Model {
	c := *m
	if on != m.normalize {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s normalize=%v", m.digest, on))
		c.digest = hex.EncodeToString(sum[:])
	}
	c.normalize = on
	return &c
}

// Tokenizer returns the model's tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// Embed embeds each text (see the package documentation).
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = m.Vector(t)
	}
	return out, nil
}

// Vector embeds one text.
func (m *Model) Vector(text string) []float32 {
	v := make([]float32, m.dim)
	if utf8.RuneCountInString(text) > m.maxChars {
		n := 0
		for i := range text {
			if n == m.maxChars {
				text = text[:i]
				break
			}
			n++
		}
	}
	ids := m.tok.Encode(text)
	kept := ids[:0]
	for _, id := range ids {
		if id != m.tok.unk && !m.tok.special[id] {
			kept = append(kept, id)
		}
	}
	kept = kept[:min(len(kept), MaxTokens)]
	count := len(kept)
	if count == 0 {
		return v
	}
	// Each distinct token's row is added once, times its frequency.
	slices.Sort(kept)
	for i := 0; i < len(kept); {
		id, j := kept[i], i+1
		for j < len(kept) && kept[j] == id {
			j++
		}
		r, w := id, float32(j-i)
		if m.mapping != nil {
			r = m.mapping[id]
		}
		if m.weights != nil {
			w *= m.weights[id]
		}
		row := m.rows[r*m.dim : (r+1)*m.dim]
		for k, x := range row {
			v[k] += w * x
		}
		i = j
	}
	inv := 1 / float32(count)
	for j := range v {
		v[j] *= inv
	}
	if m.normalize {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		if s > 0 {
			k := float32(1 / math.Sqrt(s))
			for j := range v {
				v[j] *= k
			}
		}
	}
	return v
}

// Info describes a model directory without loading it.
type Info struct {
	Dim    int    `json:"dim"`    // dimensions
	Rows   int    `json:"rows"`   // rows of the embeddings matrix
	DType  string `json:"dtype"`  // element type of the embeddings
	Weight int64  `json:"weight"` // size of model.safetensors in bytes
}

// Inspect reads only the header of dir's model.safetensors.
func Inspect(dir string) (Info, error) {
	path := filepath.Join(dir, WeightsFile)
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	ts, _, err := readHeader(f, st.Size())
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	emb := ts["embeddings"]
	if emb == nil {
		emb = ts["0"]
	}
	if emb == nil || len(emb.Shape) != 2 {
		return Info{}, fmt.Errorf(`%s: no 2-dimensional "embeddings" tensor (tensors: %s)`, path, names(ts))
	}
	return Info{Dim: int(emb.Shape[1]), Rows: int(emb.Shape[0]), DType: emb.DType, Weight: st.Size()}, nil
}
