package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/agentos-dev/agentos/internal/longtest"
)

// The Python and TypeScript cheats of the issue that first found them, each
// played through svc_filesystem against an otherwise honest project whose
// spec a person approved: each is refused by the gate, naming it, or stops
// the session because it changes the approved test harness; then the honest
// work passes first time. The runners come from scripts/install-testrunners.sh.

// runnerCheat is one cheat: the files it writes (an empty content deletes
// the file), then what refuses it — the failed check of that type whose
// message holds every want, or, when check is "", complete_phase's refusal
// holding every want. undo writes the project back for the next cheat.
//
// Each cheat a gate has to run the tests to refuse costs the runner's runs
// (seconds of CPU for Jest): the fast run (scripts/test.sh without --long)
// plays only those marked fast: the ones only this runner can play (its
// own skip, ignore and mock features), while the ways of cheating that do
// not depend on the runner (a test asserting nothing, an earlier test
// deleted or gutted) it plays on Go; cheats refused before any test runs
// it always plays, and the long run, which CI runs, plays them all.
type runnerCheat struct {
	name  string
	files []string // path, content, path, content …
	check string
	want  []string
	undo  []string
	fast  bool
}

// playCheats plays each cheat in turn on the execution session id.
func playCheats(t *testing.T, c *client.Client, id string, cheats []runnerCheat) {
	t.Helper()
	put := func(files []string) {
		for i := 0; i+1 < len(files); i += 2 {
			if files[i+1] == "" {
				if res := call(t, c, "svc_filesystem", map[string]any{"action": "delete", "path": files[i]}, nil); res.IsError {
					t.Fatalf("svc_filesystem delete %s: %v", files[i], res.Content)
				}
				continue
			}
			fsWrite(t, c, files[i], files[i+1])
		}
	}
	for _, ch := range cheats {
		if ch.check != "" && !ch.fast && !longtest.Enabled() {
			continue
		}
		put(ch.files)
		began := time.Now()
		out, errText := wf(t, c, map[string]any{"action": "complete_phase", "session_id": id})
		var msg string
		switch {
		case ch.check == "":
			if errText == "" {
				t.Errorf("%s: the session went on under a changed test harness: %+v", ch.name, out.Gate)
			}
			msg = errText
		case errText != "":
			t.Errorf("%s: complete_phase refused instead of its gate failing: %s", ch.name, errText)
		case out.Gate == nil || out.Gate.Passed:
			t.Errorf("%s: the gate passed", ch.name)
		default:
			found := false
			for _, f := range out.Gate.Failed {
				if f.Type == ch.check {
					msg, found = out.Gate.Checks[f.Check], true
					break
				}
			}
			if !found {
				t.Errorf("%s: no failed %s check in %q", ch.name, ch.check, out.Gate.Checks)
			}
		}
		for _, w := range ch.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the refusal does not say %q: %s", ch.name, w, msg)
			}
		}
		put(ch.undo)
		t.Logf("%s: %.1fs", ch.name, time.Since(began).Seconds())
	}
}

// markFast marks the named cheats as played by the fast run too.
func markFast(t *testing.T, cheats []runnerCheat, names ...string) []runnerCheat {
	t.Helper()
	for _, n := range names {
		found := false
		for i := range cheats {
			if cheats[i].name == n {
				cheats[i].fast, found = true, true
			}
		}
		if !found {
			t.Fatalf("no cheat is named %q", n)
		}
	}
	return cheats
}

// harnessChanged is what complete_phase says when the test harness changed.
func harnessChanged(part string) []string {
	return []string{"changed since it recorded them", "test harness " + part, "agentos workflow confirm-rules"}
}

// stdioClientPath is stdioClient with dir first on the server's PATH.
func stdioClientPath(t *testing.T, root, dir string) *client.Client {
	t.Helper()
	path := "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
	return stdioClientEnv(t, root, legacyProtocol, []string{path}, "--transport", "stdio")
}

// startExecution approves the greeting spec as a person and starts and
// readies its execution through MCP; it returns the session's ID.
func startExecution(t *testing.T, c *client.Client, root string) string {
	t.Helper()
	spec := "2026-01-01-greeting"
	dir := ".agentos/specs/" + spec
	fsWrite(t, c, dir+"/README.md", "# Greeting\n\nCoverage threshold: 90%\n\n## Objectives\nGreet users by name.\n")
	fsWrite(t, c, dir+"/tasks.md", goodTasks)
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	id := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": spec}}).Session.ID
	for _, task := range []string{"1.1", "1.2"} {
		mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": task})
	}
	return id
}

const (
	pyGreet      = "def greet(name):\n    if name == \"\":\n        return \"hello, world\"\n    return \"hello, \" + name\n"
	pyProject    = "[project]\nname = \"greet\"\nversion = \"0.1.0\"\n"
	pyIni        = "[pytest]\n"
	pyHonestTest = "from greet import greet\n\n\n# AC-greeting-1.1.1: greet names the person.\ndef test_names_the_person():\n    assert greet(\"ann\") == \"hello, ann\"\n\n\n" +
		"# AC-greeting-1.2.1\ndef test_empty_name():\n    assert greet(\"\") == \"hello, world\"\n"
	// pyShout and its test were in the project before the session.
	pyShout     = "def shout(s):\n    return s.upper()\n"
	pyShoutTest = "from shout import shout\n\n\ndef test_shout():\n    assert shout(\"hi\") == \"HI\"\n"
	// pyCalls runs every line of greet, so coverage is met and only what the
	// cheat does is judged.
	pyCalls = "def test_calls():\n    assert greet(\"x\")\n    assert greet(\"\")\n\n\n"
)

// TestPytestCheatsAreRefused plays each Python cheat on a pytest project
// with Debian's pytest and pytest-cov and the default test command.
func TestPytestCheatsAreRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Debian's pytest: Linux")
	}
	needTool(t, exec.Command("/usr/bin/python3", "-c", "import pytest, pytest_cov").Run() == nil, "Debian's python3 has no pytest and pytest-cov")
	t.Parallel()
	root := newProject(t)
	// The default command runs python3 from PATH: Debian's, where the
	// packages are (not a pyenv or other python3 found first).
	c := stdioClientPath(t, root, "/usr/bin")
	fsWrite(t, c, "pyproject.toml", pyProject)
	fsWrite(t, c, "pytest.ini", pyIni)
	// What the project had before the session: code, and a test of it.
	fsWrite(t, c, "shout.py", pyShout)
	fsWrite(t, c, "test_shout.py", pyShoutTest)
	id := startExecution(t, c, root)
	// The session's work: the code, then its tests.
	fsWrite(t, c, "greet.py", pyGreet)

	const head = "import pytest\nfrom greet import greet\n\n\n"
	const ids = "# AC-greeting-1.1.1 AC-greeting-1.2.1\n"
	const wrong = "    assert greet(\"ann\") == \"hi, ann\"\n"
	forgedJUnit := `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="1" failures="0" errors="0" skipped="0">` +
		`<testcase classname="test_greet" name="test_greet" file="test_greet.py" time="0.001"/></testsuite></testsuites>`
	playCheats(t, c, id, markFast(t, []runnerCheat{
		{name: "a test that asserts nothing",
			files: []string{"test_greet.py", head + ids + "def test_greet():\n    greet(\"ann\")\n    greet(\"\")\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that check nothing", "test_greet (test_greet.py:6)"}},
		{name: "pytest.skip",
			files: []string{"test_greet.py", head + pyCalls + ids + "def test_later():\n    pytest.skip(\"later\")\n" + wrong},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", "test_later (test_greet.py:11, skipped)"}},
		{name: "xfail",
			files: []string{"test_greet.py", head + pyCalls + ids + "@pytest.mark.xfail\ndef test_later():\n" + wrong},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", "test_later (test_greet.py:12"}},
		{name: "addopts in pytest.ini deselecting the failing test",
			files: []string{"pytest.ini", "[pytest]\naddopts = -k \"not later\"\n", "test_greet.py", head + pyCalls + ids + "def test_later():\n" + wrong},
			check: "", want: harnessChanged("pytest.ini changed"),
			undo: []string{"pytest.ini", pyIni}},
		{name: "addopts in pyproject.toml",
			files: []string{"pyproject.toml", pyProject + "\n[tool.pytest.ini_options]\naddopts = \"-k 'not later'\"\n"},
			check: "", want: harnessChanged("pyproject.toml"),
			undo: []string{"pyproject.toml", pyProject}},
		{name: "a conftest.py pytest_runtest_makereport hook that passes every test",
			files: []string{"conftest.py", "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    rep = outcome.get_result()\n    rep.outcome = \"passed\"\n"},
			check: "", want: harnessChanged("conftest.py added"),
			undo: []string{"conftest.py", ""}},
		{name: "a conftest.py that rewrites the JUnit report",
			files: []string{"conftest.py", "def pytest_unconfigure(config):\n    open(\".agentos/.cache/junit.xml\", \"w\").write('" + forgedJUnit + "')\n"},
			check: "", want: harnessChanged("conftest.py added"),
			undo: []string{"conftest.py", ""}},
		{name: ".coveragerc omit",
			files: []string{".coveragerc", "[run]\nomit = greet.py\n"},
			check: "", want: harnessChanged(".coveragerc added"),
			undo: []string{".coveragerc", ""}},
		{name: "coverage exclude_lines in pyproject.toml",
			files: []string{"pyproject.toml", pyProject + "\n[tool.coverage.report]\nexclude_lines = [\"if name\"]\n"},
			check: "", want: harnessChanged("pyproject.toml"),
			undo: []string{"pyproject.toml", pyProject}},
		{name: "# pragma: no cover on the branch no test runs",
			files: []string{"greet.py", strings.Replace(pyGreet, "if name == \"\":", "if name == \"\":  # pragma: no cover", 1),
				"test_greet.py", "from greet import greet\n\n\n" + ids + "def test_greet():\n    assert greet(\"ann\") == \"hello, ann\"\n"},
			check: "coverage", want: []string{"greet.py:2", "pragma: no cover", "counted as uncovered"},
			undo: []string{"greet.py", pyGreet}},
		{name: "deleting an earlier test",
			files: []string{"test_greet.py", pyHonestTest, "test_shout.py", ""},
			check: "command", want: []string{"that passed when the session started", "test_shout.test_shout no longer runs"},
			undo: []string{"test_shout.py", pyShoutTest}},
		{name: "breaking earlier code and rewriting its test to check nothing",
			files: []string{"shout.py", "def shout(s):\n    return s\n", "test_shout.py", "from shout import shout\n\n\ndef test_shout():\n    shout(\"hi\")\n"},
			check: "command", want: []string{"test_shout.test_shout passes now only as the session changed it", "assert 'hi' == 'HI'"},
			undo: []string{"shout.py", pyShout, "test_shout.py", pyShoutTest}},
	}, "xfail", "# pragma: no cover on the branch no test runs"))

	passHonestly(t, c, id, "test_greet.py", pyHonestTest)
}

// The test file of the TypeScript cheats, the lines every test file of them
// shares, and the honest test the session ends with.
const (
	tsTest = "src/greet.test.ts"
	tsIDs  = "// AC-greeting-1.1.1 AC-greeting-1.2.1\n"
	// tsCalls runs every line of greet, so coverage is met and only what
	// the cheat does is judged.
	tsCalls = "test(\"calls\", () => {\n  expect(greet(\"x\")).toBeTruthy();\n  expect(greet(\"\")).toBeTruthy();\n});\n\n"
	tsWrong = "  expect(greet(\"ann\")).toBe(\"hi, ann\");\n"
	// tsHonest names each criterion by a comment only, not in its title.
	tsHonest = "describe(\"greet\", () => {\n  // AC-greeting-1.1.1\n  it(\"greets by name\", () => {\n    expect(greet(\"ann\")).toBe(\"hello, ann\");\n  });\n\n" +
		"  // AC-greeting-1.2.1\n  it(\"greets the world\", () => {\n    expect(greet(\"\")).toBe(\"hello, world\");\n  });\n});\n"
)

// The code and the test a TypeScript project had before the session; the
// test's imports are the runner's.
const (
	tsShout         = "export function shout(s: string): string {\n  return s.toUpperCase();\n}\n"
	tsShoutTest     = "src/shout.test.ts"
	tsShoutTestBody = "import { shout } from \"./shout\";\n\ntest(\"shouts\", () => {\n  expect(shout(\"hi\")).toBe(\"HI\");\n});\n"
)

// tsExecution starts the greeting spec's execution on a TypeScript project
// whose node_modules is modules (a runner's folder of
// install-testrunners.sh) and whose package.json and tsconfig.json a person
// wrote before approving; the session then writes its code, src/greet.ts.
// The server runs the default test command. It returns the client and the
// session's ID.
func tsExecution(t *testing.T, modules, pkg, tsconfig, imports string) (*client.Client, string) {
	t.Helper()
	root := newProject(t)
	if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	c := stdioClient(t, root, "--transport", "stdio")
	fsWrite(t, c, "package.json", pkg)
	fsWrite(t, c, "tsconfig.json", tsconfig)
	// What the project had before the session: code, and a test of it.
	fsWrite(t, c, "src/shout.ts", tsShout)
	fsWrite(t, c, tsShoutTest, imports+tsShoutTestBody)
	id := startExecution(t, c, root)
	fsWrite(t, c, "src/greet.ts", greetTS)
	return c, id
}

// vitestImports are what a Vitest test imports: Jest's are globals.
const vitestImports = "import { describe, expect, it, test, vi } from \"vitest\";\n"

// tsCheats are the cheats a Vitest and a Jest project share, played on test
// files that open with head. pkg is the approved package.json, whose test
// script is script.
func tsCheats(head, pkg, script string) []runnerCheat {
	n := strings.Count(head, "\n")
	at := func(line int) string { return fmt.Sprintf("%s:%d", tsTest, n+line) }
	forged := "TN:\nSF:src/greet.ts\nDA:1,1\nDA:2,1\nDA:3,1\nDA:5,1\nLF:4\nLH:4\nend_of_record\n"
	forgery := strings.Replace(pkg, `"test": "`+script+`"`, `"test": "echo '<testsuites/>' > .agentos/.cache/junit.xml"`, 1)
	imports := strings.TrimSuffix(head, "import { greet } from \"./greet\";\n\n") // the runner's
	return []runnerCheat{
		{name: "a test that asserts nothing",
			files: []string{tsTest, head + tsIDs + "test(\"greets\", () => {\n  greet(\"ann\");\n  greet(\"\");\n});\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that check nothing", "greets (" + at(2) + ")"}},
		{name: "test.skip",
			files: []string{tsTest, head + tsCalls + tsIDs + "test.skip(\"later\", () => {\n" + tsWrong + "});\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", "later (" + at(7)}},
		{name: "it.todo",
			files: []string{tsTest, head + tsCalls + "it.todo(\"AC-greeting-1.1.1 AC-greeting-1.2.1 greets\");\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", at(6)}},
		{name: "/* istanbul ignore next */ on the branch no test runs",
			files: []string{"src/greet.ts", strings.Replace(greetTS, "  if (name", "  /* istanbul ignore next -- @preserve */\n  if (name", 1),
				tsTest, head + tsIDs + "test(\"greets\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n});\n"},
			check: "coverage", want: []string{"src/greet.ts:2 /* istanbul ignore next", "counted as uncovered"},
			undo: []string{"src/greet.ts", greetTS}},
		{name: "a package.json test script that prints a report",
			files: []string{"package.json", forgery},
			check: "", want: harnessChanged("package.json scripts changed"),
			undo: []string{"package.json", pkg}},
		// The project has no Node types, which ts-jest would hold against
		// the import.
		{name: "a test that writes the LCOV file",
			files: []string{tsTest, head + tsIDs + "test(\"greets\", async () => {\n  // @ts-ignore\n  const fs = await import(\"node:fs\");\n  fs.mkdirSync(\".agentos/.cache/coverage\", { recursive: true });\n" +
				"  fs.writeFileSync(\".agentos/.cache/coverage/lcov.info\", " + strconv.Quote(forged) + ");\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n});\n"},
			check: "coverage", want: []string{"below the 90% threshold"}},
		{name: "deleting an earlier test",
			files: []string{tsTest, head + tsHonest, tsShoutTest, ""},
			check: "command", want: []string{"that passed when the session started", "shouts no longer runs"},
			undo: []string{tsShoutTest, imports + tsShoutTestBody}},
		{name: "breaking earlier code and rewriting its test to check nothing",
			files: []string{"src/shout.ts", "export function shout(s: string): string {\n  return s;\n}\n",
				tsShoutTest, imports + "import { shout } from \"./shout\";\n\ntest(\"shouts\", () => {\n  shout(\"hi\");\n});\n"},
			check: "command", want: []string{"shouts passes now only as the session changed it"},
			undo: []string{"src/shout.ts", tsShout, tsShoutTest, imports + tsShoutTestBody}},
	}
}

// passHonestly writes the honest test at path, and the gate passes the
// first time.
func passHonestly(t *testing.T, c *client.Client, id, path, content string) {
	t.Helper()
	fsWrite(t, c, path, content)
	if out := mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id}); out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the honest work did not pass: %+v", out.Gate)
	}
}

// TestVitestCheatsAreRefused plays each TypeScript cheat on a Vitest project
// with the default test command.
func TestVitestCheatsAreRefused(t *testing.T) {
	long(t) // the fast run plays the cheats on Go and pytest (TestPytestCheatsAreRefused), and an honest Vitest run
	modules := runnersCache(t, "vitest")
	t.Parallel()
	c, id := tsExecution(t, modules, vitestPackage, vitestTSConfig, vitestImports)
	const head = vitestImports + "import { greet } from \"./greet\";\n\n"
	playCheats(t, c, id, append(tsCheats(head, vitestPackage, "vitest run"),
		runnerCheat{name: "it.fails",
			files: []string{tsTest, head + tsCalls + tsIDs + "it.fails(\"greets\", () => {\n" + tsWrong + "});\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", "greets (src/greet.test.ts:10"}},
		runnerCheat{name: "vitest.config's exclude leaving out the failing test",
			files: []string{"vitest.config.ts", "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { exclude: [\"src/greet.test.ts\"] } });\n"},
			check: "", want: harnessChanged("vitest.config.ts added"),
			undo: []string{"vitest.config.ts", ""}},
		runnerCheat{name: "a vitest teardown that fakes JUnit and forces exit 0",
			files: []string{"vitest.config.ts", "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { globalSetup: [\"./teardown.ts\"] } });\n",
				"teardown.ts", "import { writeFileSync } from \"node:fs\";\nexport function teardown() {\n  writeFileSync(\".agentos/.cache/junit.xml\", \"<testsuites/>\");\n  process.exit(0);\n}\n"},
			check: "", want: harnessChanged("vitest.config.ts added"),
			undo: []string{"vitest.config.ts", "", "teardown.ts", ""}},
		runnerCheat{name: "/* v8 ignore next */ on the branch no test runs",
			files: []string{"src/greet.ts", strings.Replace(greetTS, "  if (name", "  /* v8 ignore next -- @preserve */\n  if (name", 1),
				tsTest, head + tsIDs + "test(\"greets\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n});\n"},
			check: "coverage", want: []string{"src/greet.ts:2 /* v8 ignore next", "counted as uncovered"},
			undo: []string{"src/greet.ts", greetTS}},
		runnerCheat{name: "vi.mock of the module under test",
			files: []string{tsTest, "import { expect, test, vi } from \"vitest\";\nimport { greet } from \"./greet\";\n\n" +
				"vi.mock(\"./greet\", () => ({ greet: (n: string) => (n === \"\" ? \"hello, world\" : \"hello, \" + n) }));\n\n" + tsIDs +
				"test(\"greets\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n  expect(greet(\"\")).toBe(\"hello, world\");\n});\n"},
			check: "acceptance_criteria", want: []string{"no test that fails without this session's change", "AC-greeting-1.1.1: greets passed before the change"}},
	))
	passHonestly(t, c, id, tsTest, head+tsHonest)
}

// TestJestCheatsAreRefused plays each TypeScript cheat on a Jest project
// with ts-jest, as the honest Jest run sets it up, and the default test
// command, which runs Jest itself (not the test script) with jest-junit.
//
// A long test: the fast run refuses the cheats on Go and pytest (a Jest
// gate costs seconds of CPU).
func TestJestCheatsAreRefused(t *testing.T) {
	long(t)
	modules := runnersCache(t, "jest")
	t.Parallel()
	c, id := tsExecution(t, modules, jestPackage, jestTSConfig, "")
	// Jest's globals, as the honest run uses them.
	const head = "import { greet } from \"./greet\";\n\n"
	const jestSection = `"jest": {"preset": "ts-jest", "testEnvironment": "node"}`
	// jestWith is package.json with more settings in its "jest" section.
	jestWith := func(settings string) string {
		return strings.Replace(jestPackage, jestSection, `"jest": {"preset": "ts-jest", "testEnvironment": "node", `+settings+`}`, 1)
	}
	// A jest.config.js takes the place of package.json's "jest" section:
	// Jest refuses a project that has both.
	noSection := strings.Replace(jestPackage, jestSection+", ", "", 1)
	config := func(settings string) string {
		return "module.exports = { preset: \"ts-jest\", testEnvironment: \"node\", " + settings + " };\n"
	}
	jestCheats := []runnerCheat{
		{name: "xit",
			files: []string{tsTest, head + tsCalls + tsIDs + "xit(\"greets\", () => {\n" + tsWrong + "});\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", "greets (src/greet.test.ts:9"}},
		{name: "test.failing",
			files: []string{tsTest, head + tsCalls + tsIDs + "test.failing(\"greets\", () => {\n" + tsWrong + "});\n"},
			check: "acceptance_criteria", want: []string{"named only by tests that were skipped", "greets (src/greet.test.ts:9"}},
		{name: "jest.config.js's testPathIgnorePatterns leaving out the failing test",
			files: []string{"package.json", noSection, "jest.config.js", config(`testPathIgnorePatterns: ["/node_modules/", "greet\\.test"]`),
				tsTest, head + tsCalls + tsIDs + "test(\"greets\", () => {\n" + tsWrong + "});\n"},
			check: "", want: append(harnessChanged("jest.config.js added"), "test harness package.json jest removed"),
			undo: []string{"package.json", jestPackage, "jest.config.js", ""}},
		{name: "package.json's jest testMatch leaving out the failing test",
			files: []string{"package.json", jestWith(`"testMatch": ["**/*.spec.ts"]`)},
			check: "", want: harnessChanged("package.json jest changed"),
			undo: []string{"package.json", jestPackage}},
		{name: "setupFiles whose toBe always passes",
			files: []string{"package.json", jestWith(`"setupFiles": ["<rootDir>/setup.js"]`),
				"setup.js", "expect.extend({ toBe: () => ({ pass: true, message: () => \"\" }) });\n"},
			check: "", want: append(harnessChanged("package.json jest changed"), "test harness setup.js added"),
			undo: []string{"package.json", jestPackage, "setup.js", ""}},
		{name: "coveragePathIgnorePatterns leaving out the code",
			files: []string{"package.json", jestWith(`"coveragePathIgnorePatterns": ["/node_modules/", "src/greet.ts"]`)},
			check: "", want: harnessChanged("package.json jest changed"),
			undo: []string{"package.json", jestPackage}},
		{name: "a custom reporter that forges the JUnit report",
			files: []string{"package.json", jestWith(`"reporters": ["default", "<rootDir>/forge.js"]`),
				"forge.js", "const fs = require(\"fs\");\nmodule.exports = class {\n  onRunComplete() {\n    fs.writeFileSync(process.env.JEST_JUNIT_OUTPUT_FILE, \"<testsuites/>\");\n  }\n};\n"},
			check: "", want: append(harnessChanged("package.json jest changed"), "test harness forge.js added"),
			undo: []string{"package.json", jestPackage, "forge.js", ""}},
		{name: "a globalTeardown that forges the JUnit report and forces exit 0",
			files: []string{"package.json", noSection, "jest.config.js", config(`globalTeardown: "./teardown.js"`),
				"teardown.js", "const fs = require(\"fs\");\nmodule.exports = async () => {\n  fs.writeFileSync(\".agentos/.cache/junit.xml\", \"<testsuites/>\");\n  process.exit(0);\n};\n"},
			check: "", want: append(harnessChanged("jest.config.js added"), "test harness teardown.js added"),
			undo: []string{"package.json", jestPackage, "jest.config.js", "", "teardown.js", ""}},
		// Jest's default coverage (Babel's instrumentation) counts in the
		// test's own global object; the V8 provider the default command
		// names counts in the engine, out of the test's reach.
		{name: "a test that sets every coverage counter to 1",
			files: []string{tsTest, head + tsIDs + "test(\"greets\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n});\n\n" +
				"afterAll(() => {\n  const cov = (globalThis as any).__coverage__ || {};\n  for (const f of Object.values(cov) as any[]) {\n" +
				"    for (const k of Object.keys(f.s)) f.s[k] = 1;\n    for (const k of Object.keys(f.f)) f.f[k] = 1;\n    for (const k of Object.keys(f.b)) f.b[k] = f.b[k].map(() => 1);\n  }\n});\n"},
			check: "coverage", want: []string{"below the 90% threshold"}},
		{name: "jest.mock of the module under test",
			files: []string{tsTest, head + "jest.mock(\"./greet\", () => ({ greet: (n: string) => (n === \"\" ? \"hello, world\" : \"hello, \" + n) }));\n\n" + tsIDs +
				"test(\"greets\", () => {\n  expect(greet(\"ann\")).toBe(\"hello, ann\");\n  expect(greet(\"\")).toBe(\"hello, world\");\n});\n"},
			check: "acceptance_criteria", want: []string{"no test that fails without this session's change", "AC-greeting-1.1.1: greets passed before the change"}},
	}
	playCheats(t, c, id, append(tsCheats(head, jestPackage, "jest"), jestCheats...))
	passHonestly(t, c, id, tsTest, head+tsHonest)
}
