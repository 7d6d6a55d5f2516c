package model2vec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// maxHeader bounds the JSON header of a safetensors file (the format's own
// reader refuses more than 100 MB).
const maxHeader = 100 << 20

// tensor is one entry of a safetensors header and, once read, its bytes.
type tensor struct {
	Name    string
	DType   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
	data    []byte
}

// dtypeSize is the byte width of the element types this package reads.
var dtypeSize = map[string]int64{"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I8": 1}

// readHeader reads the tensors' descriptions from a safetensors file of
// size bytes: an 8-byte little-endian header length, a JSON object of
// {name: {dtype, shape, data_offsets}} (and an optional "__metadata__"),
// then the data, to which the offsets are relative. It checks every tensor
// lies within the file and has as many bytes as its shape needs; dataStart
// is where the data begins.
func readHeader(r io.ReaderAt, size int64) (tensors map[string]*tensor, dataStart int64, err error) {
	if size < 8 {
		return nil, 0, fmt.Errorf("truncated: %d bytes, too short to hold the 8-byte header length", size)
	}
	var lenBuf [8]byte
	if _, err := r.ReadAt(lenBuf[:], 0); err != nil {
		return nil, 0, err
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxHeader {
		return nil, 0, fmt.Errorf("header length %d is implausible (not a safetensors file?)", n)
	}
	if int64(n) > size-8 {
		return nil, 0, fmt.Errorf("truncated: the header needs %d bytes, the file has %d after the length", n, size-8)
	}
	hdr := make([]byte, n)
	if _, err := r.ReadAt(hdr, 8); err != nil {
		return nil, 0, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, 0, fmt.Errorf("header is not valid JSON: %v", err)
	}
	dataStart = 8 + int64(n)
	dataLen := size - dataStart
	tensors = make(map[string]*tensor, len(raw))
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		t := &tensor{Name: name}
		if err := json.Unmarshal(msg, t); err != nil {
			return nil, 0, fmt.Errorf("tensor %q: bad description: %v", name, err)
		}
		b, e := t.Offsets[0], t.Offsets[1]
		if b < 0 || e < b || e > dataLen {
			return nil, 0, fmt.Errorf("tensor %q: data [%d, %d) lies outside the file's %d data bytes (truncated?)", name, b, e, dataLen)
		}
		if w, ok := dtypeSize[t.DType]; ok {
			want := w
			for _, d := range t.Shape {
				if d < 0 || (d > 0 && want > math.MaxInt64/d) {
					return nil, 0, fmt.Errorf("tensor %q: bad shape %v", name, t.Shape)
				}
				want *= d
			}
			if want != e-b {
				return nil, 0, fmt.Errorf("tensor %q: shape %v of %s needs %d bytes, the file holds %d", name, t.Shape, t.DType, want, e-b)
			}
		}
		tensors[name] = t
	}
	return tensors, dataStart, nil
}

// names lists the tensors, for error messages.
func names(ts map[string]*tensor) string {
	var ns []string
	for n := range ts {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}

// floats decodes a tensor of floating-point or 8-bit integer elements.
func (t *tensor) floats() ([]float32, error) {
	b := t.data
	switch t.DType {
	case "F32":
		out := make([]float32, len(b)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return out, nil
	case "F16":
		out := make([]float32, len(b)/2)
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return out, nil
	case "BF16":
		out := make([]float32, len(b)/2)
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
		return out, nil
	case "F64":
		out := make([]float32, len(b)/8)
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
		}
		return out, nil
	case "I8":
		out := make([]float32, len(b))
		for i := range out {
			out[i] = float32(int8(b[i]))
		}
		return out, nil
	}
	return nil, fmt.Errorf("tensor %q has element type %s; expected F32, F16, BF16, F64 or I8", t.Name, t.DType)
}

// ints decodes a tensor of 32- or 64-bit integers.
func (t *tensor) ints() ([]int, error) {
	b := t.data
	switch t.DType {
	case "I32":
		out := make([]int, len(b)/4)
		for i := range out {
			out[i] = int(int32(binary.LittleEndian.Uint32(b[4*i:])))
		}
		return out, nil
	case "I64":
		out := make([]int, len(b)/8)
		for i := range out {
			out[i] = int(int64(binary.LittleEndian.Uint64(b[8*i:])))
		}
		return out, nil
	}
	return nil, fmt.Errorf("tensor %q has element type %s; expected I32 or I64", t.Name, t.DType)
}

// halfToFloat converts an IEEE 754 half-precision number.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0: // zero
		return math.Float32frombits(sign)
	}
	// Subnormal: frac × 2^-24.
	f := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}
