package installer

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
)

// fakeBinary is the content of the binary tests pin.
var fakeBinary = []byte("#!/bin/sh\necho agentos\n")

// newProject creates a project folder holding files (slash paths -> content)
// and a fake binary outside it, and returns both paths.
func newProject(t *testing.T, files map[string]string) (root, binary string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "project")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		writeTestFile(t, filepath.Join(root, filepath.FromSlash(name)), content)
	}
	binary = filepath.Join(base, "agentos-build")
	if err := os.WriteFile(binary, fakeBinary, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, binary
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func install(t *testing.T, root, binary string) *Report {
	t.Helper()
	return installScope(t, root, binary, "")
}

// installScope installs the default agent with its entry in scope, and
// user-scoped files in the home folder next to the project (homeFor).
func installScope(t *testing.T, root, binary, scope string) *Report {
	t.Helper()
	report, err := Install(context.Background(), Options{Dir: root, Yes: true, BinaryPath: binary, Scope: scope, Env: homeFor(root)})
	if err != nil {
		t.Fatalf("Install: %v", err)
	}
	return report
}

// homeFor is the home folder of a project made by newProject: a sibling
// of the project, the same for every install into it.
func homeFor(root string) *agentconfig.Env {
	env := agentconfig.HomeEnv(filepath.Join(filepath.Dir(root), "home"))
	env.GOOS = "linux"
	return &env
}

// snapshot records every folder and file under root with its mode and
// content, to prove that a run wrote nothing.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		entry := info.Mode().String()
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			entry += " " + string(data)
		}
		tree[filepath.ToSlash(rel)] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func assertSameTree(t *testing.T, before, after map[string]string) {
	t.Helper()
	for path, was := range before {
		if now, ok := after[path]; !ok {
			t.Errorf("%s was removed", path)
		} else if now != was {
			t.Errorf("%s changed:\nbefore: %q\nafter:  %q", path, was, now)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			t.Errorf("%s was created", path)
		}
	}
}

func stepFor(t *testing.T, r *Report, kind string) Step {
	t.Helper()
	for _, s := range r.Steps {
		if s.Kind == kind {
			return s
		}
	}
	t.Fatalf("no %s step in %+v", kind, r.Steps)
	return Step{}
}

func printed(r *Report) string {
	var b bytes.Buffer
	r.Print(&b)
	return b.String()
}

func wantContains(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Errorf("%q does not contain %q", got, want)
	}
}
