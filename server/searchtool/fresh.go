package searchtool

import (
	"context"
	"fmt"
	"time"

	"github.com/agentos-dev/agentos/internal/gitrepo"
)

// Freshness: an index says what it reflects. In a git work tree that is the
// commit HEAD was at when the index was last brought up to date with every
// file (a load's refresh, a build, a full refresh), read before the files
// were: a branch switch, a pull, a revert or a stash that moves HEAD or
// rewrites git's index afterwards shows as a difference from the state read
// now, even before the watcher has seen the files change. The index is
// fresh only when it is ready, no changed file waits to be indexed, and the
// repository has not moved since.

// gitSync is what a handle knows of its repository.
type gitSync struct {
	repo   *gitrepo.Repo // nil: the project is in no git work tree
	synced gitrepo.State // read before the last full refresh began
	ok     bool          // synced was read (a full refresh or build completed)
	// between caches the number of files that differ between two commits.
	betweenKey string
	between    int
}

// gitState reads the repository's state, the zero State when there is none
// or it cannot be read.
func (h *handle) gitState() gitrepo.State {
	if h.git.repo == nil {
		return gitrepo.State{}
	}
	st, err := h.git.repo.State()
	if err != nil {
		h.log.Debug("read the git state", "err", err)
	}
	return st
}

// markSynced records the state read before a full refresh or build that
// then completed.
func (h *handle) markSynced(st gitrepo.State) {
	h.mu.Lock()
	h.git.synced, h.git.ok = st, true
	h.mu.Unlock()
}

// fresh fills the status's freshness: the commit, whether it is fresh, and
// how many files changed since and are still to be indexed.
func (h *handle) fresh(st *IndexStatus) {
	h.pmu.Lock()
	waiting, inFlight := len(h.pending), h.inFlight
	refreshing := h.refreshAll || inFlight < 0
	h.pmu.Unlock()
	waiting += max(inFlight, 0)
	h.mu.Lock()
	g := h.git
	h.mu.Unlock()
	moved := false
	if g.repo != nil && g.ok {
		st.Commit, st.Branch = g.synced.Commit, g.synced.Branch
		now := h.gitState()
		if now != g.synced {
			moved = true
			st.Head = now.Commit
			if now.Commit != g.synced.Commit && now.Commit != "" && g.synced.Commit != "" {
				waiting += h.filesBetween(g.synced.Commit, now.Commit)
			}
		}
	}
	st.Fresh = st.State == StateReady && waiting == 0 && !refreshing && !moved
	if !st.Fresh && searchable(st.State) {
		st.FilesChanged = max(waiting, 0)
	}
}

// filesBetween returns how many files differ between two commits, asked of
// git once a pair.
func (h *handle) filesBetween(a, b string) int {
	key := a + ".." + b
	h.mu.Lock()
	if h.git.betweenKey == key {
		n := h.git.between
		h.mu.Unlock()
		return n
	}
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := h.git.repo.FilesBetween(ctx, a, b)
	if err != nil {
		h.log.Debug("count the files changed between commits", "err", err)
		return 0
	}
	h.mu.Lock()
	h.git.betweenKey, h.git.between = key, n
	h.mu.Unlock()
	return n
}

// freshNotice says, for an answer, what the index does not reflect yet; ""
// when it is fresh or a state's own notice says it.
func freshNotice(name string, st IndexStatus) string {
	if st.Fresh || st.State != StateReady {
		return ""
	}
	switch {
	case st.Head != "" && st.Head != st.Commit:
		return fmt.Sprintf("The %s index reflects commit %s, and HEAD is now at %s: %d files changed since are being reindexed, so this answer may be stale. Ask again in a few seconds.",
			name, short(st.Commit), short(st.Head), st.FilesChanged)
	case st.Head != "":
		return fmt.Sprintf("The repository changed (git's index was rewritten: a stash, a reset or a checkout of files) since the %s index was last brought up to date; the files are being checked, so this answer may be stale.", name)
	default:
		return fmt.Sprintf("%d changed files are still being reindexed in the %s index; this answer may not reflect them yet.", st.FilesChanged, name)
	}
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
