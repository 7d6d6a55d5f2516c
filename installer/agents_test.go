package installer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
)

func installWith(t *testing.T, opts Options) *Report {
	t.Helper()
	opts.Yes = true
	report, err := Install(context.Background(), opts)
	if err != nil {
		t.Fatalf("Install: %v", err)
	}
	return report
}

func testEnv(t *testing.T) *agentconfig.Env {
	env := agentconfig.HomeEnv(t.TempDir())
	env.GOOS = "linux"
	return &env
}

func TestInstallEveryAgent(t *testing.T) {
	t.Parallel()
	for _, c := range agentconfig.All() {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
			env := testEnv(t)
			opts := Options{Dir: root, BinaryPath: binary, Agents: []string{c.ID}, Env: env}
			if _, err := c.TargetFor(root, "", *env); err != nil {
				// Claude Desktop has no Linux build: the install says so and writes nothing.
				before := snapshot(t, root)
				if _, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{c.ID}, Env: env, Yes: true}); err == nil {
					t.Fatal("install for a client with no config here succeeded")
				}
				assertSameTree(t, before, snapshot(t, root))
				return
			}
			report := installWith(t, opts)
			tg, _ := c.TargetFor(root, "", *env)
			data, err := os.ReadFile(tg.Path)
			if err != nil {
				t.Fatal(err)
			}
			entry, ok, err := agentconfig.LookupEntry(c.Format, data, tg.Key, agentconfig.ServerName, c.List)
			if err != nil || !ok {
				t.Fatalf("no entry in %s: %v\n%s", tg.Path, err, data)
			}
			p, _ := project.At(root)
			want := c.Emit(tg.LaunchFor(root, PinnedBinary(p)))
			if !strings.Contains(mustString(entry), "serve") || len(entry) != len(want) {
				t.Errorf("entry %v, want %v", entry, want)
			}
			for _, rf := range c.Rules {
				if _, err := os.Stat(filepath.Join(root, rf.Path)); err != nil {
					t.Errorf("rules file %s: %v", rf.Path, err)
				}
			}
			if !strings.Contains(printed(report), "Restart "+c.Name) {
				t.Errorf("summary does not name %s:\n%s", c.Name, printed(report))
			}
			again := installWith(t, opts)
			if again.Changed {
				for _, s := range again.Steps {
					if s.Action != Unchanged {
						t.Errorf("second run: %+v", s)
					}
				}
			}
		})
	}
}

func mustString(m map[string]any) string {
	var b strings.Builder
	for k, v := range m {
		b.WriteString(k)
		b.WriteString("=")
		b.WriteString(strings.ReplaceAll(strings.Trim(strings.TrimSpace(fmtAny(v)), "[]"), " ", ","))
		b.WriteString(" ")
	}
	return b.String()
}

func fmtAny(v any) string {
	switch t := v.(type) {
	case []any:
		var parts []string
		for _, x := range t {
			parts = append(parts, fmtAny(x))
		}
		return strings.Join(parts, " ")
	case string:
		return t
	default:
		return ""
	}
}

func TestWorkspaceVariableForTeams(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, nil)
	installWith(t, Options{Dir: root, BinaryPath: binary, For: "Roo Code in Cursor", Env: testEnv(t)})
	got := readTestFile(t, filepath.Join(root, ".roo", "mcp.json"))
	wantContains(t, got, `"command": "${workspaceFolder}/.agentos/bin/agentos"`)
	wantContains(t, got, `"PROJECT_ROOT": "${workspaceFolder}"`)
	wantContains(t, got, `"alwaysAllow": [`)
	if strings.Contains(got, root) {
		t.Errorf("a committed file holds a machine path:\n%s", got)
	}
}

func TestAddingAnAgentRemovesNothing(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"AGENTS.md": "# Team notes\n"})
	env := testEnv(t)
	installWith(t, Options{Dir: root, BinaryPath: binary, Agents: []string{"cursor"}, Env: env})
	first := map[string]string{}
	for _, f := range []string{".cursor/mcp.json", ".cursor/rules/agentos.mdc", ".cursor/commands/agentos-spec.md"} {
		first[f] = readTestFile(t, filepath.Join(root, f))
	}
	installWith(t, Options{Dir: root, BinaryPath: binary, Agents: []string{"codex"}, Secondary: []string{"cline,junie"}, Env: env})
	for f, was := range first {
		if now := readTestFile(t, filepath.Join(root, f)); now != was {
			t.Errorf("adding an agent changed %s:\n%s", f, now)
		}
	}
	for _, f := range []string{".cursor/mcp.json", ".cursor/rules/agentos.mdc", ".codex/config.toml", ".clinerules/agentos.md", ".junie/mcp/mcp.json", ".mcp.json"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil && f != ".mcp.json" {
			t.Errorf("%s: %v", f, err)
		}
	}
	agents := readTestFile(t, filepath.Join(root, "AGENTS.md"))
	if !strings.HasPrefix(agents, "# Team notes\n\n"+agentconfig.BlockBegin) {
		t.Errorf("AGENTS.md = %q", agents)
	}
	if b := readTestFile(t, filepath.Join(root, ".agentos", "backups", "original", "AGENTS.md")); b != "# Team notes\n" {
		t.Errorf("backup = %q", b)
	}
	cline := readTestFile(t, filepath.Join(env.Home, ".cline", "data", "settings", "cline_mcp_settings.json"))
	wantContains(t, cline, `"type": "streamableHttp"`)
	cfg, err := config.Load(filepath.Join(root, ".agentos", "config", "mcp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	wantContains(t, cline, fmt.Sprintf(`"url": "http://127.0.0.1:%d/mcp"`, cfg.Server.Port))
	junie := readTestFile(t, filepath.Join(root, ".junie", "mcp", "mcp.json"))
	wantContains(t, junie, `"stdio"`)
}

func TestMalformedClientConfigUntouched(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ agent, file, content, line string }{
		{"vscode", ".vscode/mcp.json", "{\n  \"servers\": {\n    \"a\": {,\n  }\n}\n", "line 3"},
		{"codex", ".codex/config.toml", "model = \"o3\"\n[mcp_servers\n", "line 2"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			t.Parallel()
			root, binary := newProject(t, map[string]string{tc.file: tc.content, "main.go": "package main\n"})
			before := snapshot(t, root)
			_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{tc.agent}, Env: testEnv(t), Yes: true})
			if err == nil {
				t.Fatal("want an error")
			}
			wantContains(t, err.Error(), filepath.Join(root, filepath.FromSlash(tc.file)))
			wantContains(t, err.Error(), tc.line)
			assertSameTree(t, before, snapshot(t, root))
		})
	}
}

func TestLocalScopeKeepsCommittedFilesClean(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, nil)
	env := testEnv(t)
	user := filepath.Join(env.Home, ".claude.json")
	writeTestFile(t, user, `{"numStartups": 3, "projects": {"/other": {"mcpServers": {}}}}`)
	installWith(t, Options{Dir: root, BinaryPath: binary, Agents: []string{"claude"}, Scope: "local", Env: env})
	if _, err := os.Stat(filepath.Join(root, ".mcp.json")); !os.IsNotExist(err) {
		t.Errorf(".mcp.json written with --scope local: %v", err)
	}
	data := []byte(readTestFile(t, user))
	entry, ok, err := agentconfig.LookupEntry(agentconfig.JSON, data, []string{"projects", root, "mcpServers"}, "agentos", false)
	if err != nil || !ok || entry["type"] != "stdio" {
		t.Fatalf("local entry %v %v %v\n%s", entry, ok, err, data)
	}
	wantContains(t, string(data), `"numStartups": 3`)
	if _, err := os.Stat(filepath.Join(root, ".agentos", "backups", "original", "_home", ".claude.json")); err != nil {
		t.Errorf("no backup of the user file: %v", err)
	}
}

func TestResolveAgents(t *testing.T) {
	t.Parallel()
	a, err := ResolveAgents(Options{For: "Cline in Cursor", Secondary: []string{"codex", "cline"}})
	if err != nil || a.Primary().ID != "cline" || a.IDE == nil || a.IDE.ID != "cursor" || len(a.Secondary) != 1 {
		t.Errorf("%+v %v", a, err)
	}
	if _, err := ResolveAgents(Options{Agents: []string{"notepad"}}); err == nil || !strings.Contains(err.Error(), "known agents") {
		t.Errorf("unknown agent: %v", err)
	}
}

func TestUnwritableUserFolderWritesNothing(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root can write anywhere")
	}
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := testEnv(t)
	if err := os.Chmod(env.Home, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(env.Home, 0o755) })
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{"cline"}, Env: env, Yes: true})
	if err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Fatalf("err = %v", err)
	}
	assertSameTree(t, before, snapshot(t, root))
}

// Repeated and comma-separated --agent and --secondary each add an agent:
// every primary gets a launch entry and every secondary its shared entry,
// in one report.
func TestSeveralPrimariesAndSecondaries(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := testEnv(t)
	report := installWith(t, Options{Dir: root, BinaryPath: binary, Env: env,
		Agents: []string{"claude-code", "gemini,codex"}, Secondary: []string{"opencode", "cline", "codex"}})
	if got := strings.Join(report.Agents, "|"); got != "Claude Code|Gemini CLI|Codex CLI" {
		t.Errorf("report agents = %q", got)
	}
	for _, id := range []string{"claude-code", "gemini", "codex"} {
		c, _ := agentconfig.Lookup(id)
		tg, _ := c.TargetFor(root, "", *env)
		entry := lookupTestEntry(t, c, tg)
		if !strings.Contains(mustString(entry), "dual") {
			t.Errorf("%s: not a launch entry: %v", id, entry)
		}
	}
	for _, id := range []string{"opencode", "cline"} {
		c, _ := agentconfig.Lookup(id)
		tg, _ := c.TargetFor(root, "", *env)
		entry := lookupTestEntry(t, c, tg)
		if !strings.Contains(mustString(entry), "http://127.0.0.1:") {
			t.Errorf("%s: not an HTTP entry: %v", id, entry)
		}
	}
	var configs []string
	for _, s := range report.Steps {
		if s.Kind == StepMCPJSON || s.Kind == StepAgentConfig {
			configs = append(configs, s.Client)
		}
	}
	if got := strings.Join(configs, " "); got != "claude-code gemini codex opencode cline" {
		t.Errorf("config steps for %q: codex, named as a primary and a secondary, must be configured once, as a primary", got)
	}
}

func lookupTestEntry(t *testing.T, c agentconfig.Client, tg agentconfig.Target) map[string]any {
	t.Helper()
	data, err := os.ReadFile(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	entry, ok, err := agentconfig.LookupEntry(c.Format, data, tg.Key, agentconfig.ServerName, c.List)
	if err != nil || !ok {
		t.Fatalf("%s: no entry in %s: %v\n%s", c.ID, tg.Path, err, data)
	}
	return entry
}

// Without --trust the report says how to trust the folder for each client
// that needs it; with --trust install writes each client's own trust
// setting, merged into the file and backed up, and says nothing more.
func TestInstallTrust(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
	env := testEnv(t)
	copilot := filepath.Join(env.Home, ".copilot", "config.json")
	if err := os.MkdirAll(filepath.Dir(copilot), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copilot, []byte("{\n  \"model\": \"x\",\n  \"trusted_folders\": [\n    \"/elsewhere\"\n  ]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Dir: root, BinaryPath: binary, Env: env, Agents: []string{"codex", "claude-code"}, Secondary: []string{"gemini", "copilot-cli"}}
	report := installWith(t, opts)
	var how []string
	for _, s := range report.Steps {
		if s.Trust != "" {
			how = append(how, s.Client)
		}
	}
	if got := strings.Join(how, " "); got != "codex gemini copilot-cli" {
		t.Errorf("trust notes for %q, want codex gemini copilot-cli", got)
	}
	var out strings.Builder
	report.Print(&out)
	wantContains(t, out.String(), "Before these agents use the project's server:")
	wantContains(t, out.String(), `trust_level = "trusted" to ~/.codex/config.toml`)
	if _, err := os.Stat(filepath.Join(env.Home, ".gemini", "trustedFolders.json")); err == nil {
		t.Error("install without --trust wrote Gemini's trusted folders")
	}

	opts.Trust = true
	report = installWith(t, opts)
	for _, s := range report.Steps {
		if s.Trust != "" {
			t.Errorf("%s still says how to trust after --trust", s.Client)
		}
	}
	wantContains(t, readTestFile(t, filepath.Join(env.Home, ".codex", "config.toml")), "[projects.\""+root+"\"]\ntrust_level = \"trusted\"\n")
	wantContains(t, readTestFile(t, filepath.Join(env.Home, ".gemini", "trustedFolders.json")), `"`+root+`": "TRUST_FOLDER"`)
	if got, want := readTestFile(t, copilot), "{\n  \"model\": \"x\",\n  \"trusted_folders\": [\n    \"/elsewhere\",\n    \""+root+"\"\n  ]\n}\n"; got != want {
		t.Errorf("copilot config =\n%s\nwant\n%s", got, want)
	}
	if b := readTestFile(t, filepath.Join(root, ".agentos", "backups", "original", "_home", ".copilot", "config.json")); !strings.Contains(b, "/elsewhere") || strings.Contains(b, root) {
		t.Errorf("backup of the copilot config = %q", b)
	}
	if again := installWith(t, opts); again.Changed {
		t.Error("a second install --trust changed something")
	}
}
