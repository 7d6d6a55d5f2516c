package searchtool

import (
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// Owners of a watched folder.
const (
	ownStandards uint8 = 1 << iota
	ownCode
	ownConfig
)

// watcher keeps an fsnotify watch on every folder an index walks into.
// fsnotify is not recursive: each folder is added on its own, new ones as
// they appear. It is used by the service's watch goroutine only.
type watcher struct {
	fw     *fsnotify.Watcher
	root   string
	log    *slog.Logger
	dirs   map[string]uint8 // absolute folder -> its owners
	failed int              // folders that could not be watched
}

func newWatcher(root string, log *slog.Logger) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &watcher{fw: fw, root: root, log: log, dirs: map[string]uint8{}}, nil
}

func (w *watcher) close() { w.fw.Close() }

// rel returns the slash-separated project-relative form of an absolute path.
func (w *watcher) rel(abs string) string {
	r, err := filepath.Rel(w.root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(r)
}

func (w *watcher) add(abs string, owner uint8) {
	if o, ok := w.dirs[abs]; ok {
		w.dirs[abs] = o | owner
		return
	}
	if err := w.fw.Add(abs); err != nil {
		if w.failed == 0 {
			w.log.Warn("cannot watch a folder; changes there are picked up by a periodic refresh", "path", abs, "err", err)
		}
		w.failed++
		return
	}
	w.dirs[abs] = owner
}

// addIndex watches the folders of an index. A configured path that is or
// goes through a symbolic link is not watched, as it is not walked: its
// folders may be outside the project.
func (w *watcher) addIndex(h *handle, owner uint8) {
	if h.ix == nil {
		return
	}
	for _, p := range h.ix.Options().Paths {
		abs := filepath.Join(w.root, filepath.FromSlash(p))
		fi, err := h.probe.CheckPath(p)
		switch {
		case err != nil:
		case fi.IsDir():
			w.addTree(h, owner, abs, false)
		default:
			w.add(filepath.Dir(abs), owner)
		}
	}
}

// addTree watches abs and every folder below it that the index walks into,
// never following a symbolic link. With enqueue, every file found is queued
// for indexing: a new folder's files may have been written before its watch
// was in place. Whatever is queued is read through the path policy, so a
// link that appears here is never read.
func (w *watcher) addTree(h *handle, owner uint8, abs string, enqueue bool) {
	filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && p != abs {
				return fs.SkipDir
			}
			return nil
		}
		rel := w.rel(p)
		if d.IsDir() {
			if !h.dirOK(rel) {
				return fs.SkipDir
			}
			w.add(p, owner)
			return nil
		}
		if enqueue && d.Type().IsRegular() {
			h.enqueue(rel)
		}
		return nil
	})
}

// watched reports whether abs is a watched folder.
func (w *watcher) watched(abs string) bool {
	_, ok := w.dirs[abs]
	return ok
}

// removeTree drops the watches of abs and the folders below it.
func (w *watcher) removeTree(abs string) {
	for d := range w.dirs {
		if d == abs || strings.HasPrefix(d, abs+string(filepath.Separator)) {
			w.fw.Remove(d) // already gone when the folder was deleted
			delete(w.dirs, d)
		}
	}
}

// dropOwner drops an owner from every folder, and the watches left with none.
func (w *watcher) dropOwner(owner uint8) {
	for d, o := range w.dirs {
		if o&owner == 0 {
			continue
		}
		if o &^= owner; o == 0 {
			w.fw.Remove(d)
			delete(w.dirs, d)
		} else {
			w.dirs[d] = o
		}
	}
}
