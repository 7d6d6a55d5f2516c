// Package bench measures the server as a user meets it: the built binary's
// start-up, HTTP round trips, idle memory and size. Run:
//
//	go test ./bench -run '^$' -bench . -benchtime 50x
//
// Figures go in docs/benchmarks.md; nothing here asserts a time.
package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/testbin"
)

var binary string // the release-built agentos; set only when a benchmark runs

// TestMain builds the binary (once per source hash, internal/testbin) only
// when a benchmark is selected: the test command runs this package with
// no -bench and so builds nothing. The servers the benchmarks start record
// their ports in a configuration folder of their own, not the user's.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		os.Exit(m.Run())
	}
	os.Exit(testbin.Main(m, func(bin string) { binary = bin }))
}

func project(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	if out, err := exec.Command(binary, "install", "--dir", root, "--scope", "project", "--yes").CombinedOutput(); err != nil {
		b.Fatalf("install: %v\n%s", err, out)
	}
	return root
}

const (
	initMsg     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listTools   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	infoCall    = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_server_info","arguments":{}}}`
)

// BenchmarkStartupToToolsList: process start to the first tools/list answer over stdio.
func BenchmarkStartupToToolsList(b *testing.B) {
	root := project(b)
	for b.Loop() {
		cmd := exec.Command(binary, "serve", "--transport", "stdio", "--project-root", root, "--log-level", "ERROR")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		io.WriteString(stdin, initMsg+"\n"+initialized+"\n"+listTools+"\n")
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if bytes.Contains(sc.Bytes(), []byte(`"id":2`)) {
				break
			}
		}
		stdin.Close()
		cmd.Wait()
	}
}

// BenchmarkHTTPToolCall: one tools/call get_server_info round trip on loopback.
func BenchmarkHTTPToolCall(b *testing.B) {
	root := project(b)
	cmd := exec.Command(binary, "serve", "--transport", "http", "--project-root", root, "--log-level", "ERROR")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	url := waitURL(b, root)
	c := &http.Client{}
	session, proto := rpc(b, c, url, "", "", initMsg)
	rpc(b, c, url, session, proto, initialized)

	var lat []time.Duration
	for b.Loop() {
		t := time.Now()
		rpc(b, c, url, session, proto, infoCall)
		lat = append(lat, time.Since(t))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkIdleRSS reports the resident memory of an idle dual server after
// a client has initialized and listed tools, and the binary's size.
func BenchmarkIdleRSS(b *testing.B) {
	root := project(b)
	for b.Loop() {
		cmd := exec.Command(binary, "serve", "--transport", "dual", "--project-root", root, "--log-level", "ERROR")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		io.WriteString(stdin, initMsg+"\n"+initialized+"\n"+listTools+"\n")
		sc := bufio.NewScanner(stdout)
		for sc.Scan() && !bytes.Contains(sc.Bytes(), []byte(`"id":2`)) {
		}
		waitURL(b, root)
		time.Sleep(time.Second) // let start-up garbage be collected
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "rss-MB")
		stdin.Close()
		cmd.Wait()
	}
	if fi, err := os.Stat(binary); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "binary-MB")
	}
}

func rssMB(b *testing.B, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skip("resident memory needs /proc")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

func waitURL(b *testing.B, root string) string {
	b.Helper()
	for i := 0; i < 500; i++ {
		data, err := os.ReadFile(filepath.Join(root, ".agentos", ".mcp_server_state.json"))
		var st struct {
			URL string `json:"url"`
		}
		if err == nil && json.Unmarshal(data, &st) == nil && st.URL != "" {
			return st.URL
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatal("server did not write its state file")
	return ""
}

// rpc POSTs one message and returns the session id and protocol version of an initialize answer.
func rpc(b *testing.B, c *http.Client, url, session, proto, msg string) (string, string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", proto)
	}
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		b.Fatalf("%s: %s", resp.Status, body)
	}
	var r struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	json.Unmarshal(body, &r)
	return resp.Header.Get("Mcp-Session-Id"), r.Result.ProtocolVersion
}
