package installer

import (
	"slices"
	"testing"
)

func TestToolchainInSourceFolder(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, map[string]string{
		"api/main.go":        "package main\n",
		"web/package.json":   `{"name": "web", "devDependencies": {"vitest": "1"}}`,
		"web/tsconfig.json":  `{"compilerOptions": {"strict": false}}`,
		"web/yarn.lock":      "",
		"web/src/index.ts":   "",
		".gitlab-ci.yml":     "",
		"web/.prettierrc":    "{}",
		"web/biome.json":     "{}",
		"web/node_modules/x": "",
	})
	tc := DetectToolchain(root, "typescript", []string{"api", "web"})
	if tc.Dir != "web" || tc.Manifest != "package.json" || tc.BuildTool != "yarn" || tc.TestFramework != "vitest" ||
		tc.Strict || tc.CI != "GitLab CI" || !slices.Equal(tc.Formatters, []string{"biome", "prettier"}) ||
		!slices.Equal(tc.Linters, []string{"biome", "tsc"}) || !slices.Equal(tc.Layout, []string{"src/"}) {
		t.Errorf("toolchain = %+v", tc)
	}
}

func TestToolchainWithoutManifests(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, map[string]string{
		"script.py":           "print()\n",
		"tests/test_thing.py": "",
		"package.json":        "{not json",
	})
	py := DetectToolchain(root, "python", []string{"."})
	if py.Manifest != "" || py.BuildTool != "" || py.TestFramework != "unittest" || py.Version != "" {
		t.Errorf("python = %+v", py)
	}
	js := DetectToolchain(root, "javascript", nil)
	if js.Manifest != "package.json" || js.Module != "" || js.BuildTool != "" || js.TestFramework != "" {
		t.Errorf("javascript with a malformed package.json = %+v", js)
	}
	rs := DetectToolchain(root, "rust", nil)
	if rs.Manifest != "" || rs.BuildTool != "cargo" || rs.Version != "" {
		t.Errorf("rust = %+v", rs)
	}
}

func TestPythonRequirementsAndSetupCfg(t *testing.T) {
	t.Parallel()
	root, _ := newProject(t, map[string]string{
		"requirements.txt":     "Django==5.0\nrequests>=2\n",
		"requirements-dev.txt": "pytest-cov\nblack\n",
		"setup.cfg":            "[flake8]\nmax-line-length = 100\n\n[mypy]\nstrict = True\n",
		".python-version":      "3.11.9\n",
	})
	tc := DetectToolchain(root, "python", nil)
	if tc.Version != "3.11.9" || tc.TestFramework != "" || !slices.Equal(tc.Linters, []string{"flake8", "mypy"}) ||
		!slices.Equal(tc.Formatters, []string{"black"}) || !slices.Equal(tc.Frameworks, []string{"django"}) ||
		!slices.Equal(tc.Libraries, []string{"requests"}) || !slices.Equal(tc.TestLibraries, []string{"pytest-cov"}) {
		t.Errorf("toolchain = %+v", tc)
	}
}

func TestTOMLHelpers(t *testing.T) {
	t.Parallel()
	doc := `# comment
name = "top"

[project]   # the project table
name = 'shop' # a comment
requires-python = ">=3.10"

[project.urls]
name = "not this one"

[dependencies.tokio]
version = "1"
[dependencies]
serde = { version = "1" }
"quoted-key" = "1"
`
	if got := tomlString(doc, "project", "name"); got != "shop" {
		t.Errorf("project.name = %q", got)
	}
	if got := tomlString(doc, "", "name"); got != "top" {
		t.Errorf("name = %q", got)
	}
	if got := tomlString(doc, "project", "missing"); got != "" {
		t.Errorf("missing = %q", got)
	}
	if !tomlHasTable(doc, "project") || !tomlHasTable(doc, "dependencies") || tomlHasTable(doc, "tool") {
		t.Error("tomlHasTable")
	}
	keys := tomlKeys(doc, "dependencies")
	for _, k := range []string{"tokio", "serde", "quoted-key"} {
		if !keys[k] {
			t.Errorf("dependency %s not found in %v", k, keys)
		}
	}
}

func TestMentionsPackage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		deps, name string
		want       bool
	}{
		{`["pytest>=8"]`, "pytest", true},
		{`pytest-cov==5`, "pytest", false},
		{`[tool.pytest.ini_options]`, "pytest", false},
		{"flask\n", "flask", true},
		{"flask-login\n", "flask", false},
		{`"fastapi[all]"`, "fastapi", true},
		{"mypy-extensions pytest-mypy", "mypy", false},
	} {
		if got := mentionsPackage(tc.deps, tc.name); got != tc.want {
			t.Errorf("mentionsPackage(%q, %q) = %v", tc.deps, tc.name, got)
		}
	}
}
