package browser

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSweepProfiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	old := filepath.Join(tmp, profilePrefix+"old")
	fresh := filepath.Join(tmp, profilePrefix+"fresh")
	other := filepath.Join(tmp, "someone-else")
	for _, d := range []string{old, fresh, other} {
		if err := os.MkdirAll(filepath.Join(d, "Default"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-2 * time.Hour)
	for _, d := range []string{old, other} {
		os.Chtimes(d, then, then)
	}
	var removed []string
	sweepProfiles(func(dir string) { removed = append(removed, dir) })
	if len(removed) != 1 || removed[0] != old {
		t.Errorf("removed %v, want only %s", removed, old)
	}
	for _, d := range []string{fresh, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed", d)
		}
	}
}
