package agentconfig

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/internal/project"
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

// An HTTP entry at the project's own port, while the server runs on a
// fallback because something else holds that port, is not "stale": the fix
// is to free the port, not to point the entry at the fallback.
func TestHTTPEntryAtTheRecordedPortWhileOnAFallback(t *testing.T) {
	c, err := Lookup("opencode")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(c.Emit(HTTPEntry("http://127.0.0.1:4300/mcp")))
	var e map[string]any
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	got := checkEntry("opencode", c, Target{}, e, project.Paths{Root: t.TempDir()}, 4302, 4300)
	if got.OK || strings.Contains(got.Detail, "stale") || !strings.Contains(got.Fix, "free port 4300") {
		t.Errorf("%+v", got)
	}
	if got := checkEntry("opencode", c, Target{}, e, project.Paths{Root: t.TempDir()}, 4302, 4302); !strings.Contains(got.Detail, "stale") {
		t.Errorf("an entry at another port is not stale: %+v", got)
	}
}
