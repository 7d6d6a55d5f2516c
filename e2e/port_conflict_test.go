package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// startServeEnv is startServe with extra environment variables.
func startServeEnv(t *testing.T, root string, env []string, args ...string) *serverProc {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--project-root", root}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProc{cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		<-p.done
	})
	return p
}

// writePortRecord writes ports.json, the machine's record of projects'
// ports, in the config folder home.
func writePortRecord(t *testing.T, home string, projects map[string]int) {
	t.Helper()
	data, err := json.Marshal(map[string]any{"version": 1, "projects": projects})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "ports.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// stopServeProc ends a server started by the test and waits for it.
func stopServeProc(t *testing.T, p *serverProc) {
	t.Helper()
	p.stdin.Close()
	p.signal(t, syscall.SIGTERM)
	p.exitCode(t)
}

// saysAll reports each of wants that text lacks.
func saysAll(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, text)
		}
	}
}

// With project A's recorded port busy, A's server falls back, but never to
// the port ports.json records for project B (B's HTTP clients would reach
// A's server and report "connected"). A's server, doctor and status say
// the recorded port is busy, who holds it (a program, or the agentos server
// of the project the record gives the port to), that the server runs on a
// fallback port, and the fix.
func TestPortConflictFallbackSkipsAnotherProjectsPort(t *testing.T) {
	t.Parallel()
	a, b := newProject(t), newProject(t)
	lo, hi := portRange(t, 8)
	for root, port := range map[string]int{a: lo, b: lo + 1} {
		writeConfig(t, root, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n  port: %d\n", lo, hi, port))
	}
	home := t.TempDir() // this test's own record, not the one the other tests share
	env := []string{"AGENTOS_CONFIG_HOME=" + home}
	writePortRecord(t, home, map[string]int{a: lo, b: lo + 1})

	// A plain listener holds A's port.
	busy, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", lo))
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	srv := startServeEnv(t, a, env, "--transport", "http")
	st := waitState(t, a, srv.cmd.Process.Pid)
	if st.Port != lo+2 {
		t.Fatalf("A's server listens on %d; want %d: %d is busy and %d is B's recorded port", st.Port, lo+2, lo, lo+1)
	}
	if !srv.logged("server.port is held by another program") || !srv.logged("does not answer as an agentos server") ||
		!srv.logged(fmt.Sprintf("recorded=%d", lo)) || !srv.logged(fmt.Sprintf("stop the program listening on port %d", lo)) {
		t.Errorf("the server does not say that its recorded port is busy, and by what:\n%s", srv.stderr)
	}
	busyWith := fmt.Sprintf("server.port %d is busy, held by a process that does not answer as an agentos server, so this server runs on the fallback port %d", lo, lo+2)
	reach := fmt.Sprintf("HTTP clients configured with port %d reach whatever listens there", lo)
	r := runEnv(t, a, env, "status")
	if r.code != 0 {
		t.Errorf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	saysAll(t, "status", r.stdout, busyWith, reach, fmt.Sprintf("fix:       stop the program listening on port %d", lo))
	r = runEnv(t, a, env, "doctor")
	if r.code != 1 {
		t.Errorf("doctor: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	saysAll(t, "doctor", r.stdout, "✗ server port: "+busyWith, reach, fmt.Sprintf("fix: stop the program listening on port %d", lo))
	stopServeProc(t, srv)
	busy.Close()

	// Now the record gives A's port to project C, whose agentos server
	// holds it: A's server, doctor and status name C, and the fix is to give
	// A a port of its own.
	c := newProject(t)
	writeConfig(t, c, fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n  port: %d\n", lo, hi, lo))
	writePortRecord(t, home, map[string]int{c: lo, b: lo + 1})
	other := startServeEnv(t, c, env, "--transport", "http")
	if st := waitState(t, c, other.cmd.Process.Pid); st.Port != lo {
		t.Fatalf("C's server listens on %d, not its recorded %d", st.Port, lo)
	}
	srv = startServeEnv(t, a, env, "--transport", "http")
	if st := waitState(t, a, srv.cmd.Process.Pid); st.Port != lo+2 {
		t.Fatalf("A's server listens on %d; want %d: %d is C's and %d B's", st.Port, lo+2, lo, lo+1)
	}
	holder := fmt.Sprintf("the agentos server (pid %d) of the project at %s, which ports.json records port %d for", other.cmd.Process.Pid, c, lo)
	if !srv.logged(holder) || !srv.logged("agentos upgrade") {
		t.Errorf("the server does not name the project whose port it is:\n%s", srv.stderr)
	}
	r = runEnv(t, a, env, "status")
	saysAll(t, "status", r.stdout, holder, fmt.Sprintf("fallback port %d", lo+2), reach, "agentos upgrade")
	r = runEnv(t, a, env, "doctor", "--json")
	var report struct {
		OK     bool `json:"ok"`
		Checks []struct {
			Name, Detail, Fix string
			OK                bool
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
	}
	found := false
	for _, ch := range report.Checks {
		if ch.Name == "server port" {
			found = true
			saysAll(t, "doctor's port check", ch.Detail, holder, reach)
			saysAll(t, "doctor's fix", ch.Fix, "the other project's", "remove the `port:` line", "agentos upgrade")
		}
	}
	if !found || report.OK {
		t.Errorf("doctor --json names no port conflict:\n%s", r.stdout)
	}
}
