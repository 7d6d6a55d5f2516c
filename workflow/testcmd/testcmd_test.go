package testcmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestForChoosesTheRunnersCommand(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    map[string]string
		goos     string
		runner   string
		command  string // exact, when set
		contains []string
		report   string
		coverage string
	}{
		{name: "go", files: map[string]string{"go.mod": "module x\n"}, runner: GoTest,
			command: "go test -json -coverprofile=.agentos/.cache/coverage.out ./...", report: "go-test-json", coverage: GoCoverage},
		{name: "python on debian has python3, not python", files: map[string]string{"pyproject.toml": "[project]\n"}, runner: Pytest,
			command: "python3 -m pytest --junitxml=.agentos/.cache/junit.xml --cov=. --cov-report=xml:.agentos/.cache/coverage.xml",
			report:  "junit:" + JUnitFile, coverage: PythonCoverage},
		{name: "python with a venv", files: map[string]string{"requirements.txt": "pytest\n", ".venv/bin/python": ""}, runner: Pytest,
			contains: []string{".venv/bin/python -m pytest "}, report: "junit:" + JUnitFile, coverage: PythonCoverage},
		{name: "python on windows", files: map[string]string{"setup.py": ""}, goos: "windows", runner: Pytest,
			contains: []string{"python -m pytest "}, report: "junit:" + JUnitFile, coverage: PythonCoverage},
		{name: "vitest", files: map[string]string{"package.json": `{"devDependencies":{"vitest":"^4","@vitest/coverage-v8":"^4"}}`}, runner: Vitest,
			command: "node_modules/.bin/vitest run --reporter=default --reporter=junit --outputFile.junit=.agentos/.cache/junit.xml --coverage.enabled=true --coverage.reporter=lcovonly --coverage.reportsDirectory=.agentos/.cache/coverage",
			report:  "junit:" + JUnitFile, coverage: NodeCoverage},
		{name: "vitest with istanbul", files: map[string]string{"package.json": `{"devDependencies":{"vitest":"^4","@vitest/coverage-istanbul":"^4"}}`}, runner: Vitest,
			contains: []string{"--coverage.provider=istanbul"}, report: "junit:" + JUnitFile, coverage: NodeCoverage},
		{name: "jest", files: map[string]string{"package.json": `{"devDependencies":{"jest":"^30","jest-junit":"^17"}}`}, runner: Jest,
			command: "JEST_JUNIT_OUTPUT_FILE=.agentos/.cache/junit.xml JEST_JUNIT_ADD_FILE_ATTRIBUTE=true node_modules/.bin/jest --ci --coverage --coverageProvider=v8 --coverageReporters=lcovonly --coverageDirectory=.agentos/.cache/coverage --reporters=default --reporters=jest-junit",
			report:  "junit:" + JUnitFile, coverage: NodeCoverage},
		{name: "jest on windows", files: map[string]string{"package.json": `{}`, "jest.config.js": ""}, goos: "windows", runner: Jest,
			contains: []string{`set "JEST_JUNIT_OUTPUT_FILE=.agentos/.cache/junit.xml" && `, `node_modules\.bin\jest --ci`}, report: "junit:" + JUnitFile, coverage: NodeCoverage},
		{name: "both, and the test script runs jest", files: map[string]string{"package.json": `{"scripts":{"test":"jest"},"devDependencies":{"jest":"1","vitest":"1"}}`}, runner: Jest,
			contains: []string{"node_modules/.bin/jest "}, report: "junit:" + JUnitFile, coverage: NodeCoverage},
		{name: "both, vitest first", files: map[string]string{"package.json": `{"devDependencies":{"jest":"1","vitest":"1"}}`}, runner: Vitest,
			contains: []string{"node_modules/.bin/vitest run"}, report: "junit:" + JUnitFile, coverage: NodeCoverage},
		{name: "mocha has no default", files: map[string]string{"package.json": `{"devDependencies":{"mocha":"1"}}`}, runner: "mocha"},
		{name: "nothing", files: map[string]string{"README.md": "hi"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			goos := tc.goos
			if goos == "" {
				goos = "linux"
			}
			d := forOS(writeFiles(t, tc.files), goos)
			if d.Runner != tc.runner || d.Report != tc.report || d.Coverage != tc.coverage {
				t.Fatalf("got %+v", d)
			}
			if tc.command != "" && d.Command != tc.command {
				t.Errorf("command:\n got %s\nwant %s", d.Command, tc.command)
			}
			for _, s := range tc.contains {
				if !strings.Contains(d.Command, s) {
					t.Errorf("command %q lacks %q", d.Command, s)
				}
			}
			if (tc.report == "") != (d.Command == "") {
				t.Errorf("a command without a report, or the reverse: %+v", d)
			}
			// What install writes in mcp.yaml is read back the same way.
			if d.Command != "" && GuessReport(d.Command) != d.Report {
				t.Errorf("GuessReport(%q) = %q, want %q", d.Command, GuessReport(d.Command), d.Report)
			}
		})
	}
}

func TestNoDefaultUsesTheNetworkOrAShellOnly(t *testing.T) {
	for _, files := range []map[string]string{
		{"pyproject.toml": ""},
		{"package.json": `{"devDependencies":{"vitest":"1"}}`},
		{"package.json": `{"devDependencies":{"jest":"1"}}`},
	} {
		d := forOS(writeFiles(t, files), "linux")
		// npx looks a missing package up in the registry; `python` is
		// absent on Debian 12; pytest-cov 4.0 cannot write JSON.
		for _, bad := range []string{"npx", "python ", "json:", "npm "} {
			if strings.HasPrefix(d.Command, bad) || strings.Contains(d.Command, " "+bad) || strings.Contains(d.Command, "report="+bad) {
				t.Errorf("%s: the command uses %q: %s", d.Runner, bad, d.Command)
			}
		}
		if !strings.Contains(d.Command, ".agentos/.cache/") {
			t.Errorf("%s writes its reports outside .agentos/.cache: %s", d.Runner, d.Command)
		}
	}
}

func TestGuessReport(t *testing.T) {
	for cmd, want := range map[string]string{
		"go test -json ./...":                            "go-test-json",
		"go test ./...":                                  "exit-status",
		"pytest --junitxml=out/j.xml":                    "junit:out/j.xml",
		"python3 -m pytest --junit-xml \"r 1.xml\"":      "junit:r 1.xml",
		"vitest run --reporter=junit --outputFile=a.xml": "junit:a.xml",
		"vitest run --reporter=junit --outputFile.junit=b.xml --reporter=default": "junit:b.xml",
		"vitest run --outputFile=a.json":                                          "exit-status",
		"JEST_JUNIT_OUTPUT_FILE=r/j.xml jest --reporters=jest-junit":              "junit:r/j.xml",
		`set "JEST_JUNIT_OUTPUT_FILE=r\j.xml" && jest --reporters=jest-junit`:     `junit:r\j.xml`,
		"npm test": "exit-status",
	} {
		if got := GuessReport(cmd); got != want {
			t.Errorf("GuessReport(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestHasTests(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"src/a.ts": "", "src/a.test.ts": ""}, "src/a.test.ts"},
		{map[string]string{"tests/test_calc.py": ""}, "tests/test_calc.py"},
		{map[string]string{"calc_test.go": ""}, "calc_test.go"},
		{map[string]string{"web/app.spec.jsx": ""}, "web/app.spec.jsx"},
		{map[string]string{"node_modules/x/a.test.js": "", ".agentos/specs/a_test.go": "", "src/testing.ts": "", "contest.py": ""}, ""},
	} {
		if got := HasTests(writeFiles(t, tc.files)); got != tc.want {
			t.Errorf("HasTests(%v) = %q, want %q", tc.files, got, tc.want)
		}
	}
}

func TestCheckNodeSaysWhatToInstall(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	root := writeFiles(t, map[string]string{
		"package.json":                     `{"devDependencies":{"vitest":"^4"}}`,
		"pnpm-lock.yaml":                   "",
		"node_modules/vitest/package.json": `{"version":"4.1.12"}`,
	})
	r := Check(context.Background(), root, For(root))
	if len(r.Problems) != 1 || r.Problems[0].Fix != "pnpm add -D @vitest/coverage-v8@4.1.12" {
		t.Fatalf("missing coverage provider: %+v", r)
	}
	write := func(rel, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("node_modules/@vitest/coverage-v8/package.json", `{"version":"4.1.12"}`)
	if r := Check(context.Background(), root, For(root)); len(r.Problems) != 0 || !strings.Contains(r.Found, "vitest 4.1.12, @vitest/coverage-v8 4.1.12") {
		t.Fatalf("all installed: %+v", r)
	}

	jest := writeFiles(t, map[string]string{"package.json": `{"devDependencies":{"jest":"^30"}}`})
	r = Check(context.Background(), jest, For(jest))
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].What, "jest is not installed") || r.Problems[0].Fix != "run `npm install` (or npm install -D jest)" {
		t.Fatalf("jest not installed: %+v", r)
	}
	if err := os.MkdirAll(filepath.Join(jest, "node_modules", "jest"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jest, "node_modules", "jest", "package.json"), []byte(`{"version":"30.5.2"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = Check(context.Background(), jest, For(jest))
	if len(r.Problems) != 1 || r.Problems[0].Fix != "npm install -D jest-junit" {
		t.Fatalf("jest-junit missing: %+v", r)
	}
}

func TestCheckPythonSaysWhatToInstall(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake interpreter is a shell script")
	}
	// The project's virtual environment, whose python answers the probe as
	// one without pytest-cov would.
	root := writeFiles(t, map[string]string{"pyproject.toml": "",
		".venv/bin/python": "#!/bin/sh\necho '{\"python\": \"3.11.2\", \"executable\": \"/p/.venv/bin/python\", \"pytest\": \"7.2.1\", \"pytest-cov\": null, \"coverage\": \"6.5.0\"}'\n"})
	if err := os.Chmod(filepath.Join(root, ".venv", "bin", "python"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := Check(context.Background(), root, For(root))
	if len(r.Problems) != 1 || r.Problems[0].What != "pytest-cov is not installed for /p/.venv/bin/python (Python 3.11.2)" ||
		r.Problems[0].Fix != ".venv/bin/python -m pip install pytest-cov" {
		t.Fatalf("%+v", r)
	}
	if fix := pythonInstall("python3", false, "/usr/bin/python3", []string{"pytest", "pytest-cov"}); fileExists("/etc/debian_version") &&
		!strings.HasPrefix(fix, "sudo apt-get install python3-pytest python3-pytest-cov") {
		t.Errorf("Debian's python3: %s", fix)
	}
	if fix := pythonInstall("python3", false, "/opt/py/bin/python3", []string{"pytest-cov"}); !strings.HasPrefix(fix, "python3 -m pip install pytest-cov") {
		t.Errorf("another python3: %s", fix)
	}
}

func TestCheckPythonReadsTheRealInterpreter(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	root := writeFiles(t, map[string]string{"pyproject.toml": ""})
	r := Check(context.Background(), root, forOS(root, "linux"))
	switch {
	case len(r.Problems) == 0 && (!strings.Contains(r.Found, "pytest-cov ") || !strings.Contains(r.Found, "Cobertura XML")):
		t.Fatalf("found: %+v", r)
	case len(r.Problems) > 0 && (!strings.Contains(r.Problems[0].What, "not installed for") || !strings.Contains(r.Problems[0].Fix, "pytest")):
		t.Fatalf("%+v", r)
	}
}

func TestCheckPythonMissingInterpreter(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	root := writeFiles(t, map[string]string{"pyproject.toml": ""})
	r := Check(context.Background(), root, forOS(root, "linux"))
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].What, "python3 is not on PATH") || !strings.Contains(r.Problems[0].Fix, "python3-pytest-cov") {
		t.Fatalf("%+v", r)
	}
}
