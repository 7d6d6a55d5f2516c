package agentconfig

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
)

// TestLaunchFilesAreProtected keeps the registry and the path policy from
// drifting apart: every project file into which agentos writes a launch or
// connection entry, for every client and every scope (install and connect
// both write through TargetFor), is one svc_filesystem refuses to change.
func TestLaunchFilesAreProtected(t *testing.T) {
	root := t.TempDir()
	home := t.TempDir() // user files land here, outside the project
	env := Env{GOOS: "linux", Home: home, XDGConfig: filepath.Join(home, ".config"), CodexHome: filepath.Join(home, ".codex"), ClineDir: filepath.Join(home, ".cline")}
	checked := 0
	for _, c := range All() {
		files := map[string]bool{}
		for _, f := range []string{c.ProjectFile, c.LocalFile} {
			if f != "" {
				files[f] = true
			}
		}
		for _, scope := range []Scope{ScopeProject, ScopeLocal, ScopeUser} {
			tg, err := c.TargetFor(root, scope, env)
			if err != nil {
				continue // the client has no such scope
			}
			rel, err := filepath.Rel(root, tg.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue // a user file, outside the project
			}
			files[filepath.ToSlash(rel)] = true
		}
		for f := range files {
			checked++
			rule, ok := pathpolicy.Match(f)
			if !ok || rule.Access == pathpolicy.Writable {
				t.Errorf("%s writes its entry into %s, which the path policy leaves writable: add it to internal/pathpolicy's table", c.Name, f)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no project file checked")
	}
}
