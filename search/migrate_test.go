package search

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMigrateSnapshotRenamesTheLegacyName(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, LegacySnapshotFile)
	leftover := filepath.Join(dir, "."+LegacySnapshotFile+".tmp-123")
	for _, p := range []string{legacy, leftover} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := MigrateSnapshot(dir); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, SnapshotFile)); err != nil || string(data) != "old" {
		t.Fatalf("the legacy snapshot was not moved: %q %v", data, err)
	}
	for _, p := range []string{legacy, leftover} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", filepath.Base(p), err)
		}
	}
	// Nothing to move: no error, nothing changed.
	if err := MigrateSnapshot(dir); err != nil {
		t.Fatal(err)
	}
	if err := MigrateSnapshot(filepath.Join(dir, "absent")); err != nil {
		t.Fatalf("a missing index folder: %v", err)
	}
}

func TestMigrateSnapshotKeepsTheCurrentOne(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, LegacySnapshotFile), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SnapshotFile), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := MigrateSnapshot(dir); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, SnapshotFile)); string(data) != "new" {
		t.Fatalf("the current snapshot was replaced: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, LegacySnapshotFile)); !os.IsNotExist(err) {
		t.Fatalf("the stale legacy snapshot stayed: %v", err)
	}
}

func TestSnapshotFileIsNoJestSnapshot(t *testing.T) {
	// Jest reads every file ending in .snap under its roots as a snapshot.
	if filepath.Ext(SnapshotFile) == ".snap" {
		t.Fatalf("%s would be read by Jest as an obsolete snapshot", SnapshotFile)
	}
}
