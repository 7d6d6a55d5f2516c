package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The search benchmarks index the corpus named by $AGENTOS_BENCH_CORPUS (a
// folder of code, copied first; bench/corpus.sh makes the one of the figures,
// the Go standard library), else a generated project of 300 Go files:
//
//	bench/corpus.sh /tmp/gostd
//	AGENTOS_BENCH_CORPUS=/tmp/gostd go test ./bench -run '^$' -bench 'Search' -benchtime 20x

// searchProject copies the corpus (or generates one) into a temp dir and
// installs agentos there.
func searchProject(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	if src := os.Getenv("AGENTOS_BENCH_CORPUS"); src != "" {
		if err := copyTree(src, root); err != nil {
			b.Fatal(err)
		}
	} else {
		for i := range 300 {
			var s strings.Builder
			fmt.Fprintf(&s, "package pkg%d\n\n", i%30)
			for k := range 8 {
				fmt.Fprintf(&s, "// Func%d_%d computes the value number %d of widget %d.\nfunc Func%d_%d(x int) int { return x + %d }\n\n", i, k, k, i, i, k, k)
			}
			p := filepath.Join(root, fmt.Sprintf("pkg%d", i%30), fmt.Sprintf("f%d.go", i))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/gen\n\ngo 1.22\n"), 0o644)
	}
	if out, err := exec.Command(binary, "install", "--dir", root, "--scope", "project", "--yes").CombinedOutput(); err != nil {
		b.Fatalf("install: %v\n%s", err, out)
	}
	return root
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == ".agentos" {
				return fs.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// mcpSession is a minimal streamable HTTP client.
type mcpSession struct {
	c                   *http.Client
	url, session, proto string
	id                  int
}

func newSession(b *testing.B, url string) *mcpSession {
	s := &mcpSession{c: &http.Client{}, url: url}
	s.session, s.proto = rpc(b, s.c, url, "", "", initMsg)
	rpc(b, s.c, url, s.session, s.proto, initialized)
	return s
}

// tool calls a tool and decodes its structured content into out.
func (s *mcpSession) tool(b *testing.B, name string, args map[string]any, out any) {
	b.Helper()
	s.id++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 100 + s.id, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(string(msg)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", s.session)
	req.Header.Set("Mcp-Protocol-Version", s.proto)
	resp, err := s.c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var r struct {
		Result struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
			IsError           bool            `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Result.IsError {
		b.Fatalf("%s: %v %s", name, err, body)
	}
	if err := json.Unmarshal(r.Result.StructuredContent, out); err != nil {
		b.Fatal(err)
	}
}

type benchStatus struct {
	Indexes []struct {
		State      string `json:"state"`
		FilesDone  int    `json:"files_done"`
		FilesTotal int    `json:"files_total"`
	} `json:"indexes"`
}

// waitSearch polls index_status until the code index has some files
// searchable and until it is ready; it returns both times since start.
func waitSearch(b *testing.B, s *mcpSession, start time.Time) (first, ready time.Duration) {
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		var st benchStatus
		s.tool(b, "svc_search_project", map[string]any{"action": "index_status"}, &st)
		code := st.Indexes[1]
		if first == 0 && code.FilesDone > 0 {
			first = time.Since(start)
		}
		if code.State == "ready" {
			return first, time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatal("the code index was not ready within 5 minutes")
	return 0, 0
}

func startServer(b *testing.B, root string) (*exec.Cmd, string) {
	cmd := exec.Command(binary, "serve", "--transport", "http", "--project-root", root, "--log-level", "ERROR")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return cmd, waitURL(b, root)
}

func vmHWM(pid int) float64 {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// rssQueries are the searches a memory measurement makes: ordinary
// developer questions, none from an evaluation set.
var rssQueries = []string{
	"open a file for reading", "parse a configuration value", "retry a request with backoff", "hash a password",
	"split a string by a separator", "write a value as JSON", "compare two versions", "close the connection",
	"start a background worker", "format a date", "read lines from standard input", "sort records by a key",
	"compress data before sending", "resolve a host name", "escape a string for HTML", "create a temporary folder",
	"walk a directory tree", "lock a shared map", "cancel a long operation", "convert a number to text",
}

// BenchmarkSearchColdStart: a server's first start on the project (no saved
// index) to the first searchable files and to a ready code index, its peak
// and settled memory; then a restart that loads the saved index.
func BenchmarkSearchColdStart(b *testing.B) {
	root := searchProject(b)
	for b.Loop() {
		os.RemoveAll(filepath.Join(root, ".agentos", ".cache", "indexes"))
		start := time.Now()
		cmd, url := startServer(b, root)
		first, ready := waitSearch(b, newSession(b, url), start)
		time.Sleep(time.Second)
		b.ReportMetric(first.Seconds(), "first-results-s")
		b.ReportMetric(ready.Seconds(), "ready-s")
		b.ReportMetric(vmHWM(cmd.Process.Pid), "peak-rss-MB")
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "rss-MB")
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()

		start = time.Now()
		cmd, url = startServer(b, root)
		s := newSession(b, url)
		_, ready = waitSearch(b, s, start)
		time.Sleep(time.Second)
		b.ReportMetric(ready.Seconds(), "warm-ready-s")
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "warm-rss-MB")
		// Searches make garbage; what the process holds after a working
		// session is the figure that matters.
		for i, method := range []string{"hybrid", "lexical", "vector"} {
			for _, q := range rssQueries {
				var out json.RawMessage
				s.tool(b, "svc_search_project", map[string]any{"action": "search_code", "query": q, "method": method}, &out)
			}
			if i == 0 {
				var out json.RawMessage
				s.tool(b, "svc_search_project", map[string]any{"action": "find_callers", "query": "os.Open"}, &out)
			}
		}
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "warm-rss-after-searches-MB")
		time.Sleep(5 * time.Second)
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "warm-rss-5s-later-MB")
		b.ReportMetric(vmHWM(cmd.Process.Pid), "warm-peak-rss-MB")
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}
	if fi, err := os.Stat(filepath.Join(root, ".agentos", ".cache", "indexes", "code", "index.snapshot")); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "index-MB")
	}
}

// BenchmarkSearchSaveToSearchable: one iteration saves a source file with a
// new function and polls search_code until it is the top result; the time
// from the write to that answer is the latency (p50, p95 over the
// iterations). The files edited are spread over the corpus.
func BenchmarkSearchSaveToSearchable(b *testing.B) {
	saveToSearchable(b, func(files []benchFile) []benchFile {
		sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
		var out []benchFile
		for i := 0; i < len(files); i += max(1, len(files)/20) {
			out = append(out, files[i])
		}
		return out
	})
}

// BenchmarkSearchSaveToSearchableLargest: the same with the five largest
// files of the corpus, the slowest to reindex.
func BenchmarkSearchSaveToSearchableLargest(b *testing.B) {
	saveToSearchable(b, func(files []benchFile) []benchFile {
		sort.Slice(files, func(i, j int) bool { return files[i].size > files[j].size })
		return files[:min(len(files), 5)]
	})
}

type benchFile struct {
	path string
	size int64
}

func saveToSearchable(b *testing.B, pick func([]benchFile) []benchFile) {
	root := searchProject(b)
	cmd, url := startServer(b, root)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	s := newSession(b, url)
	waitSearch(b, s, time.Now())

	var files []benchFile
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "build") { // folders the index leaves out
			return fs.SkipDir
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			if fi, err := d.Info(); err == nil && fi.Size() < 900<<10 { // the index skips files over 1 MiB
				files = append(files, benchFile{p, fi.Size()})
			}
		}
		return nil
	})
	files = pick(files)

	var lat []time.Duration
	n := 0
	for b.Loop() {
		f := files[n%len(files)]
		n++
		data, err := os.ReadFile(f.path)
		if err != nil {
			b.Fatal(err)
		}
		word := fmt.Sprintf("Zqvbenchprobe%d", n)
		data = append(data, fmt.Sprintf("\n// %s is a probe the benchmark adds.\nfunc %s() {}\n", word, word)...)
		rel, _ := filepath.Rel(root, f.path)
		rel = filepath.ToSlash(rel)
		start := time.Now()
		if err := os.WriteFile(f.path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			var out struct {
				Results []struct {
					Path   string `json:"path"`
					Symbol string `json:"symbol"`
				} `json:"results"`
			}
			s.tool(b, "svc_search_project", map[string]any{"action": "search_code", "query": word, "method": "lexical", "n_results": 1}, &out)
			if len(out.Results) > 0 && out.Results[0].Path == rel && out.Results[0].Symbol == word {
				break
			}
			if time.Since(start) > time.Minute {
				b.Fatalf("%s not searchable after a minute", word)
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat = append(lat, time.Since(start))
		time.Sleep(300 * time.Millisecond) // edits a person or an agent makes are spaced
	}
	reportLatencies(b, lat)
}

// reportLatencies reports the median, 95th percentile and worst of lat.
func reportLatencies(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	rank := func(q float64) float64 { // nearest rank
		i := int(math.Ceil(q*float64(len(lat)))) - 1
		return float64(lat[min(max(i, 0), len(lat)-1)].Microseconds()) / 1000
	}
	b.ReportMetric(rank(0.5), "p50-ms")
	b.ReportMetric(rank(0.95), "p95-ms")
	b.ReportMetric(rank(1), "max-ms")
}

// BenchmarkSearchQuery: one iteration is one search_code call with the
// default method (hybrid) and ten results, over HTTP to a server whose code
// index is ready, cycling through ordinary questions; the latency is the
// whole MCP round trip, reading each result's lines included.
func BenchmarkSearchQuery(b *testing.B) {
	root := searchProject(b)
	cmd, url := startServer(b, root)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	s := newSession(b, url)
	waitSearch(b, s, time.Now())
	var lat []time.Duration
	n := 0
	for b.Loop() {
		q := rssQueries[n%len(rssQueries)]
		n++
		start := time.Now()
		var out json.RawMessage
		s.tool(b, "svc_search_project", map[string]any{"action": "search_code", "query": q, "n_results": 10}, &out)
		lat = append(lat, time.Since(start))
	}
	reportLatencies(b, lat)
}
