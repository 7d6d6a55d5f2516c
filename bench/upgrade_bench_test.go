package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/manifest"
	agentproject "github.com/agentos-dev/agentos/internal/project"
)

// earlierVersion rewrites an installed project as an earlier version would
// have left it: every tenth shipped file with an older line, an older pinned
// binary, and a project edit to merge, so that the upgrade updates, merges,
// swaps the binary and validates.
func earlierVersion(b *testing.B, root string) {
	b.Helper()
	p, _ := agentproject.At(root)
	m, found, err := manifest.Load(p)
	if err != nil || !found {
		b.Fatalf("manifest: %v %v", found, err)
	}
	m.AssetVersion = "0.9.0"
	for i, rel := range m.Paths() {
		if i%10 != 0 || !strings.HasSuffix(rel, ".md") {
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(rel))
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		lines[len(lines)/3] = "an older line\n"
		old := strings.Join(lines, "")
		if err := manifest.Record(p, &m, rel, []byte(old)); err != nil {
			b.Fatal(err)
		}
		if i%20 == 0 {
			old += "\nThe project's own note.\n" // edited by the project too: merged
		}
		if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(root, ".agentos", "bin", "agentos")
	data, _ := os.ReadFile(bin)
	data = append(data, "older build"...)
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		b.Fatal(err)
	}
	m.Files[".agentos/bin/agentos"] = manifest.Entry{SHA256: manifest.Sum(data), Version: "0.9.0"}
	if err := manifest.Save(p, m); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkUpgrade measures `agentos upgrade --yes` on a project with the
// shipped library installed by an earlier version: preflight, backup,
// update with merges, binary swap, .gitignore, validation with an
// in-process server (index build, tools/list, a search, get_server_info),
// finalize. The project is prepared outside the timer.
func BenchmarkUpgrade(b *testing.B) {
	home := b.TempDir()
	var took []time.Duration
	for b.Loop() {
		b.StopTimer()
		root := project(b)
		earlierVersion(b, root)
		cmd := exec.Command(binary, "upgrade", "--yes", "--dir", root)
		cmd.Env = append(os.Environ(), "HOME="+home)
		b.StartTimer()
		start := time.Now()
		out, err := cmd.CombinedOutput()
		took = append(took, time.Since(start))
		if err != nil || !strings.Contains(string(out), "Upgraded") {
			b.Fatalf("upgrade: %v\n%s", err, out)
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(took[len(took)/2].Seconds(), "median-s")
	b.ReportMetric(took[len(took)-1].Seconds(), "max-s")
}
