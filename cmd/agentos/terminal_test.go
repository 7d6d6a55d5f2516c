package main

import (
	"os"
	"strings"
	"testing"
)

// /dev/null is a character device, but no one types into it: commands must
// not prompt it.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("isTerminal(/dev/null) = true")
	}
}

// An approval needs the word typed out: y, yes or an empty line approve nothing.
func TestConfirmTypedNeedsTheWord(t *testing.T) {
	for answer, want := range map[string]bool{"approve\n": true, "  approve  \n": true, "y\n": false, "yes\n": false, "\n": false, "": false} {
		var out strings.Builder
		s := &streams{In: strings.NewReader(answer), Out: &out}
		ok, err := confirmTyped(s, "approve", "approved")
		if ok != want || err != nil {
			t.Errorf("%q: %v %v", answer, ok, err)
		}
		if !want && !strings.Contains(out.String(), "Nothing was approved") {
			t.Errorf("%q: %s", answer, out.String())
		}
	}
}
