package search

import "testing"

func TestEmbedPathText(t *testing.T) {
	for p, want := range map[string]string{
		"src/queryClient.ts":      "queryClient",
		"packages/core/src/a.ts":  "packages/core/a",
		"net/http/server.go":      "net/http/server",
		"lib.rs":                  "lib",
		"src/lib/src.py":          "src",
		"rich/console.py":         "rich/console",
		"java/src/main/App.java":  "java/main/App",
		"pkg/store/cache_test.go": "store/cache_test",
	} {
		if got := embedPathText(p); got != want {
			t.Errorf("embedPathText(%q) = %q, want %q", p, got, want)
		}
	}
}
