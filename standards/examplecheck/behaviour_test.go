package examplecheck_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/standards/examplecheck"
)

// exampleBlock returns the block of a universal standard in lang whose code
// contains marker.
func exampleBlock(t *testing.T, doc, lang, marker string) examplecheck.Block {
	t.Helper()
	data, err := fs.ReadFile(assets.FS(), assets.UniversalStandards+"/"+doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range examplecheck.Extract(doc, data) {
		if b.Lang == lang && strings.Contains(b.Code, marker) {
			return b
		}
	}
	t.Fatalf("%s has no %s example containing %q", doc, lang, marker)
	return examplecheck.Block{}
}

// The transfer example refuses a transfer to a missing account without
// keeping the debit (testdata/behaviour/transfer_test.go.txt runs it).
func TestTransferExampleRefusesMissingAccount(t *testing.T) {
	b := exampleBlock(t, "database/transactions-and-isolation.md", "go", "func Transfer(")
	files, err := examplecheck.GoFiles(b)
	if err != nil {
		t.Fatal(err)
	}
	test, err := os.ReadFile(filepath.Join("testdata", "behaviour", "transfer_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files["transfer_test.go"] = test
	files["go.mod"] = []byte("module examples\n\ngo 1.21\n")
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the transfer example misbehaves: %v\n%s", err, out)
	}
}

// The Python retry example retries what httpx raises, under httpx's own
// MockTransport (testdata/behaviour/retry_test.py).
func TestRetryExampleRetriesHTTPXErrors(t *testing.T) {
	b := exampleBlock(t, "failure-modes/retries-with-backoff.md", "python", "def retry(")
	python := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if _, err := exec.LookPath(p); err == nil && exec.Command(p, "-c", "import httpx").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no python3 with httpx; run scripts/install-checkers.sh")
		}
		t.Skip("no python3 with httpx; run scripts/install-checkers.sh")
	}
	example := filepath.Join(t.TempDir(), "retry_example.py")
	if err := os.WriteFile(example, []byte(b.Code), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, filepath.Join("testdata", "behaviour", "retry_test.py"), example)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the retry example misbehaves: %v\n%s", err, out)
	}
}
