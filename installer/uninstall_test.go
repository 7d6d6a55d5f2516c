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
