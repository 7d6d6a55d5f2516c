package state

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteReadRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".agentos", ".mcp_server_state.json")
	f := New("dual", "127.0.0.1", 4243, os.Getpid(), time.Date(2026, 5, 1, 12, 0, 0, 0, time.FixedZone("x", 3600)), "1.0.0", Project{Name: "p", Root: "/p"}, "none")
	if f.URL != "http://127.0.0.1:4243/mcp" || f.StartedAt != "2026-05-01T11:00:00Z" || f.Path != "/mcp" {
		t.Errorf("New: %+v", f)
	}
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	got, err := Read(path)
	if err != nil || got != f {
		t.Fatalf("Read = %+v, %v", got, err)
	}
	// Another pid's file is left alone; ours is removed.
	if err := RemoveIfOwned(path, os.Getpid()+1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error("removed a file owned by another pid")
	}
	if err := RemoveIfOwned(path, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err != ErrMissing {
		t.Errorf("after remove: %v", err)
	}
}

func TestCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := Read(path); err == nil {
		t.Error("corrupt state file accepted")
	}
}
