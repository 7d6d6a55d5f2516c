package installer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/standards"
)

// fixedNow dates the generated standards for the duration of a test.
func fixedNow(t *testing.T, day time.Time) {
	t.Helper()
	old := now
	now = func() time.Time { return day }
	t.Cleanup(func() { now = old })
}

// languageSamples are small projects of each language with their tools set
// up, and what the generated standards must say about them.
var languageSamples = []struct {
	name      string
	files     map[string]string
	languages []string          // languages with generated standards
	want      map[string]string // file (under development/) -> text it must contain
	toolchain func(t *testing.T, tc map[string]Toolchain)
}{
	{
		name: "go",
		files: map[string]string{
			"go.mod":                   "module example.com/shop\n\ngo 1.24.0\n\nrequire (\n\tgithub.com/stretchr/testify v1.9.0\n\tgolang.org/x/sync v0.8.0\n)\n",
			"cmd/shop/main.go":         "package main\n",
			"internal/a/a.go":          "package a\n",
			".golangci.yml":            "linters:\n  enable: [errcheck]\n",
			".github/workflows/ci.yml": "on: push\n",
		},
		languages: []string{"go"},
		want: map[string]string{
			"go-concurrency.md":    "Go version: 1.24.0 (from go.mod): each loop iteration has its own variable",
			"go-testing.md":        "with `testify`",
			"go-architecture.md":   "Module `example.com/shop`, Go 1.24.0",
			"go-error-handling.md": "`errors.Join` and multiple `%w` verbs are available",
			"go-code-quality.md":   "`golangci-lint run` passes with the committed configuration",
		},
		toolchain: func(t *testing.T, tc map[string]Toolchain) {
			g := tc["go"]
			if g.Module != "example.com/shop" || g.Version != "1.24.0" || !slices.Contains(g.Linters, "golangci-lint") ||
				!slices.Equal(g.TestLibraries, []string{"testify"}) || !slices.Equal(g.Layout, []string{"cmd/", "internal/"}) {
				t.Errorf("go toolchain = %+v", g)
			}
		},
	},
	{
		name: "python",
		files: map[string]string{
			"pyproject.toml": `[project]
name = "shop"
requires-python = ">=3.12"
dependencies = ["fastapi>=0.110", "pydantic>=2"]

[project.optional-dependencies]
dev = ["pytest>=8", "pytest-asyncio", "pytest-cov", "mypy"]

[tool.ruff]
line-length = 100

[tool.pytest.ini_options]
asyncio_mode = "auto"
`,
			"uv.lock":              "",
			"src/shop/__init__.py": "",
			"tests/test_shop.py":   "def test_x(): pass\n",
		},
		languages: []string{"python"},
		want: map[string]string{
			"python-concurrency.md":    "Python: >=3.12 (from requires-python in pyproject.toml): `asyncio.TaskGroup` and `asyncio.timeout` are available",
			"python-testing.md":        "Test framework: pytest.",
			"python-architecture.md":   "(src layout)",
			"python-error-handling.md": "pydantic: its `ValidationError` maps to `VALIDATION_ERROR`",
			"python-code-quality.md":   "Linters and type checkers: `mypy` and `ruff`.",
		},
		toolchain: func(t *testing.T, tc map[string]Toolchain) {
			p := tc["python"]
			if p.Module != "shop" || p.BuildTool != "uv" || p.TestFramework != "pytest" ||
				!slices.Equal(p.Frameworks, []string{"fastapi"}) || len(p.Formatters) != 0 ||
				!slices.Equal(p.TestLibraries, []string{"pytest-asyncio", "pytest-cov"}) {
				t.Errorf("python toolchain = %+v", p)
			}
		},
	},

	{
		name: "typescript",
		files: map[string]string{
			"package.json": `{
  "name": "web-shop",
  "type": "module",
  "engines": {"node": ">=20"},
  "scripts": {"test": "vitest run"},
  "dependencies": {"express": "^4.19.0", "zod": "^3.23.0"},
  "devDependencies": {"typescript": "^5.6.0", "vitest": "^2.1.0", "eslint": "^9.0.0", "prettier": "^3.3.0", "supertest": "^7.0.0"}
}`,
			"pnpm-lock.yaml":   "",
			"tsconfig.json":    "{\n  // comments are allowed\n  \"compilerOptions\": {\"strict\": true}\n}\n",
			"eslint.config.js": "export default [];\n",
			"src/app.ts":       "export {}\n",
			"src/app.test.ts":  "export {}\n",
			"vitest.config.js": "export default {}\n",
		},
		languages: []string{"typescript"},
		want: map[string]string{
			"typescript-concurrency.md":    "Runtime: Node.js >=20 (`AbortSignal.timeout` and global `fetch` are available).",
			"typescript-testing.md":        "Test script: `vitest run`; run it with `pnpm run test`.",
			"typescript-architecture.md":   "Package `web-shop`, Node.js >=20, managed with pnpm.",
			"typescript-error-handling.md": "`strict` is on in tsconfig.json, so caught values are `unknown`.",
			"typescript-code-quality.md":   "pnpm exec tsc --noEmit",
		},
		toolchain: func(t *testing.T, tc map[string]Toolchain) {
			ts := tc["typescript"]
			if ts.BuildTool != "pnpm" || ts.TestFramework != "vitest" || !ts.Strict ||
				!slices.Equal(ts.Linters, []string{"eslint", "tsc"}) || !slices.Equal(ts.Formatters, []string{"prettier"}) ||
				!slices.Equal(ts.Frameworks, []string{"express"}) || !slices.Contains(ts.Libraries, "zod") {
				t.Errorf("typescript toolchain = %+v", ts)
			}
		},
	},
	{
		name: "javascript",
		files: map[string]string{
			"package.json":      `{"name": "tool", "scripts": {"test": "jest"}, "devDependencies": {"jest": "^29.0.0"}}`,
			"package-lock.json": "{}",
			".nvmrc":            "20.11.1\n",
			"index.js":          "module.exports = {}\n",
			"lib/util.js":       "module.exports = {}\n",
		},
		languages: []string{"javascript"},
		want: map[string]string{
			"javascript-concurrency.md":    "# JavaScript concurrency and async code",
			"javascript-testing.md":        "jest.useFakeTimers();",
			"javascript-architecture.md":   "Package `tool`, Node.js 20.11.1, managed with npm.",
			"javascript-error-handling.md": "Check `err instanceof Error` before reading properties.",
			"javascript-code-quality.md":   "No linter configured; add ESLint (or Biome).",
		},
	},

	{
		name: "rust",
		files: map[string]string{
			"Cargo.toml": `[package]
name = "shop"
version = "0.1.0"
edition = "2021"
rust-version = "1.80"

[dependencies]
tokio = { version = "1", features = ["full"] }
thiserror = "1"
anyhow = "1"

[dev-dependencies]
proptest = "1"
tempfile = "3"
`,
			"src/lib.rs":  "",
			"src/main.rs": "fn main() {}\n",
			"tests/a.rs":  "",
		},
		languages: []string{"rust"},
		want: map[string]string{
			"rust-concurrency.md":    "Rust: 1.80 (from rust-version in Cargo.toml); edition 2021.",
			"rust-testing.md":        "Test crates: `proptest`.",
			"rust-architecture.md":   "Crate `shop` (Rust 1.80, edition 2021).",
			"rust-error-handling.md": "Error crates: `anyhow` and `thiserror`.",
			"rust-code-quality.md":   "cargo clippy --all-targets --all-features -- -D warnings",
		},
		toolchain: func(t *testing.T, tc map[string]Toolchain) {
			r := tc["rust"]
			if r.Module != "shop" || !slices.Equal(r.Frameworks, []string{"tokio"}) ||
				!slices.Equal(r.Libraries, []string{"anyhow", "thiserror"}) || !slices.Equal(r.TestLibraries, []string{"proptest"}) {
				t.Errorf("rust toolchain = %+v", r)
			}
		},
	},
	{
		name: "java maven",
		files: map[string]string{
			"pom.xml": `<project>
  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId></parent>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <properties><java.version>21</java.version></properties>
  <dependencies>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId></dependency>
    <dependency><groupId>org.assertj</groupId><artifactId>assertj-core</artifactId></dependency>
    <dependency><groupId>org.testcontainers</groupId><artifactId>postgresql</artifactId></dependency>
  </dependencies>
  <build><plugins><plugin><groupId>com.diffplug.spotless</groupId><artifactId>spotless-maven-plugin</artifactId></plugin></plugins></build>
</project>
`,
			"src/main/java/com/example/shop/App.java":     "class App {}\n",
			"src/test/java/com/example/shop/AppTest.java": "class AppTest {}\n",
		},
		languages: []string{"java"},
		want: map[string]string{
			"java-concurrency.md":    "Executors.newVirtualThreadPerTaskExecutor()",
			"java-testing.md":        "Build: maven; tests run with `mvn verify`.",
			"java-architecture.md":   "Project `com.example:shop`, Java 21, built with maven.",
			"java-error-handling.md": "Spring Boot: map exceptions in one `@RestControllerAdvice`.",
			"java-code-quality.md":   "mvn -B verify   # includes spotless:check",
		},
		toolchain: func(t *testing.T, tc map[string]Toolchain) {
			j := tc["java"]
			if j.Module != "com.example:shop" || j.Version != "21" || j.TestFramework != "JUnit 5" ||
				!slices.Equal(j.TestLibraries, []string{"assertj", "testcontainers"}) || !slices.Equal(j.Frameworks, []string{"spring-boot"}) ||
				!slices.Equal(j.Layout, []string{"src/main/java/", "src/test/java/"}) {
				t.Errorf("java toolchain = %+v", j)
			}
		},
	},
	{
		name: "java gradle 17",
		files: map[string]string{
			"build.gradle.kts":     "plugins { java }\njava { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\ndependencies { testImplementation(\"junit:junit:4.13.2\") }\n",
			"settings.gradle.kts":  "rootProject.name = \"ledger\"\n",
			"src/main/java/A.java": "class A {}\n",
		},
		languages: []string{"java"},
		want: map[string]string{
			"java-concurrency.md":  "Java 17 (from build.gradle.kts): virtual threads need Java 21; use bounded thread pools.",
			"java-testing.md":      "JUnit 4 is in use: write new tests with JUnit 5",
			"java-code-quality.md": "No formatter plugin found in the build.",
		},
	},
}

func TestLanguageStandardsGenerated(t *testing.T) {
	fixedNow(t, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	for _, sample := range languageSamples {
		t.Run(sample.name, func(t *testing.T) {
			t.Parallel()
			root, binary := newProject(t, sample.files)
			report := install(t, root, binary)
			dev := filepath.Join(root, ".agentos", "standards", "development")

			var generated []string
			for _, s := range report.Steps {
				if s.Kind == StepStandard && strings.HasPrefix(s.Path, ".agentos/standards/development/") {
					generated = append(generated, strings.TrimPrefix(s.Path, ".agentos/standards/development/"))
					if s.Action != Created {
						t.Errorf("step %+v", s)
					}
				}
			}
			var want []string
			for _, lang := range sample.languages {
				for _, topic := range LanguageTopics {
					want = append(want, lang+"-"+topic+".md")
				}
			}
			if !slices.Equal(generated, want) {
				t.Errorf("generated %v, want %v", generated, want)
			}
			for file, text := range sample.want {
				wantContains(t, readTestFile(t, filepath.Join(dev, file)), text)
			}
			for _, f := range generated {
				content := readTestFile(t, filepath.Join(dev, f))
				wantContains(t, content, "Created: 2026-12-01\nLast Updated: 2026-12-01\nNext review: 2027-06-01\n")
				if strings.Contains(content, "{%") || strings.Contains(content, "<no value>") || strings.Contains(content, "\n\n\n") {
					t.Errorf("%s is not cleanly rendered:\n%s", f, content)
				}
			}

			// Everything installed, universal and generated, passes lint.
			files, err := standards.Files(filepath.Join(root, ".agentos", "standards"))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range standards.Lint(files) {
				t.Error(p)
			}

			if sample.toolchain != nil {
				p, _ := project.At(root)
				tcs := map[string]Toolchain{}
				for _, lang := range sample.languages {
					tcs[lang] = DetectToolchain(p.Root, lang, report.Detected.SourcePaths)
				}
				sample.toolchain(t, tcs)
			}
		})
	}
}

func TestLanguageStandardsNeverOverwritten(t *testing.T) {
	fixedNow(t, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	root, binary := newProject(t, map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n", "main.go": "package main\n"})
	install(t, root, binary)
	dev := filepath.Join(root, ".agentos", "standards", "development")
	edited := filepath.Join(dev, "go-testing.md")
	writeTestFile(t, edited, "ours\n")
	removed := filepath.Join(dev, "go-architecture.md")
	if err := os.Remove(removed); err != nil {
		t.Fatal(err)
	}

	// A later day: the footer dates alone do not make a file differ.
	fixedNow(t, time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC))
	report := install(t, root, binary)
	steps := standardSteps(report)
	for file, want := range map[string]Action{
		"go-testing.md":        Kept,
		"go-architecture.md":   Created,
		"go-concurrency.md":    Unchanged,
		"go-error-handling.md": Unchanged,
	} {
		if got := steps[".agentos/standards/development/"+file].Action; got != want {
			t.Errorf("%s: %s, want %s", file, got, want)
		}
	}
	if got := readTestFile(t, edited); got != "ours\n" {
		t.Errorf("edited language standard overwritten: %q", got)
	}
	wantContains(t, readTestFile(t, removed), "Created: 2027-03-01\n")
	wantContains(t, readTestFile(t, filepath.Join(dev, "go-concurrency.md")), "Created: 2026-12-01\n")
	wantContains(t, printed(report), "kept (edited) .agentos/standards/development/go-testing.md")

	// A user's own standard in development/ is never touched either.
	own := filepath.Join(dev, "our-api.md")
	writeTestFile(t, own, "x\n")
	install(t, root, binary)
	if got := readTestFile(t, own); got != "x\n" {
		t.Errorf("own standard changed: %q", got)
	}
}

func TestStandardLanguages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want []string }{
		{[]string{"typescript", "javascript", "go"}, []string{"typescript", "go"}},
		{[]string{"javascript", "kotlin", "c"}, []string{"javascript"}},
		{[]string{"python", "python"}, []string{"python"}},
		{nil, nil},
	} {
		var want []string
		for _, l := range tc.want {
			if hasTemplates(l) {
				want = append(want, l)
			}
		}
		if got := standardLanguages(tc.in); !slices.Equal(got, want) {
			t.Errorf("standardLanguages(%v) = %v, want %v", tc.in, got, want)
		}
	}
}

func TestAtLeast(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v, min string
		want   bool
	}{
		{"1.22", "1.22", true},
		{"1.22.3", "1.22", true},
		{"1.21.9", "1.22", false},
		{">=3.11", "3.11", true},
		{"^3.9", "3.10", false},
		{"Node.js >=20", "18", true},
		{"", "1", false},
		{"2", "1.99", true},
		{"<4,>=3.9", "3.10", false},
		{">=3.11, <3.14", "3.11", true},
		{"~=3.10", "3.10", true},
		{"Node.js ^18 || ^20", "20", false},
		{"1.80, edition 2021", "1.75", true},
	} {
		if got := atLeast(tc.v, tc.min); got != tc.want {
			t.Errorf("atLeast(%q, %q) = %v", tc.v, tc.min, got)
		}
	}
}
