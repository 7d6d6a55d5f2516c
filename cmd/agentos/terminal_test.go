package main

import (
	"bytes"
	"encoding/json"
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
	for answer, want := range map[string]bool{"approve\n": true, "  approve  \n": true, "y\n": false, "yes\n": false, "yes\napprove\n": true, "yes\nyes\n": false, "\n": false, "": false} {
		var out strings.Builder
		s := &streams{In: strings.NewReader(answer), Out: &out}
		ok, err := confirmTyped(s, "approve", "approved")
		if ok != want || err != nil {
			t.Errorf("%q: %v %v", answer, ok, err)
		}
		if !want && !strings.Contains(out.String(), "Nothing was approved") {
			t.Errorf("%q: %s", answer, out.String())
		}
		if strings.HasPrefix(answer, "y") && !strings.Contains(out.String(), `Type the word "approve" itself`) {
			t.Errorf("%q is not asked again: %s", answer, out.String())
		}
	}
}

func TestTerminalSafeEscapesWhatCouldDriveATerminal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain line\n\tindented\n", "plain line\n\tindented\n"},
		{"zz\x1b[2K\x1b[1A\rnotes.md", `zz\x1b[2K\x1b[1A\x0dnotes.md`},
		{"hidden\x1b[8m rest", `hidden\x1b[8m rest`},
		{"abc\u202eevil.md", `abc\u202eevil.md`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"bell\a del\x7f", `bell\x07 del\x7f`},
		{"résumé – 日本", "résumé – 日本"},
		{"crlf\r\nlines\r\n", "crlf\r\nlines\r\n"},
		{"cr\rover", `cr\x0dover`},
	} {
		var out bytes.Buffer
		w := &terminalSafe{w: &out}
		if _, err := w.Write([]byte(c.in)); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if out.String() != c.want {
			t.Errorf("%q: wrote %q, want %q", c.in, out.String(), c.want)
		}
	}
}

func TestTerminalSafeKeepsARuneSplitAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	w := &terminalSafe{w: &out}
	text := []byte("日本語 ok")
	for i := range text { // one byte per write
		if n, err := w.Write(text[i : i+1]); n != 1 || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
	}
	w.Write([]byte("\r"))
	w.Write([]byte("\n"))
	w.Write([]byte("\xe6")) // a rune the output never finishes
	w.Flush()
	if got, want := out.String(), "日本語 ok\r\n\\xe6"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

func TestTerminalSafeKeepsJSONValid(t *testing.T) {
	var out bytes.Buffer
	w := &terminalSafe{w: &out}
	in := map[string]string{"name": "a\u202eb\u0085c\x1b[2Kd"}
	if err := json.NewEncoder(w).Encode(in); err != nil {
		t.Fatal(err)
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("%q is no longer JSON: %v", out.String(), err)
	}
	if back["name"] != in["name"] {
		t.Errorf("decoded %q, want %q", back["name"], in["name"])
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\u202e\u0085") {
		t.Errorf("raw control bytes written: %q", out.String())
	}
}
