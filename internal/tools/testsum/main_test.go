package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outcomes is a module whose packages pass, fail, skip, panic, exit
// early, do not build and have no tests.
func outcomes(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"ok/ok_test.go": `package ok
import "testing"
func TestA(t *testing.T) {}
func TestB(t *testing.T) {
	t.Run("one", func(t *testing.T) {})
	t.Run("two", func(t *testing.T) {})
	t.Run("three", func(t *testing.T) { t.Skip("not here") })
}
`,
		"bad/bad_test.go": `package bad
import "testing"
func TestF(t *testing.T) { t.Error("F went wrong") }
func TestG(t *testing.T) {
	t.Run("good", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Error("G/bad went wrong") })
}
func TestH(t *testing.T) {
	t.Run("sub", func(t *testing.T) {})
	t.Error("H itself went wrong")
}
`,
		"panics/panics_test.go": `package panics
import "testing"
func TestOK(t *testing.T) {}
func TestP(t *testing.T) { panic("P panicked") }
`,
		"exits/exits_test.go": `package exits
import ("os"; "testing")
func TestMain(m *testing.M) { println("TestMain gave up"); os.Exit(3) }
func TestNeverRuns(t *testing.T) {}
`,
		"nobuild/nobuild_test.go": "package nobuild\nimport \"testing\"\nfunc TestX(t *testing.T) { undefinedThing() }\n",
		"none/none.go":            "package none\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCountsEveryOutcome(t *testing.T) {
	dir := outcomes(t)
	var out, errb bytes.Buffer
	code := run([][]string{{"-count=1", "./..."}}, dir, &out, &errb)
	got := out.String()
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	// ok: 3 passed, 1 skipped; bad: 2 passed, 3 failed (F, G/bad, H);
	// panics: 1 passed, 1 failed; exits and nobuild: 1 failed each.
	if last := lines[len(lines)-1]; last != "6 passed, 6 failed (bad.TestF, bad.TestG/bad, bad.TestH, example.com/m/exits (the package), example.com/m/nobuild (the package), panics.TestP), 1 skipped" {
		t.Errorf("closing line %q\n%s", last, got)
	}
	for _, want := range []string{
		"ok  \texample.com/m/ok", "?   \texample.com/m/none", "FAIL\texample.com/m/bad",
		"F went wrong", "G/bad went wrong", "H itself went wrong", "--- FAIL: TestH",
		"panic: P panicked", "TestMain gave up", "undefinedThing", "FAIL\texample.com/m/nobuild",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(got, "Skipped, and why:\n  ok.TestB/three: not here\n") {
		t.Errorf("the skipped test is not named with its reason:\n%s", got)
	}
	for _, unwanted := range []string{"=== RUN", "--- PASS"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("output has %q:\n%s", unwanted, got)
		}
	}
}

func TestAllPassedHasNoSkippedCount(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package a\nimport \"testing\"\nfunc TestA(t *testing.T) {}\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([][]string{{"-count=1", "."}}, dir, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.HasSuffix(out.String(), "\n1 passed, 0 failed\n") {
		t.Errorf("output:\n%s", out.String())
	}
}

// go test failing before any package runs (a bad flag) is a failure too.
func TestGoTestErrorIsAFailure(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([][]string{{"-nosuchflag", "."}}, t.TempDir(), &out, &errb); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.HasSuffix(out.String(), "0 passed, 1 failed (go test)\n") {
		t.Errorf("output:\n%s", out.String())
	}
}

// Runs given with --and go at once and are counted together.
func TestRunsCountedTogether(t *testing.T) {
	if got := splitRuns([]string{"-race", "./a", "--and", "-count=1", "./b"}); len(got) != 2 ||
		strings.Join(got[0], " ") != "-race ./a" || strings.Join(got[1], " ") != "-count=1 ./b" {
		t.Fatalf("splitRuns: %q", got)
	}
	dir := outcomes(t)
	var out, errb bytes.Buffer
	code := run([][]string{{"-count=1", "./ok", "./none"}, {"-count=1", "./bad"}}, dir, &out, &errb)
	if code != 1 || !strings.HasSuffix(out.String(), "\n5 passed, 3 failed (bad.TestF, bad.TestG/bad, bad.TestH), 1 skipped\n") {
		t.Errorf("exit %d, output:\n%s", code, out.String())
	}
	for _, want := range []string{"ok  \texample.com/m/ok", "?   \texample.com/m/none", "FAIL\texample.com/m/bad"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// A timeout's goroutine dump is cut to its first goroutine; the test that
// hung is still named.
func TestTimeoutDumpIsCut(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte(`package a
import ("testing"; "time")
func TestHangs(t *testing.T) {
	for i := 0; i < 20; i++ { go func() { time.Sleep(time.Hour) }() }
	time.Sleep(time.Hour)
}
`), 0o644)
	var out, errb bytes.Buffer
	if code := run([][]string{{"-count=1", "-timeout=1s", "."}}, dir, &out, &errb); code != 1 {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	got := out.String()
	if strings.Count(got, "goroutine ") > 2 || !strings.Contains(got, "lines of the goroutine dump left out") {
		t.Errorf("the dump is not cut:\n%s", got)
	}
	if !strings.Contains(got, "TestHangs") || !strings.Contains(got, "test timed out") {
		t.Errorf("the hung test is not named:\n%s", got)
	}
}

func TestSkippedTestsShareTheirReason(t *testing.T) {
	var out bytes.Buffer
	printSkipped(&out, map[string][]string{
		"a long test: scripts/test.sh --long runs it": {"e2e.TestB", "e2e.TestA", "upgrade.TestC"},
		"no Chromium here":                            {"browser.TestShot"},
	})
	want := "Skipped, and why:\n" +
		"  a long test: scripts/test.sh --long runs it (3): e2e.TestA, e2e.TestB, upgrade.TestC\n" +
		"  browser.TestShot: no Chromium here\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
