package agentconfig

import (
	"strings"
	"testing"
)

// inForm spells text (LF endings) with a byte-order mark and CRLF endings.
func inForm(text string, withBOM, crlf bool) string {
	if crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	if withBOM {
		text = bom + text
	}
	return text
}

// TestMergeKeepsBOMAndCRLF: a config with a byte-order mark and CRLF
// endings is merged, not refused, and the result is exactly the LF merge
// spelled in the file's own form; removing and re-running behave the same.
func TestMergeKeepsBOMAndCRLF(t *testing.T) {
	for _, c := range All() {
		plain := existing(c)
		entry := c.Emit(Launch(testBinary, testRoot))
		wantMerged, _, err := Merge(c.Format, []byte(plain), c.Key, ServerName, c.List, entry, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		wantRemoved, _, err := Remove(c.Format, wantMerged, c.Key, ServerName, c.List)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		for _, form := range [][2]bool{{true, false}, {false, true}, {true, true}} {
			in := inForm(plain, form[0], form[1])
			merged, changed, err := Merge(c.Format, []byte(in), c.Key, ServerName, c.List, entry, nil)
			if err != nil || !changed {
				t.Fatalf("%s %v: merge: %v %v", c.ID, form, changed, err)
			}
			if want := inForm(string(wantMerged), form[0], form[1]); string(merged) != want {
				t.Fatalf("%s %v: merge =\n%q\nwant\n%q", c.ID, form, merged, want)
			}
			if got, ok, err := LookupEntry(c.Format, merged, c.Key, ServerName, c.List); err != nil || !ok || !sameValue(got, entry) {
				t.Fatalf("%s %v: entry read back = %v %v %v", c.ID, form, got, ok, err)
			}
			if again, changed, err := Merge(c.Format, merged, c.Key, ServerName, c.List, entry, nil); err != nil || changed || string(again) != string(merged) {
				t.Fatalf("%s %v: second write changed=%v err=%v", c.ID, form, changed, err)
			}
			removed, _, err := Remove(c.Format, merged, c.Key, ServerName, c.List)
			if want := inForm(string(wantRemoved), form[0], form[1]); err != nil || string(removed) != want {
				t.Fatalf("%s %v: remove = %q, %v; want %q", c.ID, form, removed, err, want)
			}
		}
	}
}

// TestMergeMixedLineEndings: in a file whose lines end differently, our
// lines take the ending most lines have and every other line keeps its own.
func TestMergeMixedLineEndings(t *testing.T) {
	in := "{\r\n  \"a\": 1,\n  \"mcpServers\": {\r\n    \"other\": {}\r\n  }\r\n}\r\n"
	c, _ := Lookup("cursor")
	entry := c.Emit(Launch(testBinary, testRoot))
	out, _, err := Merge(JSON, []byte(in), c.Key, ServerName, false, entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "{\r\n  \"a\": 1,\n  \"mcpServers\": {\r\n    \"other\": {},\r\n    \"agentos\": {\r\n") {
		t.Fatalf("lines lost their endings:\n%q", out)
	}
	if strings.Count(string(out), "\n")-strings.Count(string(out), "\r\n") != 1 {
		t.Fatalf("only the one LF line may end in LF:\n%q", out)
	}
}

// TestRestoreKeepsUntouchedBytes checks the form round trip on its own:
// whatever the edit, the bytes before and after it are the original ones.
func TestRestoreKeepsUntouchedBytes(t *testing.T) {
	cases := []struct{ in, edit, want string }{
		{"a\r\nb\r\n", "a\nX\nb\n", "a\r\nX\r\nb\r\n"},
		{bom + "a\r\nb\r\n", "a\nb\n", bom + "a\r\nb\r\n"},
		{bom + "x", "y", bom + "y"},
		{"a\r\nb\nc\r\n", "a\nb\nc\nd\n", "a\r\nb\nc\r\nd\r\n"},
		{"a\r\r\nb\r\n", "a\r\nb\nc\n", "a\r\r\nb\r\nc\r\n"},
		{"a\r\nb\r\n", "", ""},
	}
	for _, tc := range cases {
		f, _ := readForm([]byte(tc.in))
		if got := f.restore([]byte(tc.edit)); string(got) != tc.want {
			t.Errorf("restore(%q, %q) = %q; want %q", tc.in, tc.edit, got, tc.want)
		}
	}
}
