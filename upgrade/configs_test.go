package upgrade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
)

// Only agentos's own entry and marked block are refreshed: the project's
// other servers and its own rules text stay byte for byte.
func TestUpgradeRefreshesOnlyOurEntriesAndBlocks(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	cfgPath := filepath.Join(f.home, ".claude.json")
	cfg := read(t, cfgPath)
	if !strings.Contains(cfg, `"dual"`) {
		t.Fatalf("install wrote no launch entry: %s", cfg)
	}
	// An earlier version launched with other arguments; the user has a
	// server of their own beside ours.
	old := strings.Replace(cfg, `"dual"`, `"stdio-legacy"`, 1)
	old = strings.Replace(old, `"mcpServers": {`, `"mcpServers": {
        "theirs": {"type": "stdio", "command": "/usr/bin/their-server"},`, 1)
	write(t, cfgPath, old)
	rulesPath := filepath.Join(f.root, "CLAUDE.md")
	rules := read(t, rulesPath)
	mine := "# Our rules\n\nAlways write tests first.\n\n"
	outdated := strings.Replace(rules, "## Never", "## Do not", 1)
	if outdated == rules {
		t.Fatal("the rules block has no \"## Never\" heading to make outdated")
	}
	write(t, rulesPath, mine+outdated)

	pl, err := MakePlan(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Configs) != 2 {
		var paths []string
		for _, c := range pl.Configs {
			paths = append(paths, c.Path)
		}
		t.Fatalf("configs planned: %v", paths)
	}
	if _, err := Run(context.Background(), f.opts()); err != nil {
		t.Fatal(err)
	}
	got := read(t, cfgPath)
	if !strings.Contains(got, `"dual"`) || strings.Contains(got, "stdio-legacy") {
		t.Errorf("our entry was not refreshed:\n%s", got)
	}
	if !strings.Contains(got, `"/usr/bin/their-server"`) {
		t.Errorf("the user's own server was lost:\n%s", got)
	}
	if !strings.Contains(got, installer.PinnedBinary(f.p)) {
		t.Errorf("the entry does not launch the pinned binary")
	}
	if got := read(t, rulesPath); got != mine+rules {
		t.Errorf("rules file:\n%s", got)
	}
}

// A project installed with --no-pin gets no pinned binary from an upgrade:
// its agents run the agentos that upgrades it, where it is (e2e:
// TestUpgradeUnpinnedProject), unless that agentos is a temporary build of
// `go run` or `go test`, like this test's own binary: then the upgrade is
// refused before it changes anything.
func TestUpgradeUnpinnedFromATemporaryBuild(t *testing.T) {
	t.Parallel()
	if exe, _ := os.Executable(); !agentconfig.TransientBinary(exe) {
		runFromTemporaryBuild(t, exe)
		return
	}
	base := t.TempDir()
	f := &fixture{root: filepath.Join(base, "project"), home: filepath.Join(base, "home")}
	os.MkdirAll(f.root, 0o755)
	os.MkdirAll(f.home, 0o755)
	f.p, _ = project.At(f.root)
	f.env = agentconfig.HomeEnv(f.home)
	f.newBinary = filepath.Join(base, "agentos-new")
	write(t, f.newBinary, "#!/bin/sh\n")
	// Another installed agentos (--no-pin refuses a temporary build such as
	// this test's own binary).
	installed := filepath.Join(base, "bin", "agentos")
	write(t, installed, "#!/bin/sh\n")
	if err := os.Chmod(installed, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := installer.Install(context.Background(), installer.Options{Dir: f.root, Yes: true, NoPin: true, BinaryPath: installed, Env: &f.env}); err != nil {
		t.Fatal(err)
	}
	before := f.snapshot(t)
	_, err := Run(context.Background(), f.opts())
	if err == nil || !strings.Contains(err.Error(), "temporary build of `go run`") || !strings.Contains(err.Error(), "go install ./cmd/agentos") {
		t.Fatalf("upgrade of an unpinned project from a temporary build: %v", err)
	}
	if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
		t.Errorf("the refused upgrade changed %v", d)
	}
}

// An external embedder that cannot be reached is the configuration's
// problem, not the upgrade's: validation says it skipped the search and the
// upgrade goes through.
func TestUpgradeWithUnreachableEmbedder(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	cfg := filepath.Join(f.root, ".agentos", "config", "mcp.yaml")
	text := strings.Replace(read(t, cfg), "    provider: builtin\n", "    provider: ollama\n    model: nomic-embed-text\n    url: http://127.0.0.1:1\n", 1)
	write(t, cfg, text)
	rel := f.shipped(t)[0]
	old := replaceLine(read(t, f.abs(rel)), 2, "an older line")
	f.earlier(t, map[string]*string{rel: &old})
	r, err := Run(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Validated, "no search: ") || !strings.Contains(r.Validated, "ollama") {
		t.Errorf("validated: %s", r.Validated)
	}
}

func TestNamesFolderIsAWholePath(t *testing.T) {
	for text, want := range map[string]bool{
		`{"env":{"PROJECT_ROOT":"/src/a"}}`:               true,
		`{"command":"/src/a/.agentos/bin/agentos"}`:       true,
		`{"env":{"PROJECT_ROOT":"/src/ab"}}`:              false,
		`{"command":"/src/ab/.agentos/bin/agentos"}`:      false,
		`{"x":"/src/ab","env":{"PROJECT_ROOT":"/src/a"}}`: true,
		`{"args":["--project-root","/src/a-other/x"]}`:    false,
	} {
		if got := namesFolder(text, "/src/a"); got != want {
			t.Errorf("%s: %v, want %v", text, got, want)
		}
	}
}

func TestNamesFolderOnWindowsPaths(t *testing.T) {
	if !namesFolder(`{"command":"C:\\src\\a\\.agentos\\bin\\agentos.exe"}`, `C:\src\a`) || namesFolder(`{"command":"C:\\src\\ab\\x"}`, `C:\src\a`) {
		t.Error("a Windows path is not matched whole")
	}
}

// runFromTemporaryBuild runs the test t again in a copy of this test binary
// where `go run` and `go test` build theirs (a go-build folder of the
// temporary directory): the test binary itself is not there when the tests
// keep their binaries (scripts/test.sh). The copy runs t alone.
func runFromTemporaryBuild(t *testing.T, exe string) {
	if os.Getenv(rerunEnv) != "" {
		t.Fatalf("the copy %s is not taken for a temporary build", exe)
	}
	dir, err := os.MkdirTemp("", "go-build")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, filepath.Base(exe))
	if err := os.WriteFile(copied, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copied, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), rerunEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("%s from %s: %v\n%s", t.Name(), copied, err, out)
	}
}

// rerunEnv marks a test binary run by runFromTemporaryBuild.
const rerunEnv = "AGENTOS_TEST_RERUN"
