package bench

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// BenchmarkSearchEval scores search through the server as an agent meets
// it: every question of the evaluation set (searcheval/testdata/
// eval-questions.json, or $AGENTOS_BENCH_QUESTIONS) asked of search_code
// over HTTP with ten results, once per iteration, a sub-benchmark per
// method. A result is a hit when its path is an expected path and its
// lines hold the expected line; hit@1, hit@5 and MRR@10 are over the top
// ten. The questions are about the Go standard library, so it needs that
// corpus (bench/corpus.sh):
//
//	bench/corpus.sh /tmp/gostd
//	AGENTOS_BENCH_CORPUS=/tmp/gostd go test ./bench -run '^$' -bench SearchEval -benchtime 1x
func BenchmarkSearchEval(b *testing.B) {
	if os.Getenv("AGENTOS_BENCH_CORPUS") == "" {
		b.Skip("the evaluation questions are about the Go standard library: make it with bench/corpus.sh and set AGENTOS_BENCH_CORPUS")
	}
	path := os.Getenv("AGENTOS_BENCH_QUESTIONS")
	if path == "" {
		path = "searcheval/testdata/eval-questions.json"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var set struct {
		Queries []struct {
			Query  string `json:"query"`
			Expect []struct {
				Path string `json:"path"`
				Line int    `json:"line"`
			} `json:"expect"`
		} `json:"queries"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		b.Fatalf("%s: %v", path, err)
	}

	root := searchProject(b)
	cmd, url := startServer(b, root)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	s := newSession(b, url)
	waitSearch(b, s, time.Now())

	for _, method := range []string{"hybrid", "lexical", "vector"} {
		b.Run(method, func(b *testing.B) {
			var h1, h5, mrr float64
			var lat []time.Duration
			for b.Loop() {
				h1, h5, mrr = 0, 0, 0
				for _, q := range set.Queries {
					var out struct {
						Results []struct {
							Path      string `json:"path"`
							StartLine int    `json:"start_line"`
							EndLine   int    `json:"end_line"`
						} `json:"results"`
					}
					start := time.Now()
					s.tool(b, "svc_search_project", map[string]any{"action": "search_code", "query": q.Query, "method": method, "n_results": 10}, &out)
					lat = append(lat, time.Since(start))
					rank := 0
				results:
					for i, r := range out.Results {
						for _, e := range q.Expect {
							if strings.TrimPrefix(r.Path, "./") == e.Path && r.StartLine <= e.Line && e.Line <= max(r.EndLine, r.StartLine) {
								rank = i + 1
								break results
							}
						}
					}
					if rank == 1 {
						h1++
					}
					if rank >= 1 && rank <= 5 {
						h5++
					}
					if rank > 0 {
						mrr += 1 / float64(rank)
					}
				}
			}
			n := float64(len(set.Queries))
			b.ReportMetric(h1/n, "hit@1")
			b.ReportMetric(h5/n, "hit@5")
			b.ReportMetric(mrr/n, "MRR@10")
			reportLatencies(b, lat)
		})
	}
}
