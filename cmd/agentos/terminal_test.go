package main

import (
	"os"
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
