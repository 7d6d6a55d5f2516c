package fsys

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// binarySniffBytes is how much of a file is checked for NUL bytes to decide
// it is binary, as git does.
const binarySniffBytes = 8 << 10

// read returns text from start_line, at most max_lines lines and at most
// MaxReadBytes bytes. Paging by lines rather than bytes lets an agent resume
// exactly where it stopped without splitting lines.
func (o *op) read() (Output, error) {
	start, maxLines := o.in.StartLine, o.in.MaxLines
	if start == 0 {
		start = 1
	}
	if start < 0 {
		return Output{}, toolkit.Validation("start_line", "start_line must be 1 or more")
	}
	if maxLines < 0 {
		return Output{}, toolkit.Validation("max_lines", "max_lines must be 0 (no limit) or more")
	}
	t, err := o.resolve("path", o.in.Path, false)
	if err != nil {
		return Output{}, err
	}
	if fi, err := o.r.Stat(t.real); err == nil && fi.IsDir() {
		return Output{}, pathError(toolkit.CodeValidation, "path", "%q is a directory; use action list to see its entries", t.rel)
	}
	// The path policy decides what may be read, for this tool and the
	// search indexes alike.
	f, fi, err := pathpolicy.OpenFile(o.r, t.real)
	if err != nil {
		return Output{}, o.osError("path", t.rel, err)
	}
	defer f.Close()

	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(binarySniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return Output{}, fmt.Errorf("read %s: %w", t.rel, err)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return Output{}, pathError(toolkit.CodeBusinessLogic, "path", "%q is a binary file; only text files can be read", t.rel)
	}

	skipped, err := skipLines(br, start-1)
	if err != nil {
		return Output{}, fmt.Errorf("read %s: %w", t.rel, err)
	}
	if skipped < start-1 {
		return Output{}, pastEnd(start, skipped)
	}
	c, err := collect(br, maxLines, o.maxRead)
	if err != nil {
		return Output{}, fmt.Errorf("read %s: %w", t.rel, err)
	}
	if start > 1 && c.lines == 0 && c.eof {
		return Output{}, pastEnd(start, start-1)
	}
	return readOutput(t.rel, fi.Size(), start, c), nil
}

func pastEnd(start, lines int) error {
	return toolkit.Validation("start_line", "start_line %d is past the end of the file, which has %d lines", start, lines)
}

func readOutput(rel string, size int64, start int, c chunk) Output {
	out := Output{
		Path:      rel,
		Content:   ptr(c.text),
		StartLine: start,
		Size:      ptr(size),
		Truncated: ptr(!c.eof),
	}
	if c.lines > 0 {
		out.EndLine = start + c.lines - 1
	}
	if c.eof {
		out.TotalLines = start - 1 + c.lines
	} else {
		out.NextStartLine = start + c.lines
	}
	return out
}

// skipLines consumes n lines and returns how many there were.
func skipLines(br *bufio.Reader, n int) (int, error) {
	skipped := 0
	for skipped < n {
		line, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			skipped++
		case errors.Is(err, bufio.ErrBufferFull):
			// The line goes on past the buffer; keep consuming it.
		case errors.Is(err, io.EOF):
			if len(line) > 0 {
				skipped++
			}
			return skipped, nil
		default:
			return skipped, err
		}
	}
	return skipped, nil
}

// chunk is the text collect gathered.
type chunk struct {
	text  string
	lines int  // lines returned, counting a partial last one
	eof   bool // the end of the file was reached
}

// collect reads up to maxLines lines (0: no limit) and budget bytes. A line
// that does not fit is cut at a rune boundary and counted as returned, so the
// next page starts on the following line rather than repeating it forever.
func collect(br *bufio.Reader, maxLines int, budget int64) (chunk, error) {
	var buf bytes.Buffer
	var c chunk
	midLine := false
	for maxLines == 0 || c.lines < maxLines {
		piece, err := br.ReadSlice('\n')
		if room := budget - int64(buf.Len()); int64(len(piece)) > room {
			buf.Write(runePrefix(piece[:room]))
			if room > 0 || midLine {
				c.lines++
			}
			c.text = buf.String()
			return c, nil
		}
		buf.Write(piece)
		switch {
		case err == nil:
			c.lines++
			midLine = false
		case errors.Is(err, bufio.ErrBufferFull):
			midLine = true
		case errors.Is(err, io.EOF):
			if len(piece) > 0 || midLine {
				c.lines++
			}
			c.text, c.eof = buf.String(), true
			return c, nil
		default:
			return chunk{}, err
		}
	}
	// Stopped by max_lines: the file may end right here.
	if _, err := br.Peek(1); errors.Is(err, io.EOF) {
		c.eof = true
	}
	c.text = buf.String()
	return c, nil
}

// runePrefix drops a UTF-8 sequence cut in half at the end of b, so a cut
// never produces an invalid character.
func runePrefix(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}
