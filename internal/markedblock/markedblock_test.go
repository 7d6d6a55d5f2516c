package markedblock

import "testing"

func TestReplaceAndRemove(t *testing.T) {
	m := Markers{Begin: "# begin", End: "# end"}
	block := []byte("# begin\nours\n# end\n")
	cases := []struct{ in, want string }{
		{"", "# begin\nours\n# end\n"},
		{"a\nb", "a\nb\n\n# begin\nours\n# end\n"},
		{"a\r\n", "a\r\n\r\n# begin\r\nours\r\n# end\r\n"},
		{"a\n# begin\nold\n# end\nz\n", "a\n# begin\nours\n# end\nz\n"},
		// A byte-order mark stays first, and a block right after it is found.
		{"\uFEFF# begin\r\nold\r\n# end\r\nz\r\n", "\uFEFF# begin\r\nours\r\n# end\r\nz\r\n"},
		{"\uFEFF", "\uFEFF# begin\nours\n# end\n"},
		{"\uFEFFa\r\nb\r\n", "\uFEFFa\r\nb\r\n\r\n# begin\r\nours\r\n# end\r\n"},
		// Mixed endings: the block takes the ending most lines have, and
		// the lines that differ keep theirs.
		{"a\nb\r\nc\r\n", "a\nb\r\nc\r\n\r\n# begin\r\nours\r\n# end\r\n"},
		{"a\r\nb\nc\n", "a\r\nb\nc\n\n# begin\nours\n# end\n"},
	}
	for _, tc := range cases {
		got, err := m.Replace([]byte(tc.in), block)
		if err != nil || string(got) != tc.want {
			t.Errorf("Replace(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		back, found, err := m.Remove(got)
		if err != nil || !found {
			t.Errorf("Remove(%q): %v %v", got, found, err)
		}
		// A block that was appended comes back the same after a removal.
		if again, _ := m.Replace(back, block); tc.in == string(back) && string(again) != string(got) {
			t.Errorf("Replace after Remove is not stable: %q vs %q", again, got)
		}
	}
	if _, err := m.Replace([]byte("# begin\nx\n"), block); err == nil {
		t.Error("a block without an end line was accepted")
	}
}
