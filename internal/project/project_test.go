package project

import (
	"os"
	"path/filepath"
	"testing"
)

// A project is found from any folder below it, but not from inside another
// git repository below it: that repository is a project of its own.
func TestNearestStopsAtARepositorysRoot(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{
		"ws/.agentos", "ws/plain/deep", "ws/repo/.git", "ws/repo/cmd", "ws/linked/sub",
		"ws/own/.agentos", "ws/own/.git", "ws/own/pkg", "alone/.git", "alone/src",
	} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A worktree or a submodule has a .git file, not a folder.
	if err := os.WriteFile(filepath.Join(top, "ws/linked/.git"), []byte("gitdir: ../.git/worktrees/linked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := func(rel string) string {
		if rel == "" {
			return ""
		}
		return filepath.Join(top, rel)
	}
	for _, tc := range []struct {
		from, root, outer string
		found             bool
	}{
		{"ws", "ws", "", true},
		{"ws/plain/deep", "ws", "", true},
		{"ws/repo/cmd", "ws/repo", "ws", false},
		{"ws/repo", "ws/repo", "ws", false},
		{"ws/linked/sub", "ws/linked", "ws", false},
		{"ws/own/pkg", "ws/own", "", true},
	} {
		root, outer, found := Nearest(p(tc.from))
		if root != p(tc.root) || outer != p(tc.outer) || found != tc.found {
			t.Errorf("Nearest(%s) = %q, %q, %v; want %q, %q, %v", tc.from, root, outer, found, p(tc.root), p(tc.outer), tc.found)
		}
	}
	// Whatever is installed above the test's own folder, the search ends
	// at this repository's root.
	if root, _, found := Nearest(p("alone/src")); root != p("alone") || found {
		t.Errorf("Nearest(alone/src) = %q, %v; want the repository's root, not found", root, found)
	}
}
