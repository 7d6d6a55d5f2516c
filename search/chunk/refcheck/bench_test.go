package refcheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentos-dev/agentos/search/chunk"
)

// BenchmarkChunk measures chunking the fixture files of each language, and
// then blanking their comments and strings for the call graph (CodeOnly).
func BenchmarkChunk(b *testing.B) {
	for _, lang := range []string{"python", "rust", "java"} {
		type file struct {
			path string
			src  []byte
		}
		var files []file
		size := 0
		err := filepath.WalkDir(filepath.Join("testdata", lang), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || chunk.LanguageOf(p) != lang {
				return err
			}
			src, err := os.ReadFile(p)
			files = append(files, file{p, src})
			size += len(src)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, f := range files {
					chunk.Code(f.path, lang, f.src)
				}
			}
		})
		b.Run(lang+"/CodeOnly", func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, f := range files {
					chunk.CodeOnly(f.path, lang, f.src)
				}
			}
		})
	}
}
