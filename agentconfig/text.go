package agentconfig

import "bytes"

// People's config files come with a UTF-8 byte-order mark (editors on
// Windows write one) and with CRLF line endings; the parsers refuse the
// first and the editors below would write LF lines into the second. So a
// file is edited in a normal form (no mark, LF endings) and turned back into
// its own form afterwards, in which every byte the edit did not touch is
// the original byte.

const bom = "\uFEFF"

// textForm remembers how one file spells its text.
type textForm struct {
	orig []byte // the file as read
	norm []byte // orig without the mark and with each CRLF as LF
	bom  bool
	eol  string // the dominant line ending, which new lines take
}

// readForm returns data's form and the text to edit.
func readForm(data []byte) (textForm, []byte) {
	f := textForm{orig: data, norm: data, eol: "\n"}
	body := data
	if bytes.HasPrefix(body, []byte(bom)) {
		f.bom, body = true, body[len(bom):]
	}
	crlf := bytes.Count(body, []byte("\r\n"))
	if lf := bytes.Count(body, []byte("\n")) - crlf; crlf > lf {
		f.eol = "\r\n"
	}
	if crlf > 0 {
		body = bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n"))
	}
	f.norm = body
	return f, body
}

// restore turns edited, an edit of f's normal text, back into f's form. The
// stretch that differs from the normal text takes the dominant line ending;
// everything before and after it is copied from the original file, so a
// file with mixed endings keeps each of its lines as it was.
func (f textForm) restore(edited []byte) []byte {
	if !f.bom && len(f.norm) == len(f.orig) {
		return edited // the file was already in normal form
	}
	n, m := len(f.norm), len(edited)
	p := 0
	for p < n && p < m && f.norm[p] == edited[p] {
		p++
	}
	s := 0
	for s < n-p && s < m-p && f.norm[n-1-s] == edited[m-1-s] {
		s++
	}
	middle := edited[p : m-s]
	if f.eol != "\n" {
		middle = bytes.ReplaceAll(middle, []byte("\n"), []byte(f.eol))
	}
	head, tail := f.origIndex(p), f.origIndex(n-s)
	out := make([]byte, 0, head+len(middle)+len(f.orig)-tail)
	out = append(out, f.orig[:head]...)
	out = append(out, middle...)
	return append(out, f.orig[tail:]...)
}

// origIndex is where the normal text's byte i starts in the original: the
// CR of a CRLF that became its LF.
func (f textForm) origIndex(i int) int {
	j := 0
	if f.bom {
		j = len(bom)
	}
	for k := 0; k < i; k++ {
		if f.orig[j] == '\r' && j+1 < len(f.orig) && f.orig[j+1] == '\n' {
			j++
		}
		j++
	}
	return j
}
