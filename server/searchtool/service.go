// Package searchtool owns the project search of a running server: the
// standards index and the code index (package search) with their lifecycle,
// the watcher that keeps them current, and the MCP tools over them
// (svc_search_project, search_standards). It also opens the same indexes for
// the CLI (OpenLocal).
//
// Lifecycle: Start returns at once; each index is loaded from its snapshot
// under .agentos/.cache/indexes/{standards,code}/ and refreshed (only files
// changed since are reindexed) or, when there is no usable snapshot (none,
// corrupt, another format or embedder), built afresh while searches already
// answer from the files indexed so far, with the index's status. A watcher
// (fsnotify, one watch per folder the index walks into) queues changed files;
// each index applies them after a short quiet time, one file at a time, and
// saves itself some seconds after the last change. A change of code.source_paths
// or code.languages in .agentos/config/mcp.yaml rebuilds the code index with
// the new sources; a changed .gitignore or .git/info/exclude refreshes both. Close stops every goroutine and saves what is unsaved.
//
// A process writes a project's snapshots only while it holds
// .agentos/.cache/indexes/index.lock: the server for as long as it runs, the
// CLI while it indexes when no server does.
package searchtool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search/embed"
)

// Options configure a Service.
type Options struct {
	Project project.Paths
	Config  config.Config
	Logger  *slog.Logger
	// Debounce is the quiet time after a file changes before it is
	// reindexed (default 100 ms); SaveAfter the quiet time after the last
	// change before the index is saved (default 10 s).
	Debounce  time.Duration
	SaveAfter time.Duration
	// StartDelay is how long Start waits before opening the indexes, so that
	// the first requests of the client that launched the server are answered
	// before the indexes compete for the CPU (default 100 ms; negative: none).
	StartDelay time.Duration
	// Criteria, if set, names the specs' criteria an impact's tests check;
	// until specs trace criteria to tests none is, and impact answers say so.
	Criteria CriteriaTracer
}

// pollInterval is how often the indexes are checked against the files when
// some folders could not be watched.
const pollInterval = 30 * time.Second

// Service runs a project's standards and code indexes.
type Service struct {
	opts Options
	log  *slog.Logger
	t    timing

	mu   sync.RWMutex
	std  *handle
	code *handle
	src  config.Sources // the sources the code index covers
	// emb is the configured embedder (nil: built-in), or embErr why it cannot be used.
	emb    embed.Embedder
	embErr error
	w      *watcher // nil until run set it up, or when watching failed

	cancel context.CancelFunc
	done   chan struct{}
}

// New returns a service for a project; Start runs it.
func New(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	t := timing{debounce: 100 * time.Millisecond, maxWait: 500 * time.Millisecond, saveQuiet: 10 * time.Second, saveMax: 2 * time.Minute}
	if opts.Debounce > 0 {
		t.debounce, t.maxWait = opts.Debounce, 5*opts.Debounce
	}
	if opts.SaveAfter > 0 {
		t.saveQuiet, t.saveMax = opts.SaveAfter, 12*opts.SaveAfter
	}
	log := opts.Logger.With("subsystem", "search")
	s := &Service{opts: opts, log: log, t: t, src: opts.Config.Code}
	logEmbedder(log, opts.Config.Search.Embedder)
	s.emb, s.embErr = embedderFor(context.Background(), opts.Project, opts.Config.Search.Embedder)
	if s.embErr != nil {
		log.Error("the configured embedder cannot be used; search is off until it is fixed", "err", s.embErr)
	}
	s.std = newHandle(standardsSpec(opts.Project).withEmbedder(s.emb, s.embErr), log, t)
	s.code = newHandle(codeSpec(opts.Project, opts.Config.Code).withEmbedder(s.emb, s.embErr), log, t)
	return s
}

// Start opens the indexes in the background and keeps them current until ctx
// ends or Close is called. It returns at once.
func (s *Service) Start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	delay := s.opts.StartDelay
	if delay == 0 {
		delay = 100 * time.Millisecond
	}
	go func() {
		defer close(s.done)
		if delay > 0 {
			t := time.NewTimer(delay)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			}
		}
		s.run(ctx)
	}()
}

// Close stops the service: the watcher, any build under way, and each index
// after it saved unsaved changes.
func (s *Service) Close() error {
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	<-s.done
	return nil
}

func (s *Service) handles() (std, code *handle) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.std, s.code
}

func (s *Service) index(name string) *handle {
	std, code := s.handles()
	if name == Standards {
		return std
	}
	return code
}

// Status returns the state of both indexes.
func (s *Service) Status() []IndexStatus {
	std, code := s.handles()
	return []IndexStatus{std.Status(), code.Status()}
}

// Subsystem summarises the service for get_server_info: its state (building,
// ready or failed) and a detail line.
func (s *Service) Subsystem() (state, detail string) {
	state = StateReady
	var parts []string
	for _, st := range s.Status() {
		switch st.State {
		case StateReady:
			parts = append(parts, fmt.Sprintf("%s ready (%d files)", st.Index, st.FilesDone))
		case StateDisabled:
			parts = append(parts, st.Index+" disabled: "+st.Detail)
		case StateFailed:
			state = StateFailed
			parts = append(parts, st.Index+" failed: "+st.Detail)
		case StateBuilding:
			if state != StateFailed {
				state = StateBuilding
			}
			parts = append(parts, fmt.Sprintf("%s building %d/%d files", st.Index, st.FilesDone, st.FilesTotal))
		default:
			if state != StateFailed {
				state = StateBuilding
			}
			parts = append(parts, st.Index+" "+st.State)
		}
	}
	return state, strings.Join(parts, "; ")
}

func (s *Service) run(ctx context.Context) {
	std, code := s.handles()
	lock, err := newIndexLock(s.opts.Project)
	if err != nil {
		s.fail(err)
		return
	}
	ok, err := lock.try()
	if err != nil {
		s.fail(err)
		return
	}
	if !ok {
		s.log.Info("another agentos process is writing the search index; waiting for it to finish")
		for _, h := range []*handle{std, code} {
			if h.ix != nil {
				h.setState(StateWaiting, "another agentos process (agentos index) is writing the index; waiting for it")
			}
		}
		if err := lock.wait(ctx); err != nil {
			return
		}
	}
	defer lock.release()
	removed, err := lock.removeInterruptedSaves()
	if len(removed) > 0 {
		s.log.Info("removed the temporary files of index saves a crash cut short", "files", removed)
	}
	if err != nil {
		s.log.Warn("cannot remove what an index save cut short left behind", "err", err)
	}

	// Watch before opening, so that nothing written during a build is missed.
	w, err := newWatcher(s.opts.Project.Root, s.log)
	if err != nil {
		s.log.Warn("cannot watch the project's files; the indexes are refreshed every 30 s instead", "err", err)
	} else {
		defer w.close()
		s.mu.Lock()
		s.w = w
		s.mu.Unlock()
		if isDir(s.opts.Project.ConfigDir()) {
			w.add(s.opts.Project.ConfigDir(), ownConfig)
		}
		// The root's .gitignore and .git/info/exclude, when no index covers
		// those folders.
		for _, d := range []string{s.opts.Project.Root, filepath.Join(s.opts.Project.Root, ".git", "info")} {
			if isDir(d) {
				w.add(d, ownConfig)
			}
		}
		s.watchGit(w)
		w.addIndex(std, ownStandards)
		w.addIndex(code, ownCode)
		s.log.Debug("watching", "folders", len(w.dirs))
	}
	std.start(ctx)
	code.start(ctx)
	s.watch(ctx, w)
	std, code = s.handles()
	std.stop()
	code.stop()
}

// fail marks both indexes failed.
func (s *Service) fail(err error) {
	s.log.Error("search indexes unavailable", "err", err)
	std, code := s.handles()
	for _, h := range []*handle{std, code} {
		if h.ix != nil {
			h.setState(StateFailed, err.Error())
		}
	}
}

// watch routes file events to the indexes until ctx ends.
func (s *Service) watch(ctx context.Context, w *watcher) {
	poll := time.NewTicker(pollInterval)
	defer poll.Stop()
	cfgTimer := time.NewTimer(time.Hour)
	cfgTimer.Stop()
	ignoreTimer := time.NewTimer(time.Hour)
	ignoreTimer.Stop()
	var events <-chan fsnotify.Event
	var errs <-chan error
	if w != nil {
		events, errs = w.fw.Events, w.fw.Errors
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			switch s.event(w, ev) {
			case configChanged:
				cfgTimer.Reset(200 * time.Millisecond)
			case ignoresChanged:
				ignoreTimer.Reset(200 * time.Millisecond)
			}
		case err, ok := <-errs:
			if !ok {
				return
			}
			s.log.Warn("file watcher", "err", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				s.refreshAll()
			}
		case <-poll.C:
			if w == nil || w.failed > 0 {
				s.refreshAll()
			}
		case <-cfgTimer.C:
			s.reloadConfig(ctx, w)
		case <-ignoreTimer.C:
			s.reloadIgnores(w)
		}
	}
}

func (s *Service) refreshAll() {
	std, code := s.handles()
	std.requestRefresh()
	code.requestRefresh()
}

// What a file event changed besides the file itself.
const (
	nothingElse    = iota
	configChanged  // .agentos/config/mcp.yaml
	ignoresChanged // a .gitignore or .git/info/exclude
)

// event handles one file event; it reports whether the configuration or the
// git ignore rules changed.
func (s *Service) event(w *watcher, ev fsnotify.Event) int {
	if ev.Has(fsnotify.Chmod) && !ev.Has(fsnotify.Create|fsnotify.Write|fsnotify.Remove|fsnotify.Rename) {
		return nothingElse
	}
	name := filepath.Clean(ev.Name)
	if s.gitMoved(w, name) {
		return nothingElse
	}
	if name == filepath.Clean(s.opts.Project.Config()) {
		return configChanged
	}
	if filepath.Base(name) == ".gitignore" || name == filepath.Join(s.opts.Project.Root, ".git", "info", "exclude") {
		return ignoresChanged
	}
	if filepath.Dir(name) == filepath.Clean(s.opts.Project.ConfigDir()) {
		return nothingElse
	}
	rel := w.rel(name)
	std, code := s.handles()
	h, owner := std, ownStandards
	switch {
	case std.covers(rel):
	case code.covers(rel):
		h, owner = code, ownCode
	default:
		return nothingElse
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		if w.watched(name) {
			// A folder went away: its files are found missing by a refresh.
			w.removeTree(name)
			h.requestRefresh()
			return nothingElse
		}
		h.enqueue(rel)
		return nothingElse
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(name); err == nil && fi.IsDir() {
			if h.dirOK(rel) {
				w.addTree(h, owner, name, true)
			}
			return nothingElse
		}
	}
	h.enqueue(rel)
	return nothingElse
}

// watchGit watches the folders of the git repository that show it move
// (HEAD, the index, the branch's ref, packed-refs): a branch switch, pull,
// revert or stash then refreshes the indexes even before, or without, the
// events of the files it rewrote.
func (s *Service) watchGit(w *watcher) {
	_, code := s.handles()
	repo := code.git.repo
	if repo == nil {
		return
	}
	for _, d := range repo.WatchDirs(code.gitState()) {
		if isDir(d) && !w.watched(d) {
			w.add(d, ownConfig)
		}
	}
}

// gitMoved reports whether a file event is the git repository moving, and
// then asks both indexes for a full refresh (which records the commit they
// reflect) and watches the folder of the branch HEAD names now.
func (s *Service) gitMoved(w *watcher, name string) bool {
	std, code := s.handles()
	repo := code.git.repo
	if repo == nil {
		repo = std.git.repo
	}
	if repo == nil || !repo.Moves(name) {
		return false
	}
	s.refreshAll()
	s.watchGit(w)
	return true
}

// reloadIgnores applies changed git ignore rules: each index reads them
// again, watches the folders they no longer ignore, and is refreshed, which
// drops the files now ignored and adds the ones no longer ignored.
func (s *Service) reloadIgnores(w *watcher) {
	s.log.Info("git ignore rules changed; refreshing the indexes")
	std, code := s.handles()
	for _, h := range []struct {
		h     *handle
		owner uint8
	}{{std, ownStandards}, {code, ownCode}} {
		if h.h.ix == nil {
			continue
		}
		h.h.ix.ReloadIgnores()
		h.h.probe.ReloadIgnores()
		if w != nil {
			w.addIndex(h.h, h.owner)
		}
		h.h.requestRefresh()
	}
}

// reloadConfig rebuilds the code index when the code's sources changed.
func (s *Service) reloadConfig(ctx context.Context, w *watcher) {
	cfg, err := config.Load(s.opts.Project.Config())
	if errors.Is(err, os.ErrNotExist) {
		cfg, err = config.Default(), nil
	}
	if err != nil {
		s.log.Warn("the configuration changed but cannot be used; the code index keeps its sources", "err", err)
		return
	}
	s.mu.RLock()
	same := sameSources(cfg.Code, s.src)
	old := s.code
	s.mu.RUnlock()
	if same {
		return
	}
	s.log.Info("code.source_paths or code.languages changed; reindexing the code",
		"source_paths", cfg.Code.SourcePaths, "languages", cfg.Code.Languages)
	old.stop() // saves its unsaved changes before the new index loads them
	nh := newHandle(codeSpec(s.opts.Project, cfg.Code).withEmbedder(s.emb, s.embErr), s.log, s.t)
	s.mu.Lock()
	s.code, s.src = nh, cfg.Code
	s.mu.Unlock()
	if w != nil {
		w.dropOwner(ownCode)
		w.addIndex(nh, ownCode)
	}
	nh.start(ctx)
}
