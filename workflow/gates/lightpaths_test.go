package gates

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A change document on disk, judged by change_doc as a gate would.
func TestChangeDoc(t *testing.T) {
	root := t.TempDir()
	dir := ".agentos/specs/2026-01-01-greet-empty"
	doc := func(criteria, command string) string {
		return "# Greet\n\n## What\nGreet returns a greeting of the whole world when it is given an empty name.\n\n" +
			"## Why\nA visitor who has not told us their name still deserves a proper greeting.\n\n## Acceptance criteria\n" +
			criteria + "\n## Test command\n`" + command + "`\n"
	}
	check := Check{Type: TypeChangeDoc, Params: map[string]string{"file": dir + "/change.md", "max_criteria": "2"}}
	env := Env{Root: root, Vars: map[string]string{"test_command": "go test ./..."}}
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"honest", doc("- AC-greet-empty-1: greets the world.\n- [x] AC-greet-empty-2: keeps names.\n", "go test ./..."), ""},
		{"none", doc("- greets the world.\n", "go test ./..."), "lists no acceptance criterion"},
		{"too many", doc("- AC-greet-empty-1: a.\n- AC-greet-empty-2: b.\n- AC-greet-empty-3: c.\n", "go test ./..."), "at most 2"},
		{"twice", doc("- AC-greet-empty-1: a.\n- AC-greet-empty-1: b.\n", "go test ./..."), "is given twice"},
		{"foreign", doc("- AC-login-1: a.\n", "go test ./..."), "does not name this change"},
		{"command", doc("- AC-greet-empty-1: a.\n", "true"), "configured test command"},
		{"no why", strings.Replace(doc("- AC-greet-empty-1: a.\n", "go test ./..."), "## Why", "## Later", 1), "Why"},
	} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "change.md"), []byte(tc.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		r := check.Run(context.Background(), env)
		switch {
		case tc.want == "" && !r.Passed:
			t.Errorf("%s: failed: %s", tc.name, r.Message)
		case tc.want != "" && (r.Passed || !strings.Contains(r.Message+r.Remediation, tc.want)):
			t.Errorf("%s: want a failure saying %q, got %v: %s / %s", tc.name, tc.want, r.Passed, r.Message, r.Remediation)
		}
	}
}

func TestChangedFiles(t *testing.T) {
	diff := "diff --git a/greet.go b/greet.go\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/dir/a b.go b/dir/a b.go\nnew file mode 100644\n"
	if got := changedFiles([]byte(diff)); len(got) != 2 || got[0] != "greet.go" || got[1] != "dir/a b.go" {
		t.Errorf("changedFiles = %q", got)
	}
}

func TestLoadFailures(t *testing.T) {
	for s, want := range map[string]bool{
		"ImportError: cannot import name 'greet_all' from 'greet'":  true,
		"TypeError: greetAll is not a function":                     true,
		"expected 'hello, ' to be 'hello, world'":                   false,
		`greet_test.go:8: Greet(empty) = "hello, ", want the world`: false,
	} {
		if isLoadFailure(s) != want {
			t.Errorf("isLoadFailure(%q) = %v", s, !want)
		}
	}
}
