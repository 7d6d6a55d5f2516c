package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The built binary installing into a project on a nearly full disk (an
// 8 MB tmpfs; the pinned binary alone is larger): exit 1, the system's
// words, and nothing left behind. Needs the right to mount (root or
// CAP_SYS_ADMIN); skipped otherwise.
func TestInstallOnFullDiskLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=8m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): run as root to check a full disk", err)
	}
	defer syscall.Unmount(dir, 0)
	root := filepath.Join(dir, "project")
	os.Mkdir(root, 0o755)
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n"), 0o644)
	home := t.TempDir()
	r := runIn(t, root, home, "install", "--dir", root, "--yes")
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, "nothing was changed") {
		t.Fatalf("install on a full disk: %+v", r)
	}
	var left []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		left = append(left, strings.TrimPrefix(path, dir))
		return nil
	})
	if strings.Join(left, " ") != " /project /project/.gitignore /project/main.go" {
		t.Errorf("left behind: %v", left)
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(data) != "build/\n" {
		t.Errorf(".gitignore = %q", data)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("home written: %v", entries)
	}
}
