package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// freshStatus is the freshness an index's status carries.
type freshStatus struct {
	Index        string `json:"index"`
	State        string `json:"state"`
	Fresh        bool   `json:"fresh"`
	Commit       string `json:"commit"`
	Branch       string `json:"branch"`
	Head         string `json:"head"`
	FilesChanged int    `json:"files_changed"`
}

type freshOut struct {
	Results []searchHit   `json:"results"`
	Notice  string        `json:"notice"`
	Status  *freshStatus  `json:"index_status"`
	Indexes []freshStatus `json:"indexes"`
}

func gitE2E(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func codeStatus(t *testing.T, c *client.Client) freshStatus {
	t.Helper()
	var out freshOut
	call(t, c, "svc_search_project", map[string]any{"action": "index_status"}, &out)
	for _, st := range out.Indexes {
		if st.Index == "code" {
			return st
		}
	}
	t.Fatalf("no code index in %+v", out.Indexes)
	return freshStatus{}
}

func lexical(t *testing.T, c *client.Client, q string) freshOut {
	t.Helper()
	var out freshOut
	if res := call(t, c, "svc_search_project", map[string]any{"action": "search_code", "query": q, "method": "lexical", "n_results": 3}, &out); res.IsError {
		t.Fatalf("search %q failed", q)
	}
	return out
}

// TestFreshnessFollowsABranchSwitch: a checkout of a branch where 500 files
// differ, asked at once, is not answered as fresh; once the files are
// reindexed the answers are fresh, name the branch's commit and find its code.
func TestFreshnessFollowsABranchSwitch(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := newProject(t)
	files := map[string]string{"go.mod": "module example.com/many\n\ngo 1.22\n"}
	for i := range 500 {
		files[fmt.Sprintf("gen/f%03d.go", i)] = fmt.Sprintf("package gen\n\n// Oldling%03d is on main.\nfunc Oldling%03d() int { return %d }\n", i, i, i)
	}
	writeTree(t, root, files)
	gitE2E(t, root, "init", "-q", "-b", "main")
	gitE2E(t, root, "add", ".")
	gitE2E(t, root, "commit", "-q", "-m", "main")
	mainHead := gitE2E(t, root, "rev-parse", "HEAD")
	gitE2E(t, root, "checkout", "-q", "-b", "other")
	for i := range 500 {
		files[fmt.Sprintf("gen/f%03d.go", i)] = fmt.Sprintf("package gen\n\n// Newling%03d is on the other branch.\nfunc Newling%03d() int { return %d }\n", i, i, i)
	}
	files["gen/marker.go"] = "package gen\n\n// Zanzibarite marks the other branch.\nfunc Zanzibarite() {}\n"
	writeTree(t, root, files)
	gitE2E(t, root, "add", ".")
	gitE2E(t, root, "commit", "-q", "-m", "other")
	otherHead := gitE2E(t, root, "rev-parse", "HEAD")
	gitE2E(t, root, "checkout", "-q", "main")

	_, c := serveSearch(t, root)
	var st freshStatus
	eventually(t, "the code index fresh on main", func() bool { st = codeStatus(t, c); return st.Fresh })
	if st.Commit != mainHead || st.Branch != "main" || st.State != "ready" {
		t.Fatalf("on main: %+v, want commit %s", st, mainHead)
	}

	gitE2E(t, root, "checkout", "-q", "other")
	st = codeStatus(t, c)
	if st.Fresh {
		t.Fatalf("fresh at once after a checkout of 500 changed files: %+v", st)
	}
	// The search right after may find the reindex done (500 small files
	// take a moment): then, and only then, it may say fresh, and its answer
	// must be the branch's.
	out := lexical(t, c, "Zanzibarite")
	switch {
	case out.Status == nil:
		t.Fatal("a search at once after the checkout says nothing of its freshness")
	case out.Status.Fresh && (out.Status.Commit != otherHead || len(out.Results) == 0 || out.Results[0].Path != "gen/marker.go"):
		t.Fatalf("a search at once after the checkout claims fresh, but is not the branch's: %+v, %d results", out.Status, len(out.Results))
	case !out.Status.Fresh && len(out.Results) == 0 && !strings.Contains(out.Notice, "stale") && !strings.Contains(out.Notice, "reindexed"):
		t.Errorf("a stale answer does not say so: %q", out.Notice)
	}
	// Every answer until it is fresh says it is not; a fresh one reflects the branch.
	eventually(t, "the code index fresh on the other branch", func() bool {
		out = lexical(t, c, "Zanzibarite")
		if !out.Status.Fresh {
			return false
		}
		if out.Status.Commit != otherHead || out.Status.Branch != "other" || len(out.Results) == 0 || out.Results[0].Path != "gen/marker.go" {
			t.Fatalf("fresh but not the other branch: %+v, %d results", out.Status, len(out.Results))
		}
		return true
	})
	if old := lexical(t, c, "Oldling123"); len(old.Results) > 0 && strings.Contains(old.Results[0].Content, "Oldling123") {
		t.Errorf("main's code is still indexed on the other branch: %+v", old.Results[0])
	}
}

// TestFreshnessInAWorktree: in a worktree .git is a file naming the
// worktree's git folder; the index still says its commit and follows a
// commit made there.
func TestFreshnessInAWorktree(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := newProject(t)
	writeTree(t, root, map[string]string{
		"go.mod":       "module example.com/wt\n\ngo 1.22\n",
		"calc/calc.go": "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
	})
	gitE2E(t, root, "init", "-q", "-b", "main")
	gitE2E(t, root, "add", ".")
	gitE2E(t, root, "commit", "-q", "-m", "main")
	wt := filepath.Join(t.TempDir(), "wt")
	gitE2E(t, root, "worktree", "add", "-q", "-b", "side", wt)
	if fi, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || fi.IsDir() {
		t.Fatalf("the worktree's .git is not a file: %v", err)
	}
	// The configuration is not committed (install wrote it); the worktree gets a copy.
	cfg, err := os.ReadFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, wt, map[string]string{".agentos/config/mcp.yaml": string(cfg)})

	_, c := serveSearch(t, wt)
	var st freshStatus
	eventually(t, "the worktree's code index fresh", func() bool { st = codeStatus(t, c); return st.Fresh })
	if head := gitE2E(t, wt, "rev-parse", "HEAD"); st.Commit != head || st.Branch != "side" {
		t.Fatalf("worktree status %+v, want commit %s on side", st, head)
	}
	writeTree(t, wt, map[string]string{"calc/mul.go": "package calc\n\n// Quuxify multiplies.\nfunc Quuxify(a, b int) int { return a * b }\n"})
	gitE2E(t, wt, "add", ".")
	gitE2E(t, wt, "commit", "-q", "-m", "mul")
	head := gitE2E(t, wt, "rev-parse", "HEAD")
	eventually(t, "the worktree's commit followed", func() bool {
		st = codeStatus(t, c)
		return st.Fresh && st.Commit == head
	})
	if out := lexical(t, c, "Quuxify"); len(out.Results) == 0 || out.Results[0].Path != "calc/mul.go" {
		t.Errorf("the worktree's new file is not found: %+v", out)
	}
}

// TestFreshnessOutsideGit: a project in no git work tree says no commit,
// and is fresh once ready, as before.
func TestFreshnessOutsideGit(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	writeTree(t, root, map[string]string{"go.mod": "module example.com/nogit\n\ngo 1.22\n", "a/a.go": "package a\n\nfunc A() {}\n"})
	_, c := serveSearch(t, root)
	var st freshStatus
	eventually(t, "fresh", func() bool { st = codeStatus(t, c); return st.Fresh })
	if st.Commit != "" || st.Branch != "" || st.State != "ready" {
		t.Errorf("outside git: %+v", st)
	}
}
