package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	cfg, err := Parse([]byte(`# comment
code:
  source_paths: [src, lib]
  languages: [go, python]
ast:
  source_paths: [src, lib]
  languages: [go, python]
server:
  port_range: "5000-5010"
  auth: token
logging:
  level: debug
`))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, _ := cfg.Ports()
	if lo != 5000 || hi != 5010 || cfg.Server.Auth != AuthToken || cfg.Code.Languages[1] != "python" {
		t.Errorf("cfg = %+v", cfg)
	}
}

func TestParseDefaults(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "server:\n"} {
		cfg, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if lo, hi, _ := cfg.Ports(); lo != 4242 || hi != 5242 || cfg.Server.Auth != AuthUser || cfg.Logging.Level != "INFO" {
			t.Errorf("%q: defaults not applied: %+v", src, cfg)
		}
	}
}

func TestParseErrorsNameKeyAndLine(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"code:\n  source_path: [src]\n", []string{"line 2", `"code.source_path"`, "source_paths"}},
		{"extra: 1\n", []string{"line 1", `"extra"`}},
		{"code:\n  languages: go\n", []string{"line 2", "code.languages must be a list of strings"}},
		{"code:\n  languages: [go, 3]\n", []string{"line 2", "code.languages", `"3" is not a string`}},
		{"server:\n  port_range: [1, 2]\n", []string{"line 2", "server.port_range must be a single value"}},
		{"server: 5\n", []string{"line 1", "server must be a mapping"}},
		{"- a\n- b\n", []string{"line 1", "must be a mapping"}},
		{"code: [\n", []string{"not valid YAML"}},
		{"server:\n  port_range: \"10-5\"\n", []string{"server.port_range"}},
		{"server:\n  port_range: \"abc\"\n", []string{"server.port_range"}},
		{"server:\n  auth: basic\n", []string{"server.auth"}},
		{"server:\n  port: 5060\n", []string{"server.port 5060", "browsers refuse"}},
		{"logging:\n  level: LOUD\n", []string{"logging.level"}},
		{"code:\n  source_paths: [src]\n", []string{"ast.source_paths", "must match code.source_paths"}},
		{"code:\n  languages: [go]\nast:\n  languages: [rust]\n", []string{"ast.languages", "must match"}},
	}
	for _, tc := range cases {
		_, err := Parse([]byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q lacks %q", tc.src, err, w)
			}
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	path := filepath.Join(dir, "mcp.yaml")
	os.WriteFile(path, []byte("bogus: 1\n"), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error does not name the file: %v", err)
	}
}

func TestWorkflowKeys(t *testing.T) {
	cfg, err := Parse([]byte("workflow:\n  test_command: make test\n  coverage_file: cover.out\n  coverage_threshold: 90\n  strict: true\n  approval: terminal\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Workflow.TestCommand != "make test" || cfg.Workflow.CoverageThreshold != 90 || !cfg.Workflow.Strict || cfg.Workflow.Approval != ApprovalTerminal {
		t.Errorf("workflow = %+v", cfg.Workflow)
	}
	for src, want := range map[string]string{
		"workflow:\n  coverage_threshold: high\n": "must be a number",
		"workflow:\n  coverage_threshold: 150\n":  "between 0 and 100",
		"workflow:\n  strict: maybe\n":            "true or false",
		"workflow:\n  test_command: make test\n":  "go together",
		"workflow:\n  approval: agent\n":          `"terminal" or "elicitation"`,
	} {
		if _, err := Parse([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

func TestSearchEmbedderKeys(t *testing.T) {
	cfg, err := Parse([]byte("search:\n  embedder:\n    provider: ollama\n    model: nomic-embed-text\n    url: http://127.0.0.1:11434\n    dim: 768\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Search.Embedder; e.Provider != "ollama" || e.Dim != 768 || e.URL == "" {
		t.Errorf("embedder = %+v", e)
	}
	if _, err := Parse([]byte("search:\n  embedder:\n    provider: magic\n")); err == nil || !strings.Contains(err.Error(), "search.embedder.provider") {
		t.Errorf("bad provider: %v", err)
	}
	if _, err := Parse([]byte("search:\n  embedder:\n    modle: x\n")); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("typo: %v", err)
	}
}
