// Package testcmd chooses the command spec_execution_v1's gates run to test
// a project, with the test report and the coverage report it writes, for
// the runners agentos knows: go test, pytest with pytest-cov, Vitest and
// Jest. Install writes the choice into mcp.yaml and the engine falls back
// to it when mcp.yaml names no command, so both must come from here.
//
// For decides from the project's files alone, never from what is installed
// on this machine: the server an IDE starts and the terminal a person
// approves in may see different programs, and a default that differed
// between them would void the approval. Check, which runs the interpreter
// and reads node_modules, says whether the chosen runner will work and
// exactly what to install when not.
//
// Every command is free of network use and writes only inside the project
// (under .agentos/.cache, apart from the runners' own caches), so it runs
// unchanged in the gate's sandbox.
package testcmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/agentos-dev/agentos/workflow/gates"
)

// Where the defaults write their reports, relative to the project root.
const (
	GoCoverage     = ".agentos/.cache/coverage.out"
	JUnitFile      = ".agentos/.cache/junit.xml"
	PythonCoverage = ".agentos/.cache/coverage.xml"
	// NodeCoverageDir is the folder Vitest and Jest write lcov.info into.
	NodeCoverageDir = ".agentos/.cache/coverage"
	NodeCoverage    = NodeCoverageDir + "/lcov.info"
)

// Runner names.
const (
	GoTest = "go test"
	Pytest = "pytest"
	Vitest = "vitest"
	Jest   = "jest"
)

// Default is the test command chosen for a project.
type Default struct {
	// Runner is the test runner detected: GoTest, Pytest, Vitest, Jest, or
	// another one agentos has no default for (mocha, ava, node:test), with
	// Command empty; "" when none was detected.
	Runner string `json:"runner,omitempty"`
	// From says what the runner was detected from ("go.mod", "vitest in
	// package.json").
	From     string `json:"from,omitempty"`
	Command  string `json:"command,omitempty"`
	Coverage string `json:"coverage_file,omitempty"`
	Report   string `json:"test_report,omitempty"` // go-test-json or junit:PATH
	// Interpreter is the Python that runs pytest, as the command names it.
	Interpreter string `json:"interpreter,omitempty"`
	// PackageManager is the Node package manager the lockfile names (npm
	// when none does), for what Check says to install.
	PackageManager string `json:"package_manager,omitempty"`
}

// For chooses the test command of the project at root from its files: Go
// (go.mod), then Python (pyproject.toml, setup.py, setup.cfg, pytest.ini,
// tox.ini, conftest.py, requirements.txt), then Node (package.json naming
// Vitest or Jest). The result's Command is empty when no runner agentos
// knows was found.
func For(root string) Default {
	return forOS(root, runtime.GOOS)
}

func forOS(root, goos string) Default {
	exists := func(name string) bool { _, err := os.Stat(filepath.Join(root, name)); return err == nil }
	switch {
	case exists("go.mod"):
		return Default{Runner: GoTest, From: "go.mod",
			Command:  "go test -json -coverprofile=" + GoCoverage + " ./...",
			Coverage: GoCoverage, Report: gates.ReportGoJSON}
	}
	for _, m := range []string{"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "conftest.py", "requirements.txt"} {
		if exists(m) {
			return python(root, m, goos)
		}
	}
	if exists("package.json") {
		return node(root, goos)
	}
	return Default{}
}

// python runs pytest with pytest-cov. The coverage report is Cobertura XML
// (--cov-report=xml:PATH), which every pytest-cov release writes; its JSON
// report needs pytest-cov 4.1, and Debian 12 ships 4.0, which refuses the
// whole command line.
func python(root, marker, goos string) Default {
	py := interpreter(root, goos)
	return Default{Runner: Pytest, From: marker, Interpreter: py,
		Command:  py + " -m pytest --junitxml=" + JUnitFile + " --cov=. --cov-report=xml:" + PythonCoverage,
		Coverage: PythonCoverage, Report: gates.ReportJUnit + ":" + JUnitFile}
}

// interpreter is the project's virtual environment's Python when it has
// one in .venv or venv, else python3 (python on Windows, where python3 is
// often only the Store's installer). A bare `python` is Python 2 or absent
// on many systems, Debian 12 among them.
func interpreter(root, goos string) string {
	for _, venv := range []string{".venv", "venv"} {
		if goos == "windows" {
			if fileExists(filepath.Join(root, venv, "Scripts", "python.exe")) {
				return venv + `\Scripts\python.exe`
			}
			continue
		}
		if fileExists(filepath.Join(root, venv, "bin", "python")) {
			return venv + "/bin/python"
		}
	}
	if goos == "windows" {
		return "python"
	}
	return "python3"
}

// packageJSON is the part of package.json read here.
type packageJSON struct {
	PackageManager  string            `json:"packageManager"`
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

func (p packageJSON) has(name string) bool {
	_, a := p.Dependencies[name]
	_, b := p.DevDependencies[name]
	return a || b
}

func readPackageJSON(root string) packageJSON {
	var pkg packageJSON
	if data, err := os.ReadFile(filepath.Join(root, "package.json")); err == nil && len(data) < 4<<20 {
		_ = json.Unmarshal(data, &pkg) // a malformed file names no runner
	}
	return pkg
}

// nodeRunner is the test runner package.json names: the one its test
// script runs when it names both, else Vitest before Jest; then the runners
// agentos has no default for.
func nodeRunner(root string, pkg packageJSON) (runner, from string) {
	vitest := pkg.has("vitest") || firstExisting(root, "vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs") != ""
	jest := pkg.has("jest") || pkg.has("ts-jest") || firstExisting(root, "jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json") != ""
	script := pkg.Scripts["test"]
	switch {
	case vitest && jest && strings.Contains(script, "jest") && !strings.Contains(script, "vitest"):
		return Jest, "jest in package.json"
	case vitest:
		return Vitest, "vitest in package.json"
	case jest:
		return Jest, "jest in package.json"
	}
	for _, r := range []string{"mocha", "ava"} {
		if pkg.has(r) {
			return r, r + " in package.json"
		}
	}
	if strings.Contains(script, "node --test") {
		return "node:test", "the test script of package.json"
	}
	return "", ""
}

// node runs Vitest or Jest from the project's node_modules, never through
// npx, which looks a missing package up in the registry (the network) and
// writes its logs in the home folder. Both write JUnit XML and LCOV.
func node(root, goos string) Default {
	pkg := readPackageJSON(root)
	runner, from := nodeRunner(root, pkg)
	d := Default{Runner: runner, From: from, PackageManager: packageManager(root, pkg)}
	bin := func(name string) string {
		if goos == "windows" {
			return `node_modules\.bin\` + name
		}
		return "node_modules/.bin/" + name
	}
	switch runner {
	case Vitest:
		provider := ""
		if pkg.has("@vitest/coverage-istanbul") && !pkg.has("@vitest/coverage-v8") {
			provider = " --coverage.provider=istanbul"
		}
		// The default reporter keeps failures readable in the gate's output;
		// lcovonly writes lcov.info and no HTML.
		d.Command = bin("vitest") + " run --reporter=default --reporter=junit --outputFile.junit=" + JUnitFile +
			" --coverage.enabled=true" + provider + " --coverage.reporter=lcovonly --coverage.reportsDirectory=" + NodeCoverageDir
	case Jest:
		// jest-junit takes its output file from the environment (or from
		// package.json, which is the person's); --ci makes a missing
		// snapshot a failure instead of writing it during the gate. V8
		// counts coverage in the engine: Jest's default (Babel's
		// instrumentation) keeps its counters in the test's own global
		// object, where a test can set them all to 1.
		args := " --ci --coverage --coverageProvider=v8 --coverageReporters=lcovonly --coverageDirectory=" + NodeCoverageDir + " --reporters=default --reporters=jest-junit"
		if goos == "windows" {
			d.Command = `set "JEST_JUNIT_OUTPUT_FILE=` + JUnitFile + `" && set "JEST_JUNIT_ADD_FILE_ATTRIBUTE=true" && ` + bin("jest") + args
		} else {
			d.Command = "JEST_JUNIT_OUTPUT_FILE=" + JUnitFile + " JEST_JUNIT_ADD_FILE_ATTRIBUTE=true " + bin("jest") + args
		}
	default:
		return d
	}
	d.Coverage, d.Report = NodeCoverage, gates.ReportJUnit+":"+JUnitFile
	return d
}

// packageManager is the one package.json or a lockfile names; npm when none.
func packageManager(root string, pkg packageJSON) string {
	switch {
	case strings.HasPrefix(pkg.PackageManager, "pnpm") || fileExists(filepath.Join(root, "pnpm-lock.yaml")):
		return "pnpm"
	case strings.HasPrefix(pkg.PackageManager, "yarn") || fileExists(filepath.Join(root, "yarn.lock")):
		return "yarn"
	case strings.HasPrefix(pkg.PackageManager, "bun") || firstExisting(root, "bun.lockb", "bun.lock") != "":
		return "bun"
	}
	return "npm"
}

var (
	junitFlag      = regexp.MustCompile(`--junit-?xml[= ]("[^"]+"|'[^']+'|\S+)`)
	vitestJUnit    = regexp.MustCompile(`--outputFile(?:\.junit)?[= ]("[^"]+"|'[^']+'|\S+)`)
	jestJUnitEnv   = regexp.MustCompile(`JEST_JUNIT_OUTPUT_FILE=("[^"]+"|'[^']+'|[^\s"]+)`)
	goTestJSONFlag = regexp.MustCompile(`(^|\s)-json(\s|$)`)
)

// GuessReport reads a test command for the report it asks for: go test's
// -json, pytest's --junitxml=PATH, Vitest's JUnit reporter with its
// --outputFile, jest-junit's JEST_JUNIT_OUTPUT_FILE. Anything else is read
// by its exit status only, and the gate says so.
func GuessReport(cmd string) string {
	unquote := func(s string) string { return strings.Trim(s, `"'`) }
	if m := junitFlag.FindStringSubmatch(cmd); m != nil {
		return gates.ReportJUnit + ":" + unquote(m[1])
	}
	if strings.Contains(cmd, "--reporter=junit") || strings.Contains(cmd, "--reporter junit") {
		if m := vitestJUnit.FindStringSubmatch(cmd); m != nil {
			return gates.ReportJUnit + ":" + unquote(m[1])
		}
	}
	if strings.Contains(cmd, "jest-junit") {
		if m := jestJUnitEnv.FindStringSubmatch(cmd); m != nil {
			return gates.ReportJUnit + ":" + unquote(m[1])
		}
	}
	if strings.Contains(cmd, "go test") && goTestJSONFlag.MatchString(cmd) {
		return gates.ReportGoJSON
	}
	return gates.ReportExitStatus
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func firstExisting(dir string, names ...string) string {
	for _, n := range names {
		if fileExists(filepath.Join(dir, n)) {
			return n
		}
	}
	return ""
}
