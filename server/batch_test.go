package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestIsBatch(t *testing.T) {
	for msg, want := range map[string]bool{
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`: true,
		" \r\n\t[]": true,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`: false,
		`[{"jsonrpc":`: false, // not JSON: a parse error, mcp-go's to answer
		`"[1]"`:        false,
		``:             false,
	} {
		if got := isBatch([]byte(msg)); got != want {
			t.Errorf("isBatch(%q) = %v", msg, got)
		}
		batch, rest, err := peekBatch(iotest.OneByteReader(strings.NewReader(msg)))
		if err != nil || batch != want {
			t.Errorf("peekBatch(%q) = %v, %v", msg, batch, err)
		}
		if b, _ := io.ReadAll(rest); string(b) != strings.TrimLeft(msg, " \r\n\t") {
			t.Errorf("peekBatch(%q) passes on %q", msg, b)
		}
	}
}

// The filter answers batch lines and passes every other line on whole, the
// last one too when it has no newline.
func TestBatchFilter(t *testing.T) {
	in := "{\"id\":1}\n [1,2]\n[{\"id\":2}]\n{\"id\":3}\n[\n{\"id\":4}"
	var out strings.Builder
	f := newBatchFilter(iotest.HalfReader(strings.NewReader(in)), &lockedWriter{w: &out})
	passed, err := io.ReadAll(iotest.OneByteReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"id\":1}\n{\"id\":3}\n[\n{\"id\":4}"; string(passed) != want {
		t.Errorf("passed on %q, want %q", passed, want)
	}
	if want := strings.Repeat(string(batchRefusal), 2); out.String() != want {
		t.Errorf("answered %q", out.String())
	}
}

// A stdio client of the bridge gets the same answer to a batch as one of
// the primary, and its session goes on.
func TestBridgeRefusesBatches(t *testing.T) {
	t.Parallel()
	p, cfg := testProject(t)
	start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportStdio, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	defer func() { inW.Close(); <-done }()
	lines := bufio.NewScanner(outR)
	exchange := func(msg string) map[string]any {
		t.Helper()
		io.WriteString(inW, msg+"\n")
		got := make(chan map[string]any, 1)
		go func() {
			var m map[string]any
			if lines.Scan() {
				json.Unmarshal(lines.Bytes(), &m)
			}
			got <- m
		}()
		select {
		case m := <-got:
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s", msg)
			return nil
		}
	}
	exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	m := exchange(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	if e, _ := m["error"].(map[string]any); e["code"] != float64(-32600) || m["id"] != nil {
		t.Errorf("answer to a batch: %v", m)
	}
	if m := exchange(`{"jsonrpc":"2.0","id":3,"method":"ping"}`); m["result"] == nil {
		t.Errorf("a ping after the batch: %v", m)
	}
}

// Closing stdin ends the bridge as soon as no request of the client is in
// flight: the listener for what the primary sends unasked is not one, and
// is not waited for. Not parallel: it lengthens the grace for requests in
// flight, so that waiting for the listener would show.
func TestBridgeEndsWhenStdinCloses(t *testing.T) {
	old := inFlightGrace
	inFlightGrace = 10 * time.Minute
	t.Cleanup(func() { inFlightGrace = old })

	p, cfg := testProject(t)
	start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Project: p, Config: cfg, Transport: TransportStdio, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	go io.Copy(io.Discard, outR)
	// The bridge reads the line (and initializes, which starts the
	// listener) before it reads the end of stdin.
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the bridge still runs a minute after stdin closed, with nothing in flight")
	}
}
