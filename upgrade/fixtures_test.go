package upgrade

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/manifest"
)

// loadFixture lays a stored earlier version over a fresh install: the files
// it wrote (as it wrote them) and its manifest entries, with their bases.
// Files the fixture does not name were the same in that version.
func loadFixture(t *testing.T, f *fixture, version string) manifest.Manifest {
	t.Helper()
	dir := filepath.Join("testdata", version)
	var old manifest.Manifest
	if err := json.Unmarshal([]byte(read(t, filepath.Join(dir, "manifest.json"))), &old); err != nil {
		t.Fatal(err)
	}
	m, _, err := manifest.Load(f.p)
	if err != nil {
		t.Fatal(err)
	}
	m.AssetVersion = old.AssetVersion
	for rel, e := range old.Files {
		data, err := os.ReadFile(filepath.Join(dir, "files", filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if manifest.Sum(data) != e.SHA256 {
			t.Fatalf("fixture %s does not match its manifest", rel)
		}
		write(t, f.abs(rel), string(data))
		if _, err := manifest.PutBase(f.p, data); err != nil {
			t.Fatal(err)
		}
		m.Files[rel] = e
	}
	if err := manifest.Save(f.p, m); err != nil {
		t.Fatal(err)
	}
	return old
}

// From the stored 0.9.0: its untouched file is updated, its edited one
// keeps the edit, the file it alone shipped is removed, and a second
// upgrade does nothing.
func TestUpgradeFromStoredVersion090(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	loadFixture(t, f, "v0.9.0")
	untouched := ".agentos/standards/universal/failure-modes/idempotency.md"
	edited := ".agentos/workflows/spec_creation_v1/phases/1-discovery.md"
	retired := ".agentos/standards/universal/legacy/retired-practice.md"
	mine := read(t, f.abs(edited)) + "\nOur team's note on discovery.\n"
	write(t, f.abs(edited), mine)

	r, err := Run(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if r.FromVersion != "0.9.0" {
		t.Errorf("from %q", r.FromVersion)
	}
	want := embeddedFS(t, f)
	if got, _ := fs.ReadFile(want, untouched); read(t, f.abs(untouched)) != string(got) {
		t.Errorf("%s was not updated", untouched)
	}
	if got := read(t, f.abs(edited)); !strings.Contains(got, "Our team's note on discovery.") {
		t.Errorf("%s lost the project's edit", edited)
	}
	if _, err := os.Stat(f.abs(retired)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was not removed", retired)
	}
	if r2, err := Run(context.Background(), f.opts()); err != nil || !r2.UpToDate {
		t.Errorf("second upgrade: %v", err)
	}
}

// A project installed before manifests existed: files that hold what we
// ship are recorded; a file that differs is the project's (there is no
// base to tell), so it is kept and the new version written beside it.
func TestUpgradeWithoutManifest(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	rel := f.shipped(t)[0]
	os.Remove(manifest.Path(f.p))
	os.RemoveAll(manifest.BasesDir(f.p))
	theirs := read(t, f.abs(rel))
	write(t, f.abs(rel), theirs+"\nEdited at some point.\n")
	r, err := Run(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.FromVersion, "unknown") {
		t.Errorf("from %q", r.FromVersion)
	}
	if len(r.Conflicts) != 1 || r.Conflicts[0] != rel+NewSuffix || read(t, f.abs(rel)+NewSuffix) != theirs {
		t.Errorf("conflicts %v", r.Conflicts)
	}
	m, found, err := manifest.Load(f.p)
	if err != nil || !found || len(m.Files) < 20 {
		t.Fatalf("the upgrade did not record a manifest: %v %v", found, err)
	}
	if r2, err := Run(context.Background(), f.opts()); err != nil || !r2.UpToDate {
		t.Errorf("second upgrade: %v", err)
	}
}

// A checkout that turned LF into CRLF has not edited the file.
func TestUpgradeIgnoresLineEndings(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	rel := f.shipped(t)[0]
	theirs := read(t, f.abs(rel))
	old := replaceLine(theirs, 2, "an older line")
	f.earlier(t, map[string]*string{rel: &old})
	write(t, f.abs(rel), strings.ReplaceAll(old, "\n", "\r\n"))
	pl, err := MakePlan(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	for _, fp := range pl.Files {
		if fp.Path == rel && fp.Action != Update {
			t.Errorf("%s: %s, want update", rel, fp.Action)
		}
	}
}
