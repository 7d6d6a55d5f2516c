//go:build unix

package e2e

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestAnotherUserCannotCallTools: with the default server.auth, a process
// of another OS user gets 401 with the reason and writes nothing, while the
// project's own user is served (every other test here is that user).
func TestAnotherUserCannotCallTools(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the connection owner is checked on Linux; elsewhere server.auth: token keeps other users out")
	}
	if os.Geteuid() != 0 {
		t.Skip("running a client as another user needs root")
	}
	root := newProject(t)
	p := startServe(t, root, "--transport", "http")
	st := waitState(t, root, p.cmd.Process.Pid)

	// A copy of this test binary that user nobody can run (t.TempDir's
	// parent is closed to other users).
	dir, err := os.MkdirTemp("", "agentos-other-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, "client")
	if err := os.WriteFile(client, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(client)
	cmd.Dir = dir
	cmd.Env = []string{asClientEnv + "=" + st.URL}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the client as nobody: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasPrefix(line, "status 401 ") || !strings.Contains(line, "serves only the processes of the user it runs as") {
			t.Errorf("another user was not refused with the reason: %s", line)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "planted.txt")); !os.IsNotExist(err) {
		t.Errorf("another user's write reached the project: %v", err)
	}
	// The project's own user is served.
	if got := post(t, st.URL, nil, []byte(initBody)).StatusCode; got != http.StatusOK {
		t.Errorf("the server's own user: status %d", got)
	}
}
