package agentconfig

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/project"
)

// The clients whose default entry is one user-level entry for every
// project: those with no project file and no per-project section. Claude
// Code's user file is keyed by project (local scope), so it is not one.
func TestSingleEntryClients(t *testing.T) {
	for goos, want := range map[string][]string{
		"linux":  {"windsurf", "cline", "goose"},
		"darwin": {"claude-desktop", "windsurf", "cline", "goose"},
	} {
		env := HomeEnv("/home/dev")
		env.GOOS = goos
		var got []string
		for _, c := range All() {
			if tgt, err := c.TargetFor(testRoot, "", env); err == nil && tgt.Single() {
				got = append(got, c.ID)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: single-entry clients = %v, want %v", goos, got, want)
		}
	}
	cc, _ := Lookup("claude-code")
	if tgt, _ := cc.TargetFor(testRoot, ScopeLocal, HomeEnv("/home/dev")); tgt.Single() {
		t.Error("Claude Code's local scope is per project, not single")
	}
	cursor, _ := Lookup("cursor")
	if tgt, _ := cursor.TargetFor(testRoot, ScopeUser, HomeEnv("/home/dev")); !tgt.Single() {
		t.Error("Cursor written with --scope user has one entry for all projects")
	}
}

// installedProject makes a folder with .agentos/ in it, as install leaves.
func installedProject(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, project.Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeLaunch writes c's launch entry for root into t's file, as install does.
func writeLaunch(t *testing.T, tgt Target, root string) {
	t.Helper()
	ch, err := PlanEntry(tgt, Launch(filepath.Join(root, ".agentos", "bin", "agentos"), root))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ch, Backups{}); err != nil {
		t.Fatal(err)
	}
}

// Cline's one entry is another project's while that project exists; once
// its folder, or agentos in it, is gone, it is still displaced but may be
// replaced (Gone says why). The project's own entry, a project-scoped
// target and a missing file displace nothing.
func TestDisplacedReadsTheEntrysProject(t *testing.T) {
	base := t.TempDir()
	a := installedProject(t, filepath.Join(base, "a"))
	b := installedProject(t, filepath.Join(base, "b"))
	cline, _ := Lookup("cline")
	tgt, err := cline.TargetFor(b, "", HomeEnv(filepath.Join(base, "home")))
	if err != nil || !tgt.Single() {
		t.Fatalf("target %+v, %v", tgt, err)
	}
	if _, ok := Displaced(tgt, b); ok {
		t.Error("a missing file displaces nothing")
	}
	writeLaunch(t, tgt, a)
	h, ok := Displaced(tgt, b)
	if !ok || h.Root != a || h.Gone != "" || h.Kind != "launch entry" {
		t.Errorf("from b: %+v %v; want a's launch entry", h, ok)
	}
	if _, ok := Displaced(tgt, a); ok {
		t.Error("a's own entry is displaced by a")
	}
	if _, ok := Displaced(tgt, a+string(filepath.Separator)); ok {
		t.Error("the same folder spelled with a trailing separator is another project")
	}
	// a/b is not a: the roots are compared as folders, not as text.
	ab := installedProject(t, a+"b")
	if h, ok := Displaced(tgt, ab); !ok || h.Root != a {
		t.Errorf("from %s: %+v %v", ab, h, ok)
	}

	if err := os.RemoveAll(filepath.Join(a, project.Dir)); err != nil {
		t.Fatal(err)
	}
	if h, _ := Displaced(tgt, b); h.Gone != "agentos is no longer installed there" {
		t.Errorf("a without .agentos/: gone = %q", h.Gone)
	}
	if err := os.RemoveAll(a); err != nil {
		t.Fatal(err)
	}
	if h, _ := Displaced(tgt, b); h.Gone != "its folder no longer exists" {
		t.Errorf("a removed: gone = %q", h.Gone)
	}

	cursor, _ := Lookup("cursor")
	ptgt, _ := cursor.TargetFor(b, ScopeProject, HomeEnv(filepath.Join(base, "home")))
	writeLaunch(t, ptgt, filepath.Join(base, "elsewhere"))
	if _, ok := Displaced(ptgt, b); ok {
		t.Error("a project file is not a single entry")
	}
}

// An HTTP entry names no project; the project whose port it is, in the
// machine's ports record, is the one it serves.
func TestDisplacedHTTPEntryByRecordedPort(t *testing.T) {
	base := t.TempDir()
	t.Setenv("AGENTOS_CONFIG_HOME", filepath.Join(base, "config"))
	a := installedProject(t, filepath.Join(base, "a"))
	b := installedProject(t, filepath.Join(base, "b"))
	writeTestFile(t, filepath.Join(base, "config", "ports.json"), `{"version": 1, "projects": {"`+a+`": 4301, "`+b+`": 4302}}`)
	cline, _ := Lookup("cline")
	tgt, _ := cline.TargetFor(b, "", HomeEnv(filepath.Join(base, "home")))
	for port, want := range map[string]string{"4301": a, "4302": "", "4399": ""} {
		writeTestFile(t, tgt.Path, `{"mcpServers": {"agentos": {"type": "streamableHttp", "url": "http://127.0.0.1:`+port+`/mcp"}}}`)
		h, ok := Displaced(tgt, b)
		if h.Root != want || ok != (want != "") {
			t.Errorf("port %s: %+v %v, want %q", port, h, ok, want)
		}
	}
}

// The refusal names the client, its file, the project that keeps the
// entry, the one that asked, and the flag that overrides it; the notes say
// what happened to the other project.
func TestTakeoverWording(t *testing.T) {
	cline, _ := Lookup("cline")
	tgt := Target{Client: cline, Scope: ScopeUser, Path: "/home/dev/.cline/data/settings/cline_mcp_settings.json"}
	k := Takeover{Target: tgt, From: Holder{Root: "/src/a", Kind: "launch entry"}, Root: "/src/b"}
	err := error(&TakeoverError{Takeovers: []Takeover{k}})
	for _, want := range []string{"Cline keeps one agentos entry for all projects", tgt.Path, "serves /src/a", "Cline in /src/a reach /src/b", "Nothing was changed", "--replace"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if q := k.Question(); q != "Cline's one agentos entry points at /src/a; point it at /src/b instead? Cline in /src/a will then reach /src/b." {
		t.Errorf("question = %q", q)
	}
	if n := k.Note(); !strings.Contains(n, "Repointed Cline's one agentos entry from /src/a") {
		t.Errorf("note = %q", n)
	}
	k.From.Gone = "its folder no longer exists"
	if n := k.Note(); !strings.Contains(n, "where its folder no longer exists, so it was replaced without asking") {
		t.Errorf("note for a gone project = %q", n)
	}
	var te *TakeoverError
	if !errors.As(err, &te) || len(te.Takeovers) != 1 {
		t.Error("errors.As does not find the takeover")
	}
}

// doctorCheck runs Diagnose on root and returns the check named for
// client, failing the test when there is none.
func doctorCheck(t *testing.T, root string, env Env, client string) Check {
	t.Helper()
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Diagnose(context.Background(), p, env) {
		if strings.HasPrefix(c.Name, client+" (") {
			return c
		}
	}
	t.Fatalf("doctor in %s has no %s check", root, client)
	return Check{}
}

// Doctor in a project whose single Cline entry another project took fails,
// naming that project and the command that points it back; in a project
// that never had the entry it is a note; in the project it serves it passes.
func TestDoctorSingleEntryOfAnotherProject(t *testing.T) {
	base := t.TempDir()
	env := HomeEnv(filepath.Join(base, "home"))
	a := installedProject(t, filepath.Join(base, "a"))
	b := installedProject(t, filepath.Join(base, "b"))
	c := installedProject(t, filepath.Join(base, "c"))
	cline, _ := Lookup("cline")
	tgt, _ := cline.TargetFor(b, "", env)
	writeLaunch(t, tgt, b)
	pa, _ := project.At(a)
	if err := RecordSingle(pa, cline, KindLaunch); err != nil {
		t.Fatal(err)
	}

	got := doctorCheck(t, a, env, "Cline")
	if got.OK || !strings.Contains(got.Detail, "now serves "+b+", not this project") ||
		!strings.Contains(got.Fix, "agentos install --agent cline --replace --yes") {
		t.Errorf("doctor in a: %+v", got)
	}
	if got := doctorCheck(t, c, env, "Cline"); !got.OK || !got.Note || !strings.Contains(got.Detail, "serves another project ("+b+")") {
		t.Errorf("doctor in c, which never had Cline: %+v", got)
	}
	// A project installed before the record: Cline's rules file says it had the entry.
	writeTestFile(t, filepath.Join(c, ".clinerules", "agentos.md"), "rules\n")
	if got := doctorCheck(t, c, env, "Cline"); got.OK {
		t.Errorf("doctor in c with .clinerules/agentos.md: %+v", got)
	}
	// Connected (an HTTP entry) rather than installed: connect points it back.
	if err := RecordSingle(pa, cline, KindShared); err != nil {
		t.Fatal(err)
	}
	if got := doctorCheck(t, a, env, "Cline"); !strings.Contains(got.Fix, "agentos connect --agent cline --replace") {
		t.Errorf("doctor in a after connect: %+v", got)
	}
	// b's folder is gone: a's fix needs no --replace.
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	if got := doctorCheck(t, a, env, "Cline"); got.OK || !strings.Contains(got.Detail, "its folder no longer exists") || strings.Contains(got.Fix, "--replace") {
		t.Errorf("doctor in a, b gone: %+v", got)
	}
}
