package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/browser"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
)

// TestHostilePathsCorpus runs what an agent holding only agentos's MCP tools
// could try against one server of the built binary, through a real MCP
// client over stdio: the traversal corpus, every protected path under every
// changing action (with and without override_gitignore), reads of secrets,
// hard links to a file outside, symbolic links to outside files and folders
// present at the first scan and appearing while the server runs (by hand and
// by a git checkout), then searches that must not return the outside file,
// and file:// pages of the browser that would show a secret. Ordinary project
// writes must still succeed. The counts go to the log.
func TestHostilePathsCorpus(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic and hard links need privileges on Windows")
	}
	token := "OUTSIDEUNIQUE" + randomHex(t)
	outside := t.TempDir()
	plant(t, outside, map[string]string{
		"secret.txt": "the outside secret " + token + "\n",
		"leak.go":    "package leak\n\n// Zanzibarquux returns " + token + ", a value from outside the project.\nfunc Zanzibarquux() string { return \"" + token + "\" }\n",
		"leak.md":    "Keywords: zanzibarquux\n\n# Zanzibarquux\n\n## " + token + "\n\nThe zanzibarquux standard (" + token + ") lives outside the project.\n",
	})
	root := newProject(t)
	gitOK := exec.Command("git", "init", "-q", root).Run() == nil
	if !gitOK {
		plant(t, root, map[string]string{".git/config": "[core]\n"})
	}
	plant(t, root, map[string]string{
		"ordinary.txt":                 "ordinary\n",
		"ordinary.go":                  "package main\n\n// Ordinarything is an ordinary function.\nfunc Ordinarything() {}\n",
		"docs/guide.md":                "# Guide\n",
		"vendor/lib/.git/HEAD":         "ref: refs/heads/main\n",
		".agentos/.cache/auth_token":   "notTheRealToken\n",
		".agentos/specs/s/srd.md":      "# spec\n",
		".claude/settings.json":        "{}\n",
		".github/workflows/ci.yml":     "on: push\n",
		".agentos/state/approvals.txt": "approved by a person\n",
	})
	links := map[string]string{ // present at the first scan
		"etclink":    "/etc",
		"outlink":    outside,
		"sub/up":     "../..",
		"loop_a":     "loop_b",
		"loop_b":     "loop_a",
		"cachelink":  ".agentos/.cache",
		"cfglink":    ".agentos/config",
		"atstart.go": filepath.Join(outside, "leak.go"),
		"atstartdir": outside,
		".agentos/standards/universal/atstart.md": filepath.Join(outside, "leak.md"),
	}
	for name, target := range links {
		link(t, target, filepath.Join(root, filepath.FromSlash(name)))
	}
	hardLink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "hard.txt"))
	hardLink(t, filepath.Join(outside, "leak.go"), filepath.Join(root, "hardleak.go"))

	c := stdioClient(t, root, "--transport", "stdio")
	hostileWaitIndexes(t, c)
	var n corpusCount
	before, outsideBefore := treeState(t, root), treeState(t, outside)

	// 1. Traversal: every hostile path through every action that takes one.
	for _, hp := range []struct{ path, code string }{
		{"../x", "FORBIDDEN"}, {"a/../../x", "FORBIDDEN"}, {"..", "FORBIDDEN"},
		{"/etc/passwd", "FORBIDDEN"}, {filepath.Join(outside, "secret.txt"), "FORBIDDEN"}, {outside, "FORBIDDEN"},
		{root + "/../" + filepath.Base(outside) + "/secret.txt", "FORBIDDEN"},
		{`..\..\x`, "FORBIDDEN"}, {`a\..\..\x`, "FORBIDDEN"},
		{"ordinary.txt\x00.txt", "VALIDATION_ERROR"}, {strings.Repeat("a/", 2500), "VALIDATION_ERROR"}, {strings.Repeat("x", 300), "VALIDATION_ERROR"},
		{"etclink/agentos-e2e-probe", "FORBIDDEN"}, {"etclink", "FORBIDDEN"},
		{"outlink/secret.txt", "FORBIDDEN"}, {"outlink", "FORBIDDEN"},
		{"sub/up/secret.txt", "FORBIDDEN"}, {"sub/up", "FORBIDDEN"},
		{"loop_a", "FORBIDDEN"}, {"loop_a/x", "FORBIDDEN"},
	} {
		for _, act := range allActions {
			n.expectRefused(t, c, act.args(hp.path), hp.code, "")
		}
	}

	// 2. Every protected path of the policy, under every changing action,
	// with and without override_gitignore; a few under the other spellings
	// of a case-insensitive or Windows file system.
	protected := []string{
		".git/config", "vendor/lib/.git/HEAD", ".agentos/bin/agentos", ".agentos/config/mcp.yaml",
		".agentos/manifest.json", ".agentos/state/approvals.txt", ".claude/commands/agentos-spec.md",
		".claude/skills/agentos/SKILL.md", "cfglink/mcp.yaml",
		".AGENTOS/BIN/agentos", ".Mcp.Json", ".mcp.json.", ".claude/Settings.json", ".agentos/config./mcp.yaml",
		"shop.code-workspace", "tools/Shop.Code-Workspace",
	}
	for _, rule := range pathpolicy.Rules() {
		if rule.Access == pathpolicy.Writable || strings.HasPrefix(rule.Path, "**/") {
			continue
		}
		if dir, ok := strings.CutSuffix(rule.Path, "/"); ok {
			protected = append(protected, dir, dir+"/agentos-e2e-probe.json")
		} else {
			protected = append(protected, rule.Path)
		}
	}
	for _, p := range protected {
		for _, act := range changingActions {
			for _, override := range []bool{false, true} {
				args := act.args(p)
				args["override_gitignore"] = override
				n.expectRefused(t, c, args, "FORBIDDEN", "only a person changes it")
			}
		}
	}

	// 3. Secrets, by name, by another spelling, through a link to their folder.
	for _, p := range []string{".agentos/.cache/auth_token", ".agentos/.CACHE/auth_token", "cachelink/auth_token"} {
		n.expectRefused(t, c, map[string]any{"action": "read", "path": p}, "FORBIDDEN", "cannot be read")
	}

	// 4. Hard links to a file outside: never read, appended to, written or copied.
	for _, args := range []map[string]any{
		{"action": "read", "path": "hard.txt"},
		{"action": "append", "path": "hard.txt", "content": "pwned"},
		{"action": "write", "path": "hard.txt", "content": "pwned"},
		{"action": "copy", "path": "hard.txt", "destination": "hard-copy.txt"},
	} {
		n.expectRefused(t, c, args, "FORBIDDEN", "hard link")
	}
	sameTree(t, "the project", before, treeState(t, root))
	sameTree(t, "the folder outside", outsideBefore, treeState(t, outside))
	if _, err := os.Lstat("/etc/agentos-e2e-probe"); err == nil {
		t.Fatal("a file was created in /etc")
	}

	// 5. Links appearing while the server runs: a file, a folder, a standard,
	// a file replaced by a link, a new hard link, and a git checkout.
	link(t, filepath.Join(outside, "leak.go"), filepath.Join(root, "running.go"))
	link(t, outside, filepath.Join(root, "runningdir"))
	link(t, filepath.Join(outside, "leak.md"), filepath.Join(root, ".agentos", "standards", "universal", "running.md"))
	if err := os.Remove(filepath.Join(root, "ordinary.go")); err != nil {
		t.Fatal(err)
	}
	link(t, filepath.Join(outside, "leak.go"), filepath.Join(root, "ordinary.go"))
	hardLink(t, filepath.Join(outside, "leak.go"), filepath.Join(root, "hardleak2.go"))
	if gitOK {
		checkoutLink(t, root, outside)
	}
	plant(t, root, map[string]string{"sentinel.go": "package main\n\n// Quokkaflange marks that the watcher caught up.\nfunc Quokkaflange() {}\n"})
	// Events are handled in order: once a file written after the links is
	// searchable, the links have been seen.
	hostileEventually(t, "the watcher to catch up", func() bool {
		return hostileFound(hostileSearch(t, c, "search_code", "quokkaflange watcher caught up"), "sentinel.go")
	})
	for _, q := range []struct{ action, query string }{
		{"search_code", token},
		{"search_code", "Zanzibarquux returns a value from outside the project"},
		{"search_code", "zanzibarquux"},
		{"search_standards", token},
		{"search_standards", "zanzibarquux standard lives outside the project"},
	} {
		n.total++
		hits := hostileSearch(t, c, q.action, q.query)
		if p := leakedThrough(hits, token); p != "" {
			n.accepted++
			t.Errorf("%s %q returned the outside file through %s", q.action, q.query, p)
		} else {
			n.refused++
		}
	}

	// 6. The browser opens a file:// page as a read: a secret, a hard link, a
	// link to the secret are refused, and so is a frame of a project page
	// that shows one. (Without a browser on the machine, this part is left
	// out; CI has one.)
	if _, err := browser.FindExecutable(""); err == nil {
		plant(t, root, map[string]string{
			"docs/frame.html":  `<!doctype html><title>frame</title><iframe src="../.agentos/.cache/auth_token"></iframe>`,
			"docs/script.html": `<!doctype html><title>script</title><script src="../.agentos/.cache/auth_token"></script>`,
		})
		fileURL := func(rel string) string {
			return "file://" + filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel)))
		}
		for _, rel := range []string{".agentos/.cache/auth_token", "hard.txt", "cachelink/auth_token"} {
			n.expectRefusedBy(t, c, "svc_browser", map[string]any{"action": "navigate", "url": fileURL(rel)}, "FORBIDDEN")
		}
		// A page that frames the secret, or loads it as a script (whose
		// error message would quote it), gets it blocked.
		for _, page := range []string{"docs/frame.html", "docs/script.html"} {
			n.total++
			if res := call(t, c, "svc_browser", map[string]any{"action": "navigate", "url": fileURL(page)}, nil); res.IsError {
				t.Fatalf("navigate to %s: %v", page, res.Content)
			}
			hostileEventually(t, page+"'s load of the secret to be blocked", func() bool {
				var out struct {
					Messages []struct {
						Text string `json:"text"`
					} `json:"messages"`
				}
				call(t, c, "svc_browser", map[string]any{"action": "console"}, &out)
				for _, m := range out.Messages {
					if strings.Contains(m.Text, "notTheRealToken") || strings.Contains(m.Text, "is not defined") {
						t.Fatalf("%s read the secret: %s", page, m.Text)
					}
					if strings.Contains(m.Text, "agentos blocked") && strings.Contains(m.Text, "auth_token") {
						return true
					}
				}
				return false
			})
			n.refused++
		}
	} else {
		t.Logf("no browser: the svc_browser part of the corpus is left out (%v)", err)
	}

	// 7. Ordinary project work still succeeds.
	for _, args := range []map[string]any{
		{"action": "write", "path": "src/feature.go", "content": "package src\n"},
		{"action": "write", "path": "src/feature_test.go", "content": "package src\n"},
		{"action": "write", "path": "Makefile", "content": "test:\n\tgo test ./...\n"},
		{"action": "write", "path": "README.md", "content": "# Project\n"},
		{"action": "write", "path": "docs/design.md", "content": "# Design\n"},
		{"action": "append", "path": ".gitignore", "content": "/tmp-out/\n"},
		{"action": "write", "path": ".agentos/specs/2026-01-01-x/srd.md", "content": "# SRD\n"},
		{"action": "write", "path": ".agentos/standards/development/x.md", "content": "# X\n"},
		{"action": "append", "path": "AGENTS.md", "content": "\nmore\n"},
		{"action": "write", "path": ".claude/rules/style.md", "content": "style\n"},
		{"action": "write", "path": ".github/workflows/ci.yml", "content": "on: [push]\n"},
		{"action": "mkdir", "path": ".agentos/specs/2026-01-02-y"},
		{"action": "copy", "path": "docs/guide.md", "destination": "docs/guide-copy.md"},
		{"action": "move", "path": "docs/guide-copy.md", "destination": "docs/manual.md"},
		{"action": "delete", "path": "docs/manual.md"},
		{"action": "read", "path": ".agentos/config/mcp.yaml"},
		{"action": "read", "path": ".claude/settings.json"},
	} {
		n.expectAccepted(t, c, args)
	}
	for name, want := range map[string]string{"Makefile": "test:\n\tgo test ./...\n", ".agentos/specs/2026-01-01-x/srd.md": "# SRD\n", "src/feature_test.go": "package src\n"} {
		if got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(name))); string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	t.Logf("hostile corpus: %d operations, %d refused, %d accepted (%d ordinary operations expected to succeed)", n.total, n.refused, n.accepted, n.ordinary)
}

// corpusCount counts the corpus' operations by outcome.
type corpusCount struct{ total, refused, accepted, ordinary int }

// expectRefused runs one hostile operation, which must fail with code and,
// when want is not empty, a message containing it.
func (n *corpusCount) expectRefused(t *testing.T, c *client.Client, args map[string]any, code, want string) {
	t.Helper()
	n.total++
	got, msg, ok := fsCall(t, c, args)
	if ok {
		n.accepted++
		t.Errorf("%v succeeded, want %s", printable(args), code)
		return
	}
	n.refused++
	if got != code || !strings.Contains(msg, want) {
		t.Errorf("%v: %s %q, want %s with %q", printable(args), got, msg, code, want)
	}
}

// expectRefusedBy runs one hostile call of another tool, which must fail
// with code.
func (n *corpusCount) expectRefusedBy(t *testing.T, c *client.Client, tool string, args map[string]any, code string) {
	t.Helper()
	n.total++
	res := call(t, c, tool, args, nil)
	if !res.IsError {
		n.accepted++
		t.Errorf("%s %v succeeded, want %s", tool, printable(args), code)
		return
	}
	n.refused++
	if text := fmt.Sprint(res.Content); !strings.Contains(text, code) {
		t.Errorf("%s %v: %s, want %s", tool, printable(args), text, code)
	}
}

func (n *corpusCount) expectAccepted(t *testing.T, c *client.Client, args map[string]any) {
	t.Helper()
	n.total++
	n.ordinary++
	if code, msg, ok := fsCall(t, c, args); !ok {
		n.refused++
		t.Errorf("%v: %s %s, want success", printable(args), code, msg)
		return
	}
	n.accepted++
}

// fsCall calls svc_filesystem and returns the error code and message, or ok.
func fsCall(t *testing.T, c *client.Client, args map[string]any) (code, msg string, ok bool) {
	t.Helper()
	res := call(t, c, "svc_filesystem", args, nil)
	if !res.IsError {
		return "", "", true
	}
	var body struct {
		Code    string `json:"error_code"`
		Message string `json:"message"`
	}
	if len(res.Content) > 0 {
		if tc, isText := res.Content[len(res.Content)-1].(mcp.TextContent); isText {
			json.Unmarshal([]byte(tc.Text), &body)
		}
	}
	return body.Code, body.Message, false
}

// printable shortens over-long arguments for messages.
func printable(args map[string]any) string {
	s := fmt.Sprint(args)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

type fsAction struct {
	name string
	args func(p string) map[string]any
}

// changingActions put a path where each changing action takes one.
var changingActions = []fsAction{
	{"write", func(p string) map[string]any { return map[string]any{"action": "write", "path": p, "content": "pwned"} }},
	{"append", func(p string) map[string]any {
		return map[string]any{"action": "append", "path": p, "content": "pwned"}
	}},
	{"mkdir", func(p string) map[string]any { return map[string]any{"action": "mkdir", "path": p} }},
	{"delete", func(p string) map[string]any { return map[string]any{"action": "delete", "path": p, "recursive": true} }},
	{"move from", func(p string) map[string]any {
		return map[string]any{"action": "move", "path": p, "destination": "moved-away", "overwrite": true}
	}},
	{"move to", func(p string) map[string]any {
		return map[string]any{"action": "move", "path": "ordinary.txt", "destination": p, "overwrite": true}
	}},
	{"copy from", func(p string) map[string]any {
		return map[string]any{"action": "copy", "path": p, "destination": "copied-away", "recursive": true, "overwrite": true}
	}},
	{"copy to", func(p string) map[string]any {
		return map[string]any{"action": "copy", "path": "ordinary.txt", "destination": p, "overwrite": true}
	}},
}

// allActions are the changing actions and the ones that only look.
var allActions = append([]fsAction{
	{"read", func(p string) map[string]any { return map[string]any{"action": "read", "path": p} }},
	{"list", func(p string) map[string]any { return map[string]any{"action": "list", "path": p, "recursive": true} }},
	{"stat", func(p string) map[string]any { return map[string]any{"action": "stat", "path": p} }},
	{"exists", func(p string) map[string]any { return map[string]any{"action": "exists", "path": p} }},
	{"glob", func(p string) map[string]any { return map[string]any{"action": "glob", "path": p, "pattern": "**"} }},
}, changingActions...)

// plant writes files under dir, making their folders.
func plant(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func hardLink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Link(target, name); err != nil {
		t.Fatal(err)
	}
}

// checkoutLink brings a symbolic link to the outside file into the project
// the way a pull does: a commit of another repository, checked out.
func checkoutLink(t *testing.T, root, outside string) {
	t.Helper()
	src := t.TempDir()
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=e2e", "-c", "user.email=e2e@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(src, "init", "-q")
	link(t, filepath.Join(outside, "leak.go"), filepath.Join(src, "pulled.go"))
	git(src, "add", "pulled.go")
	git(src, "commit", "-q", "-m", "a link")
	git(root, "fetch", "-q", src, "HEAD")
	git(root, "checkout", "FETCH_HEAD", "--", "pulled.go")
	if fi, err := os.Lstat(filepath.Join(root, "pulled.go")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the checkout brought no link: %v %v", fi, err)
	}
}

// hostileHit is the part of a search result that could show a file.
type hostileHit struct {
	Path    string `json:"path"`
	Symbol  string `json:"symbol"`
	Section string `json:"section"`
	Content string `json:"content"`
}

func hostileSearch(t *testing.T, c *client.Client, action, query string) []hostileHit {
	t.Helper()
	tool, args := "svc_search_project", map[string]any{"action": action, "query": query, "n_results": 20}
	if action == "search_standards" {
		tool, args = "search_standards", map[string]any{"query": query, "n_results": 20}
	}
	var out struct {
		Results []hostileHit `json:"results"`
	}
	if res := call(t, c, tool, args, &out); res.IsError {
		t.Fatalf("%s %q: %v", action, query, res.Content)
	}
	return out.Results
}

func hostileFound(hits []hostileHit, path string) bool {
	for _, h := range hits {
		if h.Path == path {
			return true
		}
	}
	return false
}

// leakedThrough returns the path of a hit that shows the outside file.
func leakedThrough(hits []hostileHit, token string) string {
	for _, h := range hits {
		if strings.Contains(h.Content, token) || strings.Contains(strings.ToLower(h.Symbol), "zanzibarquux") ||
			strings.Contains(strings.ToLower(h.Section), "zanzibarquux") {
			return h.Path
		}
	}
	return ""
}

func hostileWaitIndexes(t *testing.T, c *client.Client) {
	t.Helper()
	hostileEventually(t, "indexes ready", func() bool {
		var out struct {
			Indexes []struct {
				State string `json:"state"`
			} `json:"indexes"`
		}
		call(t, c, "svc_search_project", map[string]any{"action": "index_status"}, &out)
		return len(out.Indexes) == 2 && out.Indexes[0].State == "ready" && out.Indexes[1].State == "ready"
	})
}

func hostileEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return strings.ToUpper(hex.EncodeToString(b))
}

// treeState describes every entry under dir but the server's own cache:
// type, permissions, and a digest of the content or the link's target.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	cache := filepath.Join(dir, ".agentos", ".cache")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == cache {
			return fs.SkipDir // the server's own state changes as it runs
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + upgradetest.Digest(data)
		}
		out[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, d := range before {
		if after[p] != d {
			t.Errorf("%s: %s changed: %q -> %q", what, p, d, after[p])
		}
	}
	for p, d := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared: %q", what, p, d)
		}
	}
}
