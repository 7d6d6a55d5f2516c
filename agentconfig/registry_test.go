package agentconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRegistryHasTheTwentyClients(t *testing.T) {
	for _, name := range []string{"Claude Code", "Claude Desktop", "Cursor", "VS Code", "Windsurf", "Devin", "Cline", "Roo Code",
		"Kilo Code", "Continue", "Zed", "Codex", "Gemini CLI", "Amazon Q", "Kiro", "opencode", "Goose", "Copilot CLI", "Junie", "Augment", "Factory Droid"} {
		if _, err := Lookup(name); err != nil {
			t.Error(err)
		}
	}
	seen := map[string]bool{}
	for _, c := range All() {
		if seen[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		seen[c.ID] = true
		if c.Format == "" || len(c.Key) == 0 || (c.ProjectFile == "" && len(c.UserFile) == 0) {
			t.Errorf("%s: incomplete row", c.ID)
		}
	}
}

func TestTransportSpellings(t *testing.T) {
	for id, want := range map[string]string{
		"cline":       `type=streamableHttp url=`,
		"roo":         `type=streamable-http url=`,
		"windsurf":    `serverUrl=`,
		"gemini":      `type=http url=`,
		"qwen":        `httpUrl=`,
		"vscode":      `type=http url=`,
		"claude-code": `type=http url=`,
		"codex":       `url=`,
		"goose":       `name=agentos type=streamable_http uri=`,
		"devin":       `transport=http url=`,
	} {
		c, _ := Lookup(id)
		var parts []string
		for _, f := range c.Emit(HTTPEntry(testURL)) {
			if f.Key == "url" || f.Key == "serverUrl" || f.Key == "httpUrl" || f.Key == "uri" {
				parts = append(parts, f.Key+"=")
				break
			}
			parts = append(parts, f.Key+"="+f.Value.(string))
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	for _, id := range []string{"claude-desktop", "junie"} {
		if c, _ := Lookup(id); c.CanHTTP() {
			t.Errorf("%s claims HTTP", id)
		}
	}
}

func TestParsePhrase(t *testing.T) {
	for phrase, want := range map[string]string{
		"Cline in Cursor":               "cline/cursor",
		"roo code inside VS Code":       "roo/vscode",
		"claude code":                   "claude-code/",
		"Codex with the Cursor IDE":     "codex/cursor",
		"  GEMINI   cli ":               "gemini/",
		"the Cline extension in vscode": "cline/vscode",
	} {
		ch, err := ParsePhrase(phrase)
		if err != nil {
			t.Errorf("%q: %v", phrase, err)
			continue
		}
		got := ch.Agent.ID + "/"
		if ch.IDE != nil {
			got += ch.IDE.ID
		}
		if got != want {
			t.Errorf("%q = %s, want %s", phrase, got, want)
		}
	}
	for _, bad := range []string{"", "Emacs", "Cline in Notepad"} {
		if _, err := ParsePhrase(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestTargets(t *testing.T) {
	env := HomeEnv("/home/u")
	env.GOOS = "linux"
	env = env.withDefaults()
	vs, _ := Lookup("vscode")
	tg, err := vs.TargetFor("/p", "", env)
	if err != nil || tg.Path != filepath.FromSlash("/p/.vscode/mcp.json") || !tg.Portable {
		t.Fatalf("vscode target %+v %v", tg, err)
	}
	e := tg.LaunchFor("/p", "/p/.agentos/bin/agentos")
	if e.Command != "${workspaceFolder}/.agentos/bin/agentos" || e.Env[EnvRoot] != "${workspaceFolder}" {
		t.Errorf("portable entry %+v", e)
	}
	cc, _ := Lookup("claude-code")
	tg, err = cc.TargetFor("/p", ScopeLocal, env)
	if err != nil || tg.Path != filepath.FromSlash("/home/u/.claude.json") || strings.Join(tg.Key, "|") != "projects|/p|mcpServers" {
		t.Fatalf("claude local %+v %v", tg, err)
	}
	if e := tg.LaunchFor("/p", "/p/.agentos/bin/agentos"); e.Command != "/p/.agentos/bin/agentos" {
		t.Errorf("local entry must be absolute: %+v", e)
	}
	cline, _ := Lookup("cline")
	if tg, _ := cline.TargetFor("/p", "", env); tg.Scope != ScopeUser || tg.Path != filepath.FromSlash("/home/u/.cline/data/settings/cline_mcp_settings.json") {
		t.Errorf("cline %+v", tg)
	}
	desk, _ := Lookup("claude-desktop")
	if _, err := desk.TargetFor("/p", "", env); err == nil {
		t.Error("Claude Desktop has no Linux config")
	}
	if _, err := cline.TargetFor("/p", ScopeProject, env); err == nil {
		t.Error("Cline has no project file")
	}
	codex, _ := Lookup("codex")
	env.CodexHome = "/ch"
	if tg, _ := codex.TargetFor("/p", ScopeUser, env); tg.Path != filepath.FromSlash("/ch/config.toml") {
		t.Errorf("codex user %s", tg.Path)
	}
}

func TestMalformedFilesNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		format Format
		in     string
		want   string
	}{
		{JSON, "{\n  \"mcpServers\": {\n    \"a\": {,\n  }\n}\n", "line 3"},
		{JSON, "[]", "must hold a JSON object"},
		{JSON, `{"mcpServers": []}`, "mcpServers must be a JSON object"},
		{YAML, "a: 1\nb: [\n", "line"},
		{YAML, "- a\n", "mapping"},
		{TOML, "a = 1\nb = \n", "line 2"},
		{TOML, "mcp_servers = { agentos = { command = \"x\" } }\n", "inline"},
	} {
		_, _, err := Merge(tc.format, []byte(tc.in), []string{"mcpServers"}, ServerName, false, Object{{"command", "x"}}, nil)
		if tc.format == TOML {
			_, _, err = Merge(tc.format, []byte(tc.in), []string{"mcp_servers"}, ServerName, false, Object{{"command", "y"}}, nil)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %q", tc.format, tc.in, err, tc.want)
		}
	}
}

func TestTOMLReplacesOurTableInPlace(t *testing.T) {
	in := "a = 1\n\n[mcp_servers.agentos]\ncommand = \"old\"\n\n[mcp_servers.agentos.env]\nX = \"1\"\n\n[z]\nb = 2 # keep\n"
	out, changed, err := Merge(TOML, []byte(in), []string{"mcp_servers"}, ServerName, false, Object{{"url", testURL}}, nil)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	want := "a = 1\n\n[mcp_servers.agentos]\nurl = \"http://127.0.0.1:4242/mcp\"\n\n[z]\nb = 2 # keep\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestRulesBlocks(t *testing.T) {
	text := []byte("# rules\nbe good\n")
	block := RenderRules(RulesFile{Path: "AGENTS.md", Shared: true}, text)
	user := "# My project\n\nOur notes.\n"
	merged, err := MergeBlock([]byte(user), block)
	if err != nil {
		t.Fatal(err)
	}
	if want := user + "\n" + string(block); string(merged) != want {
		t.Errorf("merged:\n%s", merged)
	}
	again, _ := MergeBlock(merged, block)
	if string(again) != string(merged) {
		t.Error("second merge changed the file")
	}
	newer, _ := MergeBlock(merged, RenderRules(RulesFile{Shared: true}, []byte("v2\n")))
	if !strings.Contains(string(newer), "v2") || strings.Contains(string(newer), "be good") || !strings.HasPrefix(string(newer), user) {
		t.Errorf("block not replaced in place:\n%s", newer)
	}
	removed, changed, err := RemoveBlock(newer)
	if err != nil || !changed || string(removed) != user {
		t.Errorf("removed = %q %v %v", removed, changed, err)
	}
	if _, err := MergeBlock([]byte("<!-- agentos:begin -->\nx\n"), block); err == nil {
		t.Error("unterminated block accepted")
	}
	crlf, _ := MergeBlock([]byte("a\r\n"), block)
	if strings.Count(string(crlf), "\r\n") != strings.Count(string(crlf), "\n") {
		t.Error("line endings mixed")
	}
	mdc := RenderRules(RulesFile{Path: ".cursor/rules/agentos.mdc", Frontmatter: "alwaysApply: true"}, text)
	if !strings.HasPrefix(string(mdc), "---\nalwaysApply: true\n---\n\n") {
		t.Errorf("frontmatter: %s", mdc)
	}
}

func TestPlanRulesAndRemove(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("mine\n"), 0o644)
	text, err := RulesText()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"codex", "cursor", "kiro"} {
		c, _ := Lookup(id)
		changes, err := PlanRules(c, root, text)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range changes {
			os.MkdirAll(filepath.Dir(ch.Path), 0o755)
			os.WriteFile(ch.Path, ch.After, 0o644)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".kiro/steering/agentos.md")); !strings.HasPrefix(string(data), "---\ninclusion: always\n---") {
		t.Errorf("kiro steering: %s", data)
	}
	c, _ := Lookup("codex")
	if changes, _ := PlanRules(c, root, text); changes[0].Action != Unchanged {
		t.Errorf("second plan: %v", changes[0].Action)
	}
	removals, err := PlanRemoveRules(root)
	if err != nil || len(removals) != 9 { // 3 rules files, 5 Cursor commands, the Cursor procedures rule
		t.Fatalf("removals %d %v", len(removals), err)
	}
	for _, ch := range removals {
		switch filepath.Base(ch.Path) {
		case "AGENTS.md":
			if ch.Action != Updated || string(ch.After) != "mine\n" {
				t.Errorf("AGENTS.md: %v %q", ch.Action, ch.After)
			}
		default:
			if ch.Action != Removed {
				t.Errorf("%s: %v", ch.Path, ch.Action)
			}
		}
	}
}

// An HTTP entry carries the same approval fields as the client's launch
// entry, and rewriting an entry keeps the tools the user approved besides.
func TestHTTPEntryKeepsApprovals(t *testing.T) {
	for _, c := range All() {
		if !c.CanHTTP() {
			continue
		}
		launch := c.Emit(Launch("/bin/agentos", "/p"))
		http := c.Emit(HTTPEntry("http://127.0.0.1:4242/mcp"))
		for _, key := range approvalKeys(c.Shape) {
			lv, lok := launch.Get(key)
			hv, hok := http.Get(key)
			if lok != hok || fmt.Sprint(lv) != fmt.Sprint(hv) {
				t.Errorf("%s: %s is %v in the launch entry but %v in the HTTP entry", c.ID, key, lv, hv)
			}
		}
	}
	cline, _ := Lookup("cline")
	path := filepath.Join(t.TempDir(), "cline_mcp_settings.json")
	old := `{"mcpServers": {"agentos": {"type": "streamableHttp", "url": "http://127.0.0.1:4300/mcp", "autoApprove": ["svc_workflow", "fs_read"]}}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	ch, err := PlanEntry(Target{Client: cline, Scope: ScopeUser, Path: path, Key: cline.Key}, HTTPEntry("http://127.0.0.1:4242/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	entry, _, _ := LookupEntry(cline.Format, ch.After, cline.Key, ServerName, false)
	if got := fmt.Sprint(entry["autoApprove"]); got != "[svc_search_project svc_workflow get_server_info current_date fs_read]" {
		t.Errorf("autoApprove = %s; the user's fs_read must stay", got)
	}
	if entry["url"] != "http://127.0.0.1:4242/mcp" {
		t.Errorf("url = %v", entry["url"])
	}
}

func approvalKeys(s Shape) []string {
	var keys []string
	if s.AutoApprove != "" {
		keys = append(keys, s.AutoApprove)
	}
	for k := range s.Approval {
		keys = append(keys, k)
	}
	return keys
}
