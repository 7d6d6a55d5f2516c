package agentconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Install and uninstall go through a linked project config: the link stays
// a link to the same file, which gets the entry and later loses it; an
// uninstall that empties the file writes it empty of our entry rather than
// deleting the link.
func TestLinkedConfigInstallAndUninstall(t *testing.T) {
	root, dotfiles := t.TempDir(), t.TempDir()
	target := filepath.Join(dotfiles, "cursor-mcp.json")
	if err := os.WriteFile(target, []byte("{\r\n  \"mcpServers\": {}\r\n}\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	c, _ := Lookup("cursor")
	tg := Target{Client: c, Scope: ScopeProject, Path: link, Key: c.Key}
	ch, err := PlanEntry(tg, Launch(testBinary, root))
	if err != nil || ch.Action != Updated || ch.Perm != 0o600 {
		t.Fatalf("plan: %+v %v", ch, err)
	}
	backups := Backups{Dir: filepath.Join(root, ".agentos", "backups"), Root: root}
	if _, err := Apply(ch, backups); err != nil {
		t.Fatal(err)
	}
	checkLink := func() string {
		t.Helper()
		if got, err := os.Readlink(link); err != nil || got != target {
			t.Fatalf("the link was replaced: %q %v", got, err)
		}
		fi, _ := os.Stat(target)
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("target mode %v", fi.Mode())
		}
		data, _ := os.ReadFile(target)
		return string(data)
	}
	if got := checkLink(); !strings.Contains(got, `"agentos": {`+"\r\n") {
		t.Fatalf("target = %q", got)
	}
	if b, _ := os.ReadFile(backups.PathFor(link)); string(b) != "{\r\n  \"mcpServers\": {}\r\n}\r\n" {
		t.Fatalf("backup = %q", b)
	}
	rm, err := PlanRemoveEntry(tg, nil)
	if err != nil || rm.Action != Updated {
		t.Fatalf("plan remove: %+v %v", rm, err)
	}
	if _, err := Apply(rm, Backups{}); err != nil {
		t.Fatal(err)
	}
	if got := checkLink(); got != "{\r\n  \"mcpServers\": {}\r\n}\r\n" {
		t.Fatalf("after uninstall the target = %q", got)
	}
}

// A read-only config is refused at planning with a clear error, but only
// when there is something to change.
func TestReadOnlyConfigRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	c, _ := Lookup("cursor")
	tg := Target{Client: c, Scope: ScopeUser, Path: path, Key: c.Key}
	if _, err := PlanEntry(tg, Launch(testBinary, testRoot)); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("err = %v", err)
	}
	os.Chmod(path, 0o644)
	ch, err := PlanEntry(tg, Launch(testBinary, testRoot))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ch, Backups{}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o444)
	if ch, err := PlanEntry(tg, Launch(testBinary, testRoot)); err != nil || ch.Action != Unchanged {
		t.Fatalf("an unchanged read-only file: %+v %v", ch.Action, err)
	}
}
