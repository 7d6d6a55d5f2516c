package refcheck

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgreesWithReferenceParsers chunks real files from two code bases per
// language and checks the declarations their reference parser found
// (Python's ast, tree-sitter for Rust and Java; regenerate with
// scripts/refparse/fixtures.sh) are chunked with the same name and line.
func TestAgreesWithReferenceParsers(t *testing.T) {
	refs, err := filepath.Glob("testdata/*/*.json")
	if err != nil || len(refs) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	byLang := map[string]Result{}
	for _, path := range refs {
		lang := filepath.Base(filepath.Dir(path))
		ref, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compare(strings.TrimSuffix(path, ".json"), lang, ref)
		if err != nil {
			t.Fatal(err)
		}
		if r.Files < 3 || r.Decls < 100 {
			t.Errorf("%s: only %d files and %d declarations", path, r.Files, r.Decls)
		}
		sum := byLang[lang]
		sum.Files += r.Files
		sum.Decls += r.Decls
		sum.Matched += r.Matched
		sum.Misses = append(sum.Misses, r.Misses...)
		byLang[lang] = sum
	}
	for _, lang := range []string{"python", "rust", "java"} {
		r := byLang[lang]
		t.Logf("%s: %d files, %d of %d declarations (%.2f%%)", lang, r.Files, r.Matched, r.Decls, 100*r.Share())
		if r.Share() < 0.99 {
			for _, m := range r.Misses {
				t.Logf("miss %s", m)
			}
			t.Errorf("%s: %.2f%% of declarations chunked with the right name and line, want at least 99%%", lang, 100*r.Share())
		}
	}
}
