package installer

import (
	"path/filepath"
	"testing"
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
