package upgrade

import (
	"strings"
	"testing"
)

func lines(s ...string) []byte { return []byte(strings.Join(s, "\n") + "\n") }

func TestMerge3(t *testing.T) {
	t.Parallel()
	base := lines("# Title", "intro", "## A", "a1", "a2", "## B", "b1", "## C", "c1")
	cases := []struct {
		name          string
		ours, theirs  []byte
		want          []byte
		wantConflicts int
	}{
		{"nobody changed", base, base, base, 0},
		{"only upstream changed", base, lines("# Title", "intro v2", "## A", "a1", "a2", "## B", "b1", "## C", "c1"),
			lines("# Title", "intro v2", "## A", "a1", "a2", "## B", "b1", "## C", "c1"), 0},
		{"only the project changed", lines("# Title", "intro", "## A", "a1 (ours)", "a2", "## B", "b1", "## C", "c1"), base,
			lines("# Title", "intro", "## A", "a1 (ours)", "a2", "## B", "b1", "## C", "c1"), 0},
		{"both, in different places",
			lines("# Title", "intro", "## A", "a1 (ours)", "a2", "## B", "b1", "## C", "c1", "our note"),
			lines("# Title", "intro", "## A", "a1", "a2", "## B", "b1 v2", "b2 new", "## C", "c1"),
			lines("# Title", "intro", "## A", "a1 (ours)", "a2", "## B", "b1 v2", "b2 new", "## C", "c1", "our note"), 0},
		{"both, the same change",
			lines("# Title", "intro", "## A", "fixed", "a2", "## B", "b1", "## C", "c1"),
			lines("# Title", "intro", "## A", "fixed", "a2", "## B", "b1", "## C", "c1"),
			lines("# Title", "intro", "## A", "fixed", "a2", "## B", "b1", "## C", "c1"), 0},
		{"both deleted a section and upstream edited another",
			lines("# Title", "intro", "## B", "b1", "## C", "c1"),
			lines("# Title", "intro", "## A", "a1", "a2", "## B", "b1", "## C", "c1 v2"),
			lines("# Title", "intro", "## B", "b1", "## C", "c1 v2"), 0},
		{"conflict keeps ours",
			lines("# Title", "intro", "## A", "a1 ours", "a2", "## B", "b1", "## C", "c1"),
			lines("# Title", "intro", "## A", "a1 theirs", "a2", "## B", "b1", "## C", "c1"),
			nil, 1},
	}
	for _, tc := range cases {
		got := Merge3(base, tc.ours, tc.theirs)
		if got.Conflicts != tc.wantConflicts {
			t.Errorf("%s: %d conflicts, want %d\n%s", tc.name, got.Conflicts, tc.wantConflicts, got.Text)
			continue
		}
		if tc.want != nil && string(got.Text) != string(tc.want) {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tc.name, got.Text, tc.want)
		}
	}
}

func TestMerge3NoFinalNewline(t *testing.T) {
	t.Parallel()
	base := []byte("a\nb")
	got := Merge3(base, []byte("a\nb\nc"), []byte("z\na\nb"))
	if got.Conflicts != 0 || string(got.Text) != "z\na\nb\nc" {
		t.Errorf("got %q (%d conflicts)", got.Text, got.Conflicts)
	}
}
