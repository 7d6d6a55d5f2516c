package gates

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitProject makes a git repository of files with one commit, the session's
// base, and returns its root and a SessionDiff reading the work tree
// against that commit, as the engine's base store does.
func gitProject(t *testing.T, files map[string]string) (string, func(context.Context, []string) ([]byte, error)) {
	t.Helper()
	root := project(t, files)
	git := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return out
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	return root, func(ctx context.Context, patterns []string) ([]byte, error) {
		git("add", "-A")
		return exec.CommandContext(ctx, "git", append([]string{"-C", root, "diff", "--cached", "--unified=0", "--no-renames", "--no-color", "HEAD", "--"}, patterns...)...).Output()
	}
}

// oldGo is a Go project whose old code no test runs: total coverage 0%.
var oldGo = map[string]string{
	"go.mod": "module example.com/tiny\n\ngo 1.21\n",
	"old.go": "package tiny\n\n// Old is old code nobody tests.\nfunc Old(x int) int {\n\tif x > 1 {\n\t\treturn x * 2\n\t}\n\treturn x\n}\n",
}

func goTest(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-coverprofile=coverage.out", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}

func TestChangedLinesGo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil || testing.Short() {
		t.Skip("runs go test")
	}
	check := Check{Type: TypeCoverage, File: "coverage.out", Lines: CoverageLinesChanged, Threshold: ptr(100.0)}

	t.Run("new lines covered, old code not", func(t *testing.T) {
		root, diff := gitProject(t, oldGo)
		writeFiles(t, root, map[string]string{
			"greet.go":      "package tiny\n\n// Greet greets name.\nfunc Greet(name string) string {\n\treturn \"hello, \" + name\n}\n",
			"greet_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"a\") != \"hello, a\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
		})
		goTest(t, root)
		r := runCheck(t, check, Env{Root: root, SessionDiff: diff})
		d := r.Details.(CoverageDetails)
		if !r.Passed || d.Changed == nil || d.Changed.Lines != 2 || d.Changed.Covered != 2 || d.Percent >= 100 {
			t.Fatalf("covered new lines in an untested project were refused: %+v %+v", r, d.Changed)
		}
		// The same report judged whole is refused: the old code is untested.
		if r := runCheck(t, Check{Type: TypeCoverage, File: "coverage.out", Threshold: ptr(100.0)}, Env{Root: root}); r.Passed {
			t.Errorf("total coverage passed: %+v", r)
		}
	})

	t.Run("one new branch uncovered", func(t *testing.T) {
		root, diff := gitProject(t, oldGo)
		writeFiles(t, root, map[string]string{
			"greet.go":      "package tiny\n\n// Greet greets name.\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n",
			"greet_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"a\") != \"hello, a\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
		})
		goTest(t, root)
		r := runCheck(t, check, Env{Root: root, SessionDiff: diff})
		if r.Passed || !strings.Contains(r.Message, "greet.go:6") || strings.Contains(r.Message, "old.go") {
			t.Fatalf("an uncovered new branch was not named: %+v", r)
		}
		if u := r.Details.(CoverageDetails).Changed.Uncovered; len(u) != 1 || u[0].File != "greet.go" || len(u[0].Lines) != 1 {
			t.Errorf("uncovered: %+v", u)
		}
	})

	t.Run("a changed old function left uncovered", func(t *testing.T) {
		root, diff := gitProject(t, oldGo)
		writeFiles(t, root, map[string]string{
			"old.go":    strings.Replace(oldGo["old.go"], "x * 2", "x * 3", 1),
			"a_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n",
		})
		goTest(t, root)
		r := runCheck(t, check, Env{Root: root, SessionDiff: diff})
		if r.Passed || !strings.Contains(r.Message, "old.go:6") {
			t.Fatalf("a changed old line no test runs was not named: %+v", r)
		}
	})

	t.Run("a new file in a package no test builds", func(t *testing.T) {
		root, diff := gitProject(t, oldGo)
		writeFiles(t, root, map[string]string{
			"greet.go":      "package tiny\n\nfunc Greet(name string) string {\n\treturn \"hello, \" + name\n}\n",
			"greet_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"a\") != \"hello, a\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
		})
		goTest(t, root)
		// Written after the run: the report cannot name it.
		writeFiles(t, root, map[string]string{"extra.go": "package tiny\n\nfunc Extra() int {\n\treturn 1\n}\n"})
		r := runCheck(t, check, Env{Root: root, SessionDiff: diff})
		if r.Passed || !strings.Contains(r.Message, "extra.go:3-4 (not in the report)") {
			t.Fatalf("code the report does not name was not counted: %+v", r)
		}
	})

	t.Run("no base: the whole report, with a warning", func(t *testing.T) {
		root := project(t, oldGo)
		writeFiles(t, root, map[string]string{"old_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {\n\tif Old(2) != 4 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n"})
		goTest(t, root)
		r := runCheck(t, Check{Type: TypeCoverage, File: "coverage.out", Lines: CoverageLinesChanged, Threshold: ptr(50.0)}, Env{Root: root})
		if !r.Passed || len(r.Warnings) != 1 || r.Details.(CoverageDetails).Changed != nil {
			t.Errorf("%+v", r)
		}
	})
}

func TestChangedLinesPytest(t *testing.T) {
	if exec.Command("/usr/bin/python3", "-c", "import pytest, pytest_cov").Run() != nil || testing.Short() {
		t.Skip("needs python3 with pytest and pytest-cov")
	}
	old := map[string]string{
		"old.py":   "def old(x):\n    if x > 1:\n        return x * 2\n    return x\n",
		"greet.py": "def greet(name):\n    return 'hello, ' + name\n",
	}
	for _, format := range []string{"json", "xml"} {
		t.Run(format, func(t *testing.T) {
			root, diff := gitProject(t, old)
			writeFiles(t, root, map[string]string{
				"greet.py":      "def greet(name):\n    if not name:\n        return 'hello, world'\n    return 'hello, ' + name\n",
				"test_greet.py": "from greet import greet\n\n\ndef test_name():\n    assert greet('a') == 'hello, a'\n",
				// A pragma the work added hides nothing from this check.
				"more.py": "def more():  # pragma: no cover\n    return 1\n",
			})
			report := "coverage." + format
			pytest(t, root, format, report)
			r := runCheck(t, Check{Type: TypeCoverage, File: report, Lines: CoverageLinesChanged, Threshold: ptr(100.0)}, Env{Root: root, SessionDiff: diff})
			if r.Passed || !strings.Contains(r.Message, "greet.py:3") || strings.Contains(r.Message, "old.py") || !strings.Contains(r.Message, "more.py:1-2 (excluded)") {
				t.Fatalf("the uncovered new branch was not named: %+v", r)
			}
			// Covered, with the old code still untested: it passes.
			writeFiles(t, root, map[string]string{
				"test_greet.py": "from greet import greet\n\n\ndef test_name():\n    assert greet('a') == 'hello, a'\n\n\ndef test_empty():\n    assert greet('') == 'hello, world'\n",
				"more.py":       "def more():\n    return 1\n",
				"test_more.py":  "from more import more\n\n\ndef test_more():\n    assert more() == 1\n",
			})
			if err := os.Remove(filepath.Join(root, report)); err != nil {
				t.Fatal(err)
			}
			pytest(t, root, format, report)
			r = runCheck(t, Check{Type: TypeCoverage, File: report, Lines: CoverageLinesChanged, Threshold: ptr(100.0)}, Env{Root: root, SessionDiff: diff})
			if !r.Passed || r.Details.(CoverageDetails).Percent >= 100 {
				t.Fatalf("covered new lines were refused: %+v", r)
			}
		})
	}
}

// pytest runs pytest with coverage in root and writes its report in format
// (xml, json) at report.
func pytest(t *testing.T, root, format, report string) {
	t.Helper()
	args := [][]string{{"-m", "pytest", "-q", "-p", "no:cacheprovider", "--cov=.", "--cov-report=xml:" + report}}
	if format == "json" {
		args = [][]string{{"-m", "pytest", "-q", "-p", "no:cacheprovider", "--cov=."}, {"-m", "coverage", "json", "-o", report}}
	}
	for _, a := range args {
		cmd := exec.Command("/usr/bin/python3", a...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("python3 %v: %v\n%s", a, err, out)
		}
	}
}

func TestParseLineCoverageFormats(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct{ report, file string }{
		"lcov":      {"TN:\nSF:/p/src/a.ts\nDA:1,1\nDA:2,0\nend_of_record\n", "/p/src/a.ts"},
		"cobertura": {`<?xml version="1.0"?><coverage><sources><source>/p</source></sources><packages><package><classes><class filename="src/a.ts"><lines><line number="1" hits="3"/><line number="2" hits="0"/></lines></class></classes></package></packages></coverage>`, "/p/src/a.ts"},
		"jacoco":    {`<report name="x"><package name="com/x"><sourcefile name="A.java"><line nr="1" mi="0" ci="2"/><line nr="2" mi="1" ci="0"/></sourcefile></package></report>`, "com/x/A.java"},
		"gopath":    {"mode: set\nexample.com/m/a.go:1.1,1.9 1 1\nexample.com/m/a.go:2.1,2.9 1 0\n", "example.com/m/a.go"},
	} {
		got, err := ParseLineCoverage(ctx, strings.NewReader(tc.report), "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h := got[tc.file]; !h[1] || h[2] || len(h) != 2 {
			t.Errorf("%s: %v", name, got)
		}
	}
	if h, ok := suffixMatch(map[string]lineHits{"com/x/A.java": {1: true}}, "src/main/java/com/x/A.java"); !ok || !h[1] {
		t.Error("a JaCoCo file was not found by its source root")
	}
	if got := lineRanges([]int{3, 5, 6, 7, 9}); got != "3, 5-7, 9" {
		t.Errorf("lineRanges: %s", got)
	}
}
