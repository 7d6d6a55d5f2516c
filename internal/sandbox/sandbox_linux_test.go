package sandbox

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func newSandbox(t *testing.T) (*Sandbox, string) {
	t.Helper()
	if err := Check(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs on a kernel that sandboxes: %v", err)
		}
		t.Skipf("no sandbox here: %v", err)
	}
	project := t.TempDir()
	for rel, body := range map[string]string{
		"main.go":                    "package main\n",
		".agentos/.cache/auth_token": "secret-token\n",
		".agentos/state/approvals/x": "approved\n",
		".agentos/bin/agentos":       "binary\n",
	} {
		p := filepath.Join(project, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(project, Options{Hidden: []string{".agentos/state"}, Outputs: ".agentos/.cache"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, project
}

func TestWritesLandInTheThrowawayLayer(t *testing.T) {
	s, project := newSandbox(t)
	out, code := run(t, s, `echo changed > main.go && echo new > new.txt && printf report > .agentos/.cache/junit.xml && cp /bin/sh .agentos/bin/agentos && cat main.go`)
	if code != 0 || !strings.Contains(out, "changed") {
		t.Fatalf("the command should see its own writes: %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "main.go")); string(b) != "package main\n" {
		t.Errorf("the real project was written: main.go = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(project, ".agentos/bin/agentos")); string(b) != "binary\n" {
		t.Errorf("the real binary was replaced")
	}
	if _, err := os.Stat(filepath.Join(project, "new.txt")); err == nil {
		t.Error("new.txt reached the real project")
	}
	if p, ok := s.Path("new.txt"); !ok {
		t.Error("new.txt cannot be read after the run")
	} else if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("new.txt = %q", b)
	}
	if p, ok := s.Path(".agentos/.cache/junit.xml"); !ok {
		t.Error("the report cannot be read after the run")
	} else if b, _ := os.ReadFile(p); string(b) != "report" {
		t.Errorf("report = %q", b)
	}
	if _, ok := s.Path("missing.txt"); ok {
		t.Error("a file the run did not write was reported as written")
	}
	if s.Seen() != s.Project() {
		t.Errorf("the command sees the project at %s, not at its own path %s", s.Seen(), s.Project())
	}
}

func TestSecretsAreUnreadable(t *testing.T) {
	s, _ := newSandbox(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".netrc"), []byte("machine x password y"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-live")
	// A descriptor the server inherited without close-on-exec (from an IDE,
	// say) would pass to every child: the sandbox closes it.
	fd, err := syscall.Open(filepath.Join(s.Project(), ".agentos/.cache/auth_token"), syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	// Every descriptor the command holds is tried as a way back to the real
	// project, whose cache holds the token.
	out, _ := run(t, s, `for f in /proc/self/fd/*; do case $f in */[012]) continue;; esac; cat "$f" "$f/.agentos/.cache/auth_token"; done; cat .agentos/.cache/auth_token; ls .agentos/state; cat "$HOME/.ssh/id_ed25519" "$HOME/.netrc"; echo "key=$OPENAI_API_KEY"; echo end`)
	for _, secret := range []string{"secret-token", "approvals", "PRIVATE KEY", "password", "sk-live"} {
		if strings.Contains(out, secret) {
			t.Errorf("the sandbox read %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "end") {
		t.Errorf("the command did not run to its end:\n%s", out)
	}
}

func TestNoWritesOutside(t *testing.T) {
	s, _ := newSandbox(t)
	outside := t.TempDir() // under the real /tmp, which the sandbox replaces
	home := t.TempDir()
	t.Setenv("HOME", home)
	victim := filepath.Join(home, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := run(t, s, `echo x > "`+victim+`"; rm -f "`+victim+`"; mkdir "$HOME/.config-new"; echo x > "`+outside+`/f"; echo x > /tmp/ok && echo tmp-ok; umount /tmp; echo end`)
	if b, err := os.ReadFile(victim); err != nil || string(b) != "keep" {
		t.Errorf("a file outside the project was changed: %q %v\n%s", b, err, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".config-new")); err == nil {
		t.Error("a folder was made outside the project")
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); err == nil {
		t.Error("a file was written to the real /tmp")
	}
	if !strings.Contains(out, "tmp-ok") {
		t.Errorf("the private /tmp is not writable:\n%s", out)
	}
}

func TestNoNetwork(t *testing.T) {
	s, _ := newSandbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	// A Go program would do as well; bash's /dev/tcp is enough where bash is.
	out, _ := run(t, s, `if command -v bash >/dev/null; then bash -c 'echo hi > /dev/tcp/127.0.0.1/`+strconv.Itoa(port)+`' && echo connected; fi; echo end`)
	select {
	case <-accepted:
		t.Fatalf("the sandbox reached the machine's loopback:\n%s", out)
	case <-time.After(300 * time.Millisecond):
	}
	if strings.Contains(out, "connected") {
		t.Fatalf("the sandbox reached the machine's loopback:\n%s", out)
	}
}

func TestEveryProcessEndsWithTheCommand(t *testing.T) {
	s, _ := newSandbox(t)
	// The detached child would write the marker through the output folder,
	// which outlives the run, if it were still alive a second later.
	out, code := run(t, s, `setsid sh -c 'sleep 1; echo alive > .agentos/.cache/late' </dev/null >/dev/null 2>&1 & echo started`)
	if code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("%d %q", code, out)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, ok := s.Path(".agentos/.cache/late"); ok {
		t.Fatal("a detached child outlived the command")
	}
}

func TestExitStatusAndPrivateProcesses(t *testing.T) {
	s, _ := newSandbox(t)
	out, code := run(t, s, `ls /proc | grep -c '^[0-9]' ; exit 3`)
	if code != 3 {
		t.Fatalf("exit status %d, want 3 (%s)", code, out)
	}
	if n := strings.TrimSpace(out); n != "1" && n != "2" && n != "3" {
		t.Errorf("the sandbox sees %s processes; it should see its own only", n)
	}
}

func TestLayerShadowsTheProject(t *testing.T) {
	s, project := newSandbox(t)
	if err := os.WriteFile(filepath.Join(s.Layer(), "main.go"), []byte("package stub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, s, `cat main.go`)
	if code != 0 || out != "package stub\n" {
		t.Fatalf("the layer does not shadow the project: %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "main.go")); string(b) != "package main\n" {
		t.Errorf("the project changed: %q", b)
	}
}

// A link the run made never points the reader outside the run's layer.
func TestPathRefusesLinksTheRunMade(t *testing.T) {
	s, _ := newSandbox(t)
	out, code := run(t, s, `ln -s /etc reports && ln -s /etc/hostname report.xml && mkdir -p real && echo ok > real/r.xml`)
	if code != 0 {
		t.Fatalf("%d %s", code, out)
	}
	for _, rel := range []string{"reports/hostname", "report.xml"} {
		if p, ok := s.Path(rel); ok {
			t.Errorf("Path(%q) = %s, through a link the run made", rel, p)
		}
	}
	if _, ok := s.Path("real/r.xml"); !ok {
		t.Error("a file the run wrote in a folder of its own is not found")
	}
}

// A removed file is gone from the run's view only; a removal never follows
// a link the project holds out of it.
func TestRemoveHidesAFileFromTheRunOnly(t *testing.T) {
	s, project := newSandbox(t)
	// Outside the real /tmp, which the run does not see at all.
	outside, err := os.MkdirTemp(".", "outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	if outside, err = filepath.Abs(outside); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "victim"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(project, "link")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"main.go", "link/victim", "missing/file"} {
		s.Remove(rel)
	}
	if out, code := run(t, s, `test ! -e main.go`); code != 0 {
		t.Fatalf("main.go is still seen: %d %q", code, out)
	}
	for _, p := range []string{filepath.Join(project, "main.go"), filepath.Join(outside, "victim")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the removal reached the real %s: %v", p, err)
		}
	}
}

// The command leads a session of its own, so it has no controlling
// terminal: not the one of the person who started the server.
func TestNoControllingTerminal(t *testing.T) {
	s, _ := newSandbox(t)
	out, code := run(t, s, `awk '{print $6}' /proc/self/stat; (: </dev/tty) 2>/dev/null && echo tty; true`)
	if code != 0 || out != "1\n" {
		t.Fatalf("the command is not its own session, or opened a terminal: %d %q", code, out)
	}
}

// A project and temporary folder under /dev/shm (a tmpfs some people and
// the test command use for speed) are layered as under /tmp, although the
// command gets a /dev/shm of its own that hides the machine's.
func TestProjectUnderDevShm(t *testing.T) {
	// Probed once per process, where TMPDIR was: a sandbox that works there
	// must work under /dev/shm too.
	if err := Check(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	shm, err := os.MkdirTemp("/dev/shm", "agentos-sandbox-test-")
	if err != nil {
		t.Skipf("no writable /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	marker := filepath.Join(shm, "machine-marker")
	if err := os.WriteFile(marker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", shm)
	t.Setenv("GOTMPDIR", shm) // where t.TempDir makes its folders, when set
	s, project := newSandbox(t)
	if !strings.HasPrefix(project, shm) {
		t.Fatalf("the project is at %s, not under %s", project, shm)
	}
	out, code := run(t, s, `cat main.go && echo new > new.txt && ls `+marker+` 2>&1; echo; ls /dev/shm | wc -l`)
	if code != 0 || !strings.Contains(out, "package main") || !strings.Contains(out, "No such file") {
		t.Fatalf("code %d, output %q: want the project's file and no sight of the machine's /dev/shm", code, out)
	}
	if p, ok := s.Path("new.txt"); !ok {
		t.Error("new.txt cannot be read after the run")
	} else if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("new.txt = %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, "new.txt")); err == nil {
		t.Error("new.txt reached the real project")
	}
}

// The person's Go caches may be under /tmp or /dev/shm, which the command
// sees as private, empty folders: it still reads them, through a layer that
// keeps its writes.
func TestPersonsCacheUnderTmp(t *testing.T) {
	lower := t.TempDir() // under TMPDIR: /tmp, or /dev/shm in the test command
	if err := os.WriteFile(filepath.Join(lower, "entry"), []byte("built\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := personCaches
	personCaches = func(context.Context) []cache { return []cache{{Env: "GOCACHE", Lower: lower}} }
	t.Cleanup(func() { personCaches = saved })
	s, _ := newSandbox(t)
	out, code := run(t, s, `cat "$GOCACHE/entry" && echo new > "$GOCACHE/new" && echo poisoned > "$GOCACHE/entry" && cat "$GOCACHE/new"`)
	if code != 0 || out != "built\nnew\n" {
		t.Fatalf("the run should read the person's cache and write its own layer: %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(lower, "entry")); string(b) != "built\n" {
		t.Errorf("the person's cache was written: entry = %q", b)
	}
	if _, err := os.Stat(filepath.Join(lower, "new")); err == nil {
		t.Error("a file the run wrote reached the person's cache")
	}
}
