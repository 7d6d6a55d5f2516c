package upgrade

import "testing"

func TestDecide(t *testing.T) {
	t.Parallel()
	b := []byte("a\nb\nc\n")
	edited := []byte("a\nb (ours)\nc\n")
	newer := []byte("a\nb\nc\nd\n")
	clash := []byte("a\nb (theirs)\nc\n")
	cases := []struct {
		name               string
		base, ours, theirs []byte
		want               Action
	}{
		{"untouched, newer upstream", b, b, newer, Update},
		{"edited, same upstream", b, edited, b, Keep},
		{"edited, newer upstream elsewhere", b, edited, newer, Merge},
		{"edited, upstream changed the same line", b, edited, clash, Conflict},
		{"deleted by the project", b, nil, newer, StayDeleted},
		{"new upstream", nil, nil, newer, Add},
		{"removed upstream, untouched", b, b, nil, Remove},
		{"removed upstream, edited", b, edited, nil, KeepRemoved},
		{"project file never ours, removed upstream", nil, edited, nil, Unchanged},
		{"already current", b, newer, newer, Unchanged},
		{"project file where we now ship one", nil, edited, newer, Conflict},
	}
	for _, tc := range cases {
		if got := Decide(tc.base, tc.ours, tc.theirs); got.Action != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got.Action, tc.want)
		}
	}
	if got := Decide(b, edited, newer); string(got.Text) != "a\nb (ours)\nc\nd\n" {
		t.Errorf("merged text %q", got.Text)
	}
}
