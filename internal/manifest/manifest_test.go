package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/project"
)

func newProject(t *testing.T) project.Paths {
	t.Helper()
	p, _ := project.At(t.TempDir())
	if err := os.MkdirAll(p.AgentOS(), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRoundTripAndBases(t *testing.T) {
	p := newProject(t)
	m, found, err := Load(p)
	if err != nil || found || len(m.Files) != 0 {
		t.Fatalf("no manifest: %v %v %v", m, found, err)
	}
	m = New("1.2.3", "embedded")
	if err := Record(p, &m, ".agentos/workflows/a.md", []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if err := Record(p, &m, ".agentos/workflows/b.md", []byte("b\n")); err != nil {
		t.Fatal(err)
	}
	if err := Save(p, m); err != nil {
		t.Fatal(err)
	}
	got, found, err := Load(p)
	if err != nil || !found || got.AssetVersion != "1.2.3" || got.Files[".agentos/workflows/a.md"].SHA256 != Sum([]byte("a\n")) {
		t.Fatalf("loaded %+v %v %v", got, found, err)
	}
	if string(Base(p, Sum([]byte("a\n")))) != "a\n" {
		t.Error("base a not stored")
	}
	// A base that does not match its name is no base.
	os.WriteFile(filepath.Join(BasesDir(p), Sum([]byte("b\n"))), []byte("tampered"), 0o644)
	if Base(p, Sum([]byte("b\n"))) != nil {
		t.Error("a damaged base was returned")
	}
	delete(got.Files, ".agentos/workflows/a.md")
	if err := PruneBases(p, got); err != nil {
		t.Fatal(err)
	}
	if Base(p, Sum([]byte("a\n"))) != nil {
		t.Error("an unreferenced base survived pruning")
	}
}

func TestLoadBadManifests(t *testing.T) {
	p := newProject(t)
	os.WriteFile(Path(p), []byte("{oops"), 0o644)
	if _, _, err := Load(p); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged: %v", err)
	}
	os.WriteFile(Path(p), []byte(`{"format": 99, "files": {}}`), 0o644)
	if _, _, err := Load(p); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("future format: %v", err)
	}
}

// The manifest is the project's file, so a cloned repository writes it as it
// likes: an entry whose path leaves the project, or whose sum is a path, is
// refused by Load with the file and the entry named.
func TestLoadRefusesEntriesOutsideTheProject(t *testing.T) {
	sum := Sum([]byte("victim\n"))
	bad := map[string]string{
		".agentos/standards/universal/../../../../outside/victim.txt": "",
		"../victim.txt":                 "",
		"/etc/passwd":                   "",
		".agentos/workflows/./a.md":     "",
		".agentos/workflows//a.md":      "",
		`.agentos\workflows\..\..\x.md`: "",
		"":                              "",
		".agentos/workflows/a.md":       "../../../../dev/zero",
	}
	for rel, badSum := range bad {
		p := newProject(t)
		e := `{"sha256": "` + sum + `"}`
		if badSum != "" {
			e = `{"sha256": "` + badSum + `"}`
		}
		name, _ := json.Marshal(rel)
		os.WriteFile(Path(p), []byte(`{"format": 1, "files": {`+string(name)+`: `+e+`}}`), 0o644)
		_, _, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), ".agentos/manifest.json") || !strings.Contains(err.Error(), string(name)) {
			t.Errorf("entry %q (sum %q): %v", rel, badSum, err)
		}
	}
	for _, rel := range []string{".agentos/workflows/a.md", ".agentos/bin/agentos", "AGENTS.md", ".agentos/standards/universal/x..y.md"} {
		if err := CheckPath(rel); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
	if Base(newProject(t), "../../../../etc/hostname") != nil {
		t.Error("a sum that is a path was read as a base")
	}
}
