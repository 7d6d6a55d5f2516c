package chunk

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzChunker checks that a chunker never panics, terminates, and keeps
// every chunk's lines within the file and in order.
func fuzzChunker(f *testing.F, lang string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if files, _ := filepath.Glob(filepath.Join("testdata", "constructs", "*")); len(files) > 0 {
		for _, p := range files {
			if LanguageOf(p) == lang {
				if src, err := os.ReadFile(p); err == nil {
					f.Add(src)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n := len(lines(src))
		for _, c := range Code("f", lang, src) {
			if c.StartLine < 1 || c.StartLine > c.DeclLine || c.DeclLine > c.EndLine || c.EndLine > n {
				t.Fatalf("chunk %s %q lines %d/%d/%d outside 1..%d", c.Kind, c.Symbol, c.StartLine, c.DeclLine, c.EndLine, n)
			}
		}
		checkCodeOnly(t, "f", lang, src)
	})
}

// checkCodeOnly checks that CodeOnly only ever turns bytes into spaces, and
// never a line break: every offset and line of the file stays where it was.
func checkCodeOnly(t *testing.T, p, lang string, src []byte) {
	out := CodeOnly(p, lang, src)
	if len(out) != len(src) {
		t.Fatalf("CodeOnly changed the length: %d, was %d", len(out), len(src))
	}
	for i := range src {
		if out[i] != src[i] && (out[i] != ' ' || src[i] == '\n' || src[i] == '\r') {
			t.Fatalf("CodeOnly turned byte %d %q into %q", i, src[i], out[i])
		}
	}
}

func FuzzPython(f *testing.F) {
	fuzzChunker(f, "python", "def f(:\n", "f'{'", "class A:\n  @x\n", "x = f\"{a!r:{b}}\"\n", "\\\n", "(\n)\n)")
}

func FuzzRust(f *testing.F) {
	fuzzChunker(f, "rust", "impl<T> for {}", "fn f<'a>(x: &'a str) -> char { 'a' }", "r##\"", "#[", "b'", "macro_rules! m")
}

func FuzzJava(f *testing.F) {
	fuzzChunker(f, "java", "class A { void f() default {", "@interface A { int x() default 1; }", "enum E { A { }, ; }", "\"\"\"", "record R() {")
}
