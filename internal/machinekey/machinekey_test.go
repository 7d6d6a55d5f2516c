package machinekey

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The key is made once, private to the user, and every process after
// that — even several racing to make it — signs with the same key.
func TestLoadCreatesOnePrivateKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg")
	t.Setenv(EnvDir, dir)
	var wg sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := Load()
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = k.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("keys differ: %v", ids)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "state.key"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	k, _ := Load()
	if mac := k.MAC([]byte("a"), []byte("bc")); !k.Verify(mac, []byte("a"), []byte("bc")) || k.Verify(mac, []byte("ab"), []byte("c")) {
		t.Error("MAC does not tell its parts apart")
	}
	if other := New(make([]byte, 32)); other.ID == k.ID || other.Verify(k.MAC([]byte("x")), []byte("x")) {
		t.Error("another key verifies this key's MAC")
	}
}

func TestLoadRefusesAKeyOthersCanRead(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	if _, err := Load(); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, "state.key"), 0o644)
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable key was used: %v", err)
	}
	os.Chmod(filepath.Join(dir, "state.key"), 0o600)
	os.WriteFile(filepath.Join(dir, "state.key"), []byte("short\n"), 0o600)
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "64 hex digits") {
		t.Errorf("a damaged key was used: %v", err)
	}
}
