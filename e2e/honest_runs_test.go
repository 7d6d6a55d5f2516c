package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The honest runs: a fresh project of each ecosystem, set up by `agentos
// install` with nothing configured by hand, passes the test gate of
// spec_execution_v1 the first time an honest agent asks, after one
// approval. The runners come from scripts/install-testrunners.sh (Debian's
// pytest-cov 4.0, Vitest and Jest from npm); without them these tests skip,
// and under CI=true they fail.

// needTool skips the test, or fails it under CI=true, for a missing tool.
func needTool(t *testing.T, ok bool, why string) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; run scripts/install-testrunners.sh", why)
	}
	t.Skipf("%s; run scripts/install-testrunners.sh", why)
}

// runnersCache is where scripts/install-testrunners.sh installs Vitest and Jest.
func runnersCache(t *testing.T, runner string) string {
	t.Helper()
	dir := os.Getenv("AGENTOS_TESTRUNNERS_CACHE")
	if dir == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(base, "agentos-testrunners")
	}
	modules := filepath.Join(dir, runner, "node_modules")
	_, err := os.Stat(filepath.Join(modules, ".bin", runner))
	_, node := exec.LookPath("node")
	needTool(t, err == nil && node == nil, runner+" is not installed in "+filepath.Join(dir, runner)+" (or node is missing)")
	return modules
}

// freshProjectRun installs agentos into a project holding files, checks that
// install wrote the runner's command and doctor finds it ready, approves the
// spec once, and then writes the work (work: the code and its tests, after
// the session started, as an agent would) and completes the phase, which
// must pass the first time.
func freshProjectRun(t *testing.T, runner string, files, work map[string]string) {
	t.Helper()
	freshProjectRunWith(t, runner, files, nil, work)
}

// freshProjectRunWith is freshProjectRun with setup called on the project's root before
// the install.
func freshProjectRunWith(t *testing.T, runner string, files map[string]string, setup func(root string), work map[string]string) {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		write(t, root, rel, content)
	}
	if setup != nil {
		setup(root)
	}
	runOK(t, root, "install", "--dir", root, "--scope", "project", "--yes")
	// A search index saved before the run, as the server saves it: Jest
	// took index.snap for an obsolete snapshot and failed.
	indexes := filepath.Join(root, ".agentos", ".cache", "indexes", "code")
	runOK(t, root, "index", "--dir", root)
	if _, err := os.Stat(filepath.Join(indexes, "index.snapshot")); err != nil {
		t.Fatalf("no saved index to be read by the runner: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(indexes, "*.snap")); len(m) > 0 {
		t.Fatalf("agentos saved %v, which Jest reads as its snapshots", m)
	}

	cfg := readFile(t, filepath.Join(root, ".agentos", "config", "mcp.yaml"))
	if !strings.Contains(cfg, "test_command: \"") || strings.Contains(cfg, "test_command: \"\"") {
		t.Fatalf("install wrote no test command for %s:\n%s", runner, cfg)
	}
	r := runAgentos(t, root, "doctor", "--dir", root, "--json")
	var doc struct {
		Checks []struct {
			Name, Detail, Fix string
			OK                bool
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
	}
	found := false
	for _, c := range doc.Checks {
		if c.Name == "test command" {
			found = true
			if !c.OK || !strings.Contains(c.Detail, runner) {
				t.Fatalf("doctor: %+v", c)
			}
		}
	}
	if !found {
		t.Fatalf("doctor has no test command check: %s", r.stdout)
	}

	spec := "2026-01-01-greeting"
	write(t, root, ".agentos/specs/"+spec+"/README.md", "# Greeting\n\n## Objectives\nGreet.\n\nCoverage threshold: 80%\n")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", goodTasks)
	c := stdioClient(t, root, "--transport", "stdio")
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	out := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}})
	id := out.Session.ID
	if cmd := out.Session.Vars["test_command"]; !strings.Contains(cfg, cmd) {
		t.Fatalf("the session runs %q, not what install wrote", cmd)
	}
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	for rel, content := range work {
		fsWrite(t, c, rel, content)
	}
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest %s run did not pass the first time: %+v", runner, out.Gate)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHonestGoRunPassesFirstTime(t *testing.T) {
	t.Parallel()
	freshProjectRun(t, "go test", map[string]string{"go.mod": "module example.com/greet\n\ngo 1.22\n"}, map[string]string{
		"greet.go":      "package greet\n\n// Greet greets name, or the world.\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n",
		"greet_test.go": fullGreetTest,
	})
}

// Debian 12's python3 with python3-pytest and python3-pytest-cov (4.0, which
// writes no JSON report); there is no `python`.
func TestHonestPythonRunPassesFirstTime(t *testing.T) {
	err := exec.Command("/usr/bin/python3", "-c", "import pytest, pytest_cov").Run()
	needTool(t, err == nil, "Debian's python3 has no pytest and pytest-cov")
	// The default command runs python3 from PATH: Debian's, as on a fresh
	// Debian machine (not a pyenv or other python3 found first).
	t.Setenv("PATH", "/usr/bin:"+os.Getenv("PATH"))
	freshProjectRun(t, "pytest", map[string]string{"pyproject.toml": "[project]\nname = \"greet\"\nversion = \"0.1.0\"\n"}, map[string]string{
		"greet/__init__.py": "",
		"greet/core.py":     "def greet(name: str) -> str:\n    \"\"\"Greet name, or the world.\"\"\"\n    if not name:\n        return \"hello, world\"\n    return \"hello, \" + name\n",
		"tests/test_greet.py": "from greet.core import greet\n\n\n# AC-greeting-1.1.1\ndef test_greets_by_name():\n    assert greet(\"ann\") == \"hello, ann\"\n\n\n" +
			"# AC-greeting-1.2.1\ndef test_greets_the_world():\n    assert greet(\"\") == \"hello, world\"\n",
	})
}

const greetTS = "export function greet(name: string): string {\n  if (name === \"\") {\n    return \"hello, world\";\n  }\n  return \"hello, \" + name;\n}\n"

// The TypeScript projects of Vitest and of Jest (with ts-jest), as a person
// sets them up: package.json and tsconfig.json.
const (
	vitestPackage  = `{"name": "greet", "type": "module", "scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "^4.1.12", "@vitest/coverage-v8": "^4.1.12", "typescript": "^5.9.3"}}`
	vitestTSConfig = `{"compilerOptions": {"strict": true, "module": "esnext", "target": "es2022", "moduleResolution": "bundler"}}`
	jestPackage    = `{"name": "greet", "scripts": {"test": "jest"}, "jest": {"preset": "ts-jest", "testEnvironment": "node"}, "devDependencies": {"jest": "^30.5.2", "jest-junit": "^17.0.0", "ts-jest": "^29.4.15", "typescript": "^5.9.3", "@types/jest": "^30.0.0"}}`
	jestTSConfig   = `{"compilerOptions": {"strict": true, "module": "commonjs", "target": "es2022", "esModuleInterop": true, "types": ["jest"]}}`
)

func TestHonestVitestRunPassesFirstTime(t *testing.T) {
	t.Parallel()
	modules := runnersCache(t, "vitest")
	root := map[string]string{"package.json": vitestPackage, "tsconfig.json": vitestTSConfig}
	honestTS(t, "vitest", modules, root, "import { describe, expect, it } from \"vitest\";\n")
}

func TestHonestJestRunPassesFirstTime(t *testing.T) {
	long(t) // a Jest gate costs seconds of CPU: the fast run has TypeScript through Vitest
	t.Parallel()
	modules := runnersCache(t, "jest")
	root := map[string]string{"package.json": jestPackage, "tsconfig.json": jestTSConfig}
	honestTS(t, "jest", modules, root, "")
}

// honestTS runs a TypeScript project whose node_modules is the runner's
// installed folder.
func honestTS(t *testing.T, runner, modules string, files map[string]string, imports string) {
	t.Helper()
	// install reads package.json; node_modules is linked before it, as an
	// `npm install` would have made it.
	files["src/.keep"] = ""
	test := imports + "import { greet } from \"./greet\";\n\ndescribe(\"greet\", () => {\n" +
		"  // AC-greeting-1.1.1\n  it(\"AC-greeting-1.1.1 greets by name\", () => {\n    expect(greet(\"ann\")).toBe(\"hello, ann\");\n  });\n\n" +
		"  // AC-greeting-1.2.1\n  it(\"AC-greeting-1.2.1 greets the world\", () => {\n    expect(greet(\"\")).toBe(\"hello, world\");\n  });\n});\n"
	link := func(root string) {
		if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	freshProjectRunWith(t, runner, files, link, map[string]string{"src/greet.ts": greetTS, "src/greet.test.ts": test})
}
