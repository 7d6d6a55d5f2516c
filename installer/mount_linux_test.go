package installer

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
)

// mountTmpfs mounts a tmpfs of the given options (say "size=2m") on a new
// folder and unmounts it when the test ends. Mounting needs privileges
// (root, or CAP_SYS_ADMIN in a container): without them the test is
// skipped, saying why, since nothing else makes a disk full or a folder
// read-only for root.
func mountTmpfs(t *testing.T, options string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, options); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): run the tests as root, or with CAP_SYS_ADMIN, to check a full disk and a read-only folder", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

func remountReadOnly(t *testing.T, dir, options string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, options); err != nil {
		t.Fatalf("remount %s read-only: %v", dir, err)
	}
}

// projectOn makes a project inside dir, with a pinned binary of size bytes
// built outside it.
func projectOn(t *testing.T, dir string, files map[string]string, size int) (root, binary string) {
	t.Helper()
	root = filepath.Join(dir, "project")
	for name, content := range files {
		writeTestFile(t, filepath.Join(root, filepath.FromSlash(name)), content)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, size)
	rand.Read(data)
	binary = filepath.Join(t.TempDir(), "agentos-build")
	if err := os.WriteFile(binary, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, binary
}

// The disk fills up while the binary is pinned, after the standards were
// written and the .gitignore and AGENTS.md were edited: the install fails
// with the system's own words and leaves the project exactly as it was.
func TestDiskFullWritesNothing(t *testing.T) {
	t.Parallel()
	dir := mountTmpfs(t, "size=2m")
	root, binary := projectOn(t, dir, map[string]string{
		"main.go":    "package main\n",
		".gitignore": "build/\n",
		"AGENTS.md":  "# notes\n",
	}, 3<<20)
	env := testEnv(t)
	before := snapshot(t, root)
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Env: env, Secondary: []string{"codex"}, Yes: true})
	if err == nil {
		t.Fatal("install succeeded on a full disk")
	}
	wantContains(t, err.Error(), "no space left on device")
	wantContains(t, err.Error(), "nothing was changed")
	assertSameTree(t, before, snapshot(t, root))
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left next to the project: %v", entries)
	}
	// With room, the same install goes through.
	big := mountTmpfs(t, "size=64m")
	root2, _ := projectOn(t, big, map[string]string{"main.go": "package main\n"}, 0)
	installWith(t, Options{Dir: root2, BinaryPath: binary, Env: env})
}

// A read-only project folder, which root cannot write either: the install
// fails before writing anything and says which folder.
func TestReadOnlyProjectAsRoot(t *testing.T) {
	t.Parallel()
	dir := mountTmpfs(t, "size=4m")
	root, binary := projectOn(t, dir, map[string]string{"main.go": "package main\n", ".gitignore": "x\n"}, 64)
	before := snapshot(t, root)
	remountReadOnly(t, dir, "size=4m")
	_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Env: testEnv(t), Yes: true})
	if err == nil || !strings.Contains(err.Error(), "cannot write to "+root) || !strings.Contains(err.Error(), "read-only file system") {
		t.Fatalf("err = %v", err)
	}
	assertSameTree(t, before, snapshot(t, root))
}

// A read-only home folder, where a user-scoped client config goes (Cline's,
// Claude Code's local scope): the install fails before the project is
// touched and names the file.
func TestReadOnlyHomeAsRoot(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"cline", "claude-code"} {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			home := mountTmpfs(t, "size=1m")
			remountReadOnly(t, home, "size=1m")
			root, binary := newProject(t, map[string]string{"main.go": "package main\n"})
			before := snapshot(t, root)
			env := agentconfig.HomeEnv(home)
			env.GOOS = "linux"
			_, err := Install(context.Background(), Options{Dir: root, BinaryPath: binary, Agents: []string{agent}, Env: &env, Yes: true})
			if err == nil || !strings.Contains(err.Error(), "cannot write "+home) {
				t.Fatalf("err = %v", err)
			}
			assertSameTree(t, before, snapshot(t, root))
		})
	}
}
