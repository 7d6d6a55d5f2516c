package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A brownfield start, end to end through the built binary: agentos specs
// init drafts a spec for a module of a project that did not start with
// agentos (Go, pytest, Vitest), a person approves the draft, and from then
// on it is a living spec like any finished one: its traced tests run in the
// gate's sandbox, a real regression drifts it, and converge repairs it
// through the verified gate.

// brownfield is a project of one ecosystem with a module, its tests and its
// docs, before agentos.
type brownfield struct {
	name   string
	module string
	files  map[string]string
	setup  func(t *testing.T, root string)
	// test is the test file that holds the behaviour; code, broken and
	// fixed the code file and it with a regression and without.
	test, code, broken, fixed string
	// failure is words of the runner's failure of the broken code.
	failure string
	// documented says the module's docs say what it does (else the draft
	// asks a person to write it before approving).
	documented bool
}

func goBrownfield() brownfield {
	code := "// Package greet says hello to people by name, and to the whole world\n// when it is not told a name.\npackage greet\n\n// Greet greets name, or the world.\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello, world\"\n\t}\n\treturn \"hello, \" + name\n}\n"
	return brownfield{
		name:   "go",
		module: "greet",
		files: map[string]string{
			"go.mod":              "module example.com/shop\n\ngo 1.22\n",
			"greet/greet.go":      code,
			"greet/greet_test.go": "package greet\n\nimport \"testing\"\n\nfunc TestGreetsByName(t *testing.T) {\n\tif got := Greet(\"ann\"); got != \"hello, ann\" {\n\t\tt.Fatalf(\"Greet(ann) = %q\", got)\n\t}\n}\n\nfunc TestGreetsTheWorld(t *testing.T) {\n\tif got := Greet(\"\"); got != \"hello, world\" {\n\t\tt.Fatalf(\"Greet(empty) = %q, want hello, world\", got)\n\t}\n}\n",
		},
		test:       "greet/greet_test.go",
		code:       "greet/greet.go",
		fixed:      code,
		broken:     strings.Replace(code, "if name == \"\" {", "if name == \"-\" {", 1),
		failure:    "want hello, world",
		documented: true,
	}
}

func pythonBrownfield(t *testing.T) brownfield {
	needTool(t, exec.Command("/usr/bin/python3", "-c", "import pytest, pytest_cov").Run() == nil, "Debian's python3 has no pytest and pytest-cov")
	t.Setenv("PATH", "/usr/bin:"+os.Getenv("PATH"))
	// No docstring says what greet is for: the draft asks a person.
	code := "def greet(name):\n    if name == \"\":\n        return \"hello, world\"\n    return \"hello, \" + name\n"
	return brownfield{
		name:   "pytest",
		module: "greet",
		files: map[string]string{
			"pyproject.toml":      pyProject,
			"pytest.ini":          pyIni,
			"greet/__init__.py":   "",
			"greet/core.py":       code,
			"tests/test_greet.py": "from greet.core import greet\n\n\ndef test_greets_by_name():\n    assert greet(\"ann\") == \"hello, ann\"\n\n\ndef test_greets_the_world():\n    assert greet(\"\") == \"hello, world\", \"an empty name greets the world\"\n",
		},
		test:    "tests/test_greet.py",
		code:    "greet/core.py",
		fixed:   code,
		broken:  strings.Replace(code, "if name == \"\":", "if name == \"-\":", 1),
		failure: "an empty name greets the world",
	}
}

func vitestBrownfield(t *testing.T) brownfield {
	modules := runnersCache(t, "vitest")
	return brownfield{
		name:   "vitest",
		module: "src",
		files: map[string]string{
			"package.json":      vitestPackage,
			"tsconfig.json":     vitestTSConfig,
			"src/README.md":     "# greet\n\nGreets people by name, and the whole world when it is not told a name.\n",
			"src/greet.ts":      greetTS,
			"src/greet.test.ts": vitestImports + "import { greet } from \"./greet\";\n\ndescribe(\"greet\", () => {\n  it(\"greets by name\", () => {\n    expect(greet(\"ann\")).toBe(\"hello, ann\");\n  });\n\n  it(\"greets the world\", () => {\n    expect(greet(\"\")).toBe(\"hello, world\");\n  });\n});\n",
		},
		setup: func(t *testing.T, root string) {
			if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
				t.Fatal(err)
			}
		},
		test:       "src/greet.test.ts",
		code:       "src/greet.ts",
		fixed:      greetTS,
		broken:     strings.Replace(greetTS, "if (name === \"\") {", "if (name === \"-\") {", 1),
		failure:    "expected 'hello, ' to be 'hello, world'",
		documented: true,
	}
}

func TestSpecsInitGo(t *testing.T) {
	t.Parallel()
	specsInitRun(t, goBrownfield())
}

func TestSpecsInitPython(t *testing.T) {
	long(t) // the fast run has specs init on Go (TestSpecsInitGo)
	specsInitRun(t, pythonBrownfield(t))
}

func TestSpecsInitVitest(t *testing.T) {
	long(t)
	t.Parallel()
	specsInitRun(t, vitestBrownfield(t))
}

var tickBox = regexp.MustCompile(`(?m)^(\s*- )\[ \]`)

func specsInitRun(t *testing.T, p brownfield) {
	t.Helper()
	root := newProject(t)
	if p.setup != nil {
		p.setup(t, root)
	}
	for rel, content := range p.files {
		write(t, root, rel, content)
	}
	write(t, root, ".gitignore", "node_modules\n")
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "before agentos")

	// A dry run prints the draft and writes nothing.
	r := runOK(t, root, "specs", "init", p.module, "--dir", root, "--dry-run")
	spec := "2026-"
	if m := regexp.MustCompile(`Would draft \.agentos/specs/(\S+) from`).FindStringSubmatch(r.stdout); m != nil {
		spec = m[1]
	} else {
		t.Fatalf("specs init --dry-run:\n%s\n%s", r.stdout, r.stderr)
	}
	dir := filepath.Join(root, ".agentos", "specs", spec)
	if !strings.Contains(r.stdout, "--- .agentos/specs/"+spec+"/tasks.md") || !strings.Contains(r.stdout, "AC-"+p.module+"-1.1.2") {
		t.Fatalf("the dry run does not show the draft:\n%s", r.stdout)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) || readFile(t, filepath.Join(root, p.test)) != p.files[p.test] {
		t.Fatalf("a dry run wrote something: %v", err)
	}

	// The draft: the usual layout, marked as drafted from code, its
	// interfaces from the index, each criterion a test that now names it.
	r = runOK(t, root, "specs", "init", p.module, "--dir", root)
	if !strings.Contains(r.stdout, "It is a draft, not a living spec") {
		t.Fatalf("specs init:\n%s", r.stdout)
	}
	for _, f := range []string{"README.md", "srd.md", "specs.md", "tasks.md", "implementation.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("the draft has no %s: %v", f, err)
		}
	}
	readme := readFile(t, filepath.Join(dir, "README.md"))
	if !strings.Contains(readme, "Status: drafted from code") {
		t.Fatalf("README.md:\n%s", readme)
	}
	if specsDoc := readFile(t, filepath.Join(dir, "specs.md")); !strings.Contains(strings.ToLower(specsDoc), "greet(name") {
		t.Fatalf("specs.md names no interface:\n%s", specsDoc)
	}
	test := readFile(t, filepath.Join(root, p.test))
	for _, id := range []string{"AC-" + p.module + "-1.1.1", "AC-" + p.module + "-1.1.2"} {
		if !strings.Contains(test, id+" (drafted from code)") {
			t.Fatalf("the test does not name %s:\n%s", id, test)
		}
	}
	if specs, _ := specsJSON(t, root); len(specs) != 0 {
		t.Fatalf("a draft is listed as a finished spec: %+v", specs)
	}
	// Never overwritten.
	if r := runOK(t, root, "specs", "init", p.module, "--dir", root); !strings.Contains(r.stdout, "not overwritten") {
		t.Fatalf("a second init:\n%s", r.stdout)
	}

	if !p.documented {
		// Nothing says what the module is for: the approval names the line
		// a person must write.
		r := runAgentos(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
		if r.code == 0 || !strings.Contains(r.stderr, ".agentos/specs/"+spec+"/README.md:") {
			t.Fatalf("approving a draft with a gap: exit %d\n%s", r.code, r.stderr)
		}
		write(t, root, ".agentos/specs/"+spec+"/README.md", regexp.MustCompile(`\[\[fill:[^\]]*\]\]`).ReplaceAllString(readme,
			"The greet package greets the shop's visitors by name, and the whole world when they give none."))
	}
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "drafted spec")
	runOK(t, root, "workflow", "approve", "--spec", spec, "--dir", root, "--yes")
	specs, _ := specsJSON(t, root)
	if len(specs) != 1 || specs[0].State != "unchecked" || !strings.Contains(specs[0].Note, "drafted from code") {
		t.Fatalf("the approved draft: %+v", specs)
	}
	checkSpecs(t, root, "holding", "the approved draft's check")

	// A real regression drifts it, naming the criterion and the failure.
	write(t, root, p.code, p.broken)
	gitIn(t, root, "commit", "-q", "-am", "a regression")
	specs = checkSpecs(t, root, "drifted", "a regression")
	st, tc, failure := criterion(t, specs[0], "AC-"+p.module+"-1.1.2")
	if st != "drifted" || !strings.Contains(tc, "failed") || !strings.Contains(failure, p.failure) {
		t.Fatalf("AC-%s-1.1.2: %s / %s / %s", p.module, st, tc, failure)
	}

	// Converge repairs it through the verified gate.
	c := stdioClient(t, root, "--transport", "stdio")
	out := mustWF(t, c, map[string]any{"action": "converge_spec", "options": map[string]any{"spec": spec}})
	id := out.SessionID
	if id == "" {
		t.Fatalf("converge: %+v", out)
	}
	fsWrite(t, c, p.code, p.fixed)
	mustWF(t, c, map[string]any{"action": "complete_task", "session_id": id, "task_number": "1.1"})
	tasks := filepath.Join(dir, "tasks.md")
	write(t, root, ".agentos/specs/"+spec+"/tasks.md", tickBox.ReplaceAllString(readFile(t, tasks), "${1}[x]"))
	out = mustWF(t, c, map[string]any{"action": "complete_phase", "session_id": id})
	if out.Gate == nil || !out.Gate.Passed || out.Status != "completed" {
		t.Fatalf("the converge with the fix: %+v", out.Gate)
	}
	checkSpecs(t, root, "holding", "after converge")
}

// An agent drafts through svc_workflow's draft_specs, as agentos specs init
// does; the drafts still wait for a person's approval.
func TestSpecsInitThroughMCP(t *testing.T) {
	t.Parallel()
	p := goBrownfield()
	root := newProject(t)
	for rel, content := range p.files {
		write(t, root, rel, content)
	}
	c := stdioClient(t, root, "--transport", "stdio")
	waitIndexes(t, c) // drafts are read from the whole index
	var out struct {
		Drafts []struct {
			Spec     string            `json:"spec"`
			Files    map[string]string `json:"files"`
			Criteria []struct{ ID, Test string }
			Written  bool `json:"written"`
		} `json:"drafts"`
		Next string `json:"next_action"`
	}
	res := call(t, c, "svc_workflow", map[string]any{"action": "draft_specs", "options": map[string]any{"dry_run": "true"}}, &out)
	if res.IsError || len(out.Drafts) != 1 || out.Drafts[0].Written || len(out.Drafts[0].Files) != 5 || len(out.Drafts[0].Criteria) != 2 {
		t.Fatalf("draft_specs dry run: %+v %v", out, res.Content)
	}
	fitsSchema(t, c, "svc_workflow", res)
	if _, err := os.Stat(filepath.Join(root, ".agentos", "specs", out.Drafts[0].Spec)); !os.IsNotExist(err) {
		t.Fatalf("a dry run wrote the draft: %v", err)
	}
	res = call(t, c, "svc_workflow", map[string]any{"action": "draft_specs", "options": map[string]any{"module": "greet"}}, &out)
	if res.IsError || len(out.Drafts) != 1 || !out.Drafts[0].Written || !strings.Contains(out.Next, "agentos workflow approve --spec "+out.Drafts[0].Spec) {
		t.Fatalf("draft_specs: %+v %v", out, res.Content)
	}
	fitsSchema(t, c, "svc_workflow", res)
	if _, errText := wf(t, c, map[string]any{"action": "start", "workflow_type": "spec_execution_v1", "options": map[string]any{"spec": out.Drafts[0].Spec}}); !strings.Contains(errText, "not been approved") {
		t.Fatalf("an execution on an unapproved draft: %s", errText)
	}
}
