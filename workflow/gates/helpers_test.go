package gates

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project makes a temporary project root holding files (slash paths ->
// content) and returns its absolute path.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runCheck runs c in env with a background context, after checking that the
// result is well-formed: its type, one message, a remediation exactly when it
// failed.
func runCheck(t *testing.T, c Check, env Env) Result {
	t.Helper()
	r := c.Run(context.Background(), env)
	assertWellFormed(t, c, r)
	return r
}

func assertWellFormed(t *testing.T, c Check, r Result) {
	t.Helper()
	if r.Type != c.Type {
		t.Errorf("result type %q, want %q", r.Type, c.Type)
	}
	if r.Message == "" || strings.Contains(r.Message, "\n") {
		t.Errorf("message %q: want one line", r.Message)
	}
	if r.Passed && r.Remediation != "" {
		t.Errorf("passed result has remediation %q", r.Remediation)
	}
	if !r.Passed && (r.Remediation == "" || strings.Contains(r.Remediation, "\n")) {
		t.Errorf("failed result has remediation %q: want one line", r.Remediation)
	}
	if len(r.Output) > OutputTailBytes {
		t.Errorf("output is %d bytes, more than %d", len(r.Output), OutputTailBytes)
	}
}

func contains(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s %q does not contain %q", what, s, sub)
		}
	}
}

func ptr[T any](v T) *T { return &v }
