package model2vec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/search/embed/model2vec/m2vtest"
)

// benchModel writes a model the size of potion-base-8M: 30,000 tokens × 256
// dimensions, F32.
func benchModel(b *testing.B) string {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	vocab := []string{"[PAD]", "[UNK]"}
	letters := "abcdefghijklmnopqrstuvwxyz"
	seen := map[string]bool{}
	for len(vocab) < 30000 {
		n := 2 + r.IntN(7)
		var sb strings.Builder
		if r.IntN(3) == 0 {
			sb.WriteString("##")
		}
		for range n {
			sb.WriteByte(letters[r.IntN(26)])
		}
		if !seen[sb.String()] {
			seen[sb.String()] = true
			vocab = append(vocab, sb.String())
		}
	}
	rows := make([][]float32, len(vocab))
	for i := range rows {
		rows[i] = make([]float32, 256)
		for j := range rows[i] {
			rows[i][j] = r.Float32() - 0.5
		}
	}
	dir := filepath.Join(b.TempDir(), "bench")
	if err := m2vtest.Write(dir, m2vtest.WordPiece(vocab),
		map[string]m2vtest.Tensor{"embeddings": m2vtest.Matrix("F32", rows)}, true); err != nil {
		b.Fatal(err)
	}
	return dir
}

func BenchmarkLoad(b *testing.B) {
	dir := benchModel(b)
	for b.Loop() {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbed embeds code-like chunks of about 1,500 characters.
func BenchmarkEmbed(b *testing.B) {
	m, err := Load(benchModel(b))
	if err != nil {
		b.Fatal(err)
	}
	var chunk strings.Builder
	for i := 0; chunk.Len() < 1500; i++ {
		fmt.Fprintf(&chunk, "func parseHeader%d(r *bufio.Reader) (Header, error) { // reads the header\n", i)
	}
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = chunk.String()
	}
	b.SetBytes(int64(len(texts) * chunk.Len()))
	for b.Loop() {
		if _, err := m.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
}
