package bench

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkInstall: `agentos install --yes` on a fresh project (a small Go
// module), wall time per install as a user runs it, and the size of the
// .agentos/ it lays out, the pinned release binary included, on disk.
func BenchmarkInstall(b *testing.B) {
	home := b.TempDir()
	var disk, apparent float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root := b.TempDir()
		for name, content := range map[string]string{
			"go.mod":              "module example.com/app\n\ngo 1.22\n",
			"cmd/app/main.go":     "package main\n\nfunc main() {}\n",
			"internal/store/a.go": "package store\n\n// A is a thing.\ntype A struct{}\n",
			"README.md":           "# app\n",
		} {
			path := filepath.Join(root, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(content), 0o644)
		}
		cmd := exec.Command(binary, "install", "--dir", root, "--yes")
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=")
		b.StartTimer()
		out, err := cmd.CombinedOutput()
		b.StopTimer()
		if err != nil {
			b.Fatalf("install: %v\n%s", err, out)
		}
		disk, apparent = du(b, filepath.Join(root, ".agentos"))
		b.StartTimer()
	}
	b.ReportMetric(disk/1e6, "agentos-disk-MB")
	b.ReportMetric(apparent/1e6, "agentos-files-MB")
}

// du sums the blocks allocated to the files under dir (what the disk
// holds) and their sizes.
func du(b *testing.B, dir string) (disk, apparent float64) {
	b.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		apparent += float64(fi.Size())
		disk += allocated(fi)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return disk, apparent
}
