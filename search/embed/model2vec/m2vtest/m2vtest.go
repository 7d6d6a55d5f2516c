// Package m2vtest writes tiny model2vec models for tests: a safetensors
// file with known vectors, a tokenizer.json and a config.json.
package m2vtest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// Tensor is one tensor to write: F32 or F16 from Floats, I32 from Ints.
type Tensor struct {
	DType  string
	Shape  []int
	Floats []float32
	Ints   []int32
}

// Safetensors encodes tensors in the safetensors format.
func Safetensors(tensors map[string]Tensor) []byte {
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, n := range names {
		t := tensors[n]
		begin := len(data)
		switch t.DType {
		case "F32":
			for _, f := range t.Floats {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(f))
			}
		case "F16":
			for _, f := range t.Floats {
				data = binary.LittleEndian.AppendUint16(data, FloatToHalf(f))
			}
		case "I32":
			for _, x := range t.Ints {
				data = binary.LittleEndian.AppendUint32(data, uint32(x))
			}
		default:
			panic("m2vtest: dtype " + t.DType)
		}
		header[n] = map[string]any{"dtype": t.DType, "shape": t.Shape, "data_offsets": []int{begin, len(data)}}
	}
	h, _ := json.Marshal(header)
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	return append(append(out, h...), data...)
}

// Matrix is a [len(rows), len(rows[0])] tensor of dtype.
func Matrix(dtype string, rows [][]float32) Tensor {
	t := Tensor{DType: dtype, Shape: []int{len(rows), len(rows[0])}}
	for _, r := range rows {
		t.Floats = append(t.Floats, r...)
	}
	return t
}

// FloatToHalf rounds f to the nearest half-precision number (finite,
// normal-range values; enough for tests).
func FloatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b>>23)&0xff) - 127 + 15
	frac := b & 0x7fffff
	if f == 0 {
		return sign
	}
	if exp <= 0 || exp >= 0x1f {
		panic(fmt.Sprintf("m2vtest: %v out of half range", f))
	}
	h := uint32(exp)<<10 | frac>>13
	if frac&0x1fff > 0x1000 || (frac&0x1fff == 0x1000 && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

// WordPiece is a BERT-style uncased tokenizer.json over vocab (token i has
// id i); vocab should contain "[UNK]".
func WordPiece(vocab []string) []byte {
	v := map[string]int{}
	for i, t := range vocab {
		v[t] = i
	}
	return mustJSON(map[string]any{
		"version":      "1.0",
		"added_tokens": []any{map[string]any{"id": v["[UNK]"], "content": "[UNK]", "special": true}},
		"normalizer": map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
			"strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": v},
	})
}

// Unigram is a tokenizer.json like the ones model2vec writes for its own
// vocabularies: lower-casing, a Metaspace pre-tokenizer that keeps the text
// whole, and a Unigram model over pieces with the given scores; unk is the
// unknown piece's id.
func Unigram(pieces []string, scores []float64, unk int) []byte {
	vocab := make([]any, len(pieces))
	for i := range pieces {
		vocab[i] = []any{pieces[i], scores[i]}
	}
	return mustJSON(map[string]any{
		"version":      "1.0",
		"added_tokens": []any{map[string]any{"id": unk, "content": pieces[unk], "special": true}},
		"normalizer": map[string]any{"type": "Sequence", "normalizers": []any{
			map[string]any{"type": "Lowercase"},
			map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": `\s+`}, "content": " "},
			map[string]any{"type": "Strip", "strip_left": false, "strip_right": true},
		}},
		"pre_tokenizer": map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": false},
		"model":         map[string]any{"type": "Unigram", "unk_id": unk, "vocab": vocab, "byte_fallback": false},
	})
}

// Config is a config.json setting normalize.
func Config(normalize bool) []byte {
	return mustJSON(map[string]any{"model_type": "model2vec", "architectures": []string{"StaticModel"}, "normalize": normalize})
}

// Write writes a model directory: tokenizer is a tokenizer.json document,
// tensors the weights, normalize config.json's setting.
func Write(dir string, tokenizer []byte, tensors map[string]Tensor, normalize bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"model.safetensors": Safetensors(tensors),
		"tokenizer.json":    tokenizer,
		"config.json":       Config(normalize),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		panic(err)
	}
	return b
}
