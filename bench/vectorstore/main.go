// Command vectorstore compares the in-house vector store (search/vector)
// with github.com/philippgille/chromem-go, the design card's choice, on the
// vectors of a real code index: the memory each holds after loading them,
// save and load time, size on disk, top-10 query latency, whether the two
// return the same top 10, and a path-prefix filter. docs/decisions.md has
// the figures and the command.
//
// It lives in a module of its own so that the product does not depend on
// chromem-go. The vectors are those of a saved code index (the "vector" and
// "chunks" sections of index.snapshot, format 3); the queries are embedded with
// the built-in embedder of the same dimension.
package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/philippgille/chromem-go"

	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/snapshot"
	"github.com/agentos-dev/agentos/search/vector"
)

// snapshotVersion is the index format this reads (search/persist.go).
const snapshotVersion = 3

var queries = []string{
	"open a file for reading", "parse a configuration value", "retry a request with backoff", "hash a password",
	"split a string by a separator", "write a value as JSON", "compare two versions", "close the connection",
	"start a background worker", "format a date", "read lines from standard input", "sort records by a key",
	"parse an url query string", "gzip compress a stream", "verify a tls certificate chain", "resolve a host name",
	"encode base64", "escape html in a template", "listen on a tcp port", "wait for all goroutines to finish",
}

func main() {
	snap := flag.String("snapshot", "", "a saved code index: .agentos/.cache/indexes/code/index.snapshot")
	prefix := flag.String("prefix", "io/", "the path prefix of the filtered queries")
	rounds := flag.Int("rounds", 10, "times each query is asked")
	flag.Parse()
	if err := run(*snap, *prefix, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "vectorstore:", err)
		os.Exit(1)
	}
}

type chunkMeta struct{ Path string }

func run(snap, prefix string, rounds int) error {
	secs, err := snapshot.Read(snap, snapshotVersion)
	if err != nil {
		return err
	}
	var h struct{ Dim int }
	if err := gob.NewDecoder(bytes.NewReader(secs["header"])).Decode(&h); err != nil {
		return fmt.Errorf("decode header: %w", err)
	}
	src := vector.New(h.Dim)
	if err := src.UnmarshalBinary(secs["vector"]); err != nil {
		return err
	}
	var metas []chunkMeta
	if err := gob.NewDecoder(bytes.NewReader(secs["chunks"])).Decode(&metas); err != nil {
		return fmt.Errorf("decode chunks: %w", err)
	}
	var ids []uint32
	var vecs [][]float32
	for id := range metas {
		if v := src.Vector(uint32(id)); v != nil {
			ids = append(ids, uint32(id))
			vecs = append(vecs, v)
		}
	}
	src = nil
	dim := len(vecs[0])
	fmt.Printf("vectors: %d of dimension %d from %s\n", len(vecs), dim, snap)

	ctx := context.Background()
	emb := embed.NewHashing(dim)
	var qv [][]float32
	for _, q := range queries {
		v, err := embed.Query(ctx, emb, q)
		if err != nil {
			return err
		}
		qv = append(qv, v)
	}
	tmp, err := os.MkdirTemp("", "vectorstore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// In-house.
	before := heap()
	st := vector.New(dim)
	for i, id := range ids {
		if err := st.Set(id, vecs[i]); err != nil {
			return err
		}
	}
	inMem := heap() - before
	t0 := time.Now()
	b, err := st.MarshalBinary()
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "vec.bin"), b, 0o644)
	}
	if err != nil {
		return err
	}
	inSave, inDisk := time.Since(t0), len(b)
	b = nil
	st = nil
	before = heap()
	t0 = time.Now()
	data, err := os.ReadFile(filepath.Join(tmp, "vec.bin"))
	if err != nil {
		return err
	}
	st = vector.New(dim)
	if err := st.UnmarshalBinary(data); err != nil {
		return err
	}
	data = nil
	inLoad := time.Since(t0)
	inLoaded := heap() - before
	inTop := make([][]uint32, len(qv))
	inLat := timeQueries(rounds, qv, func(i int, q []float32) {
		hs := st.Search(q, 10, nil)
		inTop[i] = inTop[i][:0]
		for _, h := range hs {
			inTop[i] = append(inTop[i], h.ID)
		}
	})
	inFilt := timeQueries(rounds, qv, func(_ int, q []float32) {
		st.Search(q, 10, func(id uint32) bool { return strings.HasPrefix(metas[id].Path, prefix) })
	})
	runtime.KeepAlive(st)
	st = nil

	// chromem-go: every vector with its path as metadata and as content
	// (its only substring filter is on the content).
	before = heap()
	db := chromem.NewDB()
	col, err := db.CreateCollection("code", nil, func(context.Context, string) ([]float32, error) {
		return nil, fmt.Errorf("no embedding of text here")
	})
	if err != nil {
		return err
	}
	docs := make([]chromem.Document, len(ids))
	for i, id := range ids {
		docs[i] = chromem.Document{ID: strconv.Itoa(int(id)), Embedding: vecs[i], Metadata: map[string]string{"path": metas[id].Path}, Content: metas[id].Path}
	}
	if err := col.AddDocuments(ctx, docs, runtime.NumCPU()); err != nil {
		return err
	}
	docs = nil
	chMem := heap() - before
	t0 = time.Now()
	chFile := filepath.Join(tmp, "chromem.gob")
	if err := db.ExportToFile(chFile, false, ""); err != nil {
		return err
	}
	chSave := time.Since(t0)
	fi, err := os.Stat(chFile)
	if err != nil {
		return err
	}
	db, col = nil, nil
	before = heap()
	t0 = time.Now()
	db = chromem.NewDB()
	if err := db.ImportFromFile(chFile, ""); err != nil {
		return err
	}
	chLoad := time.Since(t0)
	chLoaded := heap() - before
	col = db.GetCollection("code", nil)
	same, sameSet := 0, 0
	chLat := timeQueries(rounds, qv, func(i int, q []float32) {
		rs, err := col.QueryEmbedding(ctx, q, 10, nil, nil)
		if err != nil {
			panic(err)
		}
		got := make([]uint32, len(rs))
		for k, r := range rs {
			n, _ := strconv.Atoi(r.ID)
			got[k] = uint32(n)
		}
		if slices.Equal(got, inTop[i]) {
			same++
		}
		a, b := slices.Clone(got), slices.Clone(inTop[i])
		slices.Sort(a)
		slices.Sort(b)
		if slices.Equal(a, b) {
			sameSet++
		}
	})
	wrong, total := 0, 0
	chFilt := timeQueries(rounds, qv, func(_ int, q []float32) {
		rs, err := col.QueryEmbedding(ctx, q, 10, nil, map[string]string{"$contains": prefix})
		if err != nil {
			panic(err)
		}
		for _, r := range rs {
			total++
			if !strings.HasPrefix(r.Metadata["path"], prefix) {
				wrong++
			}
		}
	})
	runtime.KeepAlive(col)

	n := len(qv) * rounds
	fmt.Printf("%-34s %14s %14s\n", "", "search/vector", "chromem-go")
	fmt.Printf("%-34s %11.1f MB %11.1f MB\n", "heap after adding the vectors", mb(inMem), mb(chMem))
	fmt.Printf("%-34s %11.1f MB %11.1f MB\n", "heap after loading the saved file", mb(inLoaded), mb(chLoaded))
	fmt.Printf("%-34s %11.1f MB %11.1f MB\n", "size on disk", mb(uint64(inDisk)), mb(uint64(fi.Size())))
	fmt.Printf("%-34s %12.0f ms %12.0f ms\n", "save", ms(inSave), ms(chSave))
	fmt.Printf("%-34s %12.0f ms %12.0f ms\n", "load", ms(inLoad), ms(chLoad))
	fmt.Printf("%-34s %9.2f/%.2f ms %8.2f/%.2f ms\n", "top-10 query p50/p95", pct(inLat, .5), pct(inLat, .95), pct(chLat, .5), pct(chLat, .95))
	fmt.Printf("%-34s %9.2f/%.2f ms %8.2f/%.2f ms\n", "top-10 under "+prefix+" p50/p95", pct(inFilt, .5), pct(inFilt, .95), pct(chFilt, .5), pct(chFilt, .95))
	fmt.Printf("same top 10 as search/vector: %d of %d queries in the same order, %d of %d as a set\n", same, n, sameSet, n)
	fmt.Printf("chromem-go's filter has no prefix: $contains %q returned %d of %d results outside %s\n", prefix, wrong, total, prefix)
	return nil
}

func timeQueries(rounds int, qv [][]float32, f func(int, []float32)) []time.Duration {
	var lat []time.Duration
	for range rounds {
		for i, q := range qv {
			t := time.Now()
			f(i, q)
			lat = append(lat, time.Since(t))
		}
	}
	return lat
}

// heap is the live heap after a collection.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mb(b uint64) float64        { return float64(b) / 1e6 }
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func pct(lat []time.Duration, q float64) float64 {
	s := slices.Clone(lat)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return ms(s[min(max(i, 0), len(s)-1)])
}
