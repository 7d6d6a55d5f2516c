package testcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Problem is something that keeps the default test command from working,
// with exactly what to do about it.
type Problem struct {
	What string `json:"what"`
	Fix  string `json:"fix"`
}

// Readiness is what Check found: the tools the command needs, or what is
// missing.
type Readiness struct {
	Found    string    `json:"found,omitempty"` // "pytest 7.2.1, pytest-cov 4.0.0 (/usr/bin/python3)"
	Problems []Problem `json:"problems,omitempty"`
}

// Check says whether d's command can run on this machine: the Go tool, the
// Python interpreter with pytest and pytest-cov, or the Node runner with
// the packages that write its reports. It runs the interpreter (in a
// temporary folder, so no file of the project is imported) but nothing of
// the project's.
func Check(ctx context.Context, root string, d Default) Readiness {
	switch d.Runner {
	case GoTest:
		if p, err := exec.LookPath("go"); err == nil {
			return Readiness{Found: "go (" + p + ")"}
		}
		return Readiness{Problems: []Problem{{What: "the go command is not on PATH", Fix: "install Go (https://go.dev/dl/) and put its bin folder on PATH"}}}
	case Pytest:
		return checkPython(ctx, root, d)
	case Vitest, Jest:
		return checkNode(root, d)
	}
	return Readiness{}
}

// pythonProbe prints the versions of what the command imports; a missing
// module is null. importlib.metadata reads the installed distribution, so
// a module of the same name elsewhere does not count.
const pythonProbe = `import json, sys
from importlib import metadata
v = {"python": sys.version.split()[0], "executable": sys.executable}
for dist in ("pytest", "pytest-cov", "coverage"):
    try:
        v[dist] = metadata.version(dist)
    except Exception:
        v[dist] = None
print(json.dumps(v))`

func checkPython(ctx context.Context, root string, d Default) Readiness {
	py := d.Interpreter
	venv := strings.Contains(py, "/") || strings.Contains(py, `\`)
	path := filepath.Join(root, filepath.FromSlash(py))
	if !venv {
		var err error
		if path, err = exec.LookPath(py); err != nil {
			return Readiness{Problems: []Problem{{What: py + " is not on PATH",
				Fix: "install Python 3 (Debian/Ubuntu: sudo apt-get install python3 python3-pytest python3-pytest-cov), or create a virtual environment in .venv with pytest and pytest-cov, which agentos then uses"}}}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-c", pythonProbe)
	cmd.Dir = os.TempDir() // the probe's own folder comes first on sys.path
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return Readiness{Problems: []Problem{{What: fmt.Sprintf("%s cannot be run: %v %s", py, err, strings.TrimSpace(stderr.String())),
			Fix: "install Python 3, or fix the virtual environment in " + filepath.Dir(filepath.Dir(py))}}}
	}
	var v map[string]*string
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v["python"] == nil {
		return Readiness{Problems: []Problem{{What: py + " did not report its version", Fix: "check that " + py + " is Python 3"}}}
	}
	exe := py
	if v["executable"] != nil {
		exe = *v["executable"]
	}
	var missing []string
	for _, dist := range []string{"pytest", "pytest-cov"} {
		if v[dist] == nil {
			missing = append(missing, dist)
		}
	}
	if len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		return Readiness{Problems: []Problem{{
			What: fmt.Sprintf("%s %s not installed for %s (Python %s)", strings.Join(missing, " and "), verb, exe, *v["python"]),
			Fix:  pythonInstall(py, venv, exe, missing)}}}
	}
	found := fmt.Sprintf("pytest %s, pytest-cov %s", *v["pytest"], *v["pytest-cov"])
	if v["coverage"] != nil {
		found += ", coverage " + *v["coverage"]
	}
	return Readiness{Found: found + " (" + exe + "); coverage is written as Cobertura XML, which every pytest-cov writes"}
}

// pythonInstall says how to install the missing distributions for the
// interpreter: with pip in a virtual environment; with apt for Debian's own
// Python, whose pip refuses to install system-wide (PEP 668).
func pythonInstall(py string, venv bool, exe string, missing []string) string {
	if venv {
		return py + " -m pip install " + strings.Join(missing, " ")
	}
	if strings.HasPrefix(exe, "/usr/bin/") && fileExists("/etc/debian_version") {
		pkgs := make([]string, len(missing))
		for i, m := range missing {
			pkgs[i] = "python3-" + m
		}
		return "sudo apt-get install " + strings.Join(pkgs, " ") + " (or create a virtual environment in .venv and pip install " + strings.Join(missing, " ") + " there; agentos then uses it)"
	}
	return py + " -m pip install " + strings.Join(missing, " ") + " (or create a virtual environment in .venv with them; agentos then uses it)"
}

// installedVersion is the version of the package installed in the
// project's node_modules, or "" when it is not there.
func installedVersion(root, pkg string) string {
	data, err := os.ReadFile(filepath.Join(root, "node_modules", filepath.FromSlash(pkg), "package.json"))
	if err != nil {
		return ""
	}
	var v struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &v) != nil || v.Version == "" {
		return "?"
	}
	return v.Version
}

// addDev is the package manager's command that adds development
// dependencies.
func addDev(pm string, pkgs ...string) string {
	switch pm {
	case "pnpm", "yarn", "bun":
		return pm + " add -D " + strings.Join(pkgs, " ")
	}
	return "npm install -D " + strings.Join(pkgs, " ")
}

func checkNode(root string, d Default) Readiness {
	var problems []Problem
	if _, err := exec.LookPath("node"); err != nil {
		problems = append(problems, Problem{What: "node is not on PATH", Fix: "install Node.js (https://nodejs.org/) and put it on PATH"})
	}
	version := installedVersion(root, d.Runner)
	if version == "" {
		return Readiness{Problems: append(problems, Problem{What: d.Runner + " is not installed in node_modules",
			Fix: "run `" + d.PackageManager + " install` (or " + addDev(d.PackageManager, d.Runner) + ")"})}
	}
	found := d.Runner + " " + version
	switch d.Runner {
	case Vitest:
		provider := "@vitest/coverage-v8"
		if strings.Contains(d.Command, "provider=istanbul") {
			provider = "@vitest/coverage-istanbul"
		}
		if v := installedVersion(root, provider); v != "" {
			found += ", " + provider + " " + v
		} else {
			// The provider's version must be vitest's own.
			problems = append(problems, Problem{What: provider + ", which writes Vitest's coverage report, is not installed",
				Fix: addDev(d.PackageManager, provider+"@"+version)})
		}
	case Jest:
		if v := installedVersion(root, "jest-junit"); v != "" {
			found += ", jest-junit " + v
		} else {
			problems = append(problems, Problem{What: "jest-junit, which writes the JUnit report the gate reads, is not installed",
				Fix: addDev(d.PackageManager, "jest-junit")})
		}
	}
	if len(problems) > 0 {
		return Readiness{Problems: problems}
	}
	return Readiness{Found: found + " (node_modules)"}
}

// maxTestScan caps the files HasTests looks at.
const maxTestScan = 20000

// skipDirs hold dependencies, build output or tool state.
var skipDirs = map[string]bool{"node_modules": true, "vendor": true, "dist": true, "build": true, "target": true, "venv": true, "__pycache__": true}

var errFound = errors.New("found")

// HasTests returns the path (relative, slash-separated) of a test file in
// the project, or "" when none is among the first files looked at: Go's
// *_test.go, Python's test_*.py and *_test.py, and JS/TS *.test.* and
// *.spec.* files. Hidden folders and dependencies are skipped.
func HasTests(root string) string {
	found, seen := "", 0
	_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := e.Name()
		if e.IsDir() {
			if path != root && (skipDirs[name] || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if seen++; seen > maxTestScan {
			return errFound
		}
		if isTestFile(name) {
			rel, _ := filepath.Rel(root, path)
			found = filepath.ToSlash(rel)
			return errFound
		}
		return nil
	})
	return found
}

func isTestFile(name string) bool {
	lower := strings.ToLower(name)
	ext := filepath.Ext(lower)
	switch ext {
	case ".go":
		return strings.HasSuffix(lower, "_test.go")
	case ".py":
		return strings.HasPrefix(lower, "test_") || strings.HasSuffix(lower, "_test.py")
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		stem := strings.TrimSuffix(lower, ext)
		return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
	}
	return false
}
