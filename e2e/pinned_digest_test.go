package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
)

// The manifest names the pinned binary by the digest of the bytes it holds,
// though install and upgrade remember each build's digest instead of
// hashing 40 MB every run: after a first install, after the pinned copy is
// replaced by other bytes of the same size (mode and time put back) and
// install restores it, and after an upgrade.
func TestManifestNamesThePinnedBinary(t *testing.T) {
	t.Parallel()
	root := newProject(t)
	pinned := filepath.Join(root, ".agentos", "bin", "agentos")
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		m, found, err := manifest.Load(p)
		if err != nil || !found {
			t.Fatalf("%s: manifest: %v (found %v)", when, err, found)
		}
		if got, want := m.Files[".agentos/bin/agentos"].SHA256, sha256File(t, pinned); got != want {
			t.Fatalf("%s: the manifest names the pinned binary %s, its bytes are %s", when, got, want)
		}
	}
	check("after install")

	info, err := os.Stat(pinned)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(pinned)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff // same size, other bytes
	if err := os.WriteFile(pinned, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(pinned, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	runOK(t, root, "install", "--dir", root, "--scope", "project", "--yes")
	if sha256File(t, pinned) != sha256File(t, binary) {
		t.Fatal("install did not restore the pinned binary")
	}
	check("after install restored it")

	runOK(t, root, "upgrade", "--yes")
	check("after upgrade")
}
