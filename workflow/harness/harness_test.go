package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, root string) map[string]string {
	t.Helper()
	parts, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range parts {
		out[p.Name] = string(p.Data)
	}
	return out
}

func names(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestReadFindsEveryPartAndSkipsVendoredFolders(t *testing.T) {
	root := t.TempDir()
	write(t, root, "pytest.ini", "[pytest]\naddopts = -q\n")
	write(t, root, ".coveragerc", "[run]\nomit = x.py\n")
	write(t, root, "tests/unit/conftest.py", "def pytest_runtest_makereport(item, call): pass\n")
	write(t, root, "node_modules/pkg/conftest.py", "ignored\n")
	write(t, root, ".venv/lib/conftest.py", "ignored\n")
	write(t, root, "vendor/x/go.mod", "module x\nreplace a => ./b\n")
	write(t, root, "pyproject.toml", "[project]\nname = \"p\"\ndependencies = [\"requests\"]\n\n[tool.pytest.ini_options]\naddopts = \"-k nothing\"\n\n[tool.coverage.report]\nexclude_lines = [\"pragma\"]\n\n[tool.black]\nline-length = 80\n")
	write(t, root, "setup.cfg", "[metadata]\nname = p\n\n[tool:pytest]\naddopts = -x\n[coverage:run]\nomit =\n    a.py\n[flake8]\nmax-line-length = 80\n")
	write(t, root, "package.json", `{"name": "p", "dependencies": {"left-pad": "1.0.0", "vitest": "file:./fake-vitest"}, "scripts": {"test": "vitest run"}, "jest": {"setupFiles": ["<rootDir>/jest.setup.js"]}}`)
	write(t, root, "jest.setup.js", "// setup\n")
	write(t, root, "web/vitest.config.ts", "export default { test: { setupFiles: ['./test/setup'], globalSetup: \"global.ts\", environment: 'jsdom', exclude: ['**/x/**'] } }\n")
	write(t, root, "web/test/setup.ts", "// setup\n")
	write(t, root, "web/global.ts", "// teardown that fakes JUnit\n")
	write(t, root, "go.mod", "module m\n\ngo 1.22\n\nrequire golang.org/x/mod v0.1.0\n\nreplace (\n\tgolang.org/x/mod => ./fake // local\n)\n")

	got := read(t, root)
	want := []string{
		".coveragerc",
		"go.mod replace",
		"jest.setup.js",
		"package.json jest",
		"package.json local dependencies",
		"package.json scripts",
		"pyproject.toml [tool.coverage]",
		"pyproject.toml [tool.pytest]",
		"pytest.ini",
		"setup.cfg [coverage:run]",
		"setup.cfg [tool:pytest]",
		"tests/unit/conftest.py",
		"web/global.ts",
		"web/test/setup.ts",
		"web/vitest.config.ts",
	}
	if !slices.Equal(names(got), want) {
		t.Fatalf("parts:\n%s\nwant:\n%s", strings.Join(names(got), "\n"), strings.Join(want, "\n"))
	}
	if g := got["go.mod replace"]; g != "replace golang.org/x/mod => ./fake\n" {
		t.Errorf("go.mod replace = %q", g)
	}
	if g := got["setup.cfg [coverage:run]"]; !strings.Contains(g, "a.py") || strings.Contains(g, "flake8") {
		t.Errorf("setup.cfg [coverage:run] = %q", g)
	}
	if g := got["pyproject.toml [tool.pytest]"]; !strings.Contains(g, "-k nothing") {
		t.Errorf("pyproject's pytest table = %q", g)
	}
}

// An honest edit outside the test sections changes no part; an edit inside
// one changes that part only.
func TestSharedFilesCountOnlyByTheirTestSections(t *testing.T) {
	root := t.TempDir()
	write(t, root, "package.json", `{"name": "p", "dependencies": {"left-pad": "1.0.0"}, "scripts": {"test": "vitest run"}}`)
	write(t, root, "pyproject.toml", "[project]\ndependencies = []\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n")
	write(t, root, "go.mod", "module m\n\ngo 1.22\n")
	before := read(t, root)

	write(t, root, "package.json", "{\n  \"name\": \"p\",\n  \"dependencies\": {\"left-pad\": \"1.0.0\", \"chalk\": \"^5.0.0\"},\n  \"scripts\": {\"test\": \"vitest run\"}\n}\n")
	write(t, root, "pyproject.toml", "[project]\ndependencies = [\"requests\"]\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n")
	write(t, root, "go.mod", "module m\n\ngo 1.22\n\nrequire golang.org/x/mod v0.1.0\n")
	if after := read(t, root); !mapsEqual(before, after) {
		t.Fatalf("an unrelated edit changed the harness:\n%v\n%v", before, after)
	}

	// The same test settings written as dotted keys are the same table.
	write(t, root, "pyproject.toml", "tool.pytest.ini_options.testpaths = [\"tests\"]\n[project]\ndependencies = [\"requests\"]\n")
	if after := read(t, root); !mapsEqual(before, after) {
		t.Fatalf("dotted keys read differently:\n%v\n%v", before, after)
	}

	write(t, root, "package.json", `{"name": "p", "scripts": {"test": "echo '<testsuite tests=\"1\"/>' > junit.xml"}}`)
	write(t, root, "pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\naddopts = \"-k nothing\"\n")
	write(t, root, "go.mod", "module m\n\ngo 1.22\nreplace golang.org/x/mod => ../fake\n")
	after := read(t, root)
	for _, name := range []string{"package.json scripts", "pyproject.toml [tool.pytest]"} {
		if before[name] == after[name] {
			t.Errorf("%s did not change: %q", name, after[name])
		}
	}
	if _, ok := after["go.mod replace"]; !ok {
		t.Error("a replace directive added to go.mod is not part of the harness")
	}
}

// A file that is not what it claims counts whole: its test settings cannot
// be told from the rest.
func TestUnreadableSharedFileCountsWhole(t *testing.T) {
	root := t.TempDir()
	write(t, root, "pyproject.toml", "[tool.pytest\naddopts = 1\n")
	write(t, root, "package.json", "{not json")
	got := read(t, root)
	if _, ok := got["pyproject.toml (not TOML: the whole file)"]; !ok {
		t.Errorf("parts: %v", names(got))
	}
	if _, ok := got["package.json (not JSON: the whole file)"]; !ok {
		t.Errorf("parts: %v", names(got))
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A harness file that is a link is recorded as the link, never read through:
// it could lead to a key outside the project, which the part would keep in
// agentos's state, or to a pipe that never ends.
func TestReadFollowsNoLink(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, "conftest.py")); err != nil {
		t.Fatal(err)
	}
	parts, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 || parts[0].Name != "conftest.py" || strings.Contains(string(parts[0].Data), "PRIVATE") ||
		!strings.Contains(string(parts[0].Data), "symbolic link to "+secret) {
		t.Fatalf("parts: %+v", parts)
	}
}
