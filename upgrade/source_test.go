package upgrade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/workflow"
)

// commitRepo makes a git repository at dir holding files (added to what
// it holds), commits them all and returns the commit.
func commitRepo(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		runGit(t, "", "init", "--quiet", "--initial-branch=master", dir)
	}
	for name, content := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	runGit(t, dir, "add", "--all")
	runGit(t, dir, "commit", "--quiet", "--allow-empty", "-m", "standards")
	return strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
}

// runGit runs git in dir with no user or system configuration.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
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

// Every way of naming a commit reads the files committed there, and only
// regular files: a link (to a file outside, or inside) and a submodule in
// a repository someone else controls are not written into the project.
func TestGitSourceRefsAndEntries(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	repo := filepath.Join(t.TempDir(), "team")
	first := commitRepo(t, repo, map[string]string{"standards/universal/team/a.md": "first\n"})
	runGit(t, repo, "tag", "-a", "-m", "v1", "v1")
	if err := os.Symlink("/etc/passwd", filepath.Join(repo, "standards/universal/team/outside.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(repo, "standards/universal/team/inside.md")); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "update-index", "--add", "--cacheinfo", "160000,"+first+",standards/universal/team/sub")
	second := commitRepo(t, repo, map[string]string{"standards/universal/team/a.md": "second\n", "workflows/README.md": "w\n"})
	runGit(t, repo, "checkout", "--quiet", "-b", "topic")
	third := commitRepo(t, repo, map[string]string{"standards/universal/team/a.md": "third\n"})
	runGit(t, repo, "checkout", "--quiet", "master")

	a := ".agentos/standards/universal/team/a.md"
	for _, c := range []struct{ spec, commit, a string }{
		{repo, second, "second\n"},
		{"file://" + repo, second, "second\n"},
		{repo + "@topic", third, "third\n"},
		{repo + "@v1", first, "first\n"},
		{repo + "@" + first[:10], first, "first\n"},
		{repo + "@" + second, second, "second\n"},
	} {
		src, err := GitSource(context.Background(), f.p, c.spec)
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		std := src.Trees[".agentos/standards/universal"]
		if !strings.HasSuffix(src.Name, "@"+c.commit) || string(std[a]) != c.a {
			t.Errorf("%s: source %s, a.md %q; want commit %s and %q", c.spec, src.Name, std[a], c.commit, c.a)
		}
		for name := range std {
			if name != a {
				t.Errorf("%s: read %s, which is not a regular file", c.spec, name)
			}
		}
		if c.commit == second && string(src.Trees[".agentos/workflows"][".agentos/workflows/README.md"]) != "w\n" {
			t.Errorf("%s: workflows %v", c.spec, src.Trees[".agentos/workflows"])
		}
		if c.commit == first {
			if _, ok := src.Trees[".agentos/workflows"]; ok {
				t.Errorf("%s: a commit with no workflows/ gave a workflows tree", c.spec)
			}
		}
	}
	for _, spec := range []string{repo + "@nope", repo + "@0123456789abcdef"} {
		if _, err := GitSource(context.Background(), f.p, spec); err == nil || !strings.Contains(err.Error(), spec[strings.LastIndex(spec, "@")+1:]) {
			t.Errorf("%s: %v", spec, err)
		}
	}
}

// Without git, --from says what it needs.
func TestGitSourceWithoutGit(t *testing.T) {
	f := newInstalled(t)
	repo := filepath.Join(t.TempDir(), "team")
	commitRepo(t, repo, map[string]string{"standards/universal/team/a.md": "a\n"})
	t.Setenv("PATH", t.TempDir())
	_, err := GitSource(context.Background(), f.p, repo)
	if err == nil || !strings.Contains(err.Error(), "git is not installed") {
		t.Fatalf("without git: %v", err)
	}
}

// A repository whose standards hold more than any library of text is
// refused, by the sizes git lists, before any file is read.
func TestGitSourceRefusesLargeTrees(t *testing.T) {
	t.Parallel()
	repo := filepath.Join(t.TempDir(), "team")
	commitRepo(t, repo, map[string]string{"standards/universal/team/a.md": "a\n"})
	// The limit lowered to 1 MiB: the check is the same, and git hashes
	// and packs 1 MiB, not 64.
	const limit = 1 << 20
	big := make([]byte, limit/2+1)
	write(t, filepath.Join(repo, "standards/universal/team/one.bin"), string(big))
	write(t, filepath.Join(repo, "standards/universal/team/two.bin"), string(big)+"x")
	commitRepo(t, repo, map[string]string{})
	ctx := context.Background()
	f, err := fetchCommit(ctx, repo, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.remove()
	if f.limit != maxSourceBytes {
		t.Errorf("a fetched commit's limit is %d, want maxSourceBytes", f.limit)
	}
	f.limit = limit
	if _, _, err := f.readTree(ctx, "standards/universal/team", "x"); err == nil || !strings.Contains(err.Error(), "holds more than 1 MiB") {
		t.Fatalf("a tree over the limit: %v", err)
	}
	f.limit = 2 * limit
	if files, _, err := f.readTree(ctx, "standards/universal/team", "x"); err != nil || len(files) != 3 {
		t.Fatalf("a tree under the limit: %d files, %v", len(files), err)
	}
}
