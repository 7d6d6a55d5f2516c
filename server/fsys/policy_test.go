package fsys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// policyFixture is the confinement fixture plus an installed project's
// protected files, a folder of ordinary files, and a file outside the
// project hard-linked into it.
func policyFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	for name, content := range map[string]string{
		".agentos/bin/agentos":                   "#!/bin/sh\n",
		".agentos/config/mcp.yaml":               "server: {}\n",
		".agentos/workflows/w/workflow.yaml":     "name: w\n",
		".agentos/.cache/auth_token":             "token\n",
		".agentos/.cache/logs/server.log":        "log\n",
		".agentos/manifest.json":                 "{}\n",
		".agentos/specs/s/srd.md":                "# spec\n",
		".agentos/standards/development/go.md":   "# go\n",
		".claude/settings.json":                  "{}\n",
		".claude/rules/style.md":                 "style\n",
		".mcp.json":                              "{}\n",
		".vscode/tasks.json":                     "{}\n",
		"docs/guide.md":                          "guide\n",
		"kit/settings.json":                      "{}\n",
		"kit/mcp.json":                           "{}\n",
		".agentos/standards/universal/x/test.md": "# t\n",
	} {
		p := f.path(name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	if err := os.Chmod(f.path(".agentos/bin/agentos"), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// mutations put p where each changing action takes a path.
var mutations = []actionCase{
	{"write", "path", func(p string) map[string]any { return map[string]any{"action": "write", "path": p, "content": "pwned"} }},
	{"append", "path", func(p string) map[string]any {
		return map[string]any{"action": "append", "path": p, "content": "pwned"}
	}},
	{"mkdir", "path", func(p string) map[string]any { return map[string]any{"action": "mkdir", "path": p} }},
	{"delete", "path", func(p string) map[string]any { return map[string]any{"action": "delete", "path": p, "recursive": true} }},
	{"move from", "path", func(p string) map[string]any {
		return map[string]any{"action": "move", "path": p, "destination": "moved", "overwrite": true}
	}},
	{"move to", "destination", func(p string) map[string]any {
		return map[string]any{"action": "move", "path": "README.md", "destination": p, "overwrite": true}
	}},
	{"copy to", "destination", func(p string) map[string]any {
		return map[string]any{"action": "copy", "path": "README.md", "destination": p, "overwrite": true}
	}},
	{"copy from", "path", func(p string) map[string]any {
		return map[string]any{"action": "copy", "path": p, "destination": "copied", "recursive": true}
	}},
}

func TestProtectedPathsRefuseEveryChange(t *testing.T) {
	f := policyFixture(t)
	protected := []string{
		".agentos/bin/agentos", ".agentos/config/mcp.yaml", ".agentos/config/new.yaml",
		".agentos/workflows/w/workflow.yaml", ".agentos/workflows/new/workflow.yaml", ".agentos/state/x.json",
		".agentos/.cache/auth_token", ".agentos/backups/b/backup.json", ".agentos/manifest.json",
		".agentos/.mcp_server_state.json", ".agentos/scripts/x.sh", ".agentos/newfile",
		".mcp.json", ".claude/settings.json", ".claude/settings.local.json", ".claude/commands/x.md",
		".vscode/tasks.json", ".vscode/settings.json", ".cursor/mcp.json", ".gemini/settings.json",
		".codex/config.toml", "opencode.json", ".github/hooks/h.json",
		".AGENTOS/Config/mcp.yaml", ".Claude/settings.json", ".mcp.json::$DATA",
	}
	before := snapshot(t, f.base)
	for _, p := range protected {
		for _, ac := range mutations {
			for _, override := range []bool{false, true} {
				args := ac.args(p)
				args["override_gitignore"] = override
				e := f.fail(t, args, toolkit.CodeForbidden)
				if !strings.Contains(e.Message, "only a person changes it") || field(e) != ac.field {
					t.Errorf("%s %s: message %q, field %q", ac.name, p, e.Message, field(e))
				}
			}
		}
	}
	// Folders holding protected files cannot go as a whole.
	for _, args := range []map[string]any{
		{"action": "delete", "path": ".agentos", "recursive": true},
		{"action": "delete", "path": ".claude", "recursive": true},
		{"action": "move", "path": ".claude", "destination": "claude-old"},
		{"action": "move", "path": ".vscode", "destination": "vscode-old"},
		{"action": "copy", "path": "kit", "destination": ".gemini", "recursive": true},
		{"action": "move", "path": "kit", "destination": ".cursor"},
	} {
		f.fail(t, args, toolkit.CodeForbidden)
	}
	sameSnapshot(t, before, snapshot(t, f.base))
}

func TestProtectedPathsThroughOtherNames(t *testing.T) {
	f := policyFixture(t)
	must(t, os.MkdirAll(f.path("tools/claude"), 0o755))
	must(t, os.Symlink("tools/claude", f.path(".kiro")))
	must(t, os.Symlink(".claude", f.path("claudelink")))
	must(t, os.Symlink(".agentos/config/mcp.yaml", f.path("cfg.yaml")))
	must(t, os.MkdirAll(f.path("evil"), 0o755))
	must(t, os.Symlink("evil", f.path("evil-link")))
	before := snapshot(t, f.base)
	for _, args := range []map[string]any{
		// A link inside the project to a protected file or folder.
		{"action": "write", "path": "cfg.yaml", "content": "x"},
		{"action": "append", "path": "claudelink/settings.json", "content": "x"},
		// The protected folder .kiro/hooks/ under the name of its target.
		{"action": "write", "path": "tools/claude/hooks/h.json", "content": "x"},
		// A link moved to where it would redirect a protected folder.
		{"action": "move", "path": "evil-link", "destination": ".github"},
		{"action": "move", "path": "evil-link", "destination": ".Claude"},
	} {
		e := f.fail(t, args, toolkit.CodeForbidden)
		if e.Message == "" {
			t.Errorf("%v: no message", args)
		}
	}
	sameSnapshot(t, before, snapshot(t, f.base))
	f.ok(t, map[string]any{"action": "move", "path": "evil-link", "destination": "docs/evil-link"})
}

func TestSecretsAndHardLinksAreNotRead(t *testing.T) {
	f := policyFixture(t)
	must(t, os.Symlink(".agentos/.cache", f.path("cachelink")))
	if err := os.Link(filepath.Join(f.outside, "secret.txt"), f.path("hard.txt")); err != nil {
		t.Skipf("hard links: %v", err)
	}
	before := snapshot(t, f.base)
	for _, args := range []map[string]any{
		{"action": "read", "path": ".agentos/.cache/auth_token"},
		{"action": "read", "path": "cachelink/auth_token"},
		{"action": "copy", "path": ".agentos/.cache/auth_token", "destination": "token.txt"},
		{"action": "copy", "path": ".agentos/.cache", "destination": "cache-copy", "recursive": true},
		{"action": "read", "path": "hard.txt"},
		{"action": "append", "path": "hard.txt", "content": "pwned"},
		{"action": "write", "path": "hard.txt", "content": "pwned"},
		{"action": "copy", "path": "hard.txt", "destination": "hard-copy.txt"},
	} {
		e := f.fail(t, args, toolkit.CodeForbidden)
		if strings.Contains(args["path"].(string), "hard") && !strings.Contains(e.Message, "hard link") {
			t.Errorf("%v: message %q does not say why", args, e.Message)
		}
	}
	sameSnapshot(t, before, snapshot(t, f.base))
	// What is readable stays readable.
	for _, p := range []string{".agentos/.cache/logs/server.log", ".agentos/config/mcp.yaml", ".claude/settings.json", "filelink"} {
		f.ok(t, map[string]any{"action": "read", "path": p})
	}
}

func TestOrdinaryProjectWritesSucceed(t *testing.T) {
	f := policyFixture(t)
	for _, p := range []string{
		"src/new.go", "src/new_test.go", "Makefile", "README.md", "docs/guide.md", ".gitignore", "AGENTS.md",
		"CLAUDE.md", ".claude/rules/style.md", ".github/workflows/ci.yml", ".cursor/rules/x.mdc",
		".agentos/specs/2026-01-01-x/srd.md", ".agentos/standards/development/x.md",
		".agentos/standards/universal/x/test.md",
	} {
		f.ok(t, map[string]any{"action": "write", "path": p, "content": "ok\n"})
		f.ok(t, map[string]any{"action": "append", "path": p, "content": "more\n"})
	}
	f.ok(t, map[string]any{"action": "mkdir", "path": ".agentos/specs/2026-01-02-y"})
	f.ok(t, map[string]any{"action": "copy", "path": ".agentos/specs/s", "destination": ".agentos/specs/s2", "recursive": true})
	f.ok(t, map[string]any{"action": "move", "path": ".agentos/specs/s2", "destination": ".agentos/specs/s3"})
	f.ok(t, map[string]any{"action": "delete", "path": ".agentos/specs/s3", "recursive": true})
	f.ok(t, map[string]any{"action": "move", "path": "docs/guide.md", "destination": "docs/manual.md"})
}
