package browser

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// Caps of what a tab buffers between two calls.
const (
	maxConsole  = 500
	maxRequests = 500
	startLimit  = 30 * time.Second
)

// profilePrefix names the fresh profile directory of each session.
const profilePrefix = "agentos-browser-"

// session is one client's browser: its own process, profile and tabs.
type session struct {
	m      *Manager
	key    string
	client string
	exe    string

	mu      sync.Mutex // serialises the actions of the session
	started bool
	rootCtx context.Context
	tabs    []*tab
	active  *tab
	nextTab int

	lastUsed atomic.Int64 // unix nanoseconds
	busy     atomic.Int32

	pmu         sync.Mutex // guards the process fields below
	closed      bool
	dataDir     string
	proc        *os.Process
	allocCancel context.CancelFunc
	rootCancel  context.CancelFunc
}

func newSession(m *Manager, key, client, exe string) *session {
	s := &session{m: m, key: key, client: client, exe: exe}
	s.lastUsed.Store(m.now().UnixNano())
	return s
}

func (s *session) idleSince(now time.Time) time.Duration {
	if s.busy.Load() > 0 {
		return 0
	}
	return now.Sub(time.Unix(0, s.lastUsed.Load()))
}

var errSessionClosed = toolkit.Errorf(toolkit.CodeBusinessLogic, "this browser session was closed (idle timeout, action close, or server shutdown); call again to start a new one")

// start launches the browser. Called with s.mu held.
func (s *session) start() error {
	s.pmu.Lock()
	if s.closed {
		s.pmu.Unlock()
		return errSessionClosed
	}
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		s.pmu.Unlock()
		return fmt.Errorf("browser profile directory: %w", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(s.exe),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 720),
		chromedp.ModifyCmdFunc(prepareCmd),
	)
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	debugf := func(format string, args ...any) {
		s.m.log.Debug(fmt.Sprintf(format, args...), "browser_session", s.key)
	}
	rootCtx, rootCancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(debugf), chromedp.WithErrorf(debugf))
	s.dataDir, s.allocCancel, s.rootCancel = dir, allocCancel, rootCancel
	s.pmu.Unlock()

	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(rootCtx) }()
	select {
	case err = <-done:
	case <-time.After(startLimit):
		err = fmt.Errorf("the browser did not start within %s", startLimit)
	}
	if err != nil {
		s.m.log.Warn("browser start failed", "exe", s.exe, "err", err)
		s.close()
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "%s could not be started: %v; check that it runs (`%s --headless --version`), or set browser.path to another Chromium or Chrome", s.exe, err, s.exe)
	}
	s.pmu.Lock()
	if c := chromedp.FromContext(rootCtx); c != nil && c.Browser != nil {
		s.proc = c.Browser.Process()
	}
	closed := s.closed
	s.pmu.Unlock()
	if closed {
		killGroup(s.proc)
		return errSessionClosed
	}
	s.rootCtx, s.started = rootCtx, true
	pid := 0
	if s.proc != nil {
		pid = s.proc.Pid
	}
	s.m.log.Info("browser session started", "session", s.key, "client", s.client, "pid", pid, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// close kills the browser's process group and removes its profile. It does
// not wait for a running action (which then fails).
func (s *session) close() {
	s.pmu.Lock()
	if s.closed {
		s.pmu.Unlock()
		return
	}
	s.closed = true
	proc, allocCancel, rootCancel, dir := s.proc, s.allocCancel, s.rootCancel, s.dataDir
	s.pmu.Unlock()

	killGroup(proc)
	if allocCancel != nil {
		allocCancel() // reaps the browser
	}
	if rootCancel != nil {
		rootCancel()
	}
	if dir == "" {
		return
	}
	// Helpers that left the group or were forked as the leader died.
	for quiet, deadline := 0, time.Now().Add(2*time.Second); quiet < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if killUsing(dir) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := os.RemoveAll(dir); err == nil || time.Now().After(deadline) {
			break
		}
	}
}

// tab is one page of a session.
type tab struct {
	id       string
	ctx      context.Context
	cancel   context.CancelFunc
	gone     <-chan struct{}
	targetID string

	mu             sync.Mutex
	console        []ConsoleMessage
	consoleDropped int
	requests       []*Request
	byID           map[network.RequestID]*Request
	netDropped     int
}

// newTab opens a page and makes it active. Called with s.mu held.
func (s *session) newTab() (*tab, error) {
	s.nextTab++
	t := &tab{id: fmt.Sprintf("tab-%d", s.nextTab), byID: map[network.RequestID]*Request{}}
	ctx, cancel := chromedp.NewContext(s.rootCtx, chromedp.WithListener(t.onEvent))
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(startLimit):
		err = errors.New("timed out")
	}
	if err != nil {
		cancel()
		return nil, toolkit.Errorf(toolkit.CodeBusinessLogic, "could not open a tab: %v", err)
	}
	t.ctx, t.cancel = ctx, cancel
	if c := chromedp.FromContext(ctx); c != nil && c.Target != nil {
		t.targetID = string(c.Target.TargetID)
	}
	if gone, err := chromedp.Detached(ctx); err == nil {
		t.gone = gone
	}
	// Documents (navigations of the tab and its frames, whoever starts them:
	// a click, a redirect, a script) are paused until the policy allows them,
	// and so is everything a page loads from a file:// URL (a script, a
	// style sheet, an image): each is a read of a project file.
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	pattern := []*fetch.RequestPattern{
		{ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageRequest},
		{URLPattern: "file://*", RequestStage: fetch.RequestStageRequest},
	}
	// Every request to the agentos server's own port (a script's fetch as
	// much as a navigation) is paused too, and the policy refuses it.
	for _, own := range s.m.policy.ownOriginPatterns() {
		pattern = append(pattern, &fetch.RequestPattern{URLPattern: own, RequestStage: fetch.RequestStageRequest})
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: pattern}); err != nil {
		cancel()
		return nil, toolkit.Errorf(toolkit.CodeBusinessLogic, "could not open a tab: %v", err)
	}
	go t.guard(ctx, paused, s.m.policy)
	msgs := chromedp.Console(ctx)
	go func() {
		for msg, err := range msgs {
			if err != nil {
				return
			}
			t.addConsole(msg)
		}
	}()
	s.tabs = append(s.tabs, t)
	s.active = t
	return t, nil
}

// guard lets a paused document request go on when the policy allows its
// URL, and fails it otherwise, saying so in the tab's console.
func (t *tab) guard(ctx context.Context, paused iter.Seq2[fetch.EventRequestPaused, error], p *policy) {
	for ev, err := range paused {
		if err != nil {
			return
		}
		url := ""
		if ev.Request != nil {
			url = ev.Request.URL
		}
		if refused := p.check(url); refused == nil {
			_, err = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		} else {
			why := refused.Error()
			var te *toolkit.Error
			if errors.As(refused, &te) {
				why = te.Message
			}
			t.addConsole(chromedp.ConsoleMessage{Type: chromedp.ConsoleError, Text: "agentos blocked the page " + cut(url, 500) + ": " + why})
			_, err = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		}
		if err != nil && ctx.Err() != nil {
			return
		}
	}
}

func (t *tab) alive() bool {
	if t.gone == nil {
		return t.ctx.Err() == nil
	}
	select {
	case <-t.gone:
		return false
	default:
		return t.ctx.Err() == nil
	}
}

// prune forgets tabs the page or browser closed. Called with s.mu held.
func (s *session) prune() {
	kept := s.tabs[:0]
	for _, t := range s.tabs {
		if t.alive() {
			kept = append(kept, t)
		} else {
			t.cancel()
		}
	}
	s.tabs = kept
	if s.active != nil && !s.active.alive() {
		s.active = nil
	}
}

func (s *session) tabIDs() []string {
	ids := make([]string, len(s.tabs))
	for i, t := range s.tabs {
		ids[i] = t.id
	}
	return ids
}

func (s *session) findTab(id string) *tab {
	for _, t := range s.tabs {
		if t.id == id {
			return t
		}
	}
	return nil
}

// closeTab closes t; the last opened remaining tab becomes active. Called with s.mu held.
func (s *session) closeTab(t *tab) {
	t.cancel()
	for i, x := range s.tabs {
		if x == t {
			s.tabs = append(s.tabs[:i], s.tabs[i+1:]...)
			break
		}
	}
	if s.active == t {
		s.active = nil
		if n := len(s.tabs); n > 0 {
			s.active = s.tabs[n-1]
		}
	}
}

// ConsoleMessage is one console message or uncaught exception of a page.
type ConsoleMessage struct {
	Type string `json:"type" jsonschema:"log, debug, info, warning, error or exception"`
	Text string `json:"text"`
	URL  string `json:"url,omitempty"`
	Line int64  `json:"line,omitempty" jsonschema:"1-based line of the source"`
}

const maxText = 2000

func (t *tab) addConsole(m chromedp.ConsoleMessage) {
	c := ConsoleMessage{Type: string(m.Type), Text: cut(m.Text, maxText), URL: m.URL}
	if m.URL != "" {
		c.Line = m.Line + 1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.console) >= maxConsole {
		t.console = t.console[1:]
		t.consoleDropped++
	}
	t.console = append(t.console, c)
}

// takeConsole returns and forgets the buffered messages.
func (t *tab) takeConsole() ([]ConsoleMessage, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	msgs, dropped := t.console, t.consoleDropped
	t.console, t.consoleDropped = nil, 0
	if msgs == nil {
		msgs = []ConsoleMessage{}
	}
	return msgs, dropped
}

// Request is one network request of a page.
type Request struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Type   string `json:"type,omitempty" jsonschema:"Document, Script, XHR, Fetch, Image …"`
	Status int64  `json:"status,omitempty" jsonschema:"HTTP status; 0 while pending or when failed"`
	MIME   string `json:"mime_type,omitempty"`
	Failed string `json:"failed,omitempty" jsonschema:"why the request failed, e.g. net::ERR_CONNECTION_REFUSED"`
}

// onEvent records network events; chromedp calls it in the tab's read loop.
func (t *tab) onEvent(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if r := t.byID[ev.RequestID]; r != nil && ev.RedirectResponse != nil {
			r.Status = ev.RedirectResponse.Status
			r.MIME = ev.RedirectResponse.MimeType
		}
		if ev.Request == nil {
			return
		}
		r := &Request{Method: ev.Request.Method, URL: cut(ev.Request.URL, 500), Type: string(ev.Type)}
		if len(t.requests) >= maxRequests {
			t.requests = t.requests[1:]
			t.netDropped++
		}
		t.requests = append(t.requests, r)
		t.byID[ev.RequestID] = r
	case *network.EventResponseReceived:
		if r := t.byID[ev.RequestID]; r != nil && ev.Response != nil {
			r.Status, r.MIME = ev.Response.Status, ev.Response.MimeType
			if r.Type == "" {
				r.Type = string(ev.Type)
			}
		}
	case *network.EventLoadingFailed:
		if r := t.byID[ev.RequestID]; r != nil {
			r.Failed = ev.ErrorText
			if ev.Canceled && r.Failed == "" {
				r.Failed = "canceled"
			}
		}
	}
}

// takeRequests returns and forgets the buffered requests.
func (t *tab) takeRequests() ([]Request, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Request, len(t.requests))
	for i, r := range t.requests {
		out[i] = *r
	}
	dropped := t.netDropped
	t.requests, t.netDropped = nil, 0
	t.byID = map[network.RequestID]*Request{}
	return out, dropped
}

// cut shortens s to about n bytes, on a character boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
