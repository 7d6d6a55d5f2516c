package searchtool

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/gitrepo"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search"
)

// LocalOptions configure OpenLocal.
type LocalOptions struct {
	Standards, Code bool // which indexes to open
	// Rebuild builds the indexes from scratch instead of loading them.
	Rebuild bool
	// Progress, if set, is told what each index is doing.
	Progress func(Progress)
	// Criteria, if set, names the finished specs' criteria an impact's
	// tests check (see Options.Criteria).
	Criteria CriteriaTracer
}

// Progress reports what OpenLocal is doing with one index.
type Progress struct {
	Index string `json:"index"`
	// Phase: loading, refreshing, building, saving, done or disabled.
	Phase string `json:"phase"`
	Files int    `json:"files"` // files to build (building), or in the index (done)
	Done  int    `json:"done"`  // files built so far (building)
}

// LocalIndex is one index opened in this process.
type LocalIndex struct {
	Name     string            `json:"index"`
	Disabled string            `json:"disabled,omitempty"`
	Loaded   bool              `json:"loaded"`            // from the saved snapshot
	Rebuilt  string            `json:"rebuilt,omitempty"` // why it was built instead
	Build    search.BuildStats `json:"build"`             // the build, or the refresh after loading
	Saved    bool              `json:"saved"`
	Stats    search.Stats      `json:"stats"`
	Notes    []string          `json:"notes,omitempty"`
	Duration time.Duration     `json:"duration"`
	Snapshot int64             `json:"snapshot_bytes,omitempty"`
	ix       *search.Index
	repo     *gitrepo.Repo // nil outside git
	git      gitrepo.State // read before the files were checked
}

// Local is a project's indexes opened in this process, for the CLI. When a
// server (or another `agentos index`) holds the index lock, Local works on an
// in-memory copy: it loads the saved snapshot, brings it up to date, and
// never writes it.
type Local struct {
	ReadOnly  bool
	Standards *LocalIndex
	Code      *LocalIndex
	lock      *indexLock
	criteria  CriteriaTracer
}

// OpenLocal opens a project's indexes: each one is loaded and refreshed, or
// built when there is no usable snapshot (or Rebuild is set), and saved when
// this process holds the index lock. Rebuild while another process holds
// the lock is ErrIndexBusy.
func OpenLocal(ctx context.Context, p project.Paths, cfg config.Config, o LocalOptions) (*Local, error) {
	l := &Local{criteria: o.Criteria}
	lock, err := newIndexLock(p)
	if err != nil {
		return nil, err
	}
	ok, err := lock.try()
	if err != nil {
		return nil, err
	}
	if ok {
		l.lock = lock
		// What cannot be removed now only takes disk space; the next
		// process to hold the lock tries again.
		lock.removeInterruptedSaves()
	} else {
		if o.Rebuild {
			return nil, ErrIndexBusy
		}
		l.ReadOnly = true
	}
	progress := o.Progress
	if progress == nil {
		progress = func(Progress) {}
	}
	emb, embErr := embedderFor(ctx, p, cfg.Search.Embedder)
	var specs []spec
	if o.Standards {
		specs = append(specs, standardsSpec(p).withEmbedder(emb, embErr))
	}
	if o.Code {
		specs = append(specs, codeSpec(p, cfg.Code).withEmbedder(emb, embErr))
	}
	for _, sp := range specs {
		li, err := l.open(ctx, sp, o.Rebuild, progress)
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("%s index: %w", sp.name, err)
		}
		if sp.name == Standards {
			l.Standards = li
		} else {
			l.Code = li
		}
	}
	return l, nil
}

func (l *Local) open(ctx context.Context, sp spec, rebuild bool, progress func(Progress)) (*LocalIndex, error) {
	li := &LocalIndex{Name: sp.name, Disabled: sp.disabled, Notes: sp.notes}
	if sp.disabled != "" {
		progress(Progress{Index: sp.name, Phase: "disabled"})
		return li, nil
	}
	start := time.Now()
	ix, err := search.New(sp.opt)
	if err != nil {
		return nil, err
	}
	li.ix = ix
	if repo, err := gitrepo.Find(sp.opt.Root); err == nil {
		li.repo = repo
		li.git, _ = repo.State()
	}
	build := rebuild
	if !rebuild {
		progress(Progress{Index: sp.name, Phase: "loading"})
		err := ix.Load()
		switch {
		case err == nil:
			li.Loaded = true
			progress(Progress{Index: sp.name, Phase: "refreshing"})
			if li.Build, err = ix.Refresh(ctx); err != nil {
				return nil, err
			}
			if li.Build.Files > 0 || li.Build.Removed > 0 {
				if err := l.save(li); err != nil {
					return nil, err
				}
			}
		case errors.Is(err, fs.ErrNotExist):
			li.Rebuilt, build = "no saved index", true
		default:
			li.Rebuilt, build = err.Error(), true
		}
	} else {
		li.Rebuilt = "asked to rebuild"
	}
	if build {
		progress(Progress{Index: sp.name, Phase: "building"})
		// Under the same memory limit as a server's build (buildProgress):
		// without it `agentos index --rebuild` of 8× the Go standard
		// library peaked at 1.7 GB, where the server's build stays near 1.
		// The save, which encodes the index beside it, counts as the build.
		endBuild := buildStarts()
		li.Build, err = ix.BuildWith(ctx, search.BuildOptions{Progress: func(done, total int) {
			progress(Progress{Index: sp.name, Phase: "building", Files: total, Done: done})
			buildProgress()
		}})
		if err == nil {
			progress(Progress{Index: sp.name, Phase: "saving"})
			err = l.save(li)
		}
		endBuild()
		if err != nil {
			return nil, err
		}
	}
	li.Stats = ix.Stats()
	li.Duration = time.Since(start)
	if fi, err := os.Stat(filepath.Join(sp.opt.Dir, search.SnapshotFile)); err == nil {
		li.Snapshot = fi.Size()
	}
	progress(Progress{Index: sp.name, Phase: "done", Files: li.Stats.Files})
	return li, nil
}

// save writes the index's snapshot when this process holds the lock.
func (l *Local) save(li *LocalIndex) error {
	if l.ReadOnly {
		return nil
	}
	if err := li.ix.Save(); err != nil {
		return err
	}
	li.Saved = true
	return nil
}

// Close releases the index lock.
func (l *Local) Close() {
	if l.lock != nil {
		l.lock.release()
		l.lock = nil
	}
}

func (l *Local) index(name string) (*LocalIndex, error) {
	li := l.Code
	if name == Standards {
		li = l.Standards
	}
	switch {
	case li == nil:
		return nil, fmt.Errorf("the %s index was not opened", name)
	case li.Disabled != "":
		return nil, fmt.Errorf("the %s index is disabled: %s", name, li.Disabled)
	}
	return li, nil
}

// Search searches one index (Standards or Code).
func (l *Local) Search(ctx context.Context, name string, q search.Query) ([]Hit, error) {
	li, err := l.index(name)
	if err != nil {
		return nil, err
	}
	return runSearch(ctx, li.ix, q)
}

// Graph asks the code index's call graph: action is find_callers,
// find_dependencies, find_call_paths or find_implementations. An unknown or ambiguous symbol is a
// *FieldError wrapping *codegraph.NotFoundError or *codegraph.AmbiguousError.
func (l *Local) Graph(action, symbol, to string, depth, limit int) (Output, error) {
	li, err := l.index(Code)
	if err != nil {
		return Output{}, err
	}
	return runGraph(li.ix, graphQuery{Action: action, Symbol: symbol, To: to, Depth: depth, Limit: limit})
}

// Impact answers the impact action from the code index's call graph: of a
// symbol, or, with diff, of the work tree's changes against diffBase.
func (l *Local) Impact(ctx context.Context, symbol string, diff bool, diffBase string, depth, limit int) (Output, error) {
	li, err := l.index(Code)
	if err != nil {
		return Output{}, err
	}
	return runImpact(ctx, li.ix, impactQuery{Symbol: symbol, Diff: diff, DiffBase: diffBase, Depth: depth, Limit: limit}, l.criteria)
}

// Status says what an opened index reflects: every file as it was when it
// was opened (it was refreshed then), at the commit HEAD was at; not fresh
// when the repository moved since.
func (l *Local) Status(name string) *IndexStatus {
	li, err := l.index(name)
	if err != nil {
		return nil
	}
	st := &IndexStatus{Index: name, State: StateReady, FilesDone: li.Stats.Files, FilesTotal: li.Stats.Files, Fresh: true,
		Commit: li.git.Commit, Branch: li.git.Branch}
	if li.repo != nil {
		if now, err := li.repo.State(); err == nil && now != li.git {
			st.Fresh, st.Head = false, now.Commit
		}
	}
	return st
}

// Reflected keeps of a status what says what the index reflects (its
// state, size and freshness): the CLI prints the same whether a server or
// the saved index answered, and the rest (timings, embedder) differs.
func Reflected(st *IndexStatus) *IndexStatus {
	if st == nil {
		return nil
	}
	return &IndexStatus{Index: st.Index, State: st.State, FilesDone: st.FilesDone, FilesTotal: st.FilesTotal, Fresh: st.Fresh,
		Commit: st.Commit, Branch: st.Branch, Head: st.Head, FilesChanged: st.FilesChanged}
}

// Freshness is one line saying what an answer's index reflects, for
// people; "" for a fresh index outside git, which has nothing to add.
func Freshness(st *IndexStatus) string {
	switch {
	case st == nil || st.Fresh && st.Commit == "":
		return ""
	case st.Fresh:
		at := short(st.Commit)
		if st.Branch != "" {
			at += " on " + st.Branch
		}
		return fmt.Sprintf("%s index: up to date with the work tree (HEAD %s)", st.Index, at)
	case st.State != StateReady:
		return fmt.Sprintf("%s index: %s, %d of %d files indexed", st.Index, st.State, st.FilesDone, st.FilesTotal)
	}
	return freshNotice(st.Index, *st)
}
