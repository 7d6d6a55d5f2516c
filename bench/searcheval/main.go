// Command searcheval measures the search engine on a code corpus and question
// sets: it indexes the corpus cold, then for each ranking method scores every
// question (hit@1, hit@5, MRR@10 over the top 10) and times the queries.
//
//	bench/corpus.sh /tmp/gostd
//	go run ./bench/searcheval -corpus /tmp/gostd
//	go run ./bench/searcheval -corpus /tmp/gostd -questions bench/searcheval/testdata/dev-questions.json -v
//
// A question file is {"queries": [{"query": "...", "expect": [{"path", "line"}]}]}; a
// result is a hit when its path equals an expected path and its line range
// contains the expected line. Several files may be given, comma-separated.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/embed"
)

type expect struct {
	Path   string `json:"path"`
	Symbol string `json:"symbol"`
	Line   int    `json:"line"`
}

type question struct {
	Query  string   `json:"query"`
	Expect []expect `json:"expect"`
}

type questionSet struct {
	name    string
	Queries []question `json:"queries"`
}

func main() {
	dir := "testdata/"
	if _, err := os.Stat("bench/searcheval/testdata/dev-questions.json"); err == nil {
		dir = "bench/searcheval/testdata/"
	}
	defaultQ := dir + "eval-questions.json," + dir + "dev-questions.json," + dir + "validation-questions.json"
	corpus := flag.String("corpus", "", "folder of the code to index (required)")
	questions := flag.String("questions", defaultQ, "question files, comma-separated")
	methods := flag.String("methods", "lexical,vector,hybrid", "ranking methods to score, comma-separated")
	dim := flag.Int("dim", 0, "dimension of the built-in embedder (0: its default)")
	tuning := flag.String("tuning", "", `JSON overriding ranking weights, e.g. {"ExpandWeight":0.5}`)
	repeat := flag.Int("repeat", 5, "times each query runs, for latency figures")
	verbose := flag.Bool("v", false, "print the rank of every question and the top results of misses")
	persist := flag.Bool("persist", false, "also time saving, loading and refreshing the snapshot")
	diag := flag.Bool("diag", false, "with -v: show where each method ranks the expected answer of a miss")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the queries to this file")
	memprofile := flag.String("memprofile", "", "write a heap profile after the build to this file")
	buildprofile := flag.String("buildprofile", "", "write a CPU profile of the cold build to this file")
	sweep := flag.String("sweep", "", `JSON list of ranking-weight overrides applied in turn after the build (query-time weights only), e.g. [{"RRFK":30},{"RRFK":90}]`)
	languages := flag.String("languages", "go", "languages of the corpus to index, comma-separated (go, python, rust, java, …)")
	hashWeights := flag.String("hashweights", "", `JSON overriding the built-in embedder's feature weights, e.g. {"Trigram":0.3}`)
	prefix := flag.String("prefix", "", `folder put before every expected path, e.g. "rich/": the same questions then hold on a repository's checkout, whose package sits in a folder beside its tests and docs`)
	top := flag.Int("top", 3, "with -v: results shown for each question missed at rank 1")
	wordvec := flag.String("wordvec", "", "a learned neighbour table (bench/wordvec) whose neighbours expand each query")
	learned := flag.Float64("learned", 0.3, "with -wordvec: weight of a neighbour in the query's vector, times its cosine")
	bridge := flag.String("bridge", "", "a trained bridge (bench/wordvec -bridge) whose vectors join the built-in embedder's, weighted by -bridgeweight")
	static := flag.String("static", "", "a table of word vectors (bench/wordvec -vectors) whose sums join the built-in embedder's vectors, weighted by -bridgeweight")
	external := flag.String("external", "", "a folder of vectors another program computed (bridge.go), joined to the built-in embedder's, weighted by -bridgeweight")
	externalDim := flag.Int("externaldim", 512, "with -external: their dimension")
	bridgeWeight := flag.Float64("bridgeweight", 0.5, "with -bridge, -static or -external: weight of their vector beside the built-in one")
	learnedAbsent := flag.Bool("learnedabsent", false, "with -wordvec: expand only the query words the index does not hold")
	flag.Parse()
	diagnose, showTop = *diag, *top
	if *corpus == "" {
		fmt.Fprintln(os.Stderr, "searcheval: -corpus is required (bench/corpus.sh makes the Go standard library corpus)")
		os.Exit(2)
	}
	var sets []questionSet
	for _, f := range strings.Split(*questions, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
			os.Exit(1)
		}
		qs := questionSet{name: f}
		if err := json.Unmarshal(data, &qs); err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: %s: %v\n", f, err)
			os.Exit(1)
		}
		if *prefix != "" {
			for i := range qs.Queries {
				for j := range qs.Queries[i].Expect {
					e := &qs.Queries[i].Expect[j]
					e.Path = path.Join(*prefix, e.Path)
				}
			}
		}
		sets = append(sets, qs)
	}
	t := search.DefaultTuning()
	if *tuning != "" {
		if err := json.Unmarshal([]byte(*tuning), &t); err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: -tuning: %v\n", err)
			os.Exit(2)
		}
	}
	opt := search.CodeOptions(*corpus, nil, strings.Split(*languages, ","))
	h := embed.NewHashing(*dim)
	if *hashWeights != "" {
		w := embed.DefaultHashingWeights
		if err := json.Unmarshal([]byte(*hashWeights), &w); err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: -hashweights: %v\n", err)
			os.Exit(2)
		}
		h = h.WithWeights(w)
	}
	opt.Embedder = h
	if *wordvec != "" {
		t, err := readNeighbourTable(*wordvec)
		if err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
			os.Exit(1)
		}
		opt.Embedder = &expandingEmbedder{Hashing: h, table: t, weight: *learned, absent: *learnedAbsent}
	}
	switch {
	case *bridge != "" || *static != "":
		path := *bridge
		if path == "" {
			path = *static
		}
		m, err := readWordTables(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
			os.Exit(1)
		}
		opt.Embedder = m.embedder(h, "words", *bridgeWeight)
	case *external != "":
		e, err := readExternal(*external, *externalDim)
		if err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
			os.Exit(1)
		}
		opt.Embedder = &joinedEmbedder{Hashing: h, name: "external", dim: e.d, weight: float32(*bridgeWeight), doc: e.vector, query: e.vector}
	}
	opt.Tuning = &t
	ctx := context.Background()

	runtime.GC()
	if *buildprofile != "" {
		f, err := os.Create(*buildprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
	}
	start := time.Now()
	ix, err := search.New(opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
		os.Exit(1)
	}
	bs, err := ix.Build(ctx)
	if err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: build: %v\n", err)
		os.Exit(1)
	}
	cold := time.Since(start)
	if *buildprofile != "" {
		pprof.StopCPUProfile()
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if *memprofile != "" {
		if f, err := os.Create(*memprofile); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	st := ix.Stats()
	lines := countLines(*corpus, ix)
	fmt.Printf("corpus %s: %d files, %d lines, %d chunks, %d symbols, %d call sites\n",
		*corpus, bs.Files, lines, bs.Chunks, st.Graph.Symbols, st.Graph.Calls)
	fmt.Printf("cold index %.2f s on %d cores (GOMAXPROCS %d); heap in use %.0f MiB; embedder %s/%d\n",
		cold.Seconds(), runtime.NumCPU(), runtime.GOMAXPROCS(0), float64(ms.HeapInuse)/(1<<20), st.Embedder, st.Dim)

	if *persist {
		measurePersist(ctx, ix, opt)
	}

	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if *sweep != "" {
		var overrides []json.RawMessage
		if err := json.Unmarshal([]byte(*sweep), &overrides); err != nil {
			fmt.Fprintf(os.Stderr, "searcheval: -sweep: %v\n", err)
			os.Exit(2)
		}
		base := t
		for _, o := range overrides {
			tt := base
			if err := json.Unmarshal(o, &tt); err != nil {
				fmt.Fprintf(os.Stderr, "searcheval: -sweep: %v\n", err)
				os.Exit(2)
			}
			ix.SetTuning(tt)
			fmt.Printf("%-60s", o)
			for _, set := range sets {
				for _, m := range strings.Split(*methods, ",") {
					r := evaluate(ctx, ix, set, search.Method(strings.TrimSpace(m)), 1)
					fmt.Printf("  %s %.3f/%.2f/%.2f p95 %.1fms", strings.TrimSpace(m)[:3], r.mrr, r.h1, r.h5,
						float64(r.lat[min(len(r.lat)-1, len(r.lat)*95/100)].Microseconds())/1000)
				}
			}
			fmt.Println()
		}
		return
	}
	for _, set := range sets {
		fmt.Printf("\n%s (%d questions)\n", set.name, len(set.Queries))
		for _, m := range strings.Split(*methods, ",") {
			method := search.Method(strings.TrimSpace(m))
			score(ctx, ix, set, method, *repeat, *verbose)
		}
	}
}

type figures struct {
	h1, h5, mrr float64
	lat         []time.Duration
	ranks       []int
	tops        [][]search.Result
}

func evaluate(ctx context.Context, ix *search.Index, set questionSet, method search.Method, repeat int) figures {
	var f figures
	for _, q := range set.Queries {
		var rs []search.Result
		for r := 0; r < max(repeat, 1); r++ {
			t0 := time.Now()
			res, err := ix.Search(ctx, search.Query{Text: q.Query, Method: method, Limit: 10})
			f.lat = append(f.lat, time.Since(t0))
			if err != nil {
				fmt.Fprintf(os.Stderr, "searcheval: %q: %v\n", q.Query, err)
				os.Exit(1)
			}
			rs = res
		}
		rank := 0
		for i, r := range rs {
			if hit(r, q.Expect) {
				rank = i + 1
				break
			}
		}
		if rank == 1 {
			f.h1++
		}
		if rank >= 1 && rank <= 5 {
			f.h5++
		}
		if rank > 0 {
			f.mrr += 1 / float64(rank)
		}
		f.ranks = append(f.ranks, rank)
		f.tops = append(f.tops, rs)
	}
	n := float64(len(set.Queries))
	f.h1, f.h5, f.mrr = f.h1/n, f.h5/n, f.mrr/n
	slices.Sort(f.lat)
	return f
}

// showTop is how many results -v shows for a question not answered first.
var showTop = 3

func score(ctx context.Context, ix *search.Index, set questionSet, method search.Method, repeat int, verbose bool) {
	f := evaluate(ctx, ix, set, method, repeat)
	if verbose {
		for i, q := range set.Queries {
			rank, rs := f.ranks[i], f.tops[i]
			fmt.Printf("  %-7s rank %2d  %s\n", method, rank, q.Query)
			if rank == 1 {
				continue
			}
			for i, r := range rs[:min(len(rs), showTop)] {
				fmt.Printf("           %d. %s:%d %s %v %.4f\n", i+1, r.Path, r.StartLine, r.Symbol, r.Signals, r.Score)
			}
			fmt.Printf("           want %s:%d %s\n", q.Expect[0].Path, q.Expect[0].Line, q.Expect[0].Symbol)
			if diagnose {
				for _, m := range []search.Method{search.Lexical, search.Vector, search.Hybrid} {
					res, _ := ix.Search(ctx, search.Query{Text: q.Query, Method: m, Limit: search.MaxLimit, ContentBudget: -1})
					at := 0
					for i, r := range res {
						if hit(r, q.Expect) {
							at = i + 1
							break
						}
					}
					fmt.Printf("           %s ranks it %d (of %d)\n", m, at, len(res))
				}
			}
		}
	}
	p := func(q float64) float64 {
		return float64(f.lat[min(len(f.lat)-1, int(q*float64(len(f.lat))))].Microseconds()) / 1000
	}
	fmt.Printf("  %-7s hit@1 %.2f  hit@5 %.2f  MRR@10 %.3f  query p50 %.1f ms  p95 %.1f ms\n",
		method, f.h1, f.h5, f.mrr, p(0.5), p(0.95))
}

var diagnose bool

func hit(r search.Result, want []expect) bool {
	for _, e := range want {
		if r.Path == e.Path && r.StartLine <= e.Line && e.Line <= max(r.EndLine, r.StartLine) {
			return true
		}
	}
	return false
}

func countLines(root string, ix *search.Index) int {
	n := 0
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains(ix.Options().Languages, chunk.LanguageOf(p)) {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			n += strings.Count(string(data), "\n")
		}
		return nil
	})
	return n
}

func measurePersist(ctx context.Context, ix *search.Index, opt search.Options) {
	dir, err := os.MkdirTemp("", "searcheval-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
		return
	}
	defer os.RemoveAll(dir)
	opt.Dir = dir
	ix2, err := search.New(opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
		return
	}
	if _, err := ix2.Build(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: %v\n", err)
		return
	}
	t0 := time.Now()
	if err := ix2.Save(); err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: save: %v\n", err)
		return
	}
	save := time.Since(t0)
	fi, _ := os.Stat(filepath.Join(dir, search.SnapshotFile))
	t0 = time.Now()
	ix3, rep, err := search.Open(ctx, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "searcheval: open: %v\n", err)
		return
	}
	fmt.Printf("snapshot %.0f MiB: save %.2f s; open (load + refresh, %d files reindexed) %.2f s; loaded %v\n",
		float64(fi.Size())/(1<<20), save.Seconds(), rep.Stats.Files, time.Since(t0).Seconds(), rep.Loaded)
	_ = ix3
}
