package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/trust"
)

func doctorProject(t *testing.T, cfg string, files map[string]string) project.Paths {
	t.Helper()
	root := t.TempDir()
	files[".agentos/config/mcp.yaml"] = cfg
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	// The person's own config: trusted, in a record of the test's own.
	t.Setenv("AGENTOS_CONFIG_HOME", t.TempDir())
	if c, err := config.Load(p.Config()); err == nil {
		if err := trust.Record(context.Background(), root, c); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func TestDoctorFailsWhenTestsHaveNoCommand(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cfg        string
		files      map[string]string
		ok, note   bool
		detail     string
		fixContain string
	}{
		{name: "tests and a runner without a default", files: map[string]string{"package.json": `{"devDependencies":{"mocha":"1"}}`, "test/a.spec.js": ""},
			detail: "the project has tests (test/a.spec.js) but no test command", fixContain: "workflow.test_command"},
		{name: "tests and no runner", files: map[string]string{"src/a.test.ts": ""},
			detail: "the project has tests (src/a.test.ts) but no test command", fixContain: "workflow.test_command"},
		{name: "no tests yet", files: map[string]string{"README.md": ""}, ok: true, note: true, detail: "none yet"},
		{name: "vitest without its coverage provider", files: map[string]string{"package.json": `{"devDependencies":{"vitest":"^4"}}`,
			"node_modules/vitest/package.json": `{"version":"4.1.12"}`},
			detail: "@vitest/coverage-v8, which writes Vitest's coverage report, is not installed", fixContain: "npm install -D @vitest/coverage-v8@4.1.12"},
		{name: "a command of the person's own", cfg: "workflow:\n  test_command: make test\n  coverage_file: c.out\n",
			files: map[string]string{"src/a.test.ts": ""}, ok: true, detail: "workflow.test_command: make test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := doctorProject(t, tc.cfg, tc.files)
			c, ok := testCommandCheck(context.Background(), p)
			if !ok || c.OK != tc.ok || c.Note != tc.note || !strings.Contains(c.Detail, tc.detail) || !strings.Contains(c.Fix, tc.fixContain) {
				t.Fatalf("%+v", c)
			}
		})
	}
}
