//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A server killed (SIGKILL) while it saves an index leaves the save's
// temporary file; the next start removes it and loads the index saved before.
func TestIndexSaveKilledLeavesNothingAfterRestart(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, searchFiles)
	runOK(t, root, "index", "--dir", root) // both indexes saved
	codeDir := filepath.Join(root, ".agentos", ".cache", "indexes", "code")

	var leftover string
	for attempt := 0; attempt < 5 && leftover == ""; attempt++ {
		// A changed file makes the start's refresh save the code index.
		writeTree(t, root, map[string]string{"cart/extra.go": fmt.Sprintf("package cart\n\n// Extra%d is attempt %d.\nfunc Extra%d() int { return %d }\n", attempt, attempt, attempt, attempt)})
		leftover = killDuringSave(t, root, codeDir)
	}
	if leftover == "" {
		t.Fatal("in 5 attempts the server was never killed before its save finished")
	}

	p, c := serveSearch(t, root)
	waitIndexes(t, c)
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("%s is still there after a restart: %v", leftover, err)
	}
	if s := p.stderr.String(); !strings.Contains(s, "removed the temporary files of index saves") || !strings.Contains(s, "search index loaded") || strings.Contains(s, "building it") {
		t.Errorf("the restart did not clean up and load the saved index:\n%s", s)
	}
	if out := mustSearch(t, c, map[string]any{"action": "search_code", "query": "sum the prices in the cart"}); !found(out.Results, "cart/cart.go", "Cart.Total") {
		t.Errorf("search after the restart: %+v", out.Results)
	}
}

// killDuringSave starts the server and kills it the moment it creates a
// temporary file in dir; it returns that file if the kill came before the
// save renamed it, else "".
func killDuringSave(t *testing.T, root, dir string) string {
	t.Helper()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, root, "--transport", "http")
	timeout := time.After(60 * time.Second)
	for {
		select {
		case ev := <-w.Events:
			if ev.Op&fsnotify.Create == 0 || !strings.HasPrefix(filepath.Base(ev.Name), ".index.snapshot.tmp-") {
				continue
			}
			p.signal(t, syscall.SIGKILL)
			p.exitCode(t)
			if _, err := os.Stat(ev.Name); err == nil {
				return ev.Name
			}
			return ""
		case err := <-w.Errors:
			t.Fatal(err)
		case <-timeout:
			t.Fatalf("the server never saved the code index; stderr:\n%s", p.stderr)
		}
	}
}
