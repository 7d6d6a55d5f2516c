package installer

import (
	"os"
	"testing"

	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
)

// Install records every shipped file it wrote and the binary, keeps their
// bases, and a second install leaves the manifest as it is.
func TestInstallRecordsManifest(t *testing.T) {
	t.Parallel()
	root, binary := newProject(t, map[string]string{".agentos/standards/universal/testing/test-pyramid.md": "the project's own text\n"})
	install(t, root, binary)
	p, _ := project.At(root)
	m, found, err := manifest.Load(p)
	if err != nil || !found {
		t.Fatalf("manifest: %v %v", found, err)
	}
	if m.AssetVersion != AssetVersion() || m.Source != "embedded" {
		t.Errorf("version %q source %q", m.AssetVersion, m.Source)
	}
	if e, ok := m.Files[".agentos/bin/agentos"]; !ok || e.SHA256 != manifest.Sum(fakeBinary) {
		t.Errorf("binary entry %+v", e)
	}
	if _, ok := m.Files[".agentos/standards/universal/testing/test-pyramid.md"]; ok {
		t.Error("a file install kept as the project's was recorded as written")
	}
	workflows := 0
	for rel, e := range m.Files {
		if rel == ".agentos/bin/agentos" {
			continue
		}
		data, err := os.ReadFile(p.Root + "/" + rel)
		if err != nil || manifest.Sum(data) != e.SHA256 || manifest.Base(p, e.SHA256) == nil {
			t.Errorf("%s: recorded %s, base kept %v, %v", rel, e.SHA256, manifest.Base(p, e.SHA256) != nil, err)
		}
		if len(rel) > len(".agentos/workflows/") && rel[:len(".agentos/workflows/")] == ".agentos/workflows/" {
			workflows++
		}
	}
	if workflows == 0 || len(m.Files) < 20 {
		t.Errorf("%d files recorded, %d of workflows", len(m.Files), workflows)
	}
	before, _ := os.ReadFile(manifest.Path(p))
	install(t, root, binary)
	after, _ := os.ReadFile(manifest.Path(p))
	if string(before) != string(after) {
		t.Error("a second install rewrote the manifest")
	}
}
