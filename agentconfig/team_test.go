package agentconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenDefaultTargets records, per client, where the launch entry goes
// when no scope is named and what it holds there: the team-safety choice of
// each client, as a golden file a reviewer can read in one go.
func TestGoldenDefaultTargets(t *testing.T) {
	env := HomeEnv("/home/dev")
	env.GOOS = "linux"
	var table strings.Builder
	for _, c := range All() {
		tgt, err := c.TargetFor(testRoot, "", env)
		if err != nil {
			fmt.Fprintf(&table, "%-15s -        %v\n", c.ID, err)
			continue
		}
		fmt.Fprintf(&table, "%-15s %-8s %s [%s]\n%15s %s\n", c.ID, tgt.Scope, Display(tgt.Path, testRoot, env.Home), strings.Join(tgt.Key, " > "), "", c.Team())

		entry := c.Emit(tgt.LaunchFor(testRoot, testBinary))
		got, ok, err := LookupEntry(c.Format, mustMerge(t, c, tgt, nil, entry), tgt.Key, ServerName, c.List)
		if err != nil || !ok || !sameValue(got, entry) {
			t.Errorf("%s: entry read back = %v %v %v", c.ID, got, ok, err)
		}
		committed := tgt.Scope == ScopeProject
		machinePath := strings.Contains(fmt.Sprint(got), testRoot)
		switch {
		case committed && tgt.Portable && machinePath:
			t.Errorf("%s: portable entry holds %s: %v", c.ID, testRoot, got)
		case committed && !tgt.Portable && !strings.Contains(c.Team(), "this machine's absolute path"):
			t.Errorf("%s: a committed file with a machine path, but Team() says %q", c.ID, c.Team())
		case !committed && strings.Contains(c.Team(), "absolute path"):
			t.Errorf("%s: Team() says %q of a %s-scoped entry", c.ID, c.Team(), tgt.Scope)
		}
	}
	checkGolden(t, "default-targets.txt", []byte(table.String()))
}

// Claude Code's local scope: the entry goes under projects["<root>"] of
// ~/.claude.json, next to the user's other projects and settings, which
// stay as they were; removing it restores the file's settings. (Claude Code
// writes each project's section with an empty mcpServers, as here.)
func TestGoldenClaudeCodeLocalScope(t *testing.T) {
	c, _ := Lookup("claude-code")
	env := HomeEnv("/home/dev")
	env.GOOS = "linux"
	tgt, err := c.TargetFor(testRoot, "", env)
	if err != nil || tgt.Scope != ScopeLocal || tgt.Path != filepath.Join("/home/dev", ".claude.json") {
		t.Fatalf("default target = %+v, %v", tgt, err)
	}
	orig := []byte(`{
  "numStartups": 12,
  "mcpServers": {
    "user-wide": { "type": "stdio", "command": "uw", "args": [] }
  },
  "projects": {
    "/home/dev/other": {
      "allowedTools": [],
      "mcpServers": { "agentos": { "type": "stdio", "command": "/home/dev/other/.agentos/bin/agentos", "args": [] } }
    },
    "/home/dev/proj": {
      "allowedTools": ["Bash(go test:*)"],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    }
  }
}
`)
	entry := c.Emit(tgt.LaunchFor(testRoot, testBinary))
	merged := mustMerge(t, c, tgt, orig, entry)
	checkGolden(t, "claude-code.local.json", merged)
	other, ok, err := LookupEntry(c.Format, merged, []string{"projects", "/home/dev/other", "mcpServers"}, ServerName, false)
	if err != nil || !ok || other["command"] != "/home/dev/other/.agentos/bin/agentos" {
		t.Errorf("another project's entry changed: %v %v %v", other, ok, err)
	}
	again, changed, err := Merge(c.Format, merged, tgt.Key, ServerName, c.List, entry, c.FreshDoc)
	if err != nil || changed || string(again) != string(merged) {
		t.Errorf("second write is not a no-op: changed=%v err=%v", changed, err)
	}
	removed, changed, err := Remove(c.Format, merged, tgt.Key, ServerName, c.List)
	if err != nil || !changed {
		t.Fatalf("remove: %v %v", changed, err)
	}
	before, _ := Decode(c.Format, orig)
	after, err := Decode(c.Format, removed)
	if err != nil || !sameValue(before, after) {
		t.Errorf("remove did not restore the original settings:\n%s", removed)
	}
}

func mustMerge(t *testing.T, c Client, tgt Target, data []byte, entry Object) []byte {
	t.Helper()
	out, _, err := Merge(c.Format, data, tgt.Key, ServerName, c.List, entry, c.FreshDoc)
	if err != nil {
		t.Fatalf("%s: merge: %v", c.ID, err)
	}
	return out
}

// Removing the entry from ~/.claude.json also removes the project's section
// when install created it (nothing but the servers is left), and keeps a
// section Claude Code made, with its own settings.
func TestRemoveClaudeCodeLocalEntry(t *testing.T) {
	c, _ := Lookup("claude-code")
	home := t.TempDir()
	tgt, err := c.TargetFor(testRoot, ScopeLocal, HomeEnv(home))
	if err != nil {
		t.Fatal(err)
	}
	entry := c.Emit(tgt.LaunchFor(testRoot, testBinary))
	for name, tc := range map[string]struct{ before, after string }{
		"created by install":        {`{"numStartups": 3, "projects": {}}`, `{"numStartups": 3, "projects": {}}`},
		"projects added by install": {`{"numStartups": 3}`, `{"numStartups": 3}`},
		"made by Claude Code": {
			`{"projects": {"` + testRoot + `": {"allowedTools": [], "mcpServers": {}}}}`,
			`{"projects": {"` + testRoot + `": {"allowedTools": [], "mcpServers": {}}}}`},
	} {
		merged := mustMerge(t, c, tgt, []byte(tc.before), entry)
		if err := os.WriteFile(tgt.Path, merged, 0o600); err != nil {
			t.Fatal(err)
		}
		ch, err := PlanRemoveEntry(tgt, []byte(tc.before))
		if err != nil || ch.Action != Updated {
			t.Fatalf("%s: %+v %v", name, ch.Action, err)
		}
		want, _ := Decode(c.Format, []byte(tc.after))
		if got, err := Decode(c.Format, ch.After); err != nil || !sameValue(got, want) {
			t.Errorf("%s: after removal\n%s", name, ch.After)
		}
	}
}
