package installer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
)

// Uninstall takes out of ~/.claude.json exactly what install put there:
// the project's section and, when the file had none before, the projects
// object that held it.
func TestUninstallRestoresClaudeJSON(t *testing.T) {
	t.Parallel()
	for name, before := range map[string]string{
		"no projects before":    "{\n  \"numStartups\": 3\n}\n",
		"empty projects before": "{\n  \"numStartups\": 3,\n  \"projects\": {}\n}\n",
		"other projects":        "{\n  \"projects\": {\n    \"/elsewhere\": {\n      \"allowedTools\": []\n    }\n  }\n}\n",
		"no file before":        "",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
			env := testEnv(t)
			user := filepath.Join(env.Home, ".claude.json")
			if before != "" {
				writeTestFile(t, user, before)
			}
			installWith(t, Options{Dir: root, BinaryPath: binary, Agents: []string{"claude-code"}, Env: env})
			pl, err := PlanUninstall(UninstallOptions{Dir: root, Env: env, BackupDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if err := pl.Apply(); err != nil {
				t.Fatal(err)
			}
			want := before
			if before == "" {
				want = "{}\n"
			}
			if got := readTestFile(t, user); got != want {
				t.Errorf("~/.claude.json after uninstall =\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// A binary `go run` built is deleted by Go: --no-pin refuses to point the
// agents at it, and a pinned install says why the copy matters.
func TestGoRunBinaryIsPinned(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, map[string]string{"main.go": "package main\n"})
	build, err := os.MkdirTemp(os.TempDir(), "go-build")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(build) })
	binary := filepath.Join(build, "b001", "exe", "agentos")
	writeTestFile(t, binary, string(fakeBinary))
	before := snapshot(t, root)
	_, err = Install(context.Background(), Options{Dir: root, BinaryPath: binary, NoPin: true, Env: testEnv(t), Yes: true})
	if err == nil || !strings.Contains(err.Error(), "temporary build of `go run`") {
		t.Fatalf("--no-pin with a go run binary: %v", err)
	}
	assertSameTree(t, before, snapshot(t, root))
	report := installWith(t, Options{Dir: root, BinaryPath: binary, Env: testEnv(t)})
	for _, s := range report.Steps {
		if s.Kind == StepBinary && !strings.Contains(s.Detail, "temporary build of `go run`") {
			t.Errorf("binary step: %+v", s)
		}
	}
	if agentconfig.TransientBinary(filepath.Join(t.TempDir(), "agentos")) {
		t.Error("an ordinary temporary folder taken for a go run build")
	}
}

// Uninstall leaves a file's end as it was before install, byte for byte:
// install appends its entry or block after a blank line, and adds a line
// break to a last line without one.
func TestUninstallRestoresFileEndings(t *testing.T) {
	t.Parallel()
	endings := map[string]string{"none": "", "one newline": "\n", "two newlines": "\n\n", "CRLF": "\r\n"}
	for name, end := range endings {
		for _, scope := range []string{"project", "user"} {
			t.Run(name+"/"+scope, func(t *testing.T) {
				t.Parallel()
				env := testEnv(t)
				files := map[string]string{
					".gitignore": "node_modules/" + end,
					"AGENTS.md":  "# Notes" + end,
					"CLAUDE.md":  "# Notes" + end,
				}
				codex := filepath.Join(env.Home, ".codex", "config.toml")
				if scope == "project" {
					files[".codex/config.toml"] = "model = \"o3\"" + end
					files[".mcp.json"] = "{\"mcpServers\": {\"other\": {\"command\": \"x\"}}}" + end
				} else {
					writeTestFile(t, codex, "model = \"o3\""+end)
				}
				root, binary := newProject(t, files)
				installWith(t, Options{Dir: root, BinaryPath: binary, Agents: []string{"claude-code", "codex"}, Scope: scope, Env: env})
				if scope == "project" {
					codex = filepath.Join(root, ".codex", "config.toml")
				}
				if !strings.Contains(readTestFile(t, codex), "agentos") {
					t.Fatal("install wrote no entry into " + codex)
				}
				pl, err := PlanUninstall(UninstallOptions{Dir: root, Env: env, BackupDir: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				if err := pl.Apply(); err != nil {
					t.Fatal(err)
				}
				want := map[string]string{codex: "model = \"o3\"" + end}
				for rel, content := range files {
					want[filepath.Join(root, filepath.FromSlash(rel))] = content
				}
				for path, content := range want {
					if got := readTestFile(t, path); got != content {
						t.Errorf("%s after uninstall = %q, want %q", path, got, content)
					}
				}
			})
		}
	}
}

func TestRestoreEnding(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                    string
		after, before, original string
		want                    string
	}{
		{"as before install", "a\n\n", "a\n\n[x]\n", "a", "a"},
		{"two newlines", "a\n\n", "a\n\n[x]\n", "a\n\n", "a\n\n"},
		{"CRLF", "a\r\n\r\n", "a\r\n\r\n[x]\r\n", "a\r\n", "a\r\n"},
		{"edited since: ends as now", "a\nb\n\n", "a\nb\n\n[x]\n", "a", "a\nb\n"},
		{"no original: ends as now", "b\n\n", "[x]\n\nb\n", "", "b\n"},
		{"middle taken out", "a\n}", "a\n[x]\n}", "a\n}", "a\n}"},
		{"nothing left", "\n", "[x]\n", "", "\n"},
	} {
		var original []byte
		if c.original != "" {
			original = []byte(c.original)
		}
		if got := string(restoreEnding([]byte(c.after), []byte(c.before), original)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
