//go:build linux

package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// The gate sandbox's cost (issue 30): the same test command, the one
// agentos's install writes for the project (package testcmd), run bare as an
// unsandboxed gate runs it (/bin/sh -c in the project) and sandboxed as a
// gate runs it (sandbox.New with the engine's options, the command, Close).
// The benchmark binary is its own sandbox's first process: importing
// internal/sandbox installs the hook.

// gateSandboxOptions are the options workflow's engine prepares a gate's
// sandbox with.
var gateSandboxOptions = sandbox.Options{Hidden: []string{".agentos/state", ".agentos/backups"}, Outputs: ".agentos/.cache"}

// needSandbox skips a benchmark where commands cannot run sandboxed.
func needSandbox(b *testing.B) {
	b.Helper()
	if err := sandbox.Check(); err != nil {
		b.Skipf("no sandbox here: %v", err)
	}
}

// writeFiles writes files (slash paths relative to root) under root.
func writeFiles(b *testing.B, root string, files map[string]string) {
	b.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// runBare runs command as an unsandboxed gate does: /bin/sh -c in dir.
func runBare(ctx context.Context, dir, command string) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v\n%s", command, err, tail(out.String()))
	}
	return nil
}

// runSandboxed runs command as a gate does in a sandbox: one sandbox
// prepared for the run over project, the command in dir, the sandbox
// removed.
func runSandboxed(ctx context.Context, project, dir, command string) error {
	sb, err := sandbox.New(project, gateSandboxOptions)
	if err != nil {
		return err
	}
	defer sb.Close()
	cmd, err := sb.Command(ctx, dir, command)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The kernel ends the sandbox when the thread that started it ends.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("sandboxed %s: %v\n%s", command, err, tail(out.String()))
	}
	return nil
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// gateProject is one project of the benchmark: made in root, with the
// command its gate runs.
type gateProject struct {
	name string
	// setup writes the project and returns its command and the
	// environment it runs with ("NAME=value").
	setup func(b *testing.B, root string) (command string, env []string)
}

// BenchmarkGateSandbox: one run of a project's test command (the default
// agentos's install writes, with coverage and a test report), bare and
// sandboxed, on a Go, a Python and a TypeScript project; and `true`, the
// sandbox's fixed cost. ns/op is one bare and one sandboxed run; the metrics
// give each (bare-ns/op, sandboxed-ns/op) and sandboxed over bare (ratio).
func BenchmarkGateSandbox(b *testing.B) {
	needSandbox(b)
	base := b.TempDir()
	for _, p := range []gateProject{
		{"true", func(b *testing.B, root string) (string, []string) { goProject(b, root); return "true", nil }},
		{"go", goProject},
		{"python", pythonProject},
		{"typescript", typescriptProject},
	} {
		// The project is made once; the function below runs once per
		// -count and once more to size b.N.
		root := filepath.Join(base, p.name)
		var command string
		var env []string
		b.Run(p.name, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			if command == "" {
				writeFiles(b, root, map[string]string{".agentos/.cache/.keep": "", ".agentos/state/.keep": ""})
				command, env = p.setup(b, root)
			}
			for _, kv := range env {
				name, value, _ := strings.Cut(kv, "=")
				b.Setenv(name, value)
			}
			// Once each before timing: the Go build cache and Python's
			// bytecode are warm, and the sandbox's one-time check is done.
			if err := runBare(ctx, root, command); err != nil {
				b.Fatal(err)
			}
			if err := runSandboxed(ctx, root, root, command); err != nil {
				b.Fatal(err)
			}
			// Bare and sandboxed runs alternate, first one then the other,
			// so that the load of a shared machine falls on both alike.
			var bare, sandboxed time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k := 0; k < 2; k++ {
					t0 := time.Now()
					var err error
					if (i+k)%2 == 0 {
						err = runBare(ctx, root, command)
						bare += time.Since(t0)
					} else {
						err = runSandboxed(ctx, root, root, command)
						sandboxed += time.Since(t0)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/op")
			b.ReportMetric(float64(sandboxed.Nanoseconds())/float64(b.N), "sandboxed-ns/op")
			b.ReportMetric(float64(sandboxed)/float64(bare), "ratio")
		})
	}
}

// goProject is a small module: four packages with their tests, one using
// the others. Every run links and runs the tests (GOFLAGS=-count=1: a gate
// runs after a change, never on cached results); the packages' builds are in
// the warm GOCACHE.
func goProject(b *testing.B, root string) (string, []string) {
	files := map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n"}
	for _, pkg := range []string{"money", "catalog", "tax", "cart"} {
		var src, test strings.Builder
		fmt.Fprintf(&src, "// Package %s is part of the shop.\npackage %s\n\nimport (\n\t\"fmt\"\n\t\"sort\"\n\t\"strings\"\n)\n\n", pkg, pkg)
		fmt.Fprintf(&test, "package %s\n\nimport \"testing\"\n\n", pkg)
		for i := 0; i < 8; i++ {
			fmt.Fprintf(&src, "// Sum%d adds the amounts, in cents, with a surcharge of %d.\nfunc Sum%d(xs []int) int {\n\tt := %d\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\n", i, i, i, i)
			fmt.Fprintf(&src, "// Label%d names the items, sorted.\nfunc Label%d(items []string) string {\n\ts := append([]string(nil), items...)\n\tsort.Strings(s)\n\treturn fmt.Sprintf(\"%%d:%%s\", %d, strings.Join(s, \",\"))\n}\n\n", i, i, i)
			fmt.Fprintf(&test, "func TestSum%d(t *testing.T) {\n\tfor _, c := range []struct{ in []int; want int }{{nil, %d}, {[]int{1, 2}, %d}, {[]int{-5}, %d}} {\n\t\tif got := Sum%d(c.in); got != c.want {\n\t\t\tt.Errorf(\"Sum%d(%%v) = %%d, want %%d\", c.in, got, c.want)\n\t\t}\n\t}\n}\n\n", i, i, i+3, i-5, i, i)
			fmt.Fprintf(&test, "func TestLabel%d(t *testing.T) {\n\tif got, want := Label%d([]string{\"b\", \"a\"}), \"%d:a,b\"; got != want {\n\t\tt.Errorf(\"got %%q, want %%q\", got, want)\n\t}\n}\n\n", i, i, i)
		}
		if pkg == "cart" {
			src.WriteString("// Total is the cart's total.\nfunc Total(xs []int) int { return Sum0(xs) + Sum1(xs) }\n")
		}
		files[pkg+"/"+pkg+".go"] = src.String()
		files[pkg+"/"+pkg+"_test.go"] = test.String()
	}
	files["cmd/shop/main.go"] = "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/shop/cart\"\n\t\"example.com/shop/catalog\"\n\t\"example.com/shop/money\"\n\t\"example.com/shop/tax\"\n)\n\n" +
		"func main() {\n\tfmt.Println(cart.Total([]int{1}), catalog.Sum0(nil), money.Sum0(nil), tax.Sum0(nil))\n}\n"
	writeFiles(b, root, files)
	d := testcmd.For(root)
	if d.Runner != testcmd.GoTest {
		b.Fatalf("runner %q, want go test", d.Runner)
	}
	return d.Command, []string{"GOFLAGS=-count=1"}
}

// pythonProject is a package of four modules with their tests, run by
// Debian's python3 with pytest and pytest-cov.
func pythonProject(b *testing.B, root string) (string, []string) {
	if err := exec.Command("/usr/bin/python3", "-c", "import pytest, pytest_cov").Run(); err != nil {
		b.Skip("Debian's python3 has no pytest and pytest-cov: run scripts/install-testrunners.sh")
	}
	files := map[string]string{
		"pyproject.toml":    "[project]\nname = \"shop\"\nversion = \"0.1.0\"\n",
		"shop/__init__.py":  "",
		"tests/__init__.py": "",
	}
	for _, mod := range []string{"money", "catalog", "tax", "cart"} {
		var src, test strings.Builder
		fmt.Fprintf(&test, "import pytest\n\nfrom shop import %s\n\n\n", mod)
		for i := 0; i < 8; i++ {
			fmt.Fprintf(&src, "def sum%d(xs):\n    \"\"\"Add the amounts, in cents, with a surcharge of %d.\"\"\"\n    t = %d\n    for x in xs:\n        t += x\n    return t\n\n\n", i, i, i)
			fmt.Fprintf(&src, "def label%d(items):\n    \"\"\"Name the items, sorted.\"\"\"\n    return \"%d:\" + \",\".join(sorted(items))\n\n\n", i, i)
			fmt.Fprintf(&test, "@pytest.mark.parametrize(\"xs,want\", [([], %d), ([1, 2], %d), ([-5], %d)])\ndef test_sum%d(xs, want):\n    assert %s.sum%d(xs) == want\n\n\n", i, i+3, i-5, i, mod, i)
			fmt.Fprintf(&test, "def test_label%d():\n    assert %s.label%d([\"b\", \"a\"]) == \"%d:a,b\"\n\n\n", i, mod, i, i)
		}
		files["shop/"+mod+".py"] = src.String()
		files["tests/test_"+mod+".py"] = test.String()
	}
	writeFiles(b, root, files)
	d := testcmd.For(root)
	if d.Runner != testcmd.Pytest {
		b.Fatalf("runner %q, want pytest", d.Runner)
	}
	// The default command runs python3 from PATH: Debian's, not a pyenv's
	// found first.
	return d.Command, []string{"PATH=/usr/bin:" + os.Getenv("PATH")}
}

// typescriptProject is four TypeScript modules with their tests, run by
// Vitest with V8 coverage, from node_modules in the project: a copy of what
// scripts/install-testrunners.sh installed (Vitest 4.1.12).
func typescriptProject(b *testing.B, root string) (string, []string) {
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not installed")
	}
	cache := os.Getenv("AGENTOS_TESTRUNNERS_CACHE")
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			b.Skip("no cache folder to find Vitest in")
		}
		cache = filepath.Join(base, "agentos-testrunners")
	}
	modules := filepath.Join(cache, "vitest", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, ".bin", "vitest")); err != nil {
		b.Skipf("Vitest is not installed in %s: run scripts/install-testrunners.sh", filepath.Dir(modules))
	}
	if out, err := exec.Command("cp", "-a", modules, filepath.Join(root, "node_modules")).CombinedOutput(); err != nil {
		b.Fatalf("copying node_modules: %v\n%s", err, out)
	}
	files := map[string]string{
		"package.json":  `{"name": "shop", "type": "module", "scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "^4.1.12", "@vitest/coverage-v8": "^4.1.12", "typescript": "^5.9.3"}}`,
		"tsconfig.json": `{"compilerOptions": {"strict": true, "module": "esnext", "target": "es2022", "moduleResolution": "bundler"}}`,
	}
	for _, mod := range []string{"money", "catalog", "tax", "cart"} {
		var src, test strings.Builder
		fmt.Fprintf(&test, "import { describe, expect, it } from \"vitest\";\nimport * as m from \"./%s\";\n\ndescribe(\"%s\", () => {\n", mod, mod)
		for i := 0; i < 8; i++ {
			fmt.Fprintf(&src, "/** Adds the amounts, in cents, with a surcharge of %d. */\nexport function sum%d(xs: number[]): number {\n  let t = %d;\n  for (const x of xs) {\n    t += x;\n  }\n  return t;\n}\n\n", i, i, i)
			fmt.Fprintf(&src, "/** Names the items, sorted. */\nexport function label%d(items: string[]): string {\n  return \"%d:\" + [...items].sort().join(\",\");\n}\n\n", i, i)
			fmt.Fprintf(&test, "  it.each([[[], %d], [[1, 2], %d], [[-5], %d]])(\"sum%d(%%j) is %%i\", (xs: number[], want: number) => {\n    expect(m.sum%d(xs)).toBe(want);\n  });\n", i, i+3, i-5, i, i)
			fmt.Fprintf(&test, "  it(\"label%d sorts\", () => {\n    expect(m.label%d([\"b\", \"a\"])).toBe(\"%d:a,b\");\n  });\n", i, i, i)
		}
		test.WriteString("});\n")
		files["src/"+mod+".ts"] = src.String()
		files["src/"+mod+".test.ts"] = test.String()
	}
	writeFiles(b, root, files)
	d := testcmd.For(root)
	if d.Runner != testcmd.Vitest {
		b.Fatalf("runner %q, want vitest", d.Runner)
	}
	return d.Command, nil
}

// BenchmarkGateCopy: preparing the run's copy of a project of 50,000
// files (500 folders of 100 files of 0.2–2.2 KB, 59 MB, committed) and
// removing it after, three ways: the sandbox's overlay (sandbox.New, a sandboxed `true`,
// Close), `git worktree add` of the commit (then `git worktree remove`),
// and a recursive copy (`cp -a`, then `rm -rf`). ns/op is the whole; the
// metrics split preparing from removing.
func BenchmarkGateCopy(b *testing.B) {
	needSandbox(b)
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	root := b.TempDir()
	tree := filepath.Join(root, "tree")
	var tops []string
	for d := 0; d < 20; d++ {
		top := fmt.Sprintf("d%02d", d)
		tops = append(tops, top)
		for s := 0; s < 25; s++ {
			dir := filepath.Join(tree, top, fmt.Sprintf("s%02d", s))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := 0; f < 100; f++ {
				n := (d*2500 + s*100 + f)
				body := strings.Repeat(fmt.Sprintf("// line of file %d\n", n), 10+n%90)
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", f)), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", tree, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "tree")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// Warm the page cache and the sandbox's one-time check.
	if err := runBare(ctx, tree, "cat d*/*/* >/dev/null && git status --short >/dev/null"); err != nil {
		b.Fatal(err)
	}
	if err := runSandboxed(ctx, tree, tree, "true"); err != nil {
		b.Fatal(err)
	}
	ways := []struct {
		name            string
		prepare, remove func(dst string) error
	}{
		{"overlay", nil, nil},
		{"worktree", func(dst string) error {
			return runBare(ctx, tree, "git worktree add -q --detach "+dst+" HEAD")
		}, func(dst string) error {
			return runBare(ctx, tree, "git worktree remove --force "+dst)
		}},
		{"copy", func(dst string) error {
			return runBare(ctx, tree, "mkdir "+dst+" && cp -a "+strings.Join(tops, " ")+" "+dst+"/")
		}, func(dst string) error {
			return runBare(ctx, tree, "rm -rf "+dst)
		}},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			var prep, rm []time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if w.prepare == nil {
					sb, err := sandbox.New(tree, gateSandboxOptions)
					if err != nil {
						b.Fatal(err)
					}
					cmd, err := sb.Command(ctx, tree, "true")
					if err != nil {
						b.Fatal(err)
					}
					runtime.LockOSThread()
					out, err := cmd.CombinedOutput()
					runtime.UnlockOSThread()
					if err != nil {
						b.Fatalf("sandboxed true: %v\n%s", err, out)
					}
					t1 := time.Now()
					if err := sb.Close(); err != nil {
						b.Fatal(err)
					}
					prep, rm = append(prep, t1.Sub(t0)), append(rm, time.Since(t1))
					continue
				}
				dst := filepath.Join(root, fmt.Sprintf("copy-%d", i))
				if err := w.prepare(dst); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := w.remove(dst); err != nil {
					b.Fatal(err)
				}
				prep, rm = append(prep, t1.Sub(t0)), append(rm, time.Since(t1))
			}
			b.ReportMetric(median(prep).Seconds()*1000, "prepare-ms")
			b.ReportMetric(median(rm).Seconds()*1000, "remove-ms")
		})
	}
}

// median is the middle of ds (the upper middle of an even count).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
