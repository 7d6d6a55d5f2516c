package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	agentosproject "github.com/agentos-dev/agentos/internal/project"
)

// BenchmarkSearchMonorepo measures the code index at monorepo size, through
// the built binary, on the corpus named by $AGENTOS_BENCH_MONOREPO
// (bench/corpus-monorepo.sh makes the standard library alone, ×3 and ×8 with
// real Go modules). One iteration prints every figure of a scale:
//
//	bench/corpus-monorepo.sh /tmp/mono8 8
//	AGENTOS_BENCH_MONOREPO=/tmp/mono8 go test ./bench -run '^$' -bench Monorepo -benchtime 1x -timeout 30m
//
// The corpus is copied (it stays clean for the next run), `agentos install`
// lays out the project non-interactively and its detection is checked to
// name every top-level folder, then `serve --transport http` builds the
// index from nothing: the wall and CPU time to a ready code index, the
// server's peak RSS (VmHWM), and after 50 hybrid searches their p50/p95 and
// the RSS right after and 5 s later. A restart then loads the saved index:
// the time to ready, the RSS then, and the same 50 searches and RSS figures.
func BenchmarkSearchMonorepo(b *testing.B) {
	src := os.Getenv("AGENTOS_BENCH_MONOREPO")
	if src == "" {
		b.Skip("set AGENTOS_BENCH_MONOREPO to a corpus made by bench/corpus-monorepo.sh")
	}
	root := b.TempDir()
	if err := copyTree(src, root); err != nil {
		b.Fatal(err)
	}
	paths, err := agentosproject.At(root)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		os.RemoveAll(paths.AgentOS())
		start := time.Now()
		out, err := exec.Command(binary, "install", "--dir", root, "--scope", "project", "--yes").CombinedOutput()
		if err != nil {
			b.Fatalf("install: %v\n%s", err, out)
		}
		b.ReportMetric(time.Since(start).Seconds(), "install-s")
		b.ReportMetric(float64(missingFolders(b, root, paths, out)), "install-folders-missing")

		start = time.Now()
		cmd, url := startServer(b, root)
		s := newSession(b, url)
		_, ready := waitSearch(b, s, start)
		b.ReportMetric(ready.Seconds(), "build-s")
		b.ReportMetric(cpuSeconds(b, cmd.Process.Pid), "build-cpu-s")
		b.ReportMetric(vmHWM(cmd.Process.Pid), "build-peak-rss-MB")
		searchSession(b, s, cmd.Process.Pid, "build-")
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()

		start = time.Now()
		cmd, url = startServer(b, root)
		s = newSession(b, url)
		_, ready = waitSearch(b, s, start)
		b.ReportMetric(ready.Seconds(), "restart-s")
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "restart-rss-MB")
		searchSession(b, s, cmd.Process.Pid, "restart-")
		b.ReportMetric(vmHWM(cmd.Process.Pid), "restart-peak-rss-MB")
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}
	files, lines := goLines(b, root)
	b.ReportMetric(float64(files), "go-files")
	b.ReportMetric(float64(lines)/1e3, "go-klines")
	disk, _ := du(b, paths.IndexDir("code"))
	b.ReportMetric(disk/(1<<20), "index-disk-MB")
}

// searchSession makes 50 hybrid searches (the ordinary questions, in turn)
// and reports the server's CPU time per search, their p50 and p95 and the
// server's RSS right after them and 5 s later, each named with prefix.
func searchSession(b *testing.B, s *mcpSession, pid int, prefix string) {
	b.Helper()
	var lat []time.Duration
	cpu := cpuSeconds(b, pid)
	for i := range 50 {
		start := time.Now()
		var out json.RawMessage
		s.tool(b, "svc_search_project", map[string]any{"action": "search_code", "query": rssQueries[i%len(rssQueries)],
			"method": "hybrid", "n_results": 10}, &out)
		lat = append(lat, time.Since(start))
	}
	// The server's CPU time per search: on a shared machine the latencies
	// carry the other work's load, which this figure mostly does not.
	b.ReportMetric((cpuSeconds(b, pid)-cpu)*1000/50, prefix+"cpu-ms-per-search")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*95+99)/100-1].Microseconds())/1000, prefix+"p95-ms")
	b.ReportMetric(rssMB(b, pid), prefix+"rss-after-50-MB")
	time.Sleep(5 * time.Second)
	b.ReportMetric(rssMB(b, pid), prefix+"rss-5s-later-MB")
}

// missingFolders counts the top-level folders holding Go files that install
// neither took as source (code.source_paths in the config it wrote) nor named
// in what it says it left out; each is logged.
func missingFolders(b *testing.B, root string, paths agentosproject.Paths, out []byte) int {
	b.Helper()
	cfg, err := config.Load(paths.Config())
	if err != nil {
		b.Fatal(err)
	}
	if slices.Contains(cfg.Code.SourcePaths, ".") {
		return 0
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		b.Fatal(err)
	}
	missing := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || slices.Contains(cfg.Code.SourcePaths, name) {
			continue
		}
		if n, _ := goLines(b, filepath.Join(root, name)); n == 0 {
			continue
		}
		if !strings.Contains(string(out), name) {
			b.Logf("install neither indexes nor names %s/", name)
		} else {
			b.Logf("install left out %s/, which holds Go files", name)
		}
		missing++
	}
	return missing
}

// goLines counts the Go files under dir and their lines.
func goLines(b *testing.B, dir string) (files, lines int) {
	b.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == agentosproject.Dir {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		lines += strings.Count(string(data), "\n")
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, lines
}

// cpuSeconds is the CPU time (user and system) process pid has used.
func cpuSeconds(b *testing.B, pid int) float64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skip("CPU time needs /proc")
	}
	// The fields after the command name, which may hold spaces, are
	// state ppid … utime (14th field) stime (15th), in clock ticks of 1/100 s.
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100
}
