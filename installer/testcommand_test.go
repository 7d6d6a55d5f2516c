package installer

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// Install writes the test command of the runner it detects into mcp.yaml,
// so the person approves the command that will run, and says what the
// runner still lacks.
func TestInstallWritesTheDetectedTestCommand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		runner string
		detail []string
	}{
		{name: "vitest", runner: testcmd.Vitest,
			files:  map[string]string{"package.json": `{"devDependencies":{"vitest":"^4.1.12"}}`, "tsconfig.json": "{}", "src/a.ts": "export const a = 1\n", "src/a.test.ts": ""},
			detail: []string{"Test command (vitest, from vitest in package.json): node_modules/.bin/vitest run", "vitest is not installed in node_modules; fix: run `npm install`"}},
		{name: "jest without jest-junit", runner: testcmd.Jest,
			files: map[string]string{"package.json": `{"devDependencies":{"jest":"^30"}}`, "a.test.js": "",
				"node_modules/jest/package.json": `{"version":"30.5.2"}`},
			detail: []string{"jest-junit, which writes the JUnit report the gate reads, is not installed; fix: npm install -D jest-junit."}},
		{name: "go", runner: testcmd.GoTest, files: map[string]string{"go.mod": "module x\n", "x.go": "package x\n"},
			detail: []string{"Test command (go test, from go.mod): go test -json"}},
		{name: "python", runner: testcmd.Pytest, files: map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n", "x.py": ""},
			detail: []string{"Test command (pytest, from pyproject.toml): python3 -m pytest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, bin := newProject(t, tc.files)
			rep := install(t, root, bin)
			cfg, err := config.Load(filepath.Join(root, ".agentos", "config", "mcp.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			want := testcmd.For(root)
			if want.Runner != tc.runner || cfg.Workflow.TestCommand != want.Command || cfg.Workflow.CoverageFile != want.Coverage || cfg.Workflow.TestReport != want.Report {
				t.Fatalf("mcp.yaml's workflow: %+v, want %+v", cfg.Workflow, want)
			}
			var detail string
			for _, s := range rep.Steps {
				if s.Kind == StepConfig {
					detail = s.Detail
				}
			}
			for _, d := range tc.detail {
				if !strings.Contains(detail, d) {
					t.Errorf("the config step says %q, without %q", detail, d)
				}
			}
		})
	}
}

func TestInstallSaysWhenTestsHaveNoCommand(t *testing.T) {
	root, bin := newProject(t, map[string]string{"package.json": `{"devDependencies":{"mocha":"^10"}}`, "test/a.spec.js": ""})
	rep := install(t, root, bin)
	cfg, err := config.Load(filepath.Join(root, ".agentos", "config", "mcp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Workflow.TestCommand != "" {
		t.Fatalf("a command for mocha: %q", cfg.Workflow.TestCommand)
	}
	for _, s := range rep.Steps {
		if s.Kind == StepConfig && !strings.Contains(s.Detail, "mocha, for which agentos has no default: set workflow.test_command") {
			t.Errorf("the config step: %s", s.Detail)
		}
	}
}
