package pathpolicy

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		path string
		want Access
	}{
		{"README.md", Writable},
		{"src/main.go", Writable},
		{"Makefile", Writable},
		{".gitignore", Writable},
		{"docs/guide.md", Writable},
		{"AGENTS.md", Writable},
		{"CLAUDE.md", Writable},
		{".claude/CLAUDE.md", Writable},
		{".claude/rules/style.md", Writable},
		{".cursor/rules/agentos.mdc", Writable},
		{".github/workflows/ci.yml", Writable},
		{".github/copilot-instructions.md", Writable},
		{".agentos/specs/2026-01-01-x/srd.md", Writable},
		{".agentos/standards/development/go.md", Writable},
		{".agentos/standards/universal/testing/tests.md", Writable},
		{".agentos/bin/agentos", Protected},
		{".agentos/bin", Protected},
		{".agentos", Protected},
		{".agentos/config/mcp.yaml", Protected},
		{".agentos/workflows/x/workflow.yaml", Protected},
		{".agentos/state/approvals/a.json", Protected},
		{".agentos/backups/1/backup.json", Protected},
		{".agentos/manifest.json", Protected},
		{".agentos/.mcp_server_state.json", Protected},
		{".agentos/something-new", Protected},
		{".agentos/.cache/auth_token", Secret},
		{".agentos/.cache", Secret},
		{".agentos/.cache/logs/server.log", Protected},
		{".git/config", Protected},
		{"vendor/lib/.git/HEAD", Protected},
		{".agentos/specs/x/.git/hooks/pre-commit", Protected}, // the deeper match wins
		{".mcp.json", Protected},
		{"sub/.mcp.json", Writable}, // clients read the project root's
		{".claude/settings.json", Protected},
		{".claude/settings.local.json", Protected},
		{".claude/skills/agentos/SKILL.md", Protected},
		{".vscode/tasks.json", Protected},
		{"shop.code-workspace", Protected},
		{"tools/Shop.CODE-WORKSPACE", Protected},
		{".code-workspace.md", Writable},
		{"docs/code-workspace", Writable},
		{".idea/workspace.xml", Protected},
		{".run/serve.run.xml", Protected},
		{".github/hooks/h.json", Protected},
		{".gemini/settings.json", Protected},
		{".codex/config.toml", Protected},
		{"opencode.json", Protected},
		// Spellings a case-insensitive or Windows file system takes for the same name.
		{".AGENTOS/Config/MCP.yaml", Protected},
		{".Claude/Settings.JSON", Protected},
		{".claude./settings.json", Protected},
		{".claude/settings.json ", Protected},
		{".mcp.json::$DATA", Protected},
		{".agentos/.CACHE/auth_token", Secret},
		{".GIT/config", Protected},
		{"src/../.mcp.json", Protected},
	}
	for _, c := range cases {
		got := Writable
		if r, ok := Match(c.path); ok {
			got = r.Access
		}
		if got != c.want {
			t.Errorf("Match(%q) = %s, want %s", c.path, got, c.want)
		}
	}
}

func TestWithin(t *testing.T) {
	for p, want := range map[string]bool{
		".claude": true, ".github": true, ".agentos": true, ".": true, ".Claude": true,
		"src": false, ".claude/rules": false, ".agentos/specs": false, ".github/workflows": false,
	} {
		if _, got := Within(p); got != want {
			t.Errorf("Within(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestRulesAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules {
		switch {
		case seen[strings.ToLower(r.Path)]:
			t.Errorf("%s is listed twice", r.Path)
		case r.Why == "":
			t.Errorf("%s has no reason", r.Path)
		case r.Access != Writable && r.Change == "":
			t.Errorf("%s does not say how a person changes it", r.Path)
		case strings.HasPrefix(r.Path, "/") || strings.Contains(r.Path, `\`) || strings.Contains(r.Path, ".."):
			t.Errorf("%s is not a clean relative path", r.Path)
		}
		seen[strings.ToLower(r.Path)] = true
	}
}

// project makes a root with the given files and returns it and its os.Root.
func project(t *testing.T, files map[string]string) (string, *os.Root) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "project")
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return root, r
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks: %v", err)
	}
}

func refusal(t *testing.T, err error, kind Kind) {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) || r.Kind != kind || !errors.Is(err, ErrRefused) {
		t.Fatalf("error %v, want a refusal of kind %d", err, kind)
	}
	if r.Error() == "" {
		t.Fatal("empty message")
	}
}

func TestOpenFile(t *testing.T) {
	root, r := project(t, map[string]string{
		"outside/secret.txt":               "outside secret\n",
		"project/src/a.go":                 "package a\n",
		"project/.agentos/.cache/token":    "tok\n",
		"project/.agentos/.cache/logs/log": "log\n",
		"project/.agentos/config/mcp.yaml": "server: {}\n",
	})
	read := func(rel string) (string, error) {
		f, fi, err := OpenFile(r, rel)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if !fi.Mode().IsRegular() {
			t.Fatalf("%s: info of a %v", rel, fi.Mode())
		}
		data, err := io.ReadAll(f)
		return string(data), err
	}
	if got, err := read("src/a.go"); err != nil || got != "package a\n" {
		t.Fatalf("src/a.go: %q %v", got, err)
	}
	if got, err := read(".agentos/config/mcp.yaml"); err != nil || got == "" {
		t.Fatalf("protected files stay readable: %q %v", got, err)
	}
	if _, err := read(".agentos/.cache/logs/log"); err != nil {
		t.Fatalf("logs are readable: %v", err)
	}
	_, err := read(".agentos/.cache/token")
	refusal(t, err, Hidden)
	_, err = read(".agentos/.CACHE/token")
	refusal(t, err, Hidden)
	_, err = read("../outside/secret.txt")
	refusal(t, err, Outside)
	if _, err := read("src/missing.go"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	_, err = read("src")
	refusal(t, err, NotRegular)

	// Links are never followed: not to outside, not inside, not in a folder.
	symlink(t, filepath.Join(root, "..", "outside", "secret.txt"), filepath.Join(root, "out.txt"))
	symlink(t, filepath.Join(root, "..", "outside"), filepath.Join(root, "outdir"))
	symlink(t, "src/a.go", filepath.Join(root, "in.go"))
	symlink(t, ".agentos/.cache", filepath.Join(root, "cachelink"))
	for _, p := range []string{"out.txt", "outdir/secret.txt", "in.go", "cachelink/token"} {
		_, err := read(p)
		refusal(t, err, Symlink)
	}

	// A second link of a file outside makes it readable no more.
	if err := os.Link(filepath.Join(root, "..", "outside", "secret.txt"), filepath.Join(root, "hard.txt")); err != nil {
		t.Skipf("hard links: %v", err)
	}
	_, err = read("hard.txt")
	refusal(t, err, HardLink)
	f, err := os.Open(filepath.Join(root, "hard.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	refusal(t, CheckLinks(f, "hard.txt"), HardLink)
}

func TestCheckChange(t *testing.T) {
	root, r := project(t, map[string]string{
		"project/tools/claude/settings.json": "{}",
		"project/shared/agentos/specs/x.md":  "x",
		"project/src/a.go":                   "package a\n",
		"project/.agentos/config/mcp.yaml":   "",
		"project/.agentos/specs/s.md":        "",
	})
	c := NewChecker(r)
	for _, p := range []string{"src/a.go", "src/new.go", ".agentos/specs/s.md", "tools/claude/other.json", "README.md"} {
		if err := c.CheckChange(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{".agentos/config/mcp.yaml", ".agentos/config", ".claude/settings.json", ".Claude/Settings.json", ".agentos/.cache/auth_token"} {
		refusal(t, c.CheckChange(p), Guarded)
	}
	// .claude is another name of tools/claude: its settings are protected
	// under either name, and so is a file not there yet.
	symlink(t, "tools/claude", filepath.Join(root, ".claude"))
	symlink(t, "../../.agentos/config", filepath.Join(root, "shared", "agentos", "config"))
	c = NewChecker(r)
	refusal(t, c.CheckChange("tools/claude/settings.json"), Guarded)
	refusal(t, c.CheckChange("tools/claude/settings.local.json"), Guarded)
	refusal(t, c.CheckChange("shared/agentos/config/mcp.yaml"), Guarded)
	if err := c.CheckChange("tools/claude/notes.md"); err != nil {
		t.Errorf("an unprotected file in the aliased folder: %v", err)
	}
	if err := c.CheckChange("shared/agentos/specs/x.md"); err != nil {
		t.Errorf("a folder that only looks alike: %v", err)
	}
}

func TestDocsTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- pathpolicy:begin -->\n", "<!-- pathpolicy:end -->"
	_, rest, ok := strings.Cut(string(data), begin)
	table, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("docs/security.md has no %q … %q block", begin, end)
	}
	if table != Markdown() {
		t.Errorf("docs/security.md's table of protected paths differs from the policy; replace it with:\n%s", Markdown())
	}
}

// BenchmarkOpenFile measures what the policy adds to opening a file four
// folders deep: OpenFile against a plain open through the same root.
func BenchmarkOpenFile(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "a", "b", "c", "d.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("package c\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.Run("policy", func(b *testing.B) {
		for b.Loop() {
			f, _, err := OpenFile(r, "a/b/c/d.go")
			if err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	b.Run("root", func(b *testing.B) {
		for b.Loop() {
			f, err := r.Open("a/b/c/d.go")
			if err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
}

// A link to a protected folder is the link's own business to change: only
// the folder it leads to is protected.
func TestCheckChangeOfALink(t *testing.T) {
	root, r := project(t, map[string]string{"project/.vscode/settings.json": "{}"})
	symlink(t, ".vscode", filepath.Join(root, "vlink"))
	c := NewChecker(r)
	if err := c.CheckChange("vlink"); err != nil {
		t.Errorf("the link itself: %v", err)
	}
	refusal(t, c.CheckChange("vlink/settings.json"), Guarded)
}
