package gates

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileExclusions(t *testing.T) {
	whole := addedLines{whole: true}
	cases := []struct {
		name, file, src string
		added           addedLines
		want            []string // label of each exclusion
	}{
		{"a pragma on a block hides the block", "greet.py",
			"def greet(name):\n    if name == \"\":  # pragma: no cover\n        return \"hello, world\"\n\n    return \"hello, \" + name\n", whole,
			[]string{"greet.py:2 # pragma: no cover (2 lines)"}},
		{"a pragma on a decorator hides the function", "a.py",
			"@cached  # pragma: no cover\ndef f():\n    return 1\n\nx = 2\n", whole,
			[]string{"a.py:1 # pragma: no cover (3 lines)"}},
		{"a pragma on one line", "a.py", "x = 1  # pragma: no cover\ny = 2\n", whole,
			[]string{"a.py:1 # pragma: no cover (1 line)"}},
		{"an old pragma over old code is the base's", "a.py", "x = 1  # pragma: no cover\ny = 2\n", addedLines{lines: map[int]bool{2: true}}, nil},
		{"v8 ignore next hides the statement after it", "greet.ts",
			"export function greet(name: string): string {\n  /* v8 ignore next */\n  if (name === \"\") {\n    return \"hello, world\";\n  } else {\n    log();\n  }\n  return \"hello, \" + name;\n}\n", whole,
			[]string{"greet.ts:2 /* v8 ignore next */ (5 lines)"}},
		{"istanbul ignore if on the same line", "a.js", "/* istanbul ignore if */ if (x) {\n  y();\n}\nz();\n", whole,
			[]string{"a.js:1 /* istanbul ignore if */ (3 lines)"}},
		{"c8 ignore start to stop", "a.js", "a();\n/* c8 ignore start */\nb();\nc();\n/* c8 ignore stop */\nd();\n", whole,
			[]string{"a.js:2 /* c8 ignore start */ (2 lines)"}},
		{"istanbul ignore file", "a.ts", "/* istanbul ignore file */\na();\nb();\n", whole,
			[]string{"a.ts:1 /* istanbul ignore file */ (2 lines)"}},
		{"an old hint over code the session added", "a.js", "/* v8 ignore start */\nb();\nc();\n/* v8 ignore stop */\n", addedLines{lines: map[int]bool{3: true}},
			[]string{"a.js:1 /* v8 ignore start */ (1 line)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, x := range fileExclusions(tc.file, []byte(tc.src), tc.added) {
				got = append(got, x.label())
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Against git HEAD: an exclusion committed before is the base's; one the
// work adds, in a tracked file or a new one, counts, and test files never do.
func TestSessionExclusionsAgainstGitHead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(rel, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("old.py", "def main():  # pragma: no cover\n    run()\n")
	write("greet.py", "def greet(name):\n    return name\n")
	run("add", ".")
	run("commit", "-q", "-m", "base")
	write("greet.py", "def greet(name):\n    if not name:  # pragma: no cover\n        return \"world\"\n    return name\n")
	write("new.ts", "// v8 ignore next\nexport const f = () => 1;\n")
	write("test_greet.py", "def test_x():  # pragma: no cover\n    assert True\n")
	var got []string
	for _, x := range sessionExclusions(root, sessionChanges(context.Background(), Env{Root: root})) {
		got = append(got, x.label())
	}
	want := "greet.py:2 # pragma: no cover (2 lines)|new.ts:1 // v8 ignore next (1 line)"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}

	rep := CoverageReport{Covered: 4, Total: 4, Percent: 100, Files: []FileCoverage{{File: "/abs/greet.py", Covered: 2, Total: 2, Percent: 100}}}
	rep.withExclusions(sessionExclusions(root, sessionChanges(context.Background(), Env{Root: root})))
	if rep.Total != 7 || round2(rep.Percent) != 57.14 || rep.Files[0].Total != 4 || len(rep.Files) != 2 {
		t.Errorf("the hidden lines are not counted as uncovered: %+v", rep)
	}
}
