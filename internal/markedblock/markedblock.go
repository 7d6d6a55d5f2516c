// Package markedblock owns the blocks agentos keeps inside files the user
// owns (.gitignore, AGENTS.md, CLAUDE.md …): a begin line, our lines, an end
// line. Finding, replacing and removing such a block keeps every other byte
// of the file, including its line endings.
package markedblock

import (
	"bytes"
	"fmt"
	"strings"
)

// Markers are the prefixes of a block's begin and end lines.
type Markers struct {
	Begin, End string
}

// Find locates the block: from the start of its begin line to just past its
// end line's line ending (or the end of the file). A begin line without an
// end line is an error: guessing where the block ends could delete the
// user's lines.
func (m Markers) Find(data []byte) (begin, end int, found bool, err error) {
	begin = -1
	first := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		first = len(bom) // a byte-order mark is not part of the first line
	}
	for start := first; start < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			next = start + i + 1
		}
		line := strings.TrimSpace(string(data[start:next]))
		switch {
		case begin < 0 && strings.HasPrefix(line, m.Begin):
			begin = start
		case begin >= 0 && strings.HasPrefix(line, m.End):
			return begin, next, true, nil
		}
		start = next
	}
	if begin >= 0 {
		return 0, 0, false, fmt.Errorf("the agentos block starts but has no %q line; remove the block or add that line", m.End)
	}
	return 0, 0, false, nil
}

// Replace puts block (lines ended by "\n") into data in place of an existing
// block, or appends it after a blank line. The block takes the file's own
// line ending.
func (m Markers) Replace(data, block []byte) ([]byte, error) {
	eol := LineEnding(data)
	if eol != "\n" {
		block = bytes.ReplaceAll(block, []byte("\n"), []byte(eol))
	}
	begin, end, found, err := m.Find(data)
	if err != nil {
		return nil, err
	}
	if found {
		out := append([]byte{}, data[:begin]...)
		out = append(out, block...)
		return append(out, data[end:]...), nil
	}
	out := append([]byte{}, data...)
	text := bytes.TrimPrefix(out, []byte(bom))
	if len(text) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, eol...)
	}
	if len(bytes.TrimSpace(text)) > 0 && !bytes.HasSuffix(out, []byte(eol+eol)) {
		out = append(out, eol...) // a blank line sets the block apart
	}
	return append(out, block...), nil
}

// Remove deletes the block and the blank line Replace put before it.
func (m Markers) Remove(data []byte) ([]byte, bool, error) {
	begin, end, found, err := m.Find(data)
	if err != nil || !found {
		return data, false, err
	}
	head := data[:begin]
	if eol := LineEnding(data); bytes.HasSuffix(head, []byte(eol+eol)) {
		head = head[:len(head)-len(eol)]
	}
	return append(append([]byte{}, head...), data[end:]...), true, nil
}

// bom is the UTF-8 byte-order mark some editors begin a file with.
const bom = "\uFEFF"

// LineEnding returns the file's dominant line ending: "\r\n" when most of
// its lines end so, "\n" otherwise (a file with mixed endings gets new
// lines like most of its own).
func LineEnding(data []byte) string {
	crlf := bytes.Count(data, []byte("\r\n"))
	if crlf > bytes.Count(data, []byte("\n"))-crlf {
		return "\r\n"
	}
	return "\n"
}
