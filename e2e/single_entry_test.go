package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clineEntry is the agentos entry of Cline's user config under home, which
// holds one entry for all projects.
func clineEntry(t *testing.T, home string) (raw []byte, root, url string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(home, ".cline", "data", "settings", "cline_mcp_settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]struct {
			URL string            `json:"url"`
			Env map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("Cline's config: %v\n%s", err, raw)
	}
	e := doc.MCPServers["agentos"]
	return raw, e.Env["PROJECT_ROOT"], e.URL
}

// Cline keeps one agentos entry for all projects, in the user config.
// Installing it in project B while project A has it is refused with nothing
// written; --replace moves it and says so; doctor in A then fails, naming B
// and the fix, while a project that never had Cline only notes it. connect
// is held to the same rule, and an entry whose project folder is gone is
// taken without asking.
func TestSingleEntryNotTakenFromAnotherProject(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	a, b, c := newProject(t), newProject(t), newProject(t)

	if r := runIn(t, a, home, "install", "--dir", a, "--agent", "cline", "--yes"); r.code != 0 {
		t.Fatalf("install cline in a: %+v", r)
	}
	if r := runIn(t, a, home, "install", "--dir", a, "--agent", "cline", "--yes"); r.code != 0 || !strings.Contains(r.stdout, "nothing changed") {
		t.Fatalf("install cline again in a: %+v", r)
	}
	before, root, _ := clineEntry(t, home)
	if root != a {
		t.Fatalf("Cline's entry serves %q, want %s", root, a)
	}

	r := runIn(t, b, home, "install", "--dir", b, "--agent", "cline", "--yes")
	if r.code != 1 {
		t.Fatalf("install cline in b without --replace: %+v", r)
	}
	for _, want := range []string{"Cline keeps one agentos entry for all projects", "serves " + a, "--replace", "Nothing was changed"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, r.stderr)
		}
	}
	if after, _, _ := clineEntry(t, home); string(after) != string(before) {
		t.Fatalf("the refused install changed Cline's config:\n%s\nwas:\n%s", after, before)
	}

	r = runIn(t, b, home, "install", "--dir", b, "--agent", "cline", "--replace", "--yes")
	if r.code != 0 || !strings.Contains(r.stdout, "Repointed Cline's one agentos entry from "+a+" to this project") {
		t.Fatalf("install cline in b with --replace: %+v", r)
	}
	if _, root, _ := clineEntry(t, home); root != b {
		t.Fatalf("after --replace Cline's entry serves %q, want %s", root, b)
	}

	r = runIn(t, a, home, "doctor")
	if r.code != 1 {
		t.Fatalf("doctor in a passes with Cline's entry serving b: %+v", r)
	}
	for _, want := range []string{
		"✗ Cline (~/.cline/data/settings/cline_mcp_settings.json): Cline keeps one agentos entry for all projects, and it now serves " + b + ", not this project",
		"fix: run `agentos install --agent cline --replace --yes` here to point it back at this project",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor in a does not say %q:\n%s", want, r.stdout)
		}
	}
	if r := runIn(t, b, home, "doctor"); !strings.Contains(r.stdout, "✓ Cline (") {
		t.Errorf("doctor in b, which Cline's entry serves:\n%s", r.stdout)
	}
	if r := runIn(t, c, home, "doctor"); !strings.Contains(r.stdout, "• Cline (") || strings.Contains(r.stdout, "✗ Cline") {
		t.Errorf("doctor in c, which never had Cline:\n%s", r.stdout)
	}

	// connect in a, with a's server running: the same refusal, then --replace.
	startServe(t, a, "--transport", "dual")
	st := waitState(t, a, 0)
	before, _, _ = clineEntry(t, home)
	r = runIn(t, a, home, "connect", "--agent", "cline")
	if r.code != 1 || !strings.Contains(r.stderr, "serves "+b) || !strings.Contains(r.stderr, "--replace") {
		t.Fatalf("connect cline in a without --replace: %+v", r)
	}
	if after, _, _ := clineEntry(t, home); string(after) != string(before) {
		t.Fatalf("the refused connect changed Cline's config:\n%s", after)
	}
	r = runIn(t, a, home, "connect", "--agent", "cline", "--replace")
	if r.code != 0 || !strings.Contains(r.stdout, "Repointed Cline's one agentos entry from "+b+" to this project") {
		t.Fatalf("connect cline in a with --replace: %+v", r)
	}
	if _, _, url := clineEntry(t, home); url != st.URL {
		t.Fatalf("Cline's entry points at %q, want a's server %s", url, st.URL)
	}

	// A project whose folder is gone loses the entry without a question.
	if r := runIn(t, b, home, "install", "--dir", b, "--agent", "cline", "--replace", "--yes"); r.code != 0 {
		t.Fatalf("install cline in b again: %+v", r)
	}
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	r = runIn(t, c, home, "install", "--dir", c, "--agent", "cline", "--yes")
	if r.code != 0 || !strings.Contains(r.stdout, "served "+b+", where its folder no longer exists, so it was replaced without asking") {
		t.Fatalf("install cline in c after b was deleted: %+v", r)
	}
	if _, root, _ := clineEntry(t, home); root != c {
		t.Errorf("Cline's entry serves %q, want %s", root, c)
	}
}
