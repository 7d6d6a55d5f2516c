package search

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkRefreshTouched refreshes an index after every file's time
// changed but none's content, as a checkout that rewrites files as they
// were leaves them: each file is read and hashed, none analysed again.
func BenchmarkRefreshTouched(b *testing.B) {
	root := b.TempDir()
	src := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".go" {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Skip("no Go sources to index:", err)
	}
	ix, err := New(CodeOptions(root, nil, nil))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ix.Build(ctx); err != nil {
		b.Fatal(err)
	}
	at := time.Now()
	for b.Loop() {
		b.StopTimer()
		at = at.Add(time.Second)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				os.Chtimes(p, at, at)
			}
			return err
		})
		b.StartTimer()
		bs, err := ix.Refresh(ctx)
		if err != nil || bs.Files != 0 {
			b.Fatalf("refresh: %+v %v", bs, err)
		}
	}
}
