package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newRepo(t *testing.T) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "a.go"), "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n")
	write(t, filepath.Join(dir, "gone.go"), "package a\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "one")
	return dir
}

func TestStateFollowsCommitsBranchesAndPackedRefs(t *testing.T) {
	dir := newRepo(t)
	r, err := Find(filepath.Join(dir))
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if want := run(t, dir, "rev-parse", "HEAD"); st.Commit != want || st.Branch != "main" || st.Index == "" {
		t.Fatalf("state = %+v, want commit %s on main", st, want)
	}
	run(t, dir, "checkout", "-q", "-b", "feature/x")
	write(t, filepath.Join(dir, "a.go"), "package a\n")
	run(t, dir, "commit", "-q", "-am", "two")
	st2, _ := r.State()
	if st2.Commit == st.Commit || st2.Branch != "feature/x" {
		t.Fatalf("after a commit on a new branch: %+v", st2)
	}
	run(t, dir, "pack-refs", "--all")
	st3, _ := r.State()
	if st3.Commit != st2.Commit {
		t.Fatalf("packed refs: %+v, want %s", st3, st2.Commit)
	}
	if !r.Moves(filepath.Join(r.CommonDir, "refs", "heads", "feature", "x")) || r.Moves(filepath.Join(r.GitDir, "index.lock")) {
		t.Error("Moves misjudges a ref or a lock file")
	}
	if !slices.Contains(r.WatchDirs(st3), filepath.Join(r.CommonDir, "refs", "heads", "feature")) {
		t.Errorf("WatchDirs = %v", r.WatchDirs(st3))
	}
}

func TestWorktreeGitFile(t *testing.T) {
	dir := newRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	r, err := Find(filepath.Join(wt))
	if err != nil {
		t.Fatal(err)
	}
	if r.Top != wt || r.GitDir == filepath.Join(wt, ".git") || r.CommonDir != filepath.Join(dir, ".git") {
		t.Fatalf("worktree repo = %+v", r)
	}
	st, err := r.State()
	if err != nil || st.Branch != "side" || st.Commit != run(t, wt, "rev-parse", "HEAD") || st.Index == "" {
		t.Fatalf("worktree state = %+v, %v", st, err)
	}
}

func TestDiffMapsLinesUntrackedAndDeleted(t *testing.T) {
	dir := newRepo(t)
	r, _ := Find(dir)
	write(t, filepath.Join(dir, "a.go"), "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 3\n}\n")
	os.Remove(filepath.Join(dir, "gone.go"))
	write(t, filepath.Join(dir, "sub", "new file.go"), "package sub\n")
	changes, err := r.Diff(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Change{}
	for _, c := range changes {
		byPath[c.Path] = c
	}
	if c := byPath["a.go"]; !slices.Equal(c.Lines, []LineRange{{8, 8}}) || c.Whole {
		t.Errorf("a.go: %+v", c)
	}
	if c := byPath["gone.go"]; !c.Deleted {
		t.Errorf("gone.go: %+v", c)
	}
	if c := byPath["sub/new file.go"]; !c.Whole {
		t.Errorf("untracked: %+v (all: %+v)", c, changes)
	}
	// From a subfolder, paths are relative to it.
	changes, err = r.Diff(context.Background(), filepath.Join(dir, "sub"), "HEAD")
	if err != nil || len(changes) != 1 || changes[0].Path != "new file.go" {
		t.Errorf("diff in sub = %+v, %v", changes, err)
	}
	if _, err := r.Diff(context.Background(), dir, "--output=x"); err == nil {
		t.Error("an option taken as a revision")
	}
	if _, err := r.Diff(context.Background(), dir, "no-such-rev"); err == nil {
		t.Error("an unknown revision gave no error")
	}
}

// The project's repository is input: its own config may name programs git
// runs while reading it (an fsmonitor hook, a textconv filter, a clean
// filter), as a project handed over with its .git or one an agent edited
// can. Reading it for a diff runs none of them, and the diff is the same.
func TestDiffRunsNoProgramTheRepositoryNames(t *testing.T) {
	dir := newRepo(t)
	marker := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "hook.sh")
	write(t, hook, "#!/bin/sh\necho \"$0 $*\" >> '"+marker+"'\ncat\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "config", "core.fsmonitor", hook)
	run(t, dir, "config", "diff.evil.textconv", hook)
	run(t, dir, "config", "filter.evil.clean", hook)
	run(t, dir, "config", "filter.evil.required", "true")
	write(t, filepath.Join(dir, ".gitattributes"), "*.go diff=evil filter=evil\n")
	write(t, filepath.Join(dir, "a.go"), "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 3\n}\n")
	os.Remove(marker)
	r, _ := Find(dir)
	changes, err := r.Diff(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("reading the diff ran the repository's programs:\n%s", data)
	}
	for _, c := range changes {
		if c.Path == "a.go" && !slices.Equal(c.Lines, []LineRange{{8, 8}}) {
			t.Errorf("a.go: %+v", c)
		}
	}
	if _, err := r.FilesBetween(context.Background(), "HEAD", "HEAD"); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("counting files ran the repository's programs:\n%s", data)
	}
}
