package installer

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Toolchain is what the installer could tell about how a project builds,
// tests and checks the code of one language, read from its manifest and
// tool configuration files. Every field is a fact read from those files,
// never a guess; only the tools that come with the language itself (go
// test, gofmt, cargo) are filled in without a file. An empty field means
// "not detected": the language standards say so, suggest a choice, and give
// the general advice instead of the project's setup.
type Toolchain struct {
	Language      string   `json:"language"`                 // go, python, typescript, javascript, rust, java
	Dir           string   `json:"dir"`                      // folder of the manifest, relative to the root ("." for the root)
	Manifest      string   `json:"manifest,omitempty"`       // go.mod, pyproject.toml, package.json, Cargo.toml, pom.xml, build.gradle(.kts)
	Module        string   `json:"module,omitempty"`         // module path, package or crate name, Maven group:artifact
	Version       string   `json:"version,omitempty"`        // language version the project declares: "1.22", ">=3.11", "21"
	VersionFrom   string   `json:"version_from,omitempty"`   // the file (and field) Version was read from
	Edition       string   `json:"edition,omitempty"`        // Rust: the package's edition in Cargo.toml
	BuildTool     string   `json:"build_tool,omitempty"`     // go, uv, poetry, pip, npm, pnpm, yarn, cargo, maven, gradle
	TestFramework string   `json:"test_framework,omitempty"` // testing, pytest, unittest, vitest, jest, cargo test, JUnit 5
	TestLibraries []string `json:"test_libraries,omitempty"` // testify, pytest-asyncio, mockito, proptest …
	Linters       []string `json:"linters,omitempty"`        // golangci-lint, ruff, mypy, eslint, clippy …
	Formatters    []string `json:"formatters,omitempty"`     // gofmt, black, prettier, rustfmt …
	Frameworks    []string `json:"frameworks,omitempty"`     // fastapi, express, spring-boot, tokio …
	Libraries     []string `json:"libraries,omitempty"`      // other notable libraries: thiserror, anyhow, pydantic …
	Layout        []string `json:"layout,omitempty"`         // notable folders: cmd/, internal/, src/, tests/ …
	Strict        bool     `json:"strict,omitempty"`         // TypeScript: tsconfig has "strict": true
	Workspace     bool     `json:"workspace,omitempty"`      // several modules, crates, packages or Maven modules
	CI            string   `json:"ci,omitempty"`             // GitHub Actions, GitLab CI …
	// Scripts are package.json's scripts among nodeScripts, by name.
	Scripts map[string]string `json:"scripts,omitempty"`
	// TypedLinting is true when the ESLint configuration gives
	// typescript-eslint type information (parserOptions.projectService or
	// project), which rules such as no-floating-promises need.
	TypedLinting bool `json:"typed_linting,omitempty"`
}

// languageStandardsLanguages are the languages that have language standards.
var languageStandardsLanguages = []string{"go", "python", "typescript", "javascript", "rust", "java"}

// manifests lists, per language, the files that mark a folder as holding a
// project of that language, in order of preference.
var manifests = map[string][]string{
	"go":         {"go.mod"},
	"python":     {"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile"},
	"typescript": {"package.json", "tsconfig.json"},
	"javascript": {"package.json"},
	"rust":       {"Cargo.toml"},
	"java":       {"pom.xml", "build.gradle.kts", "build.gradle"},
}

// DetectToolchain reads the build and tool files of lang in the project at
// root. It looks for the language's manifest in the root first, then in each
// of dirs (folders relative to the root, such as the detected source paths),
// and reads tool configuration from that folder and the root. It never fails:
// unreadable or malformed files are skipped.
func DetectToolchain(root, lang string, dirs []string) Toolchain {
	t := Toolchain{Language: lang, Dir: "."}
	dir := root
	for _, d := range append([]string{"."}, dirs...) {
		candidate := filepath.Join(root, filepath.FromSlash(d))
		if m := firstExisting(candidate, manifests[lang]...); m != "" {
			dir, t.Dir, t.Manifest = candidate, filepath.ToSlash(filepath.Clean(d)), m
			break
		}
	}
	r := &reader{root: root, dir: dir}
	switch lang {
	case "go":
		r.golang(&t)
	case "python":
		r.python(&t)
	case "typescript", "javascript":
		r.node(&t)
	case "rust":
		r.rust(&t)
	case "java":
		r.java(&t)
	}
	for _, l := range []string{"cmd", "internal", "pkg", "src", "lib", "app", "tests", "test", "__tests__", "benches", "examples"} {
		if l == "src" && lang == "java" {
			continue // src/main/java/ says more
		}
		if isDirAt(filepath.Join(dir, l)) && !contains(t.Layout, l+"/") {
			t.Layout = append(t.Layout, l+"/")
		}
	}
	switch {
	case isDirAt(filepath.Join(root, ".github", "workflows")):
		t.CI = "GitHub Actions"
	case fileExists(filepath.Join(root, ".gitlab-ci.yml")):
		t.CI = "GitLab CI"
	case fileExists(filepath.Join(root, ".circleci", "config.yml")):
		t.CI = "CircleCI"
	case fileExists(filepath.Join(root, "Jenkinsfile")):
		t.CI = "Jenkins"
	}
	for _, list := range []*[]string{&t.TestLibraries, &t.Linters, &t.Formatters, &t.Frameworks, &t.Libraries} {
		sort.Strings(*list)
	}
	return t
}

// reader reads one language's files in the manifest folder and the root.
type reader struct {
	root, dir string
}

// read returns the content of name in the manifest folder, or nil.
func (r *reader) read(name string) []byte {
	data, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil || len(data) > 4<<20 {
		return nil
	}
	return data
}

// has reports whether any of names exists in the manifest folder or the root.
func (r *reader) has(names ...string) bool {
	return firstExisting(r.dir, names...) != "" || firstExisting(r.root, names...) != ""
}

func (r *reader) golang(t *Toolchain) {
	t.BuildTool = "go"
	t.TestFramework = "testing"
	t.Formatters = []string{"gofmt"}
	mod := string(r.read("go.mod"))
	for _, line := range strings.Split(mod, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "module":
			t.Module = strings.Trim(f[1], `"`)
		case len(f) >= 2 && f[0] == "go" && t.Version == "":
			t.Version, t.VersionFrom = f[1], "go.mod"
		}
	}
	requires := func(path string) bool { return strings.Contains(mod, path+" ") || strings.Contains(mod, path+"/") }
	addIf(&t.TestLibraries, requires("github.com/stretchr/testify"), "testify")
	addIf(&t.TestLibraries, requires("github.com/google/go-cmp"), "go-cmp")
	addIf(&t.TestLibraries, requires("go.uber.org/goleak"), "goleak")
	addIf(&t.TestLibraries, requires("github.com/rogpeppe/go-internal"), "testscript")
	addIf(&t.TestLibraries, requires("go.uber.org/mock") || requires("github.com/golang/mock"), "gomock")
	addIf(&t.Frameworks, requires("github.com/gin-gonic/gin"), "gin")
	addIf(&t.Frameworks, requires("github.com/labstack/echo"), "echo")
	addIf(&t.Frameworks, requires("github.com/go-chi/chi"), "chi")
	addIf(&t.Frameworks, requires("github.com/gofiber/fiber"), "fiber")
	addIf(&t.Frameworks, requires("google.golang.org/grpc"), "grpc")
	addIf(&t.Frameworks, requires("github.com/spf13/cobra"), "cobra")
	addIf(&t.Libraries, requires("golang.org/x/sync"), "golang.org/x/sync")
	addIf(&t.Libraries, requires("github.com/jackc/pgx"), "pgx")
	addIf(&t.Libraries, requires("gorm.io/gorm"), "gorm")
	addIf(&t.Libraries, requires("github.com/pkg/errors"), "github.com/pkg/errors")
	addIf(&t.Linters, r.has(".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"), "golangci-lint")
	addIf(&t.Linters, r.has("staticcheck.conf"), "staticcheck")
	t.Workspace = r.has("go.work")
}

// pythonVersion returns the Python version the project declares and where
// it says so: the packaging metadata first, then the interpreter pin, then
// the target version the tools are configured for.
func pythonVersion(r *reader, pyproject, setupCfg string) (version, from string) {
	for _, c := range []struct{ value, from string }{
		{tomlString(pyproject, "project", "requires-python"), "requires-python in pyproject.toml"},
		{tomlString(pyproject, "tool.poetry.dependencies", "python"), "tool.poetry.dependencies in pyproject.toml"},
		{iniValue(setupCfg, "options", "python_requires"), "python_requires in setup.cfg"},
		{submatch(setupPyRequiresRE, string(r.read("setup.py"))), "python_requires in setup.py"},
		{firstLine(r.read(".python-version")), ".python-version"},
		{pyTarget(tomlString(pyproject, "tool.ruff", "target-version")), "tool.ruff target-version in pyproject.toml"},
		{tomlString(pyproject, "tool.mypy", "python_version"), "tool.mypy python_version in pyproject.toml"},
	} {
		if c.value != "" {
			return c.value, c.from
		}
	}
	return "", ""
}

var setupPyRequiresRE = regexp.MustCompile(`python_requires\s*=\s*["']([^"']+)["']`)

// pyTarget turns a tool's target version ("py39") into a version (">=3.9").
func pyTarget(target string) string {
	rest, ok := strings.CutPrefix(target, "py3")
	if !ok || rest == "" {
		return ""
	}
	return ">=3." + rest
}

func (r *reader) python(t *Toolchain) {
	pyproject := string(r.read("pyproject.toml"))
	setupCfg := string(r.read("setup.cfg"))
	tox := string(r.read("tox.ini"))
	var reqs strings.Builder
	for _, name := range []string{"requirements.txt", "requirements-dev.txt", "requirements_dev.txt", "dev-requirements.txt", "requirements-test.txt", "Pipfile", "setup.py"} {
		reqs.Write(r.read(name))
		reqs.WriteByte('\n')
	}
	if entries, err := os.ReadDir(filepath.Join(r.dir, "requirements")); err == nil {
		for _, e := range entries {
			reqs.Write(r.read(filepath.Join("requirements", e.Name())))
			reqs.WriteByte('\n')
		}
	}
	deps := strings.ToLower(pyproject + "\n" + reqs.String() + "\n" + setupCfg)
	dep := func(name string) bool { return mentionsPackage(deps, name) }

	t.Module = tomlString(pyproject, "project", "name")
	if t.Module == "" {
		t.Module = tomlString(pyproject, "tool.poetry", "name")
	}
	t.Version, t.VersionFrom = pythonVersion(r, pyproject, setupCfg)
	switch {
	case r.has("uv.lock"):
		t.BuildTool = "uv"
	case r.has("poetry.lock") || tomlHasTable(pyproject, "tool.poetry"):
		t.BuildTool = "poetry"
	case r.has("pdm.lock"):
		t.BuildTool = "pdm"
	case r.has("Pipfile"):
		t.BuildTool = "pipenv"
	case r.has("environment.yml"):
		t.BuildTool = "conda"
	case r.has("requirements.txt", "requirements-dev.txt", "requirements.in"):
		t.BuildTool = "pip"
	}
	switch {
	case dep("pytest") || tomlHasTable(pyproject, "tool.pytest.ini_options") || r.has("pytest.ini", "conftest.py") ||
		fileExists(filepath.Join(r.dir, "tests", "conftest.py")) || strings.Contains(setupCfg+tox, "[tool:pytest]") || strings.Contains(tox, "[pytest]"):
		t.TestFramework = "pytest"
	case isDirAt(filepath.Join(r.dir, "tests")) || isDirAt(filepath.Join(r.dir, "test")):
		t.TestFramework = "unittest"
	}
	for _, lib := range []string{"pytest-asyncio", "pytest-cov", "pytest-mock", "hypothesis", "freezegun", "responses", "respx", "factory-boy", "testcontainers"} {
		addIf(&t.TestLibraries, dep(lib), lib)
	}
	addIf(&t.Linters, tomlHasTable(pyproject, "tool.ruff") || r.has("ruff.toml", ".ruff.toml") || dep("ruff"), "ruff")
	addIf(&t.Linters, r.has(".flake8") || strings.Contains(setupCfg+tox, "[flake8]") || dep("flake8"), "flake8")
	addIf(&t.Linters, r.has(".pylintrc", "pylintrc") || tomlHasTable(pyproject, "tool.pylint") || dep("pylint"), "pylint")
	addIf(&t.Linters, r.has("mypy.ini", ".mypy.ini") || tomlHasTable(pyproject, "tool.mypy") || strings.Contains(setupCfg, "[mypy]") || dep("mypy"), "mypy")
	addIf(&t.Linters, r.has("pyrightconfig.json") || tomlHasTable(pyproject, "tool.pyright") || dep("pyright"), "pyright")
	addIf(&t.Formatters, tomlHasTable(pyproject, "tool.black") || dep("black"), "black")
	preCommit := string(r.read(".pre-commit-config.yaml"))
	addIf(&t.Formatters, tomlHasTable(pyproject, "tool.ruff.format") || strings.Contains(preCommit, "id: ruff-format"), "ruff format")
	addIf(&t.Formatters, tomlHasTable(pyproject, "tool.isort") || r.has(".isort.cfg") || dep("isort"), "isort")
	for _, fw := range []string{"django", "flask", "fastapi", "starlette", "celery", "sqlalchemy", "aiohttp"} {
		addIf(&t.Frameworks, dep(fw), fw)
	}
	for _, lib := range []string{"pydantic", "httpx", "requests", "attrs", "structlog", "tenacity"} {
		addIf(&t.Libraries, dep(lib), lib)
	}
}

// packageJSON is the part of package.json the installer reads.
type packageJSON struct {
	Name            string            `json:"name"`
	Type            string            `json:"type"`
	PackageManager  string            `json:"packageManager"`
	Workspaces      json.RawMessage   `json:"workspaces"`
	Engines         map[string]string `json:"engines"`
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

func (r *reader) node(t *Toolchain) {
	var pkg packageJSON
	_ = json.Unmarshal(r.read("package.json"), &pkg) // a malformed file leaves the fields empty
	dep := func(name string) bool {
		_, a := pkg.Dependencies[name]
		_, b := pkg.DevDependencies[name]
		return a || b
	}
	t.Module = pkg.Name
	for _, c := range []struct{ value, from string }{
		{pkg.Engines["node"], "engines.node in package.json"},
		{firstLine(r.read(".nvmrc")), ".nvmrc"},
		{firstLine(r.read(".node-version")), ".node-version"},
	} {
		if c.value != "" {
			t.Version, t.VersionFrom = c.value, c.from
			break
		}
	}
	if t.Version != "" && !strings.HasPrefix(strings.ToLower(t.Version), "node") {
		t.Version = "Node.js " + t.Version
	}
	// The package manager is the one package.json names or whose lockfile
	// is committed; without either it is not known.
	switch {
	case strings.HasPrefix(pkg.PackageManager, "pnpm") || r.has("pnpm-lock.yaml"):
		t.BuildTool = "pnpm"
	case strings.HasPrefix(pkg.PackageManager, "yarn") || r.has("yarn.lock"):
		t.BuildTool = "yarn"
	case strings.HasPrefix(pkg.PackageManager, "bun") || r.has("bun.lockb", "bun.lock"):
		t.BuildTool = "bun"
	case strings.HasPrefix(pkg.PackageManager, "npm") || r.has("package-lock.json", "npm-shrinkwrap.json"):
		t.BuildTool = "npm"
	}
	for _, name := range nodeScripts {
		if cmd, ok := pkg.Scripts[name]; ok {
			if t.Scripts == nil {
				t.Scripts = map[string]string{}
			}
			t.Scripts[name] = cmd
		}
	}
	testScript := pkg.Scripts["test"]
	switch {
	case dep("vitest"):
		t.TestFramework = "vitest"
	case dep("jest") || dep("ts-jest") || r.has("jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs"):
		t.TestFramework = "jest"
	case dep("mocha"):
		t.TestFramework = "mocha"
	case dep("ava"):
		t.TestFramework = "ava"
	case strings.Contains(testScript, "node --test") || strings.Contains(testScript, "node:test"):
		t.TestFramework = "node:test"
	}
	for _, lib := range []string{"@playwright/test", "cypress", "@testing-library/react", "supertest", "msw", "fast-check", "sinon"} {
		addIf(&t.TestLibraries, dep(lib), lib)
	}
	eslintConfigs := []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml"}
	addIf(&t.Linters, dep("eslint") || r.has(eslintConfigs...), "eslint")
	addIf(&t.Linters, dep("@biomejs/biome") || r.has("biome.json", "biome.jsonc"), "biome")
	addIf(&t.Linters, dep("oxlint"), "oxlint")
	prettierConfigs := []string{".prettierrc", ".prettierrc.json", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.yml", ".prettierrc.yaml", "prettier.config.js", "prettier.config.mjs", "prettier.config.cjs"}
	addIf(&t.Formatters, dep("prettier") || r.has(prettierConfigs...), "prettier")
	addIf(&t.Formatters, contains(t.Linters, "biome"), "biome")
	if t.Language == "typescript" {
		addIf(&t.Linters, dep("typescript") || r.has("tsconfig.json"), "tsc")
		if v := pkg.DevDependencies["typescript"]; v != "" {
			t.Libraries = append(t.Libraries, "typescript "+v)
		}
		t.Strict = strictTSConfig.Match(r.read("tsconfig.json"))
		t.TypedLinting = (dep("typescript-eslint") || dep("@typescript-eslint/parser")) && r.typedESLint(eslintConfigs)
	}
	for _, fw := range []string{"react", "next", "vue", "svelte", "@angular/core", "express", "fastify", "koa", "@nestjs/core", "hono"} {
		addIf(&t.Frameworks, dep(fw), fw)
	}
	for _, lib := range []string{"zod", "axios", "prisma", "@prisma/client", "drizzle-orm", "typeorm", "pino", "winston"} {
		addIf(&t.Libraries, dep(lib), lib)
	}
	t.Workspace = (len(pkg.Workspaces) > 0 && string(pkg.Workspaces) != "null") || r.has("pnpm-workspace.yaml", "lerna.json", "nx.json", "turbo.json")
	if pkg.Type == "module" {
		t.Libraries = append(t.Libraries, "ES modules")
	}
}

var strictTSConfig = regexp.MustCompile(`"strict"\s*:\s*true`)

// nodeScripts are the package.json scripts the standards name.
var nodeScripts = []string{"test", "lint"}

// typedLintingRE matches the parser options that give typescript-eslint
// type information: projectService (v8) or project.
var typedLintingRE = regexp.MustCompile(`["']?\b(projectService|project)["']?\s*:`)

// typedESLint reports whether an ESLint configuration file in the manifest
// folder or the root turns on type information.
func (r *reader) typedESLint(configs []string) bool {
	for _, dir := range []string{r.dir, r.root} {
		for _, name := range configs {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err == nil && typedLintingRE.Match(data) {
				return true
			}
		}
	}
	return false
}

// rustReleaseRE matches a toolchain channel that pins a release ("1.82",
// "1.82.0"), not "stable" or a dated nightly.
var rustReleaseRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`)

func (r *reader) rust(t *Toolchain) {
	cargo := string(r.read("Cargo.toml"))
	t.BuildTool = "cargo"
	t.TestFramework = "cargo test"
	t.Module = tomlString(cargo, "package", "name")
	t.Version = tomlString(cargo, "package", "rust-version")
	t.Edition = tomlString(cargo, "package", "edition")
	if t.Version != "" {
		t.VersionFrom = "rust-version in Cargo.toml"
	} else if ch := tomlString(string(r.read("rust-toolchain.toml")), "toolchain", "channel"); rustReleaseRE.MatchString(ch) {
		t.Version, t.VersionFrom = ch, "rust-toolchain.toml" // a pinned release, not "stable"
	}
	t.Workspace = tomlHasTable(cargo, "workspace")
	deps := tomlKeys(cargo, "dependencies", "workspace.dependencies")
	devDeps := tomlKeys(cargo, "dev-dependencies")
	for _, lib := range []string{"proptest", "quickcheck", "rstest", "mockall", "insta", "criterion", "tokio-test", "assert_cmd"} {
		addIf(&t.TestLibraries, devDeps[lib] || deps[lib], lib)
	}
	addIf(&t.TestLibraries, r.has(filepath.Join(".config", "nextest.toml")), "cargo-nextest")
	t.Linters = []string{"clippy"}
	t.Formatters = []string{"rustfmt"}
	for _, fw := range []string{"tokio", "async-std", "axum", "actix-web", "rocket", "warp", "tonic", "clap", "rayon"} {
		addIf(&t.Frameworks, deps[fw], fw)
	}
	for _, lib := range []string{"thiserror", "anyhow", "eyre", "color-eyre", "serde", "tracing", "sqlx", "diesel", "crossbeam", "parking_lot"} {
		addIf(&t.Libraries, deps[lib], lib)
	}
}

var (
	mavenVersionRE  = regexp.MustCompile(`<(?:maven\.compiler\.release|maven\.compiler\.source|java\.version|release)>\s*([0-9.]+)\s*<`)
	gradleVersionRE = regexp.MustCompile(`(?:JavaLanguageVersion\.of\(\s*|sourceCompatibility\s*=\s*(?:JavaVersion\.VERSION_)?['"]?|jvmTarget\s*=\s*['"]?)([0-9][0-9_.]*)`)
	mavenGroupRE    = regexp.MustCompile(`(?s)<groupId>\s*([^<\s]+)\s*</groupId>.*?<artifactId>\s*([^<\s]+)\s*</artifactId>`)
)

func (r *reader) java(t *Toolchain) {
	var build string
	switch t.Manifest {
	case "pom.xml":
		t.BuildTool = "maven"
		build = string(r.read("pom.xml"))
		// The project's own coordinates follow the parent block, if any.
		own := build
		if i := strings.Index(own, "</parent>"); i >= 0 {
			own = own[i:]
		}
		if m := mavenGroupRE.FindStringSubmatch(own); m != nil {
			t.Module = m[1] + ":" + m[2]
		}
		if m := mavenVersionRE.FindStringSubmatch(build); m != nil {
			t.Version, t.VersionFrom = m[1], "pom.xml"
		}
		t.Workspace = strings.Contains(build, "<modules>")
	case "build.gradle", "build.gradle.kts":
		t.BuildTool = "gradle"
		build = string(r.read(t.Manifest))
		if m := gradleVersionRE.FindStringSubmatch(build); m != nil {
			t.Version, t.VersionFrom = strings.ReplaceAll(m[1], "_", "."), t.Manifest
		}
		settings := string(r.read("settings.gradle")) + string(r.read("settings.gradle.kts"))
		t.Workspace = strings.Contains(settings, "include")
		if m := regexp.MustCompile(`rootProject\.name\s*=\s*["']([^"']+)`).FindStringSubmatch(settings); m != nil {
			t.Module = m[1]
		}
	}
	has := func(s string) bool { return strings.Contains(build, s) }
	switch {
	case has("junit-jupiter") || has("org.junit.jupiter") || has("useJUnitPlatform"):
		t.TestFramework = "JUnit 5"
	case has("testng"):
		t.TestFramework = "TestNG"
	case has("<artifactId>junit</artifactId>") || has("junit:junit"):
		t.TestFramework = "JUnit 4"
	}
	addIf(&t.TestLibraries, has("mockito"), "mockito")
	addIf(&t.TestLibraries, has("assertj"), "assertj")
	addIf(&t.TestLibraries, has("testcontainers"), "testcontainers")
	addIf(&t.TestLibraries, has("hamcrest"), "hamcrest")
	addIf(&t.TestLibraries, has("archunit"), "archunit")
	addIf(&t.Linters, has("checkstyle") || r.has("checkstyle.xml", filepath.Join("config", "checkstyle", "checkstyle.xml")), "checkstyle")
	addIf(&t.Linters, has("spotbugs"), "spotbugs")
	addIf(&t.Linters, has("maven-pmd-plugin") || has("id 'pmd'") || has("id(\"pmd\")") || has("\npmd {"), "pmd")
	addIf(&t.Linters, has("error_prone") || has("errorprone"), "error-prone")
	addIf(&t.Formatters, has("spotless"), "spotless")
	addIf(&t.Formatters, has("google-java-format"), "google-java-format")
	addIf(&t.Frameworks, has("spring-boot"), "spring-boot")
	addIf(&t.Frameworks, has("quarkus"), "quarkus")
	addIf(&t.Frameworks, has("micronaut"), "micronaut")
	addIf(&t.Libraries, has("lombok"), "lombok")
	addIf(&t.Libraries, has("slf4j") || has("logback"), "slf4j")
	if isDirAt(filepath.Join(r.dir, "src", "main", "java")) {
		t.Layout = append(t.Layout, "src/main/java/")
	}
	if isDirAt(filepath.Join(r.dir, "src", "test", "java")) {
		t.Layout = append(t.Layout, "src/test/java/")
	}
}

// tomlString returns the string value of key in the TOML table named table
// ("project", "tool.poetry"), or "". It reads plain key = "value" lines only,
// which is all the manifests' simple fields need.
func tomlString(doc, table, key string) string {
	var value string
	eachTOMLLine(doc, func(tbl, line string) bool {
		if tbl != table {
			return true
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != key {
			return true
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
			if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
				value = v[1 : end+1]
			}
		}
		return false
	})
	return value
}

// tomlHasTable reports whether the document has the table or one below it.
func tomlHasTable(doc, table string) bool {
	found := false
	eachTOMLLine(doc, func(tbl, _ string) bool {
		found = tbl == table || strings.HasPrefix(tbl, table+".")
		return !found
	})
	return found
}

// tomlKeys returns the keys set in the given tables, and in their dotted
// sub-tables ([dependencies.tokio]).
func tomlKeys(doc string, tables ...string) map[string]bool {
	keys := map[string]bool{}
	eachTOMLLine(doc, func(tbl, line string) bool {
		for _, table := range tables {
			if tbl == table {
				if k, _, ok := strings.Cut(line, "="); ok {
					keys[strings.Trim(strings.TrimSpace(k), `"'`)] = true
				}
			}
			if rest, ok := strings.CutPrefix(tbl, table+"."); ok {
				keys[rest] = true
			}
		}
		return true
	})
	return keys
}

// eachTOMLLine calls fn with each non-blank, non-comment line and the table
// it belongs to, until fn returns false. It also calls fn once for every
// table header, with an empty line.
func eachTOMLLine(doc string, fn func(table, line string) bool) {
	table := ""
	sc := bufio.NewScanner(strings.NewReader(doc))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(strings.TrimSpace(strings.SplitN(line, "#", 2)[0]), "[] ")
			if !fn(table, "") {
				return
			}
			continue
		}
		if !fn(table, line) {
			return
		}
	}
}

// iniValue returns the value of key in section of an INI file (setup.cfg),
// or "".
func iniValue(doc, section, key string) string {
	current := ""
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			current = strings.Trim(line, "[] ")
			continue
		}
		if current != section {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// submatch returns the first group re captures in s, or "".
func submatch(re *regexp.Regexp, s string) string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func firstLine(data []byte) string {
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line)
}

// mentionsPackage reports whether a lower-cased dependency list names the
// Python package: as a whole word followed by a version, extra or quote.
func mentionsPackage(deps, name string) bool {
	for i := 0; ; {
		j := strings.Index(deps[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		before := byte(' ')
		if start > 0 {
			before = deps[start-1]
		}
		after := byte(' ')
		if end < len(deps) {
			after = deps[end]
		}
		if !isNameByte(before) && !isNameByte(after) && after != '.' {
			return true
		}
		i = end
	}
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

func firstExisting(dir string, names ...string) string {
	for _, n := range names {
		if fileExists(filepath.Join(dir, n)) {
			return n
		}
	}
	return ""
}

func isDirAt(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func addIf(list *[]string, cond bool, item string) {
	if cond && !contains(*list, item) {
		*list = append(*list, item)
	}
}

func contains(list []string, item string) bool {
	for _, s := range list {
		if s == item {
			return true
		}
	}
	return false
}
