package installer

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// A secondary agent's HTTP entry points at the URL of a state file only
// when state.Verify trusts it: here this process plays the primary (it
// holds the project lock, and a listener answers the liveness check as it).
func TestSecondaryEntryTrustsOnlyAVerifiedStateFile(t *testing.T) {
	root := t.TempDir()
	p, _ := project.At(root)
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		t.Fatal(err)
	}
	var impostor atomic.Bool // the listener answers as another project's server
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		live := state.Liveness{Name: "agentos", PID: os.Getpid(), Project: state.Project{Root: root}}
		if impostor.Load() {
			live.Project.Root = "/elsewhere"
		}
		json.NewEncoder(w).Encode(live)
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	writeTestFile(t, p.Config(), fmt.Sprintf("server:\n  port_range: \"%d-%d\"\n", port, port))
	fl := flock.New(p.Lock())
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	defer fl.Unlock()
	if err := state.Write(p.StateFile(), state.New("dual", state.Host, port, os.Getpid(), time.Now(), "test", state.Project{Root: root}, "none")); err != nil {
		t.Fatal(err)
	}
	cline, err := agentconfig.Lookup("cline")
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)

	entry, note := SecondaryEntry(context.Background(), p, cline, "/bin/agentos", 0)
	if entry.URL != url || !strings.Contains(note, "Points at the running server") {
		t.Errorf("trusted file: %+v, %q", entry, note)
	}
	// Another project's server answers there. The fallback, the first port of
	// the range, is the same port here: what differs is that the file was not
	// trusted, and the note says so.
	impostor.Store(true)
	entry, note = SecondaryEntry(context.Background(), p, cline, "/bin/agentos", 0)
	if entry.URL != url || !strings.Contains(note, "The state file was not used") || !strings.Contains(note, "stale or forged, ignored") {
		t.Errorf("impostor: %+v, %q", entry, note)
	}
	// A forged URL outside the range is never written into an entry.
	forged := state.New("dual", state.Host, 80, os.Getpid(), time.Now(), "test", state.Project{Root: root}, "none")
	if err := state.Write(p.StateFile(), forged); err != nil {
		t.Fatal(err)
	}
	entry, note = SecondaryEntry(context.Background(), p, cline, "/bin/agentos", 0)
	if entry.URL != url || !strings.Contains(note, "outside this project's server.port_range") {
		t.Errorf("forged: %+v, %q", entry, note)
	}
}

// A first install chooses the project's port once: the config records it,
// the secondary entries planned beside it name it (not the first port of the
// range, which another project recorded here), and uninstall gives it back.
func TestFirstInstallSecondariesUseTheRecordedPort(t *testing.T) {
	ctx := context.Background()
	root, binary := newProject(t, nil)
	lo, hi, _ := config.Default().Ports()
	other := t.TempDir() // another project on this machine, installed first
	taken, err := ports.Choose(ctx, other, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	defer ports.Forget(ctx, other)

	installWith(t, Options{Dir: root, BinaryPath: binary, Secondary: []string{"opencode"}, Env: testEnv(t)})
	p, _ := project.At(root)
	cfg, err := config.Load(p.Config())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Server.Port == 0 || cfg.Server.Port == taken {
		t.Fatalf("server.port = %d; another project recorded %d", cfg.Server.Port, taken)
	}
	want := fmt.Sprintf("http://127.0.0.1:%d/mcp", cfg.Server.Port)
	if entry := readTestFile(t, filepath.Join(root, "opencode.json")); !strings.Contains(entry, want) {
		t.Errorf("opencode's entry does not name the recorded port %s:\n%s", want, entry)
	}
	if !recorded(t, root) {
		t.Error("the install did not record its port machine-wide")
	}

	pl, err := PlanUninstall(UninstallOptions{Dir: root, Purge: true, BackupDir: t.TempDir(), Env: testEnv(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := pl.Apply(); err != nil {
		t.Fatal(err)
	}
	if recorded(t, root) {
		t.Error("uninstall left the project's port recorded")
	}
}

// recorded reports whether the machine-wide port record names root.
func recorded(t *testing.T, root string) bool {
	t.Helper()
	path, err := ports.Path()
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Projects map[string]int }
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	_, ok := r.Projects[root]
	return ok
}
