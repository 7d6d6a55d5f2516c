package installer

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/standards/examplecheck"
)

// renderSample writes a sample project, detects lang's toolchain in it and
// renders its language standards: topic -> text.
func renderSample(t *testing.T, lang string, files map[string]string) map[string]string {
	t.Helper()
	root, _ := newProject(t, files)
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	tc := DetectToolchain(root, lang, []string{"."})
	rendered, err := renderLanguageStandards(p, tc)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range rendered {
		topic := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.target), lang+"-"), ".md")
		out[topic] = string(f.data)
	}
	return out
}

// matrixCase is a sample project and what its generated standards must and
// must not say, by topic.
type matrixCase struct {
	name   string
	lang   string
	files  map[string]string
	want   map[string][]string // topic -> texts it contains
	absent map[string][]string // topic -> texts it must not contain
	// goVersion, for Go samples, is the go line the examples are compiled
	// and vetted at; pyVersion, for Python, the version they must parse as.
	goVersion, pyVersion string
}

func goMod(goLine, requires string) string {
	s := "module example.com/shop\n"
	if goLine != "" {
		s += "\ngo " + goLine + "\n"
	}
	if requires != "" {
		s += "\nrequire (\n" + requires + ")\n"
	}
	return s
}

// goMatrix covers the Go versions whose rules differ: before and after
// log/slog (1.21), per-iteration loop variables and ServeMux patterns (1.22),
// t.Context and b.Loop (1.24), WaitGroup.Go (1.25), and no go line.
var goMatrix = []matrixCase{
	{
		name: "go 1.20 bare", lang: "go", goVersion: "1.20",
		files: map[string]string{"go.mod": goMod("1.20", ""), "main.go": "package main\n"},
		want: map[string][]string{
			"architecture": {"log *log.Logger", "Go 1.20."},
			"concurrency":  {"i, id := i, id", "loop variables are shared by all iterations before Go 1.22", "`golang.org/x/sync` is not a dependency yet"},
			"code-quality": {"golangci-lint run   # not configured yet", "No linter configuration was found"},
		},
		absent: map[string][]string{"architecture": {"slog"}, "testing": {"SetPathValue", "are available"}},
	},
	{
		name: "go 1.21 with x/sync and goleak", lang: "go", goVersion: "1.21",
		files: map[string]string{
			"go.mod":  goMod("1.21", "\tgolang.org/x/sync v0.7.0\n\tgo.uber.org/goleak v1.3.0\n"),
			"main.go": "package main\n",
		},
		want: map[string][]string{
			"architecture": {"*slog.Logger"},
			"concurrency": {"Go version: 1.21 (from go.mod): loop variables are shared", "i, id := i, id // before Go 1.22",
				"`golang.org/x/sync` is a dependency", "`go.uber.org/goleak` is available", "Call `wg.Add` before the `go` statement."},
			"testing": {"`t.Context()` and `b.Loop()` need Go 1.24", "(`for i := 0; i < b.N; i++` before 1.22)"},
		},
		absent: map[string][]string{"testing": {"SetPathValue"}, "concurrency": {"wg.Go"}},
	},
	{
		name: "go 1.22 with golangci-lint and testify", lang: "go", goVersion: "1.22",
		files: map[string]string{
			"go.mod":        goMod("1.22.5", "\tgithub.com/stretchr/testify v1.9.0\n"),
			"main.go":       "package main\n",
			".golangci.yml": "linters:\n  enable: [errcheck]\n",
		},
		want: map[string][]string{
			"concurrency":  {"Go version: 1.22.5 (from go.mod): each loop iteration has its own variable"},
			"testing":      {`req.SetPathValue("id", "42")`, "with `testify`", "use `context.WithCancel` with `t.Cleanup`, and `for range b.N`."},
			"code-quality": {"golangci-lint run\n", "Linters configured: `golangci-lint`"},
		},
		absent: map[string][]string{"concurrency": {"i, id := i, id", "wg.Go"}, "code-quality": {"not configured yet"}},
	},
	{
		name: "go 1.24 with staticcheck", lang: "go", goVersion: "1.24",
		files: map[string]string{"go.mod": goMod("1.24.0", ""), "main.go": "package main\n", "staticcheck.conf": "checks = [\"all\"]\n"},
		want: map[string][]string{
			"testing":      {"Go version: 1.24.0 (from go.mod): `t.Context()` and `b.Loop()` are available."},
			"code-quality": {"staticcheck ./...", "Linters configured: `staticcheck`"},
		},
		absent: map[string][]string{"concurrency": {"wg.Go", "i, id := i, id"}},
	},
	{
		name: "go 1.25", lang: "go", goVersion: "1.25",
		files: map[string]string{"go.mod": goMod("1.25", ""), "main.go": "package main\n"},
		want:  map[string][]string{"concurrency": {"Start goroutines with `wg.Go(f)`"}},
	},
	{
		name: "go without a go line", lang: "go", goVersion: "1.21",
		files: map[string]string{"go.mod": goMod("", ""), "main.go": "package main\n"},
		want: map[string][]string{
			"concurrency": {"Go version: not detected (no `go` line in go.mod)", "i, id := i, id"},
			"testing":     {"Go version: not detected"},
		},
		absent: map[string][]string{"testing": {"SetPathValue"}},
	},
}

// pythonMatrix covers Python before and after 3.10 (unions, match) and 3.11
// (TaskGroup, asyncio.timeout, add_note), every place a version is read
// from, and projects with and without their tools declared.
var pythonMatrix = []matrixCase{
	{
		name: "python 3.9 in setup.cfg with requirements", lang: "python", pyVersion: "3.9",
		files: map[string]string{
			"setup.cfg":        "[metadata]\nname = shop\n\n[options]\npython_requires = >=3.9\n",
			"requirements.txt": "httpx==0.27\n",
			"tests/test_a.py":  "",
		},
		want: map[string][]string{
			"concurrency":    {"Python: >=3.9 (from python_requires in setup.cfg): `asyncio.TaskGroup` and `asyncio.timeout` need 3.11", "asyncio.wait_for(asyncio.gather(*tasks), timeout=5)"},
			"code-quality":   {"no `match`, and `Optional[X]`", "Formatter: not detected; add `ruff format`", "Linters and type checkers: not detected"},
			"error-handling": {"`add_note()` need 3.11"},
			"testing":        {"Environment and dependencies: pip.", "Test framework: unittest."},
		},
		absent: map[string][]string{
			"concurrency":    {"TaskGroup()", "asyncio.timeout(5)"},
			"error-handling": {"err.add_note"},
			"code-quality":   {"Use `X | None`"},
		},
	},
	{
		name: "python 3.10 range with ruff, no formatter table", lang: "python", pyVersion: "3.10",
		files: map[string]string{
			"pyproject.toml": "[project]\nname = \"shop\"\nrequires-python = \"<3.13,>=3.10\"\n\n[tool.ruff]\nline-length = 100\n",
		},
		want: map[string][]string{
			"code-quality": {"(`X | None` unions and `match` are fine)", "Formatter: not detected; ruff is configured, so `ruff format` is the natural choice", "Linters and type checkers: `ruff`."},
			"concurrency":  {"need 3.11, so use `asyncio.gather`"},
			"testing":      {"Environment and dependencies: not detected", "Test framework: not detected; use pytest."},
		},
		absent: map[string][]string{"concurrency": {"TaskGroup()"}, "code-quality": {"Formatters: "}},
	},
	{
		name: "python 3.12 with uv, pytest and ruff format", lang: "python", pyVersion: "3.12",
		files: map[string]string{
			"pyproject.toml": "[project]\nname = \"shop\"\nrequires-python = \">=3.12\"\ndependencies = [\"httpx\"]\n\n[dependency-groups]\ndev = [\"pytest>=8\"]\n\n[tool.ruff.format]\nquote-style = \"double\"\n",
			"uv.lock":        "",
		},
		want: map[string][]string{
			"concurrency":    {"Python: >=3.12 (from requires-python in pyproject.toml): `asyncio.TaskGroup` and `asyncio.timeout` are available", "async with asyncio.TaskGroup() as tg:"},
			"code-quality":   {"Formatters: `ruff format`.", "Use `X | None`"},
			"error-handling": {"or `err.add_note(...)`"},
			"testing":        {"Environment and dependencies: uv.", "Test framework: pytest."},
		},
		absent: map[string][]string{"concurrency": {"asyncio.gather(*tasks)"}},
	},
	{
		name: "python version from .python-version with poetry", lang: "python",
		files: map[string]string{
			"pyproject.toml":  "[tool.poetry]\nname = \"shop\"\n",
			".python-version": "3.11.9\n",
		},
		want: map[string][]string{
			"concurrency":  {"Python: 3.11.9 (from .python-version): `asyncio.TaskGroup`"},
			"architecture": {"Packaging and environments: poetry."},
		},
	},
	{
		name: "python version from the ruff target", lang: "python",
		files: map[string]string{"pyproject.toml": "[tool.ruff]\ntarget-version = \"py310\"\n"},
		want:  map[string][]string{"code-quality": {"Python >=3.10 (from tool.ruff target-version in pyproject.toml)"}},
	},
	{
		name: "python without a declared version", lang: "python", pyVersion: "3.9",
		files: map[string]string{"app.py": "print()\n"},
		want: map[string][]string{
			"concurrency":  {"Python version: not detected", "asyncio.wait_for"},
			"architecture": {"Packaging and environments: not detected"},
		},
		absent: map[string][]string{"concurrency": {"TaskGroup()"}},
	},
}

// nodeMatrix covers the package manager (lockfile, packageManager field,
// none), declared and missing scripts, ESLint with and without typed
// linting, and Express against Fastify.
var nodeMatrix = []matrixCase{
	{
		name: "typescript express with npm, vitest and untyped eslint", lang: "typescript",
		files: map[string]string{
			"package.json":      `{"name": "api", "engines": {"node": ">=18"}, "scripts": {"test": "vitest run", "lint": "eslint ."}, "dependencies": {"express": "^4.19.0"}, "devDependencies": {"typescript": "^5.6.0", "vitest": "^2.1.0", "eslint": "^9.0.0", "supertest": "^7.0.0"}}`,
			"package-lock.json": "{}",
			"tsconfig.json":     `{"compilerOptions": {"strict": true}}`,
			"eslint.config.js":  "export default [];\n",
		},
		want: map[string][]string{
			"testing":        {"Package manager: npm.", "Test script: `vitest run`; run it with `npm run test`.", "import request from \"supertest\";", "with `supertest`."},
			"concurrency":    {"ESLint is configured, without type information (not detected", "projectService: true, tsconfigRootDir: import.meta.dirname", "`AbortSignal.any` needs Node.js 20.3 (or 18.17), and Node.js >=18 allows older versions", "const controller = new AbortController();"},
			"error-handling": {"### One mapping at the edge (Express)\n", "app.use((err: unknown"},
			"code-quality":   {"Lint script: `eslint .` (`npm run lint`).", "npx eslint --max-warnings=0 ."},
			"architecture":   {"app.post(\"/api/users\", async (req, res) => {"},
		},
		absent: map[string][]string{"testing": {"app.inject"}, "error-handling": {"setErrorHandler"}, "concurrency": {"AbortSignal.any(["}, "architecture": {"reply.status"}},
	},
	{
		name: "typescript fastify with pnpm and typed linting", lang: "typescript",
		files: map[string]string{
			"package.json":     `{"name": "api", "packageManager": "pnpm@9.12.0", "engines": {"node": ">=22"}, "scripts": {"test": "vitest run"}, "dependencies": {"fastify": "^5.0.0"}, "devDependencies": {"typescript": "^5.6.0", "vitest": "^2.1.0", "eslint": "^9.0.0", "typescript-eslint": "^8.0.0"}}`,
			"tsconfig.json":    `{"compilerOptions": {"strict": true}}`,
			"eslint.config.js": "import tseslint from \"typescript-eslint\";\nexport default tseslint.config(tseslint.configs.recommendedTypeChecked, {\n  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },\n});\n",
		},
		want: map[string][]string{
			"testing":        {"Package manager: pnpm.", "run it with `pnpm run test`", "await app.inject({ method: \"GET\"", "with Fastify's `app.inject`"},
			"concurrency":    {"with type information (typescript-eslint's `parserOptions.projectService` or `project`); enable `@typescript-eslint/no-floating-promises`"},
			"error-handling": {"app.setErrorHandler((err, request, reply) => {"},
			"code-quality":   {"pnpm exec eslint --max-warnings=0 .", "pnpm exec tsc --noEmit"},
			"architecture":   {"return reply.status(201).send(await users.create(parsed.data));"},
		},
		absent: map[string][]string{
			"testing":        {"supertest"},
			"concurrency":    {"Without it ESLint stops", "AbortSignal.any` needs", "new AbortController()"},
			"error-handling": {"app.use((err"},
			"architecture":   {"res.status(201).json"},
		},
	},
	{
		name: "javascript without lockfile or scripts", lang: "javascript",
		files: map[string]string{"package.json": `{"name": "tool", "dependencies": {"express": "^4.0.0"}}`, "index.js": ""},
		want: map[string][]string{
			"testing": {"Package manager: not detected (no lockfile and no `packageManager` in package.json)",
				"Test script: not detected (package.json has no `test` script); add one, for example `\"test\": \"vitest run\"`",
				"Test runner: not detected", "with `supertest` (add it as a dev dependency)"},
			"architecture": {"package manager not detected (no lockfile)"},
			"concurrency":  {"Linter: not detected.", "the Node.js version was not detected"},
			"code-quality": {"npx prettier --check . && npx eslint --max-warnings=0 .   # neither is set up yet"},
		},
		absent: map[string][]string{"testing": {"npm test", "run it with", "yarn"}, "concurrency": {"typescript-eslint"}},
	},
	{
		name: "javascript with yarn and jest", lang: "javascript",
		files: map[string]string{
			"package.json": `{"name": "tool", "scripts": {"test": "jest"}, "devDependencies": {"jest": "^29.0.0"}}`,
			"yarn.lock":    "",
		},
		want: map[string][]string{
			"testing": {"Package manager: yarn.", "Test script: `jest`; run it with `yarn run test`.", "jest.useFakeTimers();", "in memory where the framework allows it"},
		},
		absent: map[string][]string{"testing": {"import request from"}},
	},
	{
		name: "javascript fastify with bun and no test script", lang: "javascript",
		files: map[string]string{
			"package.json":   `{"name": "api", "type": "module", "dependencies": {"fastify": "^5.0.0"}}`,
			"bun.lock":       "",
			"test/a.test.js": "",
		},
		want: map[string][]string{
			"testing": {"Package manager: bun.", "add one, for example `\"test\": \"vitest run\"`", "expect(res.statusCode).toBe(404);"},
		},
	},
	{
		name: "typescript mocha", lang: "typescript",
		files: map[string]string{
			"package.json":  `{"name": "lib", "scripts": {"test": "mocha"}, "devDependencies": {"mocha": "^10.0.0", "typescript": "^5.0.0", "express": "^4.0.0"}}`,
			"tsconfig.json": "{}",
		},
		want: map[string][]string{
			"testing": {"import assert from \"node:assert/strict\";", "for (const { input, ms } of [", "assert.equal(res.status, 404);"},
		},
		absent: map[string][]string{"testing": {"from \"vitest\"", "vi.useFakeTimers", "expect(", "from \"node:test\""}},
	},
	{
		name: "javascript node:test", lang: "javascript",
		files: map[string]string{"package.json": `{"name": "tool", "scripts": {"test": "node --test"}}`, "package-lock.json": "{}"},
		want: map[string][]string{"testing": {"Test runner: node:test.", "Test script: `node --test`; run it with `npm run test`.",
			"import { describe, it } from \"node:test\";\nimport assert from \"node:assert/strict\";"}},
		absent: map[string][]string{"testing": {"vi.useFakeTimers", "expect("}},
	},
}

// jvmRustMatrix covers what the Rust and Java standards claim: the Rust
// version and edition (lint reasons need 1.81, async fn edition 2018), and
// the Java build tool and version (records and Stream.toList need 16,
// virtual threads 21).
var jvmRustMatrix = []matrixCase{
	{
		name: "rust 1.81 edition 2021", lang: "rust",
		files: map[string]string{"Cargo.toml": "[package]\nname = \"shop\"\nedition = \"2021\"\nrust-version = \"1.81\"\n"},
		want: map[string][]string{
			"code-quality": {"Rust: 1.81 (from rust-version in Cargo.toml); edition 2021.", `reason = "...")]`},
			"architecture": {"Crate `shop` (Rust 1.81, edition 2021)."},
		},
	},
	{
		name: "rust without edition or version", lang: "rust",
		files: map[string]string{"Cargo.toml": "[package]\nname = \"shop\"\n", "rust-toolchain.toml": "[toolchain]\nchannel = \"stable\"\n"},
		want: map[string][]string{
			"concurrency":  {"Rust version: not detected", "edition not set, so Cargo uses 2015"},
			"code-quality": {"`#[allow(clippy::too_many_arguments)] // reason: ...`", "need Rust 1.81, and this crate declares no `rust-version`"},
			"architecture": {"(Rust version not detected, edition not set: 2015)"},
		},
		absent: map[string][]string{"code-quality": {`reason = "...")]` + "`\n"}},
	},
	{
		name: "rust version pinned by the toolchain file", lang: "rust",
		files: map[string]string{"Cargo.toml": "[package]\nname = \"shop\"\nedition = \"2024\"\n", "rust-toolchain.toml": "[toolchain]\nchannel = \"1.85.0\"\n"},
		want:  map[string][]string{"concurrency": {"Rust: 1.85.0 (from rust-toolchain.toml); edition 2024."}},
	},
	{
		name: "java 11 maven", lang: "java",
		files: map[string]string{"pom.xml": "<project><groupId>com.example</groupId><artifactId>shop</artifactId><properties><maven.compiler.release>11</maven.compiler.release></properties></project>\n"},
		want: map[string][]string{
			"concurrency":  {"Java 11 (from pom.xml): virtual threads need Java 21", "Executors.newFixedThreadPool(8)", ".collect(Collectors.toList())"},
			"code-quality": {"Build: maven, Java 11.", "Java 11 has no records (Java 16)"},
			"testing":      {"Build: maven; tests run with `mvn verify`."},
		},
		absent: map[string][]string{"concurrency": {"newVirtualThreadPerTaskExecutor", "))).toList()"}},
	},
	{
		name: "java 21 gradle", lang: "java",
		files: map[string]string{"build.gradle": "java { toolchain { languageVersion = JavaLanguageVersion.of(21) } }\n"},
		want: map[string][]string{
			"concurrency":  {"Java 21 (from build.gradle): virtual threads are available", "newVirtualThreadPerTaskExecutor", ".toList();"},
			"testing":      {"Build: gradle; tests run with `./gradlew check`."},
			"architecture": {"Built with gradle, Java 21."},
		},
		absent: map[string][]string{"code-quality": {"has no records", "records need"}},
	},
	{
		name: "java without a build file", lang: "java",
		files: map[string]string{"src/main/java/App.java": "class App {}\n"},
		want: map[string][]string{
			"testing":      {"Build: not detected (no pom.xml or build.gradle)"},
			"architecture": {"Built with a build tool not detected (no pom.xml or build.gradle), Java version not detected."},
			"concurrency":  {"Java version: not detected", "Executors.newFixedThreadPool(8)"},
			"code-quality": {"The Java version was not detected, and records need (Java 16)"},
		},
		absent: map[string][]string{"testing": {"Build: gradle", "Build: maven"}},
	},
}

func TestLanguageMatrix(t *testing.T) {
	var all []matrixCase
	all = append(all, goMatrix...)
	all = append(all, pythonMatrix...)
	all = append(all, nodeMatrix...)
	all = append(all, jvmRustMatrix...)
	var examples []examplecheck.Block // every sample's, checked together below
	ran := 0                          // samples not filtered out by -run
	for _, c := range all {
		t.Run(c.name, func(t *testing.T) {
			ran++
			rendered := renderSample(t, c.lang, c.files)
			if len(rendered) != len(LanguageTopics) {
				t.Fatalf("rendered %d topics, want %d", len(rendered), len(LanguageTopics))
			}
			for topic, text := range rendered {
				if strings.Contains(text, "{%") || strings.Contains(text, "<no value>") || strings.Contains(text, "\n\n\n") {
					t.Errorf("%s-%s.md is not cleanly rendered:\n%s", c.lang, topic, text)
				}
			}
			for topic, texts := range c.want {
				for _, s := range texts {
					if !strings.Contains(rendered[topic], s) {
						t.Errorf("%s-%s.md lacks %q:\n%s", c.lang, topic, s, rendered[topic])
					}
				}
			}
			for topic, texts := range c.absent {
				for _, s := range texts {
					if strings.Contains(rendered[topic], s) {
						t.Errorf("%s-%s.md says %q, which does not hold for this project", c.lang, topic, s)
					}
				}
			}
			if c.goVersion != "" {
				checkGoExamples(t, c.goVersion, rendered)
			}
			if c.pyVersion != "" {
				checkPythonExamples(t, c.pyVersion, rendered)
			}
			examples = append(examples, matrixExamples(c.name, c.lang, rendered)...)
		})
	}
	t.Run("examples", func(t *testing.T) { checkAllMatrixExamples(t, examples, ran == len(all)) })
}
