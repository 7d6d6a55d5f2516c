package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

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
// than a y/N (an approval). The caller checked there is a terminal. A "y" or
// "yes" is what a person answers out of habit, meaning to go on: they are
// asked once more for the word rather than told, after the fact, that
// nothing happened. Any other answer says nothing was <done>.
func confirmTyped(s *streams, word, done string) (bool, error) {
	in := bufio.NewReader(s.In)
	fmt.Fprintf(s.Out, "Type %q to confirm, anything else to cancel: ", word)
	for asked := 0; ; asked++ {
		answer, _ := in.ReadString('\n')
		switch a := strings.TrimSpace(answer); {
		case a == word:
			return true, nil
		case asked == 0 && (strings.EqualFold(a, "y") || strings.EqualFold(a, "yes")):
			fmt.Fprintf(s.Out, "Type the word %q itself to confirm, anything else to cancel: ", word)
		default:
			fmt.Fprintf(s.Out, "Nothing was %s.\n", done)
			return false, nil
		}
	}
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

// terminalSafe writes what a command prints with every byte that could
// drive a terminal made visible instead: C0 and C1 control characters but
// the line break and tab, DEL, bidirectional controls and bytes that are
// not UTF-8 are written as \xNN or \uNNNN escapes. Names, notes, spec
// content and failure lines reach the CLI's output from files an agent or a
// cloned repository wrote; this one writer, set on every command's
// streams, is what keeps them from erasing, hiding or reordering the lines
// a person reads. Escapes agentos draws on purpose (a progress bar, the
// install wizard) go to the raw streams instead.
//
// A carriage return is kept before a line feed (a file's CRLF lines), which
// cannot hide anything. A UTF-8 sequence or a CRLF split across two writes
// is held back until the next one (or Flush), so it is never escaped for
// having been cut in half.
type terminalSafe struct {
	w       io.Writer
	pending []byte
}

func (t *terminalSafe) Write(p []byte) (int, error) {
	data := append(t.pending, p...)
	t.pending = nil
	if cut := incompleteTail(data); cut > 0 {
		t.pending = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	if _, err := io.WriteString(t.w, escapeControls(data)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a held-back partial sequence, escaped: the output ended in
// the middle of a rune.
func (t *terminalSafe) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	rest := t.pending
	t.pending = nil
	_, err := io.WriteString(t.w, escapeControls(rest))
	return err
}

// incompleteTail is the length of the start of a UTF-8 sequence or CRLF at
// the end of b that more bytes could still complete, 0 if there is none.
func incompleteTail(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\r' { // a CRLF's CR waits for its LF
		return 1
	}
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0
		}
		if c >= 0xC0 { // a leading byte: is the sequence it starts longer than what follows?
			need := 2
			if c >= 0xF0 {
				need = 4
			} else if c >= 0xE0 {
				need = 3
			}
			if need > n && !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// escapeControls is b with every control, bidi and non-UTF-8 byte escaped.
func escapeControls(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&out, `\x%02x`, b[0])
		case r == '\n' || r == '\t', r == '\r' && len(b) > 1 && b[1] == '\n':
			out.WriteRune(r)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&out, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			fmt.Fprintf(&out, `\u%04x`, r)
		default:
			out.Write(b[:size])
		}
		b = b[size:]
	}
	return out.String()
}
