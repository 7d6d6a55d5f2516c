package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/longtest"
	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
)

// upgradeProject installs into a fresh project, then rewrites it as an
// earlier version would have left it: three standards with an older line,
// one the earlier version did not ship, an older pinned binary, all
// recorded in the manifest. One standard carries the project's own edit.
func upgradeProject(t *testing.T) (root, home, edited string) {
	t.Helper()
	root, home = t.TempDir(), t.TempDir()
	runUp(t, root, home, "", "install", "--dir", root, "--scope", "project", "--yes")
	p, _ := project.At(root)
	m, found, err := manifest.Load(p)
	if err != nil || !found {
		t.Fatalf("manifest after install: %v %v", found, err)
	}
	var std []string
	for _, rel := range m.Paths() {
		if strings.HasSuffix(rel, ".md") && strings.Contains(rel, "/standards/") {
			std = append(std, rel)
		}
	}
	m.AssetVersion = "0.9.0"
	for i, rel := range std[:4] {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if i == 3 {
			os.Remove(path)
			delete(m.Files, rel) // not shipped by the earlier version
			continue
		}
		data, _ := os.ReadFile(path)
		lines := strings.SplitAfter(string(data), "\n")
		lines[2] = "an older line\n"
		old := strings.Join(lines, "")
		if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := manifest.Record(p, &m, rel, []byte(old)); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, ".agentos", "bin", "agentos")
	data, _ := os.ReadFile(bin)
	data = append(data, []byte("older build")...)
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	m.Files[".agentos/bin/agentos"] = manifest.Entry{SHA256: manifest.Sum(data), Version: "0.9.0"}
	if err := manifest.Save(p, m); err != nil {
		t.Fatal(err)
	}
	edited = std[0]
	path := filepath.Join(root, filepath.FromSlash(edited))
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\nThe project's own note.\n")
	f.Close()
	return root, home, edited
}

// runUp runs agentos with its own home folder and the fault variable.
func runUp(t *testing.T, dir, home, fault string, args ...string) result {
	t.Helper()
	return runEnv(t, dir, []string{"HOME=" + home, "USERPROFILE=" + home, "AGENTOS_UPGRADE_FAULT=" + fault}, args...)
}

// tree hashes the project's files, except backups, caches and upgrade
// reports; the manifest by the files it records, not when it was written.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	return upgradetest.Snapshot(t, root, []string{root}, func(rel string, data []byte, _ fs.FileInfo) string {
		if rel == ".agentos/manifest.json" {
			var m manifest.Manifest
			json.Unmarshal(data, &m)
			data, _ = json.Marshal(m.Files)
		}
		return upgradetest.Digest(data)
	})
}

// A clean upgrade, its dry run, a no-op second run and a rollback, through
// the CLI.
func TestUpgradeCLI(t *testing.T) {
	t.Parallel()
	root, home, edited := upgradeProject(t)
	before := tree(t, root)
	dry := runUp(t, root, home, "", "upgrade", "--dry-run")
	if dry.code != 0 || !strings.Contains(dry.stdout, "update") || !strings.Contains(dry.stdout, "merge") || !strings.Contains(dry.stdout, "add") {
		t.Fatalf("dry run: %d\n%s%s", dry.code, dry.stdout, dry.stderr)
	}
	if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
		t.Fatalf("--dry-run changed %v", d)
	}
	if r := runUp(t, root, home, "", "upgrade"); r.code != exitUsage() {
		t.Fatalf("upgrade without --yes and no terminal: exit %d", r.code)
	}
	if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
		t.Fatalf("a refused upgrade changed %v", d)
	}
	r := runUp(t, root, home, "", "upgrade", "--yes", "--json")
	if r.code != 0 {
		t.Fatalf("upgrade: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Steps  []struct{ Name, Status string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Status != "succeeded" || len(rep.Steps) != 6 {
		t.Fatalf("report: %v %+v\n%s", err, rep, r.stdout)
	}
	data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(edited)))
	if !strings.Contains(string(data), "The project's own note.") {
		t.Error("the project's edit was lost")
	}
	if !strings.Contains(runUp(t, root, home, "", "upgrade", "--yes").stdout, "Already up to date") {
		t.Error("second upgrade was not a no-op")
	}
	// The report is where agentos_upgrade_v1's gates read it.
	if _, err := os.Stat(filepath.Join(root, ".agentos", "state", "upgrade", rep.ID+".json")); err != nil {
		t.Error(err)
	}
	list := runUp(t, root, home, "", "rollback", "--list")
	if !strings.Contains(list.stdout, rep.ID) {
		t.Fatalf("rollback --list: %s", list.stdout)
	}
	if r := runUp(t, root, home, "", "rollback", "--to", rep.ID); r.code != 0 {
		t.Fatalf("rollback: %d %s", r.code, r.stderr)
	}
	if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
		t.Fatalf("after rollback the project differs: %v", d)
	}
	if r := runUp(t, root, home, "", "rollback", "--to", "nonsense"); r.code == 0 {
		t.Error("rollback to a missing backup succeeded")
	}
}

func exitUsage() int { return 2 }

// A project installed with --no-pin has no pinned binary: an upgrade points
// its agents at the agentos that upgrades it, where it is. An agentos that
// `go run` built (Go deletes or replaces it) is refused before anything
// changes.
func TestUpgradeUnpinnedProject(t *testing.T) {
	t.Parallel()
	root, home := t.TempDir(), t.TempDir()
	copyTo := func(dir string) string {
		t.Helper()
		data, err := os.ReadFile(binary)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "agentos")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		return bin
	}
	env := []string{"HOME=" + home, "USERPROFILE=" + home}
	first, second := copyTo(filepath.Join(home, "old")), copyTo(filepath.Join(home, "new"))
	if r := runBinary(t, first, root, env, "install", "--dir", root, "--scope", "project", "--agent", "claude-code", "--no-pin", "--yes"); r.code != 0 {
		t.Fatalf("install --no-pin: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	entries := filepath.Join(root, ".mcp.json")
	if data, _ := os.ReadFile(entries); !strings.Contains(string(data), first) {
		t.Fatalf("the entry does not run the installing agentos %s:\n%s", first, data)
	}
	// As an earlier version left it, so that there is something to upgrade.
	p, _ := project.At(root)
	m, _, err := manifest.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	m.AssetVersion = "0.9.0"
	if err := manifest.Save(p, m); err != nil {
		t.Fatal(err)
	}

	transient := copyTo(filepath.Join(os.TempDir(), fmt.Sprintf("go-build%d", rand.Uint32()), "b001", "exe"))
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(filepath.Dir(filepath.Dir(transient)))) })
	before := tree(t, root)
	r := runBinary(t, transient, root, env, "upgrade", "--yes")
	if r.code == 0 || !strings.Contains(r.stderr, "temporary build of `go run`") {
		t.Fatalf("upgrade from a go run build: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
		t.Fatalf("the refused upgrade changed %v", d)
	}

	if r := runBinary(t, second, root, env, "upgrade", "--yes"); r.code != 0 {
		t.Fatalf("upgrade: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, _ := os.ReadFile(entries)
	if !strings.Contains(string(data), second) || strings.Contains(string(data), first) {
		t.Errorf("the entry does not run the upgrading agentos %s:\n%s", second, data)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentos", "bin", "agentos")); err == nil {
		t.Error("the upgrade pinned a binary in an unpinned project")
	}
}

// A SIGKILL at every point of an upgrade, then a rollback or a new run:
// the project is byte-identical to before, or fully upgraded.
func TestUpgradeKilledAtEveryPoint(t *testing.T) {
	t.Parallel()
	points := []string{"preflight", "backup-before-rename", "backup", "update-mid", "update", "gitignore", "validate", "finalize"}
	if !longtest.Enabled() {
		// Two points in the middle of the upgrade, where a kill does most
		// harm: half-way through writing the files, rolled back, and
		// before validation, run again.
		points = []string{"update-mid", "validate"}
	}
	var upgraded map[string]string
	{
		root, home, _ := upgradeProject(t)
		runUp(t, root, home, "", "upgrade", "--yes")
		upgraded = relTree(t, root)
	}
	for i, point := range points {
		t.Run(point, func(t *testing.T) {
			t.Parallel()
			root, home, _ := upgradeProject(t)
			before := tree(t, root)
			r := runUp(t, root, home, "kill:"+point, "upgrade", "--yes")
			if r.code != -1 {
				t.Fatalf("the upgrade was not killed at %s: exit %d\n%s%s", point, r.code, r.stdout, r.stderr)
			}
			if i%2 == 0 {
				rb := runUp(t, root, home, "", "rollback")
				if rb.code != 0 && !strings.Contains(rb.stderr, "no upgrade backups") {
					t.Fatalf("rollback: %d %s", rb.code, rb.stderr)
				}
				if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
					t.Fatalf("killed at %s and rolled back, the project differs: %v", point, d)
				}
				return
			}
			if r := runUp(t, root, home, "", "upgrade", "--yes"); r.code != 0 {
				t.Fatalf("upgrade after the kill: %d %s", r.code, r.stderr)
			}
			if d := upgradetest.Diff(upgraded, relTree(t, root)); len(d) > 0 {
				t.Fatalf("killed at %s and run again, the project is not fully upgraded: %v", point, d)
			}
		})
	}
}

// relTree is tree without the files that name the project's own path.
// The config names the project's own port (chosen per project at install):
// it is compared with that line left out.
func relTree(t *testing.T, root string) map[string]string {
	out := tree(t, root)
	delete(out, ".mcp.json")
	if data, err := os.ReadFile(filepath.Join(root, ".agentos", "config", "mcp.yaml")); err == nil {
		out[".agentos/config/mcp.yaml"] = manifest.Sum(regexp.MustCompile(`(?m)^  port: \d+$`).ReplaceAll(data, nil))
	}
	return out
}

// SIGKILLs at random moments of an upgrade. Long: five upgrades one after
// the other, each timed against a first one; TestUpgradeKilledAtEveryPoint
// covers every named point in the ordinary run.
func TestUpgradeKilledAtRandom(t *testing.T) {
	long(t)
	t.Parallel()
	root, home, _ := upgradeProject(t)
	start := time.Now()
	runUp(t, root, home, "", "upgrade", "--yes")
	took := time.Since(start)
	upgraded := relTree(t, root)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, an upgrade takes %s", seed, took)
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range 5 {
		root, home, _ := upgradeProject(t)
		before := tree(t, root)
		cmd := exec.Command(binary, "upgrade", "--yes")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "HOME="+home, "USERPROFILE="+home)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(took))))
		cmd.Process.Kill()
		cmd.Wait()
		if i%2 == 0 {
			rb := runUp(t, root, home, "", "rollback")
			if rb.code != 0 && !strings.Contains(rb.stderr, "no upgrade backups") {
				t.Fatalf("rollback: %d %s", rb.code, rb.stderr)
			}
			if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 && !sameAs(upgraded, relTree(t, root)) {
				t.Fatalf("run %d: killed and rolled back, the project is neither as before nor upgraded: %v", i, d)
			}
			continue
		}
		if r := runUp(t, root, home, "", "upgrade", "--yes"); r.code != 0 {
			t.Fatalf("upgrade after the kill: %d %s", r.code, r.stderr)
		}
		if d := upgradetest.Diff(upgraded, relTree(t, root)); len(d) > 0 {
			t.Fatalf("run %d: killed and run again, not fully upgraded: %v", i, d)
		}
	}
}

func sameAs(a, b map[string]string) bool { return len(upgradetest.Diff(a, b)) == 0 }

// A running server is stopped cleanly before the files change and, being
// an HTTP service nobody's agent relaunches, started again afterwards with
// the upgraded binary; its workflow sessions carry over, and the upgrade
// workflow's gates pass on the report through the restarted server.
// upgradeProjectOwnPorts is upgradeProject whose server takes its port from
// a block of the test's own.
func upgradeProjectOwnPorts(t *testing.T) (root, home string) {
	t.Helper()
	root, home, _ = upgradeProject(t)
	lo, hi := portRange(t, 8)
	cfg := fmt.Sprintf("code:\n  source_paths: [\".\"]\n  languages: []\nserver:\n  port_range: \"%d-%d\"\n", lo, hi)
	if err := os.WriteFile(filepath.Join(root, ".agentos", "config", "mcp.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, home
}

func TestUpgradeWithRunningServer(t *testing.T) {
	t.Parallel()
	root, home := upgradeProjectOwnPorts(t)
	srv := startServe(t, root, "--transport", "http")
	st := waitState(t, root, srv.cmd.Process.Pid)
	c := httpClientWith(t, st.URL, legacyProtocol, nil)
	initialize(t, c, "agent", legacyProtocol)
	sess := mustWF(t, c, map[string]any{"action": "start", "workflow_type": "agentos_upgrade_v1"})
	c.Close()

	r := runUp(t, root, home, "", "upgrade", "--yes", "--json")
	if r.code != 0 {
		t.Fatalf("upgrade: %d %s", r.code, r.stderr)
	}
	var rep struct {
		Server string `json:"server"`
	}
	json.Unmarshal([]byte(r.stdout), &rep)
	if !strings.Contains(rep.Server, "stopped the running server") || !strings.Contains(rep.Server, "restarted it over HTTP") {
		t.Fatalf("server note: %q", rep.Server)
	}
	if code := srv.exitCode(t); code != 0 {
		t.Errorf("the old server exited %d, not cleanly", code)
	}
	st2 := waitState(t, root, 0)
	if st2.PID == st.PID {
		t.Fatal("no new server")
	}
	t.Cleanup(func() {
		if p, err := os.FindProcess(st2.PID); err == nil {
			p.Kill()
		}
	})
	c2 := httpClientWith(t, st2.URL, legacyProtocol, nil)
	initialize(t, c2, "agent", legacyProtocol)
	defer c2.Close()
	got := mustWF(t, c2, map[string]any{"action": "get_session", "session_id": sess.Session.ID})
	if got.Session.ID != sess.Session.ID || got.Session.CurrentPhase != 1 {
		t.Fatalf("the session did not carry over: %+v", got.Session)
	}
	for i := range 5 {
		out := mustWF(t, c2, map[string]any{"action": "complete_phase", "session_id": sess.Session.ID})
		if out.Gate == nil || !out.Gate.Passed {
			t.Fatalf("phase %d gate: %+v", i+1, out.Gate)
		}
	}
}

// With a second agent open, its bridge takes the project over when the
// upgrade stops the server; the upgrade stops that one too, rather than
// wait for the lock until its time runs out.
func TestUpgradeStopsTheServerThatTakesOver(t *testing.T) {
	t.Parallel()
	root, home := upgradeProjectOwnPorts(t)
	srv := startServe(t, root, "--transport", "dual")
	st := waitState(t, root, srv.cmd.Process.Pid)
	bridge := stdioClient(t, root) // a second agent: bridged, standing by to take over
	if si := getInfo(t, bridge); si.Server.PID != st.PID {
		t.Fatalf("the second agent reached pid %d, not the primary %d", si.Server.PID, st.PID)
	}
	r := runUp(t, root, home, "", "upgrade", "--yes", "--json")
	if r.code != 0 {
		t.Fatalf("upgrade: %d %s", r.code, r.stderr)
	}
	var rep struct {
		Server string `json:"server"`
	}
	json.Unmarshal([]byte(r.stdout), &rep)
	if !strings.Contains(rep.Server, fmt.Sprintf("stopped the running server (pid %d, dual)", st.PID)) {
		t.Fatalf("server note: %q", rep.Server)
	}
}

// A rollback killed half-way is finished by the next upgrade, which then
// upgrades again; or by the next rollback.
func TestRollbackKilledHalfWay(t *testing.T) {
	long(t) // the fast run kills upgrades (TestUpgradeKilledAtEveryPoint) and upgrade finishes interrupted rollbacks
	t.Parallel()
	for _, then := range []string{"upgrade", "rollback"} {
		t.Run(then, func(t *testing.T) {
			t.Parallel()
			root, home, _ := upgradeProject(t)
			before := tree(t, root)
			runUp(t, root, home, "", "upgrade", "--yes")
			upgraded := relTree(t, root)
			if r := runUp(t, root, home, "kill:restore-mid", "rollback"); r.code != -1 {
				t.Fatalf("the rollback was not killed: %d %s", r.code, r.stderr)
			}
			if then == "rollback" {
				if r := runUp(t, root, home, "", "rollback"); r.code != 0 {
					t.Fatalf("rollback: %d %s", r.code, r.stderr)
				}
				if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
					t.Fatalf("not as before: %v", d)
				}
				return
			}
			r := runUp(t, root, home, "", "upgrade", "--yes")
			if r.code != 0 || !strings.Contains(r.stdout, "rollback to") {
				t.Fatalf("upgrade: %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if d := upgradetest.Diff(upgraded, relTree(t, root)); len(d) > 0 {
				t.Fatalf("not fully upgraded: %v", d)
			}
		})
	}
}
