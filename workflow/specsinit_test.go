package workflow

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// draftProject writes files under root and gives e a graph that declares
// defs for them, as the code index would.
func draftProject(t *testing.T, e *Engine, root string, files map[string]string, facts ...codegraph.FileFacts) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := codegraph.New()
	for _, f := range facts {
		g.SetFile(f)
	}
	e.SetGraph(func(context.Context) (SymbolGraph, error) { return g, nil })
	e.set.Now = func() time.Time { return time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC) }
}

const (
	draftGoCode = "// Package greet says hello to people by name.\npackage greet\n\n// Greet greets name.\nfunc Greet(name string) string {\n\treturn \"hello, \" + name\n}\n\nfunc helper() {}\n"
	draftGoTest = "package greet\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet(\"ann\") != \"hello, ann\" {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\nfunc TestNothing(t *testing.T) {}\n"
)

func goGreetFacts() []codegraph.FileFacts {
	return []codegraph.FileFacts{
		{Path: "greet/greet.go", Language: "go", Package: "example.com/m/greet", PkgName: "greet",
			Symbols: []codegraph.Def{{Name: "Greet", Kind: "func", Line: 5, EndLine: 7, Exported: true}, {Name: "helper", Kind: "func", Line: 9, EndLine: 9}}},
		{Path: "greet/greet_test.go", Language: "go", Package: "example.com/m/greet", PkgName: "greet",
			Symbols: []codegraph.Def{{Name: "TestGreet", Kind: "func", Line: 5, EndLine: 9, Exported: true, Test: true}}},
	}
}

func TestDraftSpecsFromGoCode(t *testing.T) {
	e, root := testEngine(t)
	draftProject(t, e, root, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "greet/greet.go": draftGoCode, "greet/greet_test.go": draftGoTest}, goGreetFacts()...)
	ctx := context.Background()

	// A dry run says what it would write, and writes nothing.
	drafts, err := e.DraftSpecs(ctx, DraftOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(drafts) != 1 || drafts[0].Module != "greet" || drafts[0].Spec != "2026-11-28-greet" || drafts[0].Written {
		t.Fatalf("drafts: %+v", drafts)
	}
	d := drafts[0]
	if len(d.Criteria) != 1 || d.Criteria[0].ID != "AC-greet-1.1.1" || !strings.Contains(d.Criteria[0].Test, "TestGreet (greet/greet_test.go:5)") {
		t.Fatalf("criteria: %+v", d.Criteria)
	}
	if len(d.Skipped) != 1 || !strings.Contains(d.Skipped[0], "TestNothing") {
		t.Fatalf("skipped: %q", d.Skipped)
	}
	if d.Symbols != 1 || !strings.Contains(d.Files[d.Dir+"/specs.md"], "`func Greet(name string) string` (greet/greet.go:5)") || strings.Contains(d.Files[d.Dir+"/specs.md"], "helper") {
		t.Fatalf("interfaces:\n%s", d.Files[d.Dir+"/specs.md"])
	}
	if !strings.Contains(d.Files[d.Dir+"/README.md"], "Package greet says hello to people by name.") || len(d.ToAdd) != 0 {
		t.Fatalf("README from the package doc:\n%s\nto add: %q", d.Files[d.Dir+"/README.md"], d.ToAdd)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "specs")); !os.IsNotExist(err) {
		t.Fatalf("a dry run wrote the spec: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "greet", "greet_test.go")); string(data) != draftGoTest {
		t.Fatal("a dry run changed a test")
	}

	// Written: the spec's documents, marked as drafted; the test names its
	// criterion, and the tasks parse as an executable spec's.
	drafts, err = e.DraftSpecs(ctx, DraftOptions{Modules: []string{"greet"}})
	if err != nil || !drafts[0].Written {
		t.Fatalf("%+v %v", drafts, err)
	}
	for _, f := range []string{"README.md", "srd.md", "specs.md", "tasks.md", "implementation.md"} {
		if _, err := os.Stat(filepath.Join(root, d.Dir, f)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if !e.drafted(d.Dir) || !e.IsDrafted(d.Spec) {
		t.Fatal("the draft is not marked as drafted from code")
	}
	if err := e.Executable(d.Dir); err != nil {
		t.Fatalf("the drafted tasks do not parse: %v", err)
	}
	// The documents pass spec_creation_v1's gates as they are: sections with
	// content of their own, tasks in the format.
	def, _ := e.Library().Get("spec_creation_v1")
	for _, ph := range def.Phases {
		for _, c := range ph.Gate {
			if c.Type == gates.TypeApproval {
				continue
			}
			if r := c.Run(ctx, gates.Env{Root: root, Vars: map[string]string{"spec_dir": d.Dir}}); !r.Passed {
				t.Errorf("%s's %s check: %s", ph.Name, c.Type, r.Message)
			}
		}
	}
	traced, err := gates.TraceTests(ctx, root, []string{"AC-greet-1.1.1"})
	if err != nil || len(traced.ByID["ac-greet-1.1.1"]) != 1 || traced.ByID["ac-greet-1.1.1"][0].Name != "TestGreet" {
		t.Fatalf("the criterion is not traced to its test: %+v %v", traced, err)
	}

	// Never overwritten: a second run reports the spec that exists.
	before, _ := os.ReadFile(filepath.Join(root, d.Dir, "README.md"))
	drafts, err = e.DraftSpecs(ctx, DraftOptions{})
	if err != nil || drafts[0].Written || !strings.Contains(drafts[0].NotWritten, "not overwritten") {
		t.Fatalf("a second draft: %+v %v", drafts, err)
	}
	if after, _ := os.ReadFile(filepath.Join(root, d.Dir, "README.md")); string(after) != string(before) {
		t.Fatal("the spec was overwritten")
	}
	if _, err := e.DraftSpecs(ctx, DraftOptions{Modules: []string{"../x"}}); KindOf(err) != KindInvalid {
		t.Fatalf("a module outside the project: %v", err)
	}
}

func TestDraftedSpecIsFinishedOnceApproved(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e, root := testEngine(t)
	files := map[string]string{
		"calc/add.py":      "def add(a, b):\n    return a + b\n",
		"calc/test_add.py": "from calc.add import add\n\n\n@pytest.mark.xfail\ndef test_later():\n    assert add(1, 1) == 3\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
	}
	draftProject(t, e, root, files,
		codegraph.FileFacts{Path: "calc/add.py", Language: "python", Package: "calc", PkgName: "add",
			Symbols: []codegraph.Def{{Name: "add", Kind: "func", Line: 1, EndLine: 2, Exported: true}}, Signatures: []string{"def add(a, b)"}})
	ctx := context.Background()
	drafts, err := e.DraftSpecs(ctx, DraftOptions{})
	if err != nil || len(drafts) != 1 || len(drafts[0].Criteria) != 1 || len(drafts[0].ToAdd) != 1 {
		t.Fatalf("%+v %v", drafts, err)
	}
	spec, dir := drafts[0].Spec, drafts[0].Dir
	test, _ := os.ReadFile(filepath.Join(root, "calc", "test_add.py"))
	if !strings.Contains(string(test), "# AC-calc-1.1.1 (drafted from code)\ndef test_add():") {
		t.Fatalf("the test does not name its criterion:\n%s", test)
	}
	if specs, _ := e.Specs(); len(specs) != 0 {
		t.Fatalf("a draft is listed as a finished spec: %+v", specs)
	}

	// No package documentation says what calc is for: a person must write
	// it before approving.
	who := Approver{By: "ann", Via: ViaNonInteractive, Actor: CLIActor}
	if _, err := e.ApproveSpec(spec, who, "", nil); KindOf(err) != KindRefused || !strings.Contains(err.Error(), dir+"/README.md:") {
		t.Fatalf("approving a draft with a gap: %v", err)
	}
	readme := filepath.Join(root, filepath.FromSlash(dir), "README.md")
	data, _ := os.ReadFile(readme)
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.Contains(l, "[[fill:") {
			lines[i] = "The calc module adds numbers for the invoicing code."
		}
	}
	os.WriteFile(readme, []byte(strings.Join(lines, "\n")), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if _, err := e.ApproveSpec(spec, who, "", nil); err != nil {
		t.Fatal(err)
	}
	specs, err := e.Specs()
	if err != nil || len(specs) != 1 || specs[0].State != SpecUnchecked || !strings.Contains(specs[0].Note, "drafted from code and approved") {
		t.Fatalf("the approved draft: %+v %v", specs, err)
	}
	rec, integrity, err := e.readLiving(spec)
	if err != nil || integrity != nil || rec.Workflow != specsInitWorkflow || len(rec.Criteria) != 1 || len(rec.Criteria[0].Tests) != 1 || rec.Criteria[0].Tests[0].Name != "test_add" {
		t.Fatalf("its evidence: %+v %v %v", rec, integrity, err)
	}
	if e.IsDrafted(spec) {
		t.Fatal("a draft with evidence is still a draft")
	}
}

func TestDraftTestsOfTypeScript(t *testing.T) {
	e, root := testEngine(t)
	files := map[string]string{
		"src/greet.ts":      "/** Greets people. */\nexport function greet(name: string): string {\n  return \"hello, \" + name;\n}\n",
		"src/greet.test.ts": "import { greet } from \"./greet\";\n\ndescribe(\"greet\", () => {\n  it(\"greets by name\", () => {\n    expect(greet(\"ann\")).toBe(\"hello, ann\");\n  });\n  it.todo(\"greets in French\");\n});\n",
	}
	draftProject(t, e, root, files, codegraph.FileFacts{Path: "src/greet.ts", Language: "typescript", Package: "src", PkgName: "greet",
		Symbols: []codegraph.Def{{Name: "greet", Kind: "func", Line: 2, EndLine: 4, Exported: true}}, Signatures: []string{"export function greet(name: string): string"}})
	drafts, err := e.DraftSpecs(context.Background(), DraftOptions{Modules: []string{filepath.Join(root, "src")}})
	if err != nil || len(drafts) != 1 || drafts[0].Module != "src" || len(drafts[0].Criteria) != 1 {
		t.Fatalf("%+v %v", drafts, err)
	}
	if c := drafts[0].Criteria[0]; c.ID != "AC-src-1.1.1" || !strings.HasPrefix(c.Text, "greets by name") {
		t.Fatalf("criterion: %+v", c)
	}
	test, _ := os.ReadFile(filepath.Join(root, "src", "greet.test.ts"))
	if !strings.Contains(string(test), "  // AC-src-1.1.1 (drafted from code)\n  it(\"greets by name\"") {
		t.Fatalf("the test does not name its criterion:\n%s", test)
	}
	if !strings.Contains(drafts[0].Files[drafts[0].Dir+"/README.md"], "Greets people.") {
		t.Fatalf("README:\n%s", drafts[0].Files[drafts[0].Dir+"/README.md"])
	}
}
