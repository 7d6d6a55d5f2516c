package chunk

import (
	"fmt"
	"strings"
	"testing"
)

// A file that does not parse is cut at its declarations' first lines (with
// their comments and decorators), and a long declaration into windows.
func TestWindowsStartAtDeclarations(t *testing.T) {
	long := strings.Repeat("    x = 1\n", 70)
	for _, tc := range []struct {
		name, lang, src string
		starts          []int
	}{
		{"bad.py", "python", "import os\n\n# Loads.\n@cache\ndef load():\n    pass\n\nclass A:\n    def m(self):\n" + long + "s = '''never closed\n",
			[]int{1, 3, 8, 9, 59, 80}},
		{"bad.rs", "rust", "use std::io;\n\n/// Docs.\n#[inline]\npub fn a() {\n}\n\nimpl X {\n    fn b(&self) {\n    }\n", []int{1, 3, 8, 9}},
		{"Bad.java", "java", "package a;\n\n/** Docs. */\npublic class A {\n  @Override\n  public String toString() {\n    return \"\";\n  }\n", []int{1, 3, 5}},
	} {
		var got []int
		for _, c := range Code(tc.name, tc.lang, []byte(tc.src)) {
			if c.Kind != Window {
				t.Fatalf("%s parsed: %+v", tc.name, c)
			}
			got = append(got, c.StartLine)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.starts) {
			t.Errorf("%s: windows start at %v, want %v", tc.name, got, tc.starts)
		}
	}
}
