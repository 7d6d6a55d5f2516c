package agentconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTrustedReadsEachClientsFile(t *testing.T) {
	home := t.TempDir()
	env := HomeEnv(home)
	root := "/src/team/app"
	for _, tc := range []struct {
		client, file, content string
		want                  bool
	}{
		{"codex", ".codex/config.toml", "", false},
		{"codex", ".codex/config.toml", "[projects.\"/src/team/app\"]\ntrust_level = \"trusted\"\n", true},
		{"codex", ".codex/config.toml", "[projects.\"/src/team\"]\ntrust_level = \"trusted\"\n", true},
		{"codex", ".codex/config.toml", "[projects.\"/src/team/app\"]\ntrust_level = \"untrusted\"\n", false},
		{"codex", ".codex/config.toml", "[projects.\"/src/team/application\"]\ntrust_level = \"trusted\"\n", false},
		{"gemini", ".gemini/trustedFolders.json", `{"/src/team/app": "TRUST_FOLDER"}`, true},
		{"gemini", ".gemini/trustedFolders.json", `{"/src/team": "TRUST_FOLDER"}`, true},
		{"gemini", ".gemini/trustedFolders.json", `{"/src/team/other": "TRUST_PARENT"}`, true},
		{"gemini", ".gemini/trustedFolders.json", `{"/src": "TRUST_FOLDER", "/src/team/app": "DO_NOT_TRUST"}`, false},
		{"gemini", ".gemini/trustedFolders.json", `{"/src/team/app2": "TRUST_FOLDER"}`, false},
		{"copilot-cli", ".copilot/config.json", `{"trusted_folders": ["/src/team/app"]}`, true},
		{"copilot-cli", ".copilot/config.json", `{"trustedFolders": ["/src"]}`, true},
		{"copilot-cli", ".copilot/config.json", `{"trusted_folders": ["/other"]}`, false},
	} {
		c, _ := Lookup(tc.client)
		path := filepath.Join(home, tc.file)
		os.Remove(path)
		if tc.content != "" {
			writeTestFile(t, path, tc.content)
		}
		got, err := c.Trusted(root, env)
		if err != nil || got != tc.want {
			t.Errorf("%s with %q: trusted = %v, %v; want %v", tc.client, tc.content, got, err, tc.want)
		}
	}
}

// Gemini CLI's folder trust is on unless the user turned it off; Qwen
// Code's is off unless the user turned it on; a user-scope entry is outside
// the gate of both.
func TestTrustGateSwitch(t *testing.T) {
	home := t.TempDir()
	env := HomeEnv(home)
	gemini, _ := Lookup("gemini")
	qwen, _ := Lookup("qwen")
	project := func(c Client) Target { return Target{Client: c, Scope: ScopeProject} }
	if !project(gemini).NeedsTrust(env) || project(qwen).NeedsTrust(env) {
		t.Fatal("defaults: Gemini's gate must be on, Qwen's off")
	}
	writeTestFile(t, filepath.Join(home, ".gemini", "settings.json"), `{"security": {"folderTrust": {"enabled": false}}}`)
	writeTestFile(t, filepath.Join(home, ".qwen", "settings.json"), "{\n  // on\n  \"security\": {\"folderTrust\": {\"enabled\": true}}\n}\n")
	if project(gemini).NeedsTrust(env) || !project(qwen).NeedsTrust(env) {
		t.Error("the users' switches were not read")
	}
	if (Target{Client: qwen, Scope: ScopeUser}).NeedsTrust(env) {
		t.Error("a user-scope entry is outside Qwen's folder trust")
	}
	copilot, _ := Lookup("copilot-cli")
	if !(Target{Client: copilot, Scope: ScopeUser}).NeedsTrust(env) {
		t.Error("Copilot CLI trusts folders for everything it does")
	}
}

// PlanTrust keeps a symlinked trust file a link, refuses a read-only or
// malformed one with nothing written, and changes nothing when the folder
// is already trusted.
func TestPlanTrustRealFiles(t *testing.T) {
	home := t.TempDir()
	env := HomeEnv(home)
	root := filepath.Join(home, "src", "app")
	gemini, _ := Lookup("gemini")
	dotfiles := filepath.Join(home, "dotfiles", "trustedFolders.json")
	writeTestFile(t, dotfiles, "\ufeff{\r\n  \"/x\": \"TRUST_FOLDER\"\r\n}\r\n")
	link := filepath.Join(home, ".gemini", "trustedFolders.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dotfiles, link); err != nil {
		t.Fatal(err)
	}
	ch, err := PlanTrust(gemini, root, env)
	if err != nil || ch.Action != Updated {
		t.Fatalf("plan: %v, %v", ch.Action, err)
	}
	if _, err := Apply(ch, Backups{Dir: filepath.Join(root, ".agentos", "backups"), Root: root, Home: home}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(dotfiles)
	if want := "\ufeff{\r\n  \"/x\": \"TRUST_FOLDER\",\r\n  \"" + root + "\": \"TRUST_FOLDER\"\r\n}\r\n"; string(got) != want {
		t.Errorf("linked file =\n%q\nwant\n%q", got, want)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if ch, err := PlanTrust(gemini, root, env); err != nil || ch.Action != Unchanged {
		t.Errorf("second plan: %v, %v", ch.Action, err)
	}

	// Copilot CLI: a new list goes under the key the current CLI reads.
	copilot, _ := Lookup("copilot-cli")
	writeTestFile(t, filepath.Join(home, ".copilot", "config.json"), "{\n  \"model\": \"x\"\n}\n")
	if ch, err := PlanTrust(copilot, root, env); err != nil || string(ch.After) != "{\n  \"model\": \"x\",\n  \"trustedFolders\": [\n    \""+root+"\"\n  ]\n}\n" {
		t.Errorf("copilot: %v\n%s", err, ch.After)
	}

	codex, _ := Lookup("codex")
	cfg := filepath.Join(home, ".codex", "config.toml")
	writeTestFile(t, cfg, "model = \"o3\"\n[projects\n")
	if _, err := PlanTrust(codex, root, env); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("malformed: %v", err)
	}
	writeTestFile(t, cfg, "model = \"o3\"\n")
	if err := os.Chmod(cfg, 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanTrust(codex, root, env); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only: %v", err)
	}
	if got, _ := os.ReadFile(cfg); string(got) != "model = \"o3\"\n" {
		t.Errorf("the read-only file changed: %q", got)
	}
}
