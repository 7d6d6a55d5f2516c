package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
)

// bridge relays a stdio MCP client to the primary server's streamable HTTP
// endpoint: each line read from stdin is POSTed, and every JSON-RPC message
// that comes back (a JSON body or server-sent events) is written to stdout as
// one line. Server-initiated messages arrive on a GET event stream opened
// after initialize. If the primary restarts, the bridge re-reads the state
// file (trusting it only as state.Verify does), repeats the client's
// initialize and carries on.
type bridge struct {
	project project.Paths
	config  config.Config // for the port range a state file must name
	token   string
	out     io.Writer
	log     *slog.Logger
	http    http.Client

	outMu sync.Mutex // one message per line, never interleaved

	reconnectMu sync.Mutex // one re-initialization at a time

	mu         sync.Mutex // guards the fields below
	url        string
	primary    int // the pid of the primary the session is with
	session    string
	protocol   string
	initialize []byte          // the client's initialize request, replayed after a restart
	generation int             // bumped on every (re)initialize
	readOnly   map[string]bool // the tools that only read, once known (readOnlyTools)
}

// maxMessage caps one JSON-RPC line from the client, like the HTTP body cap.
const maxMessage = MaxBodyBytes

func (b *bridge) run(ctx context.Context, in io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	// requests are the client's calls in flight; listeners relay what the
	// primary sends unasked and end only with ctx, so they are not waited
	// for when stdin closes, and ctx is cancelled before either is waited on.
	var requests, listeners sync.WaitGroup
	defer func() {
		cancel()
		requests.Wait()
		listeners.Wait()
	}()

	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxMessage)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		msg := append([]byte(nil), line...)
		if isBatch(msg) {
			b.write(batchRefusal)
			continue
		}
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal(msg, &head); err != nil {
			b.write(rpcError(nil, -32700, "parse error: the line is not JSON"))
			continue
		}
		if head.Method == "initialize" {
			// Synchronous: every later request needs the session it creates.
			b.mu.Lock()
			b.initialize = msg
			b.mu.Unlock()
			if err := b.initializeSession(ctx, msg, true); err != nil {
				b.write(rpcError(head.ID, -32603, err.Error()))
				continue
			}
			listeners.Add(1)
			go func() { defer listeners.Done(); b.listen(ctx) }()
			continue
		}
		// A request (method and id) awaits its answer; a notification or the
		// client's response to the server's own request awaits nothing.
		var request json.RawMessage
		if head.Method != "" && len(head.ID) > 0 && string(head.ID) != "null" {
			request = head.ID
		}
		requests.Add(1)
		go func() {
			defer requests.Done()
			if err := b.forward(ctx, msg, request); err != nil && request != nil {
				b.write(rpcError(request, -32603, err.Error()))
			}
		}()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("bridge: read stdin: %w", err)
	}
	b.log.Info("stdin closed; ending bridge session")
	b.waitInFlight(&requests, cancel)
	b.endSession()
	return nil
}

// waitInFlight lets outstanding requests finish (briefly) after stdin closes,
// then cancels the rest.
func (b *bridge) waitInFlight(wg *sync.WaitGroup, cancel context.CancelFunc) {
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(inFlightGrace):
	}
	cancel()
}

// inFlightGrace is how long requests in flight may finish once stdin has
// closed; a variable for a test.
var inFlightGrace = 5 * time.Second

// initializeSession POSTs an initialize request and records the session; the
// response goes to the client only the first time.
func (b *bridge) initializeSession(ctx context.Context, msg []byte, reply bool) error {
	b.mu.Lock()
	b.session, b.protocol = "", ""
	b.mu.Unlock()
	resp, err := b.post(ctx, msg)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return statusError(resp)
	}
	b.mu.Lock()
	b.session = resp.Header.Get("Mcp-Session-Id")
	b.generation++
	b.mu.Unlock()
	return b.relay(resp, func(m []byte) {
		var r struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(m, &r) == nil && r.Result.ProtocolVersion != "" {
			b.mu.Lock()
			b.protocol = r.Result.ProtocolVersion
			b.mu.Unlock()
		}
		if reply {
			b.write(m)
		}
	})
}

// forward POSTs one client message and relays what comes back. When the
// primary went away, the bridge finds the next one through the state file,
// re-initializes there and, unless the message may already have taken effect
// (delivery), sends it again, maxResends times at most.
func (b *bridge) forward(ctx context.Context, msg []byte, id json.RawMessage) error {
	for attempt := 0; ; attempt++ {
		b.mu.Lock()
		gen := b.generation
		b.mu.Unlock()
		d, err := b.exchange(ctx, msg, id)
		if d == settled {
			return err
		}
		if attempt >= maxResends || ctx.Err() != nil {
			return fmt.Errorf("agentos bridge: the primary server did not answer: %v", err)
		}
		b.log.Info("the primary ended before answering; going to the next one", "err", err)
		if rerr := b.reconnect(ctx, gen, true); rerr != nil {
			return rerr
		}
		if d == cutOff && !b.repeatable(ctx, msg) {
			return errors.New("agentos bridge: the primary server ended while answering this call and another took over; " +
				"the call was not sent again because it may have taken effect: check where things stand " +
				"(for a workflow, svc_workflow get_state) before calling again")
		}
	}
}

// maxResends bounds how often forward sends one message again. Once is not
// always enough: the primary found after one ended may be the one still
// shutting down (it answers its liveness check a moment longer), and under
// load the next takes a while to listen.
const maxResends = 3

// delivery says what became of a message exchange sent.
type delivery int

const (
	// settled: answered, or refused for good; not worth sending again.
	settled delivery = iota
	// undelivered: the primary never took the message (no connection, or it
	// does not know the session): the next one may run it.
	undelivered
	// cutOff: the primary took the message and ended before answering; it
	// may have run there.
	cutOff
)

// exchange POSTs msg and relays the reply, saying what became of msg.
func (b *bridge) exchange(ctx context.Context, msg []byte, id json.RawMessage) (delivery, error) {
	resp, err := b.post(ctx, msg)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return undelivered, fmt.Errorf("not reachable: %w", err)
		}
		return cutOff, fmt.Errorf("the connection ended: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return undelivered, fmt.Errorf("it lost this session")
	case resp.StatusCode >= 300:
		return settled, statusError(resp)
	}
	answered := false
	err = b.relay(resp, func(m []byte) {
		answered = answered || isAnswer(m, id)
		b.write(m)
	})
	if id != nil && !answered {
		return cutOff, fmt.Errorf("the response ended without the answer (%v)", err)
	}
	return settled, err
}

// isAnswer reports whether m is the response to the request with id.
func isAnswer(m []byte, id json.RawMessage) bool {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if len(id) == 0 || json.Unmarshal(m, &r) != nil || (r.Result == nil && r.Error == nil) {
		return false
	}
	var a, b bytes.Buffer
	return json.Compact(&a, r.ID) == nil && json.Compact(&b, id) == nil && bytes.Equal(a.Bytes(), b.Bytes())
}

// reconnect re-reads the state file and replays initialize at the primary it
// names, unless another goroutine already did so since generation gen, or,
// when !lost, the primary is still the one the session is with (an event
// stream ending says only that it may have changed).
func (b *bridge) reconnect(ctx context.Context, gen int, lost bool) error {
	b.reconnectMu.Lock()
	defer b.reconnectMu.Unlock()
	b.mu.Lock()
	if b.generation != gen {
		b.mu.Unlock()
		return nil
	}
	init, primary := b.initialize, b.primary
	b.mu.Unlock()
	st, err := waitForPrimary(ctx, b.project, b.config)
	if err != nil {
		b.log.Warn("no primary server to reconnect to", "err", err)
		return fmt.Errorf("agentos bridge: the primary server stopped and no other took over within %s; try again in a moment", primaryWait)
	}
	if !lost && st.PID == primary {
		return nil
	}
	b.mu.Lock()
	b.url, b.primary = st.URL, st.PID
	b.mu.Unlock()
	b.log.Info("primary changed; re-initializing", "url", st.URL, "pid", st.PID)
	if init == nil {
		return nil
	}
	if err := b.initializeSession(ctx, init, false); err != nil {
		return err
	}
	resp, err := b.post(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err == nil {
		resp.Body.Close()
	}
	return err
}

func (b *bridge) post(ctx context.Context, msg []byte) (*http.Response, error) {
	req, err := b.request(ctx, http.MethodPost, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return b.http.Do(req)
}

func (b *bridge) request(ctx context.Context, method string, body io.Reader) (*http.Request, error) {
	b.mu.Lock()
	url, session, protocol := b.url, b.session, b.protocol
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, fmt.Errorf("agentos bridge: %w", err)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", protocol)
	}
	if b.token != "" {
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	return req, nil
}

// listen relays server-initiated messages from the GET event stream until
// ctx ends. A server that does not offer the stream (405) is fine. The
// stream is also how the bridge notices at once that the primary exited: it
// re-points to the next one then, not at the client's next request.
func (b *bridge) listen(ctx context.Context) {
	for ctx.Err() == nil {
		b.mu.Lock()
		gen := b.generation
		b.mu.Unlock()
		req, err := b.request(ctx, http.MethodGet, nil)
		if err != nil {
			return
		}
		req.Header.Set("Accept", "text/event-stream")
		pause := time.Second
		resp, err := b.http.Do(req)
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				b.relay(resp, b.write)
				pause = 50 * time.Millisecond // the stream ended: look again soon
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusMethodNotAllowed {
				return
			}
		}
		if ctx.Err() == nil {
			lost := err != nil || resp.StatusCode == http.StatusNotFound
			if rerr := b.reconnect(ctx, gen, lost); rerr != nil {
				b.log.Warn("no primary to re-point to yet", "err", rerr)
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
}

// endSession tells the primary the session is over, so it forgets the client.
func (b *bridge) endSession() {
	b.mu.Lock()
	session := b.session
	b.mu.Unlock()
	if session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if req, err := b.request(ctx, http.MethodDelete, nil); err == nil {
		if resp, err := b.http.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}

// relay hands every JSON-RPC message of a response to emit: a JSON body is
// one message; an event stream carries one per event.
func (b *bridge) relay(resp *http.Response, emit func([]byte)) error {
	if resp.StatusCode == http.StatusAccepted {
		return nil
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media != "text/event-stream" {
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		if err != nil {
			return fmt.Errorf("agentos bridge: read response: %w", err)
		}
		if len(bytes.TrimSpace(body)) > 0 {
			emit(body)
		}
		return nil
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 && json.Valid(data.Bytes()) {
				emit(append([]byte(nil), data.Bytes()...))
			}
			data.Reset()
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("agentos bridge: read event stream: %w", err)
	}
	return nil
}

// write sends one message to the client as a single compact line.
func (b *bridge) write(msg []byte) {
	var line bytes.Buffer
	if err := json.Compact(&line, msg); err != nil {
		b.log.Warn("dropping a message from the primary that is not JSON", "err", err)
		return
	}
	line.WriteByte('\n')
	b.outMu.Lock()
	defer b.outMu.Unlock()
	if _, err := b.out.Write(line.Bytes()); err != nil {
		b.log.Error("write to stdout", "err", err)
	}
}

func statusError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return fmt.Errorf("agentos bridge: the primary server answered %s: %s", resp.Status, strings.TrimSpace(string(body)))
}

func rpcError(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": msg},
	})
	return out
}
