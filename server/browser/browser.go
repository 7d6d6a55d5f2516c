// Package browser owns svc_browser: an agent drives a real, installed
// Chromium or Chrome (never a downloaded one) through chromedp to check the
// web app it builds. Each MCP client session gets its own browser process
// with a fresh profile; sessions idle too long are closed, their number is
// capped, and every browser — with every helper process in its process
// group — is killed when the server stops.
package browser

import (
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// Options configure a Manager.
type Options struct {
	// Path is browser.path: the executable, or empty to search PATH.
	Path string
	// AllowedHosts is browser.allowed_hosts.
	AllowedHosts []string
	// MaxSessions caps open sessions (default 10).
	MaxSessions int
	// IdleTimeout closes sessions unused this long (default 30 min).
	IdleTimeout time.Duration
	// ProjectRoot confines file:// URLs.
	ProjectRoot string
	Logger      *slog.Logger
}

// Defaults of Options.
const (
	DefaultMaxSessions = 10
	DefaultIdleTimeout = 30 * time.Minute
)

// candidates are the executables searched on PATH, in order.
var candidates = []string{
	"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
	"headless-shell", "headless_shell", "microsoft-edge", "msedge",
}

// wellKnown are install locations outside PATH.
func wellKnown() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
		}
	case "windows":
		return []string{
			`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`,
		}
	}
	return []string{"/snap/bin/chromium"}
}

// installHint tells a person how to get a browser.
const installHint = "install Chromium or Chrome (Debian/Ubuntu: `sudo apt-get install chromium`, or scripts/install-chromium.sh in the agentos repository; macOS: `brew install --cask chromium`) or set browser.path in .agentos/config/mcp.yaml, then restart the agentos server"

// FindExecutable returns the browser to run: path when set (a name on PATH
// or a file), else the first known Chromium or Chrome.
func FindExecutable(path string) (string, error) {
	if path != "" {
		found, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("browser.path %q is not an executable: %v; %s", path, err, installHint)
		}
		return found, nil
	}
	for _, name := range append(append([]string{}, candidates...), wellKnown()...) {
		if found, err := exec.LookPath(name); err == nil {
			return found, nil
		}
	}
	return "", fmt.Errorf("no Chromium or Chrome found on PATH; %s", installHint)
}

// Manager owns the browser sessions of one server.
type Manager struct {
	opts   Options
	log    *slog.Logger
	policy *policy
	now    func() time.Time

	mu       sync.Mutex
	exe      string
	exeErr   error
	sessions map[string]*session
	closed   bool

	stop     chan struct{}
	reaperWG sync.WaitGroup
}

// NewManager returns a manager; it starts no browser until a tool call needs one.
func NewManager(opts Options) *Manager {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	m := &Manager{
		opts:     opts,
		log:      opts.Logger,
		policy:   newPolicy(opts.ProjectRoot, opts.AllowedHosts),
		now:      time.Now,
		sessions: map[string]*session{},
		stop:     make(chan struct{}),
	}
	m.exe, m.exeErr = FindExecutable(opts.Path)
	if m.exeErr != nil {
		m.log.Warn("browser unavailable", "err", m.exeErr)
	}
	m.reaperWG.Add(1)
	go m.reap()
	go sweepProfiles(func(dir string) { m.log.Info("removed a stale browser profile", "dir", dir) })
	return m
}

// RefuseOwnPort keeps every session off port on the loopback host: the
// agentos server's own, set once it listens. Its pages are a person's.
func (m *Manager) RefuseOwnPort(port int) { m.policy.ownPort.Store(int32(port)) }

// executable returns the browser, searching again if none was found at start
// (one may have been installed since).
func (m *Manager) executable() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exeErr != nil {
		m.exe, m.exeErr = FindExecutable(m.opts.Path)
	}
	return m.exe, m.exeErr
}

// State reports the subsystem for get_server_info: "ready" with the
// executable and open sessions, or "unavailable" with how to install a browser.
func (m *Manager) State() (state, detail string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exeErr != nil {
		return "unavailable", m.exeErr.Error()
	}
	return "ready", fmt.Sprintf("%s; %d of %d sessions open", m.exe, len(m.sessions), m.opts.MaxSessions)
}

// Sessions returns the keys of the open sessions, sorted (for tests).
func (m *Manager) Sessions() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.sessions))
	for k := range m.sessions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var errClosed = errors.New("browser manager closed")

// session returns the caller's session, starting a browser for it if needed.
func (m *Manager) session(key, client string) (*session, error) {
	exe, err := m.executable()
	if err != nil {
		return nil, toolkit.Errorf(toolkit.CodeBusinessLogic, "%s", err.Error()).
			WithDetails(map[string]string{"install": "sudo apt-get install chromium", "config_key": "browser.path"})
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, toolkit.Errorf(toolkit.CodeBusinessLogic, "the server is shutting down; no browser can be started")
	}
	if s, ok := m.sessions[key]; ok {
		m.mu.Unlock()
		return s, nil
	}
	if len(m.sessions) >= m.opts.MaxSessions {
		m.mu.Unlock()
		return nil, toolkit.Errorf(toolkit.CodeBusinessLogic, "%d browser sessions are open, the limit (browser.max_sessions); close yours with action close, or wait until idle ones time out after %s", m.opts.MaxSessions, m.opts.IdleTimeout)
	}
	s := newSession(m, key, client, exe)
	m.sessions[key] = s
	m.mu.Unlock()
	return s, nil
}

// existing returns the caller's session if it has one.
func (m *Manager) existing(key string) *session {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessions[key]
}

// forget removes s from the table (it closes itself).
func (m *Manager) forget(s *session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions[s.key] == s {
		delete(m.sessions, s.key)
	}
}

// closeSession closes s and forgets it.
func (m *Manager) closeSession(s *session, reason string) {
	m.forget(s)
	s.close()
	m.log.Info("browser session closed", "session", s.key, "client", s.client, "reason", reason)
}

// reap closes sessions idle longer than the timeout.
func (m *Manager) reap() {
	defer m.reaperWG.Done()
	tick := min(max(m.opts.IdleTimeout/4, 100*time.Millisecond), 30*time.Second)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
		now := m.now()
		m.mu.Lock()
		var idle []*session
		for _, s := range m.sessions {
			if s.idleSince(now) > m.opts.IdleTimeout {
				idle = append(idle, s)
			}
		}
		m.mu.Unlock()
		for _, s := range idle {
			m.closeSession(s, "idle")
		}
	}
}

// Close closes every session and kills every browser process; the manager
// refuses new sessions afterwards. It is safe to call more than once.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	all := make([]*session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.sessions = map[string]*session{}
	m.mu.Unlock()
	close(m.stop)
	m.reaperWG.Wait()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(s.close)
	}
	wg.Wait()
	return nil
}
