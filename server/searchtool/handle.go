package searchtool

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/internal/gitrepo"
	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/scan"
)

// States of an index.
const (
	StateStarting   = "starting"   // created; not opened yet
	StateWaiting    = "waiting"    // another process holds the index lock
	StateLoading    = "loading"    // reading the saved index
	StateBuilding   = "building"   // first build: files_done of files_total are searchable
	StateRefreshing = "refreshing" // the saved index answers while changed files are reindexed
	StateReady      = "ready"
	StateFailed     = "failed"
	StateDisabled   = "disabled" // nothing to index
)

// searchable reports whether an index in this state answers searches.
func searchable(state string) bool {
	switch state {
	case StateBuilding, StateRefreshing, StateReady:
		return true
	}
	return false
}

// IndexStatus is the state of one index.
type IndexStatus struct {
	Index      string    `json:"index" jsonschema:"standards or code"`
	State      string    `json:"state" jsonschema:"starting, waiting, loading, building, refreshing, ready, failed or disabled"`
	FilesDone  int       `json:"files_done" jsonschema:"Files searchable now"`
	FilesTotal int       `json:"files_total" jsonschema:"Files the index covers (0 while not known yet)"`
	Chunks     int       `json:"chunks,omitempty"`
	Symbols    int       `json:"symbols,omitempty"`
	Embedder   string    `json:"embedder,omitempty"`
	Detail     string    `json:"detail,omitempty" jsonschema:"What it is doing, why it failed, or what of the configuration was left out"`
	UpdatedAt  time.Time `json:"updated_at,omitzero" jsonschema:"When the index last changed"`
	// Fresh and what follows say what the index reflects (see fresh.go).
	Fresh        bool   `json:"fresh" jsonschema:"The index reflects the files as they are now: ready, no changed file waiting, and the git repository has not moved since it was brought up to date"`
	Commit       string `json:"commit,omitempty" jsonschema:"The git commit the index reflects: HEAD when every file was last checked against it"`
	Branch       string `json:"branch,omitempty" jsonschema:"The branch HEAD named then"`
	Head         string `json:"head,omitempty" jsonschema:"Set when the repository moved since: the commit HEAD is at now (a branch switch, pull, revert or stash not indexed yet)"`
	FilesChanged int    `json:"files_changed,omitempty" jsonschema:"Files changed since and still being indexed"`
}

// timing holds the watcher's and saver's delays.
type timing struct {
	debounce  time.Duration // quiet time after a change before it is applied
	maxWait   time.Duration // longest a change waits while others keep coming
	saveQuiet time.Duration // quiet time after the last change before saving
	saveMax   time.Duration // longest an applied change waits to be saved
}

// bulkThreshold is how many changed files make one full refresh cheaper than
// updating them one by one (a branch switch, a formatter run).
const bulkThreshold = 200

// handle owns one index: opening or building it, applying changes from the
// watcher, and saving it.
type handle struct {
	spec
	log   *slog.Logger
	t     timing
	ix    *search.Index // nil when disabled or when it could not be created
	probe *scan.Scanner // the index's coverage without the extension filter, for folders

	mu     sync.Mutex
	status IndexStatus

	pmu        sync.Mutex
	pending    map[string]struct{}
	refreshAll bool
	inFlight   int // files being applied now; -1 for a full refresh
	kick       chan struct{}

	git gitSync // under mu

	cancel context.CancelFunc
	done   chan struct{}

	afterBatch func(done int) // tests: called after each batch of a first build
	unloaded   func()         // tests: called while a build's index is unloaded, before its snapshot loads
}

func newHandle(sp spec, log *slog.Logger, t timing) *handle {
	h := &handle{spec: sp, log: log.With("index", sp.name), t: t, pending: map[string]struct{}{},
		kick: make(chan struct{}, 1), done: make(chan struct{})}
	h.status = IndexStatus{Index: sp.name, State: StateStarting, Detail: strings.Join(sp.notes, "; ")}
	if sp.disabled != "" {
		h.status.State, h.status.Detail = StateDisabled, sp.disabled
		return h
	}
	ix, err := search.New(sp.opt)
	if err == nil {
		h.probe, err = scan.New(scan.Options{Root: sp.opt.Root, Paths: ix.Options().Paths, Gitignore: sp.opt.Gitignore})
	}
	if err != nil {
		h.status.State, h.status.Detail = StateFailed, err.Error()
		return h
	}
	h.ix = ix
	h.status.Embedder = ix.Options().Embedder.Name()
	if repo, err := gitrepo.Find(sp.opt.Root); err == nil {
		h.git.repo = repo
	} else if !errors.Is(err, gitrepo.ErrNotRepo) {
		h.log.Warn("cannot read the git repository; answers will not say which commit the index reflects", "err", err)
	}
	return h
}

// Status returns the index's state.
func (h *handle) Status() IndexStatus {
	h.mu.Lock()
	st := h.status
	h.mu.Unlock()
	h.fresh(&st)
	return st
}

func (h *handle) setState(state, detail string) {
	h.mu.Lock()
	h.status.State = state
	h.status.Detail = h.detail(detail)
	h.mu.Unlock()
}

// detail joins a state's detail with the configuration notes.
func (h *handle) detail(d string) string {
	return strings.Join(slices.DeleteFunc(append([]string{d}, h.notes...), func(s string) bool { return s == "" }), "; ")
}

func (h *handle) setProgress(done, total int) {
	h.mu.Lock()
	h.status.FilesDone, h.status.FilesTotal = done, total
	h.mu.Unlock()
}

// countStats copies the index's size into the status.
func (h *handle) countStats() {
	st := h.ix.Stats()
	h.mu.Lock()
	h.status.FilesDone, h.status.FilesTotal = st.Files, st.Files
	h.status.Chunks, h.status.Symbols = st.Chunks, st.Graph.Symbols
	h.status.UpdatedAt = time.Now().UTC().Truncate(time.Second)
	h.mu.Unlock()
}

func (h *handle) touched() {
	h.mu.Lock()
	h.status.UpdatedAt = time.Now().UTC().Truncate(time.Second)
	h.mu.Unlock()
}

// start runs the index on its own goroutine until ctx ends or stop is called.
func (h *handle) start(ctx context.Context) {
	ctx, h.cancel = context.WithCancel(ctx)
	go func() {
		defer close(h.done)
		h.run(ctx)
	}()
}

// stop ends the index's goroutine and waits for it (it saves unsaved changes).
func (h *handle) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	<-h.done
}

func (h *handle) run(ctx context.Context) {
	if h.ix == nil {
		return
	}
	if err := h.open(ctx); err != nil {
		if ctx.Err() != nil {
			return
		}
		h.log.Error("search index failed", "err", err)
		h.setState(StateFailed, err.Error())
		return
	}
	h.loop(ctx)
}

// open makes the index ready: the saved index when it is usable (then
// refreshed: only changed files are reindexed), else a fresh build.
func (h *handle) open(ctx context.Context) error {
	h.setState(StateLoading, "")
	start := time.Now()
	err := h.ix.Load()
	switch {
	case err == nil:
		h.countStats()
		h.setState(StateRefreshing, "loaded the saved index; reindexing files changed since")
		git := h.gitState()
		bs, err := h.ix.Refresh(ctx)
		if err != nil {
			return fmt.Errorf("refresh the saved index: %w", err)
		}
		h.markSynced(git)
		if bs.Files > 0 || bs.Removed > 0 {
			if err := h.ix.Save(); err != nil {
				h.log.Warn("save the search index", "err", err)
			}
		}
		h.countStats()
		// The garbage of decoding the snapshot (as much again as the
		// index) goes back before the index says it is ready: returned
		// afterwards, it slowed the first searches several times (a
		// collection and the return of hundreds of megabytes on the
		// same cores), and a restart is quick enough to wait for it.
		h.freeMemory()
		// Said before it is ready, so that whoever sees it ready finds the
		// line in the log.
		h.log.Info("search index loaded", "files", h.Status().FilesDone, "reindexed", bs.Files, "removed", bs.Removed,
			"duration", time.Since(start).Round(time.Millisecond))
		h.setState(StateReady, "")
		return nil
	case errors.Is(err, fs.ErrNotExist):
		h.log.Info("no saved search index; building it")
	default:
		h.log.Warn("the saved search index cannot be used; rebuilding it", "reason", err)
	}
	return h.build(ctx, true)
}

// build indexes every file from scratch into an index that answers at
// once: the engine publishes the files batch by batch, so a search meanwhile
// sees every file indexed so far. No snapshot is written before the end, so a
// crash leaves none (or the unusable one that caused the build) and the next
// start builds again. With reload, a large build is then replaced by the
// snapshot it saved (see below).
func (h *handle) build(ctx context.Context, reload bool) error {
	endBuild := buildStarts()
	defer endBuild()
	start := time.Now()
	h.setProgress(0, 0)
	h.setState(StateBuilding, "")
	git := h.gitState()
	var searchableAfter time.Duration
	bs, err := h.ix.BuildWith(ctx, search.BuildOptions{Live: true, Progress: func(done, total int) {
		if searchableAfter == 0 {
			searchableAfter = time.Since(start)
		}
		h.setProgress(done, total)
		buildProgress()
		if h.afterBatch != nil {
			h.afterBatch(done)
		}
	}})
	if err != nil {
		return err
	}
	h.markSynced(git)
	if len(bs.Unreadable) > 0 {
		h.log.Warn("some files could not be read and are not indexed", "files", bs.Unreadable)
	}
	if err := h.ix.Save(); err != nil {
		h.log.Warn("save the search index", "err", err)
	} else if reload && h.Status().FilesDone >= reloadAfterBuild {
		// A built index lies among the spans of the build's garbage, a
		// few of its objects in each, which the runtime cannot give back:
		// at 8× the Go standard library the server settled at 506 MB after
		// a build, 437 MB after a restart. So the built index goes, its
		// memory back to the system, and the snapshot just saved is
		// loaded as a restart loads it (1.4 s there, which a search
		// meanwhile waits for, as a graph query does: see searchOpened
		// and waitOpened).
		h.setState(StateLoading, "loading the index just built from its snapshot, which takes less memory")
		h.ix.Unload()
		if h.unloaded != nil {
			h.unloaded()
		}
		debug.FreeOSMemory()
		if err := h.ix.Load(); err != nil {
			h.log.Warn("the search index just saved cannot be read back; building it again", "err", err)
			endBuild()
			return h.build(ctx, false)
		}
		h.log.Debug("search index reloaded from its snapshot after the build")
	}
	h.countStats()
	endBuild()
	h.freeMemory() // before ready, as after a load (see open)
	h.log.Info("search index built", "files", bs.Files, "chunks", bs.Chunks, "first_results_after", searchableAfter.Round(time.Millisecond),
		"duration", time.Since(start).Round(time.Millisecond))
	h.setState(StateReady, "")
	return nil
}

// reloadAfterBuild is the number of files from which a build is replaced
// by a load of its snapshot (see build); a variable for tests.
var reloadAfterBuild = 1000

// freeMemory returns the garbage of opening or changing a large index (most
// of the process's memory then) to the operating system at once, and sets
// the memory limit from what stays (see settleMemory).
func (h *handle) freeMemory() {
	if h.Status().FilesDone >= 1000 {
		settleMemory()
	}
}

// covers reports whether a slash-separated project-relative path lies under
// one of the index's folders.
func (h *handle) covers(rel string) bool {
	if h.ix == nil {
		return false
	}
	for _, p := range h.ix.Options().Paths {
		if p == "." || rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// dirOK reports whether a folder is one the index walks into (not excluded,
// hidden or ignored by git).
func (h *handle) dirOK(rel string) bool {
	if h.probe == nil {
		return false
	}
	ok, _ := h.probe.Accept(path.Join(rel, "agentos-folder-probe"))
	return ok
}

// enqueue asks for a file to be reindexed (or dropped, if it is gone).
func (h *handle) enqueue(rel string) {
	h.pmu.Lock()
	h.pending[rel] = struct{}{}
	h.pmu.Unlock()
	h.signal()
}

// requestRefresh asks for a full refresh: every file checked against the
// index (after a folder was removed, or events were lost).
func (h *handle) requestRefresh() {
	h.pmu.Lock()
	h.refreshAll = true
	h.pmu.Unlock()
	h.signal()
}

func (h *handle) signal() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// loop applies changes, debounced, and saves the index some time after the
// last one, until ctx ends; then it saves what is unsaved.
func (h *handle) loop(ctx context.Context) {
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	save := time.NewTimer(time.Hour)
	save.Stop()
	var first, dirtySince time.Time
	for {
		select {
		case <-ctx.Done():
			if !dirtySince.IsZero() {
				h.save()
			}
			return
		case <-h.kick:
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			quiet.Reset(max(min(h.t.debounce, h.t.maxWait-now.Sub(first)), 0))
		case <-quiet.C:
			first = time.Time{}
			if h.apply(ctx) {
				now := time.Now()
				if dirtySince.IsZero() {
					dirtySince = now
				}
				save.Reset(max(min(h.t.saveQuiet, h.t.saveMax-now.Sub(dirtySince)), 0))
			}
		case <-save.C:
			h.save()
			dirtySince = time.Time{}
		}
	}
}

// apply reindexes the pending files and reports whether the index changed.
func (h *handle) apply(ctx context.Context) bool {
	h.pmu.Lock()
	pending, all := h.pending, h.refreshAll
	h.pending, h.refreshAll = map[string]struct{}{}, false
	full := all || len(pending) > bulkThreshold
	h.inFlight = len(pending)
	if full {
		h.inFlight = -1
	}
	h.pmu.Unlock()
	defer func() {
		h.pmu.Lock()
		h.inFlight = 0
		h.pmu.Unlock()
	}()
	if len(pending) == 0 && !all {
		return false
	}
	liftMemoryLimit() // until the save that follows; see memory.go
	changed := false
	defer func() {
		if !changed {
			keepMemoryLimit()
		}
	}()
	if full {
		git := h.gitState()
		bs, err := h.ix.Refresh(ctx)
		if err != nil {
			if ctx.Err() == nil {
				h.log.Warn("refresh the search index", "err", err)
			}
			return false
		}
		h.markSynced(git)
		changed = bs.Files > 0 || bs.Removed > 0
		h.log.Debug("search index refreshed", "reindexed", bs.Files, "removed", bs.Removed, "duration", bs.Duration)
		if changed {
			h.countStats()
		}
		return changed
	}
	paths := make([]string, 0, len(pending))
	for p := range pending {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		ok, err := h.ix.UpdateFile(ctx, p)
		if err != nil {
			if ctx.Err() != nil {
				return changed
			}
			h.log.Warn("update the search index", "path", p, "err", err)
			continue
		}
		if ok {
			h.log.Debug("search index updated", "path", p)
		}
		changed = changed || ok
	}
	if changed {
		h.touched()
	}
	return changed
}

// save refreshes the ranking's graph signals and writes the snapshot.
func (h *handle) save() {
	start := time.Now()
	h.ix.RefreshGraphSignals()
	if err := h.ix.Save(); err != nil {
		h.log.Warn("save the search index", "err", err)
		return
	}
	h.countStats()
	h.freeMemory()
	h.log.Debug("search index saved", "duration", time.Since(start).Round(time.Millisecond))
}
