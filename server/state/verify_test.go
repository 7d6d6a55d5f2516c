package state

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/proc"
	"github.com/agentos-dev/agentos/internal/project"
)

// holdLockEnv makes the test binary a helper process that holds the lock
// file it names until its stdin closes: a lock held by another pid.
const holdLockEnv = "AGENTOS_STATE_TEST_HOLD_LOCK"

func TestMain(m *testing.M) {
	if path := os.Getenv(holdLockEnv); path != "" {
		fl := flock.New(path)
		if err := fl.Lock(); err != nil {
			fmt.Println("lock:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fixture is a project whose lock this test process holds, and a listener
// that answers the liveness check the way a server of it would, recording
// every request it gets.
type fixture struct {
	p    project.Paths
	cfg  config.Config
	port int
	url  string

	mu       sync.Mutex
	answer   func(w http.ResponseWriter) // how the listener answers
	requests []*http.Request
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	p, err := project.At(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		t.Fatal(err)
	}
	fx := &fixture{p: p}
	fx.answer = func(w http.ResponseWriter) { fx.liveness(w, os.Getpid(), p.Root) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fx.mu.Lock()
		fx.requests = append(fx.requests, r)
		answer := fx.answer
		fx.mu.Unlock()
		answer(w)
	}))
	t.Cleanup(srv.Close)
	fx.port = srv.Listener.Addr().(*net.TCPAddr).Port
	fx.url = fmt.Sprintf("http://127.0.0.1:%d/mcp", fx.port)
	fx.cfg = config.Default()
	fx.cfg.Server.PortRange = fmt.Sprintf("%d-%d", fx.port, fx.port)
	return fx
}

func (fx *fixture) liveness(w http.ResponseWriter, pid int, root string) {
	json.NewEncoder(w).Encode(Liveness{Name: buildinfo.Name, PID: pid, Project: Project{Root: root}})
}

func (fx *fixture) setAnswer(a func(http.ResponseWriter)) {
	fx.mu.Lock()
	fx.answer = a
	fx.mu.Unlock()
}

// file is the state file a server of the fixture's project would write.
func (fx *fixture) file() File {
	return New("dual", Host, fx.port, os.Getpid(), time.Now(), "test", Project{Name: fx.p.Name(), Root: fx.p.Root}, "token")
}

// lock takes the project lock in this process.
func (fx *fixture) lock(t *testing.T) {
	t.Helper()
	fl := flock.New(fx.p.Lock())
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	t.Cleanup(func() { fl.Unlock() })
}

func (fx *fixture) requestCount() int {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	return len(fx.requests)
}

// lockProbed skips a test that needs the kernel to list a lock's holders.
func lockProbed(t *testing.T) {
	t.Helper()
	if _, err := proc.LockHolders(filepath.Join(t.TempDir(), "x")); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("this platform cannot list a lock's holders")
	}
}

func TestVerifyTrustsTheFileOfTheRunningServer(t *testing.T) {
	fx := newFixture(t)
	fx.lock(t)
	if err := Verify(context.Background(), fx.file(), fx.p, fx.cfg); err != nil {
		t.Fatalf("the running server's own file: %v", err)
	}
	// The liveness check is the only request, and it carries no token.
	if n := fx.requestCount(); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	r := fx.requests[0]
	if r.Method != http.MethodGet || r.URL.Path != "/mcp" || r.Header.Get("Authorization") != "" || r.Header.Get("Accept") == "text/event-stream" {
		t.Errorf("liveness request: %s %s %v", r.Method, r.URL, r.Header)
	}

	// A reader that reaches the project by another path (a symlink) trusts it too.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(fx.p.Root, link); err != nil {
		t.Skip(err)
	}
	via, _ := project.At(link)
	if err := Verify(context.Background(), fx.file(), via, fx.cfg); err != nil {
		t.Errorf("through a symlink: %v", err)
	}

	// ReadVerified reads the file it verifies.
	if _, err := ReadVerified(context.Background(), fx.p, fx.cfg); !errors.Is(err, ErrMissing) {
		t.Errorf("no file: %v", err)
	}
	if err := Write(fx.p.StateFile(), fx.file()); err != nil {
		t.Fatal(err)
	}
	if f, err := ReadVerified(context.Background(), fx.p, fx.cfg); err != nil || f.URL != fx.url {
		t.Errorf("ReadVerified: %+v %v", f, err)
	}
}

// Every reason a file is refused, each with the words a person reads, and
// for each no request at all reaches the URL the file names unless the
// file got as far as the liveness check (which carries no token).
func TestVerifyRefusesStaleAndForgedFiles(t *testing.T) {
	fx := newFixture(t)
	fx.lock(t)
	other := t.TempDir()
	cases := []struct {
		name     string
		edit     func(*File)
		answer   func(http.ResponseWriter)
		want     string
		liveness bool // the check got as far as the liveness request
	}{
		{name: "old layout", edit: func(f *File) { f.Version = 0 }, want: "layout version 0"},
		{name: "remote host", edit: func(f *File) { f.URL, f.Host = "http://10.0.0.1:80/mcp", "10.0.0.1" },
			want: "names http://10.0.0.1:80/mcp, which is not this machine's loopback address"},
		{name: "remote URL with a loopback host field", edit: func(f *File) { f.URL = fmt.Sprintf("http://attacker.example:%d/mcp", f.Port) },
			want: "not this machine's loopback address"},
		{name: "localhost", edit: func(f *File) { f.URL = fmt.Sprintf("http://localhost:%d/mcp", f.Port) }, want: "listens only at http://127.0.0.1:<port>/mcp"},
		{name: "ipv6 loopback", edit: func(f *File) { f.URL = fmt.Sprintf("http://[::1]:%d/mcp", f.Port) }, want: "listens only at"},
		{name: "https", edit: func(f *File) { f.URL = fmt.Sprintf("https://127.0.0.1:%d/mcp", f.Port) }, want: "listens only at"},
		{name: "another path", edit: func(f *File) { f.URL = fmt.Sprintf("http://127.0.0.1:%d/steal", f.Port) }, want: "listens only at"},
		{name: "url and port disagree", edit: func(f *File) { f.Port++ }, want: "listens only at"},
		{name: "not a URL", edit: func(f *File) { f.URL = "::" }, want: "which is not a URL"},
		{name: "port outside the range", edit: func(f *File) { f.Port = 80; f.URL = "http://127.0.0.1:80/mcp" },
			want: fmt.Sprintf("names port 80, outside this project's server.port_range %d-%d", fx.port, fx.port)},
		{name: "another project", edit: func(f *File) { f.Project.Root = other }, want: "is for the project at"},
		{name: "dead pid", edit: func(f *File) { f.PID = deadPID(t) }, want: "which is not running"},
		{name: "no pid", edit: func(f *File) { f.PID = 0 }, want: "names pid 0, which is not running"},
		{name: "not agentos", answer: func(w http.ResponseWriter) { http.NotFound(w, nil) }, want: "does not answer as an agentos server (HTTP 404", liveness: true},
		{name: "wants a token", answer: func(w http.ResponseWriter) { w.WriteHeader(http.StatusUnauthorized) }, want: "wants a token before it says who it is", liveness: true},
		{name: "another pid answers", answer: func(w http.ResponseWriter) { fx.liveness(w, 1, fx.p.Root) }, want: "answers as pid 1", liveness: true},
		{name: "another project answers", answer: func(w http.ResponseWriter) { fx.liveness(w, os.Getpid(), other) }, want: "serving \"" + other, liveness: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fx.file()
			if c.edit != nil {
				c.edit(&f)
			}
			if c.answer != nil {
				fx.setAnswer(c.answer)
				defer fx.setAnswer(func(w http.ResponseWriter) { fx.liveness(w, os.Getpid(), fx.p.Root) })
			}
			before := fx.requestCount()
			err := Verify(context.Background(), f, fx.p, fx.cfg)
			var se *StaleError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) || !strings.HasSuffix(err.Error(), "stale or forged, ignored") {
				t.Fatalf("Verify = %v; want a StaleError saying %q", err, c.want)
			}
			if sent := fx.requestCount() - before; sent != map[bool]int{false: 0, true: 1}[c.liveness] {
				t.Errorf("%d requests reached the listener", sent)
			}
		})
	}
}

func TestVerifyChecksWhoHoldsTheLock(t *testing.T) {
	lockProbed(t)
	fx := newFixture(t)
	// Nobody holds the lock: whatever the file says, no server runs.
	err := Verify(context.Background(), fx.file(), fx.p, fx.cfg)
	if !strings.Contains(fmt.Sprint(err), fmt.Sprintf("names pid %d, which does not hold the project lock (no process does", os.Getpid())) {
		t.Errorf("unlocked: %v", err)
	}
	// Another process holds it: the file names a live pid that is not it.
	holder := holdLock(t, fx.p.Lock())
	err = Verify(context.Background(), fx.file(), fx.p, fx.cfg)
	if !strings.Contains(fmt.Sprint(err), fmt.Sprintf("which does not hold the project lock (pid %d does)", holder)) {
		t.Errorf("held by another: %v", err)
	}
	if n := fx.requestCount(); n != 0 {
		t.Errorf("%d requests reached the listener", n)
	}
}

func TestVerifyNotAnsweringIsNotTrusted(t *testing.T) {
	fx := newFixture(t)
	fx.lock(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nobody listens on port now
	f := fx.file()
	f.Port, f.URL = port, fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	fx.cfg.Server.PortRange = fmt.Sprintf("%d-%d", port, port)
	err = Verify(context.Background(), f, fx.p, fx.cfg)
	var se *StaleError
	if err == nil || errors.As(err, &se) || !strings.Contains(err.Error(), "is not answering") {
		t.Errorf("Verify = %v; want a not-answering error", err)
	}
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if proc.Alive(cmd.Process.Pid) {
		t.Skip("the exited process's pid is already reused")
	}
	return cmd.Process.Pid
}

// holdLock starts a helper process that holds the lock at path until the
// test ends, and returns its pid.
func holdLock(t *testing.T, path string) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdLockEnv+"="+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper: %q", line)
	}
	return cmd.Process.Pid
}
