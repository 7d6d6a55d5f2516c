package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode"

	"github.com/mattn/go-isatty"
)

// isTerminal reports whether f is an interactive terminal. A character
// device is not enough: /dev/null is one.
func isTerminal(f *os.File) bool {
	return f != nil && isatty.IsTerminal(f.Fd())
}

// confirm asks question and reports whether the answer is yes. Without a
// terminal to ask it fails, saying nothing was <done> and to pass --yes;
// on any other answer it says nothing was <done>.
func confirm(s *streams, question, done string) (bool, error) {
	if !isTerminal(s.InFile) {
		return false, withCode(exitUsage, fmt.Errorf("nothing was %s; run again with --yes to carry out this plan", done))
	}
	fmt.Fprintf(s.Out, "%s [y/N] ", question)
	answer, _ := bufio.NewReader(s.In).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		fmt.Fprintf(s.Out, "Nothing was %s.\n", done)
		return false, nil
	}
	return true, nil
}

// confirmTyped asks the person to type word, for decisions that matter more
// than a y/N (an approval). The caller checked there is a terminal; on any
// other answer it says nothing was <done>.
func confirmTyped(s *streams, word, done string) (bool, error) {
	fmt.Fprintf(s.Out, "Type %q to confirm, anything else to cancel: ", word)
	answer, _ := bufio.NewReader(s.In).ReadString('\n')
	if strings.TrimSpace(answer) != word {
		fmt.Fprintf(s.Out, "Nothing was %s.\n", done)
		return false, nil
	}
	return true, nil
}

// escapeRE matches a terminal escape sequence: CSI (ESC [ or the C1 byte),
// OSC up to its terminator, or a two-byte ESC sequence.
var escapeRE = regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|\x1b[ -~]?")

// printable is s made safe to print to a terminal: names and failure lines
// come from code an agent wrote, and no escape sequence, control character
// or bidirectional override in them may change what the person reads.
// Escape sequences are dropped, tabs and line breaks become spaces, and
// other control and bidi characters are dropped.
func printable(s string) string {
	s = escapeRE.ReplaceAllString(strings.ToValidUTF8(s, "\uFFFD"), "")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
}
