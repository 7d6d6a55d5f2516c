package upgrade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/workflow"
)

// commitRepo makes a git repository at dir holding files, committed with
// go-git (no git binary), and returns the commit.
func commitRepo(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil && err != git.ErrRepositoryAlreadyExists {
		t.Fatal(err)
	}
	if repo == nil {
		repo, _ = git.PlainOpen(dir)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(name)), content)
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	h, err := wt.Commit("standards", &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@example.com", When: time.Now()}})
	if err != nil {
		t.Fatal(err)
	}
	return h.String()
}

func TestUpgradeFromGitRepository(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	// The team's repository carries the shipped standards with one changed,
	// and one of its own; it has no workflows/, so those are left alone.
	src, err := EmbeddedSource(f.p)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var changed string
	for rel, data := range src.Trees[".agentos/standards/universal"] {
		name := strings.TrimPrefix(rel, ".agentos/")
		files[name] = string(data)
		if changed == "" && strings.HasSuffix(rel, ".md") {
			changed = rel
			files[name] = replaceLine(string(data), bodyLine(string(data)), "the team's wording")
		}
	}
	files["standards/universal/team/review.md"] = "# Review\n\nThe team's own standard.\n"
	repo := filepath.Join(t.TempDir(), "team-standards")
	commit := commitRepo(t, repo, files)

	o := f.opts()
	o.From = repo
	pl, err := MakePlan(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pl.Source.Name, commit) {
		t.Errorf("source %q does not name commit %s", pl.Source.Name, commit)
	}
	for _, fp := range pl.Files {
		if strings.HasPrefix(fp.Path, ".agentos/workflows/") {
			t.Fatalf("a source without workflows/ planned %s %s", fp.Action, fp.Path)
		}
	}
	// Lint would reject the team's new file (not in the standard format),
	// so the upgrade rolls back and says why.
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "standards lint") {
		t.Fatalf("a standard that fails lint was accepted: %v", err)
	}
	if _, err := os.Stat(f.abs(".agentos/standards/universal/team/review.md")); err == nil {
		t.Fatal("the rolled-back upgrade left the new file")
	}
	// Fixed in the repository (the file removed), the upgrade goes through.
	os.Remove(filepath.Join(repo, "standards/universal/team/review.md"))
	r, _ := git.PlainOpen(repo)
	wt, _ := r.Worktree()
	wt.Remove("standards/universal/team/review.md")
	commit = commitRepo(t, repo, map[string]string{})
	o.From = repo + "@master"
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f.abs(changed)); !strings.Contains(got, "the team's wording") {
		t.Errorf("%s was not updated from the repository", changed)
	}
	o.From = repo + "@no-such-branch"
	if _, err := MakePlan(context.Background(), o); err == nil || !strings.Contains(err.Error(), "no-such-branch") {
		t.Errorf("a missing ref: %v", err)
	}
	o.From = t.TempDir()
	if _, err := MakePlan(context.Background(), o); err == nil {
		t.Error("a folder that is not a repository was accepted")
	}
}

func TestSplitRef(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string][2]string{
		"https://example.com/a/b.git":      {"https://example.com/a/b.git", ""},
		"https://example.com/a/b.git@v1.2": {"https://example.com/a/b.git", "v1.2"},
		"git@github.com:acme/std.git":      {"git@github.com:acme/std.git", ""},
		"git@github.com:acme/std.git@main": {"git@github.com:acme/std.git", "main"},
		"../team@0a1b2c3":                  {"../team", "0a1b2c3"},
	} {
		url, ref := splitRef(spec)
		if url != want[0] || ref != want[1] {
			t.Errorf("splitRef(%q) = %q, %q", spec, url, ref)
		}
	}
}

// The agentos_upgrade_v1 workflow's gates pass, phase by phase, on the
// report a real upgrade wrote.
func TestUpgradeWorkflowGatesPass(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	if _, err := Run(context.Background(), s.f.opts()); err != nil {
		t.Fatal(err)
	}
	e, err := workflow.ForProject(s.f.p, config.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	agent := workflow.Actor{Client: "agent"}
	sess, err := e.Start(ctx, "agentos_upgrade_v1", nil, agent)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		_, r, err := e.CompletePhase(ctx, sess.ID, nil, agent, false)
		if err != nil || !r.Passed {
			t.Fatalf("phase %d: %v %+v", i+1, err, r)
		}
	}
	if got, _ := e.Get(sess.ID); got.Status != workflow.StatusCompleted {
		t.Errorf("session %s", got.Status)
	}
}

// bodyLine is the index of a plain prose line in the middle of a standard,
// one whose change keeps the standard's format.
func bodyLine(text string) int {
	lines := strings.Split(text, "\n")
	for i := len(lines) / 3; i < len(lines); i++ {
		l := lines[i]
		if l != "" && (l[0] >= 'A' && l[0] <= 'Z') && !strings.Contains(l, ":") {
			return i
		}
	}
	return len(lines) / 2
}
