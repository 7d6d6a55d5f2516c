package bench

import (
	"bytes"
	"math"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkSearchCLI: the wall time of `agentos search --code -n 10 QUERY`,
// process start to exit, without a server (the command loads the saved
// index itself) and with one whose code index is ready (the command asks
// it). Each way runs every question of rssQueries once (run it with -benchtime 1x); the two
// answers must be the same.
//
//	AGENTOS_BENCH_CORPUS=/tmp/gostd go test ./bench -run '^$' -bench SearchCLI -benchtime 1x
func BenchmarkSearchCLI(b *testing.B) {
	root := searchProject(b)
	if out, err := exec.Command(binary, "index", "--dir", root).CombinedOutput(); err != nil {
		b.Fatalf("index: %v\n%s", err, out)
	}
	search := func(q string) (string, time.Duration) {
		start := time.Now()
		cmd := exec.Command(binary, "search", "--dir", root, "--code", "-n", "10", q)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatalf("search %q: %v\n%s", q, err, errb.String())
		}
		return out.String(), time.Since(start)
	}
	var local, served []time.Duration
	answers := map[string]string{}
	for b.Loop() {
		for _, q := range rssQueries {
			out, d := search(q)
			answers[q] = out
			local = append(local, d)
		}
		b.StopTimer()
		cmd, url := startServer(b, root)
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		waitSearch(b, newSession(b, url), time.Now())
		b.StartTimer()
		for _, q := range rssQueries {
			out, d := search(q)
			if out != answers[q] {
				b.Errorf("%q: the server's answer differs from the saved index's:\n%s\n---\n%s", q, out, answers[q])
			}
			served = append(served, d)
		}
	}
	report := func(name string, lat []time.Duration) {
		slices.Sort(lat)
		rank := func(q float64) float64 { // nearest rank
			i := int(math.Ceil(q*float64(len(lat)))) - 1
			return float64(lat[min(max(i, 0), len(lat)-1)].Microseconds()) / 1000
		}
		b.ReportMetric(rank(0.5), name+"-p50-ms")
		b.ReportMetric(rank(0.95), name+"-p95-ms")
	}
	report("no-server", local)
	report("server", served)
}
