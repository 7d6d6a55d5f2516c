// Package server owns the agentos MCP server process: one MCPServer answering
// on stdio, on streamable HTTP at 127.0.0.1, or on both at once ("dual"); the
// per-project lock that keeps one primary server per project; the state file
// that tells other agents where it listens (on the project's recorded
// server.port when free); the HTTP guard; the bridge through which every
// later stdio or dual server shares the running primary, standing by to take
// over when it exits; and the tool registry.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/peeruser"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/browser"
	"github.com/agentos-dev/agentos/server/info"
	"github.com/agentos-dev/agentos/server/prompts"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/server/state"
	"github.com/agentos-dev/agentos/server/toolkit"
	"github.com/agentos-dev/agentos/server/workflowtool"
	"github.com/agentos-dev/agentos/workflow"
)

// Transport selects how the server is reached.
type Transport string

const (
	TransportDual  Transport = "dual"  // stdio for the IDE that launched it, HTTP for every other agent
	TransportStdio Transport = "stdio" // the launching IDE only
	TransportHTTP  Transport = "http"  // HTTP only, for tests and services
)

// ParseTransport validates a --transport value.
func ParseTransport(s string) (Transport, error) {
	switch t := Transport(s); t {
	case TransportDual, TransportStdio, TransportHTTP:
		return t, nil
	}
	return "", fmt.Errorf("unknown transport %q: use dual, stdio or http", s)
}

func (t Transport) stdio() bool { return t == TransportDual || t == TransportStdio }
func (t Transport) http() bool  { return t == TransportDual || t == TransportHTTP }

// Host is the only address the HTTP transport binds.
const Host = state.Host

// Options configure Run.
type Options struct {
	Project project.Paths
	// Config is the configuration to act on, with the settings the person
	// has not trusted set to the defaults (trust.Load); Untrusted is the
	// notice that says which, "" when none.
	Config    config.Config
	Untrusted string
	Transport Transport
	Logger    *slog.Logger
	Stdin     io.Reader
	Stdout    io.Writer
	// BodyTimeout is how long an HTTP client may take to send a request
	// body (0: DefaultBodyTimeout).
	BodyTimeout time.Duration
	// Ready, if set, is called once the server accepts requests (after the
	// state file is written). Tests and benchmarks use it.
	Ready func(Status)
}

// Status is what Ready receives.
type Status struct {
	URL  string
	Port int
}

// AlreadyRunningError reports that another server holds the project.
type AlreadyRunningError struct {
	PID int
	URL string // empty when the running server has no HTTP transport
	// Untrusted, when set, says why the state file was not trusted: nothing
	// was sent to the URL it names.
	Untrusted string
	// NoStateFile says the holder wrote no state file in the time a
	// starting server takes (primaryWait).
	NoStateFile bool
}

func (e *AlreadyRunningError) Error() string {
	if e.Untrusted != "" {
		return fmt.Sprintf("another agentos process (pid %d) holds this project's lock, but its state file cannot be trusted (%s), so nothing was sent to the URL it names; stop that process (or restart the agent that launched it) and try again", e.PID, e.Untrusted)
	}
	if e.NoStateFile {
		return fmt.Sprintf("another agentos process (pid %d) holds this project's lock but wrote no state file within %s; if it is still starting, try again, otherwise stop it (or restart the agent that launched it)", e.PID, primaryWait)
	}
	if e.URL == "" {
		return fmt.Sprintf("an agentos server (pid %d) already serves this project over stdio only; stop it, or start it with --transport dual so other agents can share it", e.PID)
	}
	return fmt.Sprintf("an agentos server (pid %d) already serves this project at %s; connect to it instead of starting another, or stop it first", e.PID, e.URL)
}

// NoFreePortError reports that every port of the range is taken.
type NoFreePortError struct{ Lo, Hi int }

func (e *NoFreePortError) Error() string {
	return fmt.Sprintf("no free port in %d-%d on %s that no other project records: close other agentos instances (or other programs using these ports), or widen server.port_range, and try again", e.Lo, e.Hi, Host)
}

// Run serves the project until ctx ends or, on a stdio transport, stdin
// closes. When another server already holds the project, Run bridges stdio to
// it and stands by to take over (transports stdio and dual), or returns
// *AlreadyRunningError (http).
func Run(ctx context.Context, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	lock, err := acquireLock(opts.Project, opts.Transport)
	if err != nil {
		return err
	}
	if lock == nil {
		return runSecondary(ctx, opts)
	}
	defer lock.release()
	s, err := newServer(opts)
	if err != nil {
		return err
	}
	return s.serve(ctx)
}

// server is one running primary.
type server struct {
	opts       Options
	log        *slog.Logger
	mcp        *mcpserver.MCPServer
	clients    *clients
	workflows  *workflow.Engine
	search     *searchtool.Service // the standards and code indexes; started by serve
	browser    *browser.Manager    // svc_browser's sessions; closed on shutdown
	instanceID string
	started    time.Time
	auth       string
	sessionKey *machinekey.Key // signs HTTP session ids (sessionIDs)
	// bridged: the stdio client of this process reaches the server through
	// the process's own bridge over HTTP, as after a takeover (standby).
	bridged bool

	mu   sync.Mutex // guards url and port, set once HTTP listens
	url  string
	port int
}

func newServer(opts Options) (*server, error) {
	id := make([]byte, 8)
	rand.Read(id)
	s := &server{
		opts:       opts,
		log:        opts.Logger,
		clients:    newClients(time.Now),
		instanceID: hex.EncodeToString(id),
		started:    time.Now(),
		auth:       opts.Config.Server.Auth,
	}
	key, err := machinekey.Load()
	if err != nil {
		return nil, err
	}
	s.sessionKey = key
	hooks := s.clients.hooks()
	hooks.AddOnRequestInitialization(refuseLongNames)
	resources := workflowtool.NewResources(hooks, opts.Logger)
	engine, err := workflow.ForProject(opts.Project, opts.Config, resources.Notify)
	if err != nil {
		return nil, err
	}
	s.workflows = engine
	idle, _ := opts.Config.BrowserIdle() // validated when the config was loaded
	s.browser = browser.NewManager(browser.Options{
		Path: opts.Config.Browser.Path, AllowedHosts: opts.Config.Browser.AllowedHosts,
		MaxSessions: opts.Config.Browser.MaxSessions, IdleTimeout: idle,
		ProjectRoot: opts.Project.Root, Logger: opts.Logger,
	})
	s.mcp = mcpserver.NewMCPServer(buildinfo.Name, buildinfo.Get().Version,
		mcpserver.WithToolCapabilities(false),
		// Server capabilities only: subscriptions to workflow sessions. The
		// approval's elicitation is the client's capability, asked for
		// only where the client declared it.
		mcpserver.WithResourceCapabilities(true, false),
		mcpserver.WithPromptCapabilities(false), // the workflows' commands (prompts.Register)
		mcpserver.WithRecovery(),
		mcpserver.WithHooks(hooks),
		mcpserver.WithInstructions(instructions),
	)
	resources.Register(s.mcp, engine)
	prompts.Register(s.mcp)
	s.search = searchtool.New(searchtool.Options{Project: opts.Project, Config: opts.Config, Logger: opts.Logger, Criteria: SpecCriteria(engine)})
	engine.SetGraph(specGraph(s.search))
	tools, err := s.tools()
	if err != nil {
		s.browser.Close()
		return nil, err
	}
	for _, t := range tools {
		def, err := toolkit.Portable(t.Def)
		if err != nil {
			s.browser.Close()
			return nil, err
		}
		s.mcp.AddTool(def, t.Handler)
	}
	return s, nil
}

const instructions = `agentos serves this project's engineering standards, code and workflows.
search_standards finds the standards that apply to a task; svc_search_project searches the code and
its call graph (callers, dependencies, call paths).
svc_workflow runs phase-gated workflows: spec_creation_v1 to write a spec, spec_execution_v1 to
implement an approved one task by task; the server checks every gate itself. get_server_info shows
the project and transport; current_date gives today's date; svc_filesystem reads and writes files
inside the project (never outside it); svc_browser drives a headless Chromium to check the web app
you build on localhost.`

// Status implements info.Source.
func (s *server) Status() info.Status {
	s.mu.Lock()
	url, port := s.url, s.port
	s.mu.Unlock()
	st := info.Status{
		InstanceID: s.instanceID,
		PID:        os.Getpid(),
		StartedAt:  s.started,
		Transport:  string(s.opts.Transport),
		URL:        url,
		Port:       port,
		Auth:       s.auth,
		Project:    info.Project{Name: s.opts.Project.Name(), Root: s.opts.Project.Root},
		Subsystems: s.subsystems(),
		Clients:    s.clients.list(),
	}
	if s.opts.Transport.http() {
		st.StateFile = s.opts.Project.StateFile()
	}
	return st
}

func (s *server) subsystems() []info.Subsystem {
	onOff := func(name string, on bool, detail string) info.Subsystem {
		if on {
			return info.Subsystem{Name: name, State: "ready", Detail: detail}
		}
		return info.Subsystem{Name: name, State: "disabled", Detail: "not enabled by --transport " + string(s.opts.Transport)}
	}
	s.mu.Lock()
	url := s.url
	s.mu.Unlock()
	stdioDetail := ""
	if s.bridged {
		stdioDetail = "this process's client, through its bridge: it took over as the primary when the one before exited"
	}
	return []info.Subsystem{
		onOff("stdio", s.opts.Transport.stdio(), stdioDetail),
		onOff("http", s.opts.Transport.http(), url),
		{Name: "filesystem", State: "ready", Detail: "confined to " + s.opts.Project.Root},
		s.workflowState(),
		s.searchState(),
		s.browserState(),
		s.settingsState(),
	}
}

func (s *server) browserState() info.Subsystem {
	state, detail := s.browser.State()
	return info.Subsystem{Name: "browser", State: state, Detail: detail}
}

// serve runs the transports until ctx ends or stdin closes, then shuts down
// and removes the state file.
func (s *server) serve(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	var wg sync.WaitGroup
	stopHTTP := func() {}
	watched := installed(s.opts.Project)
	// Order matters: cancel ends the stdio loop, stopHTTP removes the state
	// file and closes the listener, and only then is every goroutine awaited.
	defer func() {
		cancel(nil)
		stopHTTP()
		wg.Wait()
		s.browser.Close() // kills every browser process it started
		s.search.Close()  // stops the watcher and builds, saves the indexes
		if watched && !installed(s.opts.Project) {
			// The indexes just saved must not bring back what the
			// uninstall removed; .agentos/ goes too when that empties it.
			os.RemoveAll(s.opts.Project.Cache())
			os.Remove(s.opts.Project.AgentOS())
		}
	}()
	if s.bridged && !watched {
		s.log.Info("not taking over: agentos was uninstalled from the project")
		return nil
	}
	if watched {
		wg.Go(func() { s.watchInstall(ctx, cancel) })
	}
	// The indexes load or build in the background; searches answer meanwhile.
	s.search.Start(ctx)
	if every, _ := s.opts.Config.SpecsCheckInterval(); every > 0 {
		// Validated with the config; only a person's setting runs tests unasked.
		wg.Go(func() { s.workflows.CheckSpecsEvery(ctx, every, s.log) })
	}
	done := make(chan error, 2) // one slot per transport

	if s.opts.Transport.http() {
		stop, err := s.startHTTP(ctx, &wg, done)
		if err != nil {
			return err
		}
		stopHTTP = stop
	}
	if s.opts.Transport.stdio() && !s.bridged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := &lockedWriter{w: s.opts.Stdout}
			err := mcpserver.NewStdioServer(s.mcp).Listen(ctx, newBatchFilter(s.opts.Stdin, out), out)
			if err == nil || errors.Is(err, context.Canceled) {
				s.log.Info("stdin closed; shutting down")
				err = nil
			}
			done <- err
		}()
	}
	if s.opts.Ready != nil {
		s.mu.Lock()
		st := Status{URL: s.url, Port: s.port}
		s.mu.Unlock()
		s.opts.Ready(st)
	}
	select {
	case <-ctx.Done():
		s.log.Info("shutting down", "reason", context.Cause(ctx))
		return nil
	case err := <-done:
		return err
	}
}

// installed reports whether the project still holds agentos's install:
// every uninstall removes .agentos/config/ (--purge, .agentos/ whole). A
// folder that cannot be looked at just now is taken to be there.
func installed(p project.Paths) bool {
	fi, err := os.Stat(p.ConfigDir())
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	return fi.IsDir()
}

// installPoll is how often a server checks that its project is installed.
const installPoll = time.Second

// errUninstalled is why a server stops when its project's install goes.
var errUninstalled = errors.New("agentos was uninstalled from the project (.agentos/config/ is gone)")

// watchInstall stops the server (cancel) once the project's install is
// gone, rather than write its indexes and state into the project again.
func (s *server) watchInstall(ctx context.Context, cancel context.CancelCauseFunc) {
	tick := time.NewTicker(installPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !installed(s.opts.Project) {
				cancel(errUninstalled)
				return
			}
		}
	}
}

// startHTTP binds the first free port, serves the guarded endpoint and writes
// the state file. The returned stop shuts the listener down and removes the
// state file.
func (s *server) startHTTP(ctx context.Context, wg *sync.WaitGroup, done chan<- error) (stop func(), err error) {
	lo, hi, err := s.opts.Config.Ports()
	if err != nil {
		return nil, err
	}
	recorded := s.opts.Config.Server.Port
	ln, port, err := listen(ctx, s.opts.Project.Root, recorded, lo, hi)
	if err != nil {
		return nil, err
	}
	s.logPort(ctx, recorded, port)
	token, err := loadToken(s.opts.Project, s.auth)
	if err != nil {
		ln.Close()
		return nil, err
	}
	url := fmt.Sprintf("http://%s:%d%s", Host, port, state.EndpointPath)
	s.mu.Lock()
	s.url, s.port = url, port
	s.mu.Unlock()

	streamable := mcpserver.NewStreamableHTTPServer(s.mcp,
		mcpserver.WithEndpointPath(state.EndpointPath),
		mcpserver.WithSessionIdManagerResolver(&sessionIDs{key: s.sessionKey, project: s.opts.Project.Root, clients: s.clients}),
		mcpserver.WithHeartbeatInterval(30*time.Second),
		mcpserver.WithSessionIdleTTL(2*time.Hour),
		mcpserver.WithStreamableHTTPLogger(s.log),
	)
	mux := http.NewServeMux()
	mux.Handle(state.EndpointPath, &endpoint{mcp: streamable, liveness: s.liveness, clients: s.clients})
	if err := s.mountReview(mux, port); err != nil {
		ln.Close()
		return nil, err
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusNotFound, "not found: the MCP endpoint is "+state.EndpointPath)
	})
	// Handlers of long-lived event streams watch this context, so shutdown
	// ends them instead of waiting for clients to hang up.
	baseCtx, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	bodyTimeout := s.opts.BodyTimeout
	if bodyTimeout <= 0 {
		bodyTimeout = DefaultBodyTimeout
	}
	hs := &http.Server{
		Handler:           &guard{port: port, token: token, ownUserOnly: s.auth == config.AuthUser && peeruser.Supported, bodyTimeout: bodyTimeout, next: mux},
		ConnContext:       withPeer,
		ReadHeaderTimeout: 10 * time.Second,
		// A kept-alive connection between requests holds a goroutine and a
		// socket; clients that keep one idle this long open a new one.
		IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return baseCtx },
		ErrorLog:    slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			done <- fmt.Errorf("http server: %w", err)
		}
	}()

	sf := s.opts.Project.StateFile()
	if old, err := state.Read(sf); err == nil {
		// This server holds the lock, so whatever the file says is stale or forged.
		s.log.Warn("replacing stale state file", "path", sf, "pid", old.PID, "url", old.URL)
	}
	st := state.New(string(s.opts.Transport), Host, port, os.Getpid(), s.started, buildinfo.Get().Version,
		state.Project{Name: s.opts.Project.Name(), Root: s.opts.Project.Root}, s.auth)
	if err := state.Write(sf, st); err != nil {
		cancelBase()
		hs.Close()
		return nil, err
	}
	s.log.Info("listening", "url", url, "transport", s.opts.Transport, "auth", s.auth)
	if s.auth == config.AuthUser && !peeruser.Supported {
		s.log.Warn("server.auth: user cannot be checked on this system, so any local process may call the HTTP transport; set server.auth: token to keep other users out", "os", runtime.GOOS)
	}

	return func() {
		if err := state.RemoveIfOwned(sf, os.Getpid()); err != nil {
			s.log.Error("remove state file", "err", err)
		}
		cancelBase()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := hs.Shutdown(shutdownCtx); err != nil {
			hs.Close()
		}
	}, nil
}

// listen binds the project's port by the one rule of package ports
// (ports.Listen): the recorded port when it is free, else the next free one
// of lo..hi after it (wrapping round to lo) that browsers load pages from
// and no other project records, so this server never answers another
// project's HTTP clients; with no recorded port (0), the first such one.
func listen(ctx context.Context, root string, recorded, lo, hi int) (net.Listener, int, error) {
	ln, port, err := ports.Listen(ctx, root, recorded, lo, hi)
	if errors.Is(err, ports.ErrNoFreePort) {
		return nil, 0, &NoFreePortError{Lo: lo, Hi: hi}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("listen on %s: %w", Host, err)
	}
	return ln, port, nil
}

// liveness is the body of a plain GET /mcp.
func (s *server) liveness() any {
	return state.Liveness{
		Name:       buildinfo.Name,
		Version:    buildinfo.Get().Version,
		Transport:  string(s.opts.Transport),
		Project:    state.Project{Name: s.opts.Project.Name(), Root: s.opts.Project.Root},
		InstanceID: s.instanceID,
		PID:        os.Getpid(),
	}
}

func (s *server) searchState() info.Subsystem {
	state, detail := s.search.Subsystem()
	return info.Subsystem{Name: "search", State: state, Detail: detail}
}

func (s *server) workflowState() info.Subsystem {
	lib := s.workflows.Library()
	st := info.Subsystem{Name: "workflow", State: "ready", Detail: fmt.Sprintf("%d workflows", len(lib.List()))}
	if invalid := lib.Invalid(); len(invalid) > 0 {
		st.State = "degraded"
		for file, why := range invalid {
			st.Detail += "; invalid " + file + ": " + why
		}
	}
	return st
}
