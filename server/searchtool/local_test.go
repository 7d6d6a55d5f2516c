package searchtool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/codegraph"
)

func TestOpenLocal(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	var phases []string
	l, err := OpenLocal(ctx, p, config.Default(), LocalOptions{Standards: true, Code: true,
		Progress: func(pr Progress) { phases = append(phases, pr.Index+":"+pr.Phase) }})
	if err != nil {
		t.Fatal(err)
	}
	if l.ReadOnly || l.Code.Loaded || !l.Code.Saved || l.Code.Stats.Files != 3 || l.Standards.Stats.Files != 2 {
		t.Errorf("first open: read-only %v, code %+v, standards files %d", l.ReadOnly, l.Code, l.Standards.Stats.Files)
	}
	if len(phases) == 0 || phases[len(phases)-1] != "code:done" {
		t.Errorf("phases: %v", phases)
	}
	hits, err := l.Search(ctx, Code, search.Query{Text: "sum the prices", Limit: 3})
	if err != nil || len(hits) == 0 || hits[0].Symbol != "Cart.Total" {
		t.Errorf("search: %v %+v", err, hits)
	}
	if _, err := l.Graph("find_callers", "applyDiscont", "", 1, 10); !errors.As(err, new(*codegraph.NotFoundError)) {
		t.Errorf("unknown symbol: %v", err)
	}
	l.Close()

	// While another process holds the lock: an in-memory copy, never saved.
	lock, _ := newIndexLock(p)
	if ok, _ := lock.try(); !ok {
		t.Fatal("lock not released")
	}
	defer lock.release()
	snap := filepath.Join(p.IndexDir(Code), search.SnapshotFile)
	before, _ := os.Stat(snap)
	writeFiles(t, p.Root, map[string]string{"cart/more.go": "package cart\n\n// Clear empties the cart.\nfunc (c *Cart) Clear() { c.items = nil }\n"})
	l, err = OpenLocal(ctx, p, config.Default(), LocalOptions{Code: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !l.ReadOnly || !l.Code.Loaded || l.Code.Saved || l.Code.Build.Files != 1 || l.Standards != nil {
		t.Errorf("read-only open: %+v %+v", l.ReadOnly, l.Code)
	}
	if after, _ := os.Stat(snap); !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a read-only open wrote the snapshot")
	}
	if hits, _ := l.Search(ctx, Code, search.Query{Text: "empty the cart", Limit: 3}); len(hits) == 0 || hits[0].Symbol != "Cart.Clear" {
		t.Errorf("the in-memory copy misses a new file: %+v", hits)
	}
	if _, err := OpenLocal(ctx, p, config.Default(), LocalOptions{Code: true, Rebuild: true}); !errors.Is(err, ErrIndexBusy) {
		t.Errorf("rebuild while locked: %v", err)
	}
}
