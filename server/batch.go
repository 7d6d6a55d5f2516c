package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// MCP has no JSON-RPC batches since protocol 2025-06-18: a POST body, or a
// stdio line, is one message. A batch is valid JSON but not a message
// agentos accepts, so it gets JSON-RPC's answer to a request it cannot
// accept — -32600 Invalid Request with id null — and over HTTP the error
// status the streamable HTTP transport asks for (400). mcp-go would answer
// -32700 Parse error, as if the bytes were not JSON; the HTTP endpoint, the
// stdio server and the bridge answer batches themselves instead.

// batchRefusal is the answer to a batch, as a line.
var batchRefusal = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are not part of MCP (removed in protocol 2025-06-18); send each message on its own"}}` + "\n")

// isBatch reports whether msg is a JSON array.
func isBatch(msg []byte) bool {
	for i, c := range msg {
		if !isJSONSpace(c) {
			return c == '[' && json.Valid(msg[i:])
		}
	}
	return false
}

// peekBatch reads a request body up to its first significant byte and, if
// that opens an array, to its end. It reports whether the body is a batch,
// and returns a reader of the body from that byte on (the whitespace before
// it means nothing in JSON).
func peekBatch(body io.Reader) (bool, io.Reader, error) {
	br := bufio.NewReader(body)
	for {
		c, err := br.ReadByte()
		switch {
		case err == io.EOF:
			return false, br, nil
		case err != nil:
			return false, nil, err
		case isJSONSpace(c):
			continue
		}
		br.UnreadByte()
		if c != '[' {
			return false, br, nil
		}
		rest, err := io.ReadAll(br)
		if err != nil {
			return false, nil, err
		}
		return isBatch(rest), bytes.NewReader(rest), nil
	}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// batchFilter reads the stdio client's lines for mcp-go's stdio server and
// answers the batches among them itself, on out.
type batchFilter struct {
	in      *bufio.Reader
	out     io.Writer // shared with the stdio server: a lockedWriter
	pending []byte    // what is left of the line being passed on
	err     error     // the input's error, once pending is drained
}

func newBatchFilter(in io.Reader, out io.Writer) *batchFilter {
	return &batchFilter{in: bufio.NewReader(in), out: out}
}

func (f *batchFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.in.ReadBytes('\n')
		f.err = err
		if isBatch(line) {
			if _, err := f.out.Write(batchRefusal); err != nil {
				return 0, err
			}
			continue
		}
		f.pending = line
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// lockedWriter makes each Write whole with respect to the others. mcp-go
// writes every message of the stdio server in one Write, so the filter's
// answers never land inside one of them.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
