// Command wordvec trains word vectors from public programming text and
// writes each frequent term's nearest terms, a table that searcheval
// -wordvec measures as a query expansion of the built-in embedder (not
// shipped: docs/benchmarks.md). The text is the sources that fetch.sh
// downloads, pinned in sources/. It reads every archive in
// place (Debian packages through dpkg-deb, npm tarballs and Go module zips
// directly), cuts each file into search terms with package tokenize so the
// words are exactly those the index and queries use, and trains skip-gram
// with negative sampling, single-threaded with a fixed seed so a rerun on the
// same sources gives the same table. It can also make the table from
// pre-trained GloVe vectors (-glove) or from WordNet's synonyms (-wordnet),
// or train a bridge between descriptions and code (-bridge, bridge.go).
//
// Usage:
//
//	bench/wordvec/fetch.sh /tmp/wordvec-src
//	go run ./bench/wordvec -src /tmp/wordvec-src -epochs 2 -window 8 -out /tmp/code.awn.gz
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/search/tokenize"
)

func main() {
	src := flag.String("src", "/tmp/wordvec-src", "folder fetch.sh filled: deb/, npm/ and gomod.txt")
	out := flag.String("out", "wordvec.awn.gz", "neighbour table to write (empty: none, with -vectors)")
	vocabSize := flag.Int("vocab", 30000, "most frequent terms kept")
	minCount := flag.Int("mincount", 10, "fewest occurrences of a kept term")
	dim := flag.Int("dim", 64, "dimensions")
	window := flag.Int("window", 5, "largest context distance")
	negative := flag.Int("negative", 5, "negative samples per pair")
	epochs := flag.Int("epochs", 1, "passes over the corpus")
	sample := flag.Float64("sample", 1e-4, "subsampling threshold for frequent terms")
	capTokens := flag.Int("cap", 400000, "most terms taken from one package, so large ones do not dominate")
	alpha := flag.Float64("alpha", 0.025, "starting learning rate")
	neighbours := flag.String("neighbours", "", "comma-separated words whose nearest neighbours to print after training")
	from := flag.String("from", "", "skip training: read the vectors of this table (as -vectors wrote it)")
	glove := flag.String("glove", "", "skip training: read pre-trained vectors in GloVe's text format")
	gloveWords := flag.Int("glovewords", 50000, "with -glove: most frequent words read")
	gloveZipf := flag.Bool("glovezipf", false, "with -glove: each term's vector as long as the log of its frequency rank (for -vectors)")
	bridge := flag.String("bridge", "", "train a bridge between descriptions and code (bridge.go) instead, and write it here")
	bridgeEpochs := flag.Int("bridgeepochs", 5, "with -bridge: passes over the pairs")
	bridgeDim := flag.Int("bridgedim", 128, "with -bridge: dimensions")
	bridgeLR := flag.Float64("bridgelr", 0.05, "with -bridge: Adagrad's learning rate")
	bridgeScale := flag.Float64("bridgescale", 20, "with -bridge: cosine scale in the softmax")
	bridgeBatch := flag.Int("bridgebatch", 256, "with -bridge: pairs a batch")
	bridgeVocab := flag.Int("bridgevocab", 50000, "with -bridge: most terms kept")
	bridgeSummary := flag.Bool("bridgesummary", false, "with -bridge: the summary's words on the declaration's side too")
	wordnet := flag.String("wordnet", "", "skip training: write the synonyms of WordNet's database in this folder as the table")
	vectorsOut := flag.String("vectors", "", "also write the vectors themselves to this file")
	prose := flag.Bool("prose", false, "from source files take only comments, docstrings and declaration lines")
	k := flag.Int("k", 8, "neighbours kept per term")
	minSim := flag.Float64("minsim", 0.5, "least cosine of a kept neighbour")
	mutual := flag.Int("mutual", 0, "keep a neighbour only if the term is among its own nearest this many (0: no such check)")
	flag.Parse()
	if *wordnet != "" {
		words, nbs, err := readWordNet(*wordnet)
		if err == nil {
			err = writeNeighbours(*out, words, nbs)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "wordvec:", err)
			os.Exit(1)
		}
		return
	}
	if *from != "" || *glove != "" {
		var (
			words []string
			vecs  []float32
			d     int
			err   error
		)
		if *glove != "" {
			words, vecs, d, err = readGlove(*glove, *gloveWords, *gloveZipf)
		} else {
			words, vecs, d, err = readVectors(*from)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "wordvec:", err)
			os.Exit(1)
		}
		finishTable(words, vecs, d, *neighbours, *out, *vectorsOut, *k, *mutual, float32(*minSim))
		return
	}

	if *bridge != "" {
		b := &bridgeCorpus{ids: map[string]int32{}, seen: map[string]bool{}, keepSummary: *bridgeSummary}
		c := &corpus{onFile: b.addFile, capTokens: math.MaxInt, seen: map[[32]byte]bool{}, counts: map[string]int{}}
		start := time.Now()
		if err := c.readAll(*src); err != nil {
			fmt.Fprintln(os.Stderr, "wordvec:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "bridge: %d packages read in %s\n", c.packages, time.Since(start).Round(time.Second))
		words, qt, ct, _ := trainBridge(b, bridgeParams{dim: *bridgeDim, vocab: *bridgeVocab, minDF: *minCount / 2, batch: *bridgeBatch,
			epochs: *bridgeEpochs, lr: *bridgeLR, scale: *bridgeScale})
		if err := writeBridge(*bridge, words, qt, ct, *bridgeDim); err != nil {
			fmt.Fprintln(os.Stderr, "wordvec:", err)
			os.Exit(1)
		}
		return
	}
	start := time.Now()
	c := &corpus{prose: *prose, capTokens: *capTokens, seen: map[[32]byte]bool{}, counts: map[string]int{}}
	if err := c.readAll(*src); err != nil {
		fmt.Fprintln(os.Stderr, "wordvec:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wordvec: %d packages, %d files, %d terms read in %s\n", c.packages, c.files, c.total, time.Since(start).Round(time.Second))

	words := c.vocabulary(*vocabSize, *minCount)
	ids := make(map[string]int32, len(words))
	for i, w := range words {
		ids[w] = int32(i)
	}
	freq := make([]int, len(words))
	var stream []int32
	for _, doc := range c.docs {
		for _, t := range doc {
			if id, ok := ids[c.names[t]]; ok {
				stream = append(stream, id)
				freq[id]++
			}
		}
		stream = append(stream, -1) // a document boundary: no window crosses it
	}
	c.docs = nil
	fmt.Fprintf(os.Stderr, "wordvec: vocabulary %d terms, %d in-vocabulary terms\n", len(words), len(stream))

	t0 := time.Now()
	m := train(stream, freq, params{dim: *dim, window: *window, negative: *negative, epochs: *epochs, sample: *sample, alpha: *alpha})
	fmt.Fprintf(os.Stderr, "wordvec: trained in %s\n", time.Since(t0).Round(time.Second))

	vecs := finish(m, len(words), *dim)
	finishTable(words, vecs, *dim, *neighbours, *out, *vectorsOut, *k, *mutual, float32(*minSim))
	fmt.Fprintf(os.Stderr, "wordvec: done in %s total\n", time.Since(start).Round(time.Second))
}

func finishTable(words []string, vecs []float32, d int, show, out, vectorsOut string, k, mutual int, minSim float32) {
	ids := make(map[string]int32, len(words))
	for i, w := range words {
		ids[w] = int32(i)
	}
	if show != "" {
		for _, w := range strings.Split(show, ",") {
			printNeighbours(words, ids, vecs, d, tokenize.Stem(strings.ToLower(w)))
		}
	}
	if vectorsOut != "" {
		if err := write(vectorsOut, words, vecs, d); err != nil {
			fmt.Fprintln(os.Stderr, "wordvec:", err)
			os.Exit(1)
		}
	}
	if out == "" {
		return // the vectors alone
	}
	t0 := time.Now()
	nbs := nearest(vecs, len(words), d, max(k, mutual), minSim)
	if mutual > 0 {
		// A neighbour that does not return the favour is often a rare term
		// whose vector is noise, or a hub near everything.
		kept := make([][]neighbour, len(nbs))
		for i, ns := range nbs {
			for _, n := range ns {
				back := nbs[n.id]
				if len(back) > mutual {
					back = back[:mutual]
				}
				for _, b := range back {
					if b.id == int32(i) {
						kept[i] = append(kept[i], n)
						break
					}
				}
			}
			if len(kept[i]) > k {
				kept[i] = kept[i][:k]
			}
		}
		nbs = kept
	}
	var total int
	for _, ns := range nbs {
		total += len(ns)
	}
	fmt.Fprintf(os.Stderr, "wordvec: %d neighbours kept\n", total)
	fmt.Fprintf(os.Stderr, "wordvec: nearest neighbours in %s\n", time.Since(t0).Round(time.Second))
	if err := writeNeighbours(out, words, nbs); err != nil {
		fmt.Fprintln(os.Stderr, "wordvec:", err)
		os.Exit(1)
	}
}

type neighbour struct {
	id  int32
	sim float32
}

// nearest returns, for each term, up to k other terms whose cosine with it
// is at least minSim, nearest first.
func nearest(vecs []float32, n, d, k int, minSim float32) [][]neighbour {
	out := make([][]neighbour, n)
	sims := make([]float32, n)
	for i := 0; i < n; i++ {
		q := vecs[i*d : i*d+d]
		for j := 0; j < n; j++ {
			o := vecs[j*d : j*d+d]
			var s float32
			for x := range q {
				s += q[x] * o[x]
			}
			sims[j] = s
		}
		var top []neighbour
		for j, s := range sims {
			if j == i || s < minSim {
				continue
			}
			if len(top) < k || s > top[len(top)-1].sim {
				at := sort.Search(len(top), func(x int) bool { return top[x].sim < s })
				top = append(top, neighbour{})
				copy(top[at+1:], top[at:])
				top[at] = neighbour{int32(j), s}
				if len(top) > k {
					top = top[:k]
				}
			}
		}
		out[i] = top
	}
	return out
}

// writeNeighbours stores the table searcheval -wordvec reads: gzip of
// "AWN1", the term count as uint32, the terms each preceded by its length in
// a byte, then per term the number of its neighbours in a byte and each
// neighbour as a uint16 term number and its cosine times 255 in a byte.
func writeNeighbours(path string, words []string, nbs [][]neighbour) error {
	var buf bytes.Buffer
	buf.WriteString("AWN1")
	_ = binary.Write(&buf, binary.LittleEndian, uint32(len(words)))
	for _, w := range words {
		buf.WriteByte(byte(len(w)))
		buf.WriteString(w)
	}
	for _, ns := range nbs {
		buf.WriteByte(byte(len(ns)))
		for _, n := range ns {
			_ = binary.Write(&buf, binary.LittleEndian, uint16(n.id))
			buf.WriteByte(byte(math.Round(float64(n.sim) * 255)))
		}
	}
	return writeGzip(path, buf.Bytes())
}

func readVectors(path string) ([]string, []float32, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(raw) < 12 || string(raw[:4]) != "AWV1" {
		return nil, nil, 0, fmt.Errorf("reading %s: not a vector table", path)
	}
	n := int(binary.LittleEndian.Uint32(raw[4:]))
	d := int(binary.LittleEndian.Uint32(raw[8:]))
	p := 12
	words := make([]string, n)
	for i := range words {
		l := int(raw[p])
		words[i] = string(raw[p+1 : p+1+l])
		p += 1 + l
	}
	vecs := make([]float32, n*d)
	for i := 0; i < n; i++ {
		scale := math.Float32frombits(binary.LittleEndian.Uint32(raw[p:]))
		p += 4
		var norm float32
		for x := 0; x < d; x++ {
			v := float32(int8(raw[p+x])) * scale
			vecs[i*d+x] = v
			norm += v * v
		}
		if norm > 0 {
			norm = float32(math.Sqrt(float64(norm)))
			for x := 0; x < d; x++ {
				vecs[i*d+x] /= norm
			}
		}
		p += d
	}
	return words, vecs, d, nil
}

// corpus holds every document as term numbers, and how often each term occurs.
type corpus struct {
	onFile    func(name string, b []byte) // when set, takes each file instead of counting its terms
	prose     bool
	capTokens int
	seen      map[[32]byte]bool // content hashes: a file shipped twice counts once
	counts    map[string]int
	names     []string
	index     map[string]int32
	docs      [][]int32
	packages  int
	files     int
	total     int
	taken     int // terms taken from the current package
}

func (c *corpus) readAll(src string) error {
	c.index = map[string]int32{}
	debs, err := filepath.Glob(filepath.Join(src, "deb", "*.deb"))
	if err != nil {
		return fmt.Errorf("listing Debian packages: %w", err)
	}
	sort.Strings(debs)
	for _, d := range debs {
		if err := c.readDeb(d); err != nil {
			return err
		}
	}
	tgzs, err := filepath.Glob(filepath.Join(src, "npm", "*.tgz"))
	if err != nil {
		return fmt.Errorf("listing npm packages: %w", err)
	}
	sort.Strings(tgzs)
	for _, t := range tgzs {
		f, err := os.Open(t)
		if err != nil {
			return fmt.Errorf("opening %s: %w", t, err)
		}
		gz, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return fmt.Errorf("reading %s: %w", t, err)
		}
		err = c.readTar(tar.NewReader(gz))
		f.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", t, err)
		}
	}
	zips, err := readLines(filepath.Join(src, "gomod.txt"))
	if err != nil {
		return err
	}
	sort.Strings(zips)
	for _, z := range zips {
		if err := c.readZip(z); err != nil {
			return err
		}
	}
	return nil
}

func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

func (c *corpus) readDeb(path string) error {
	cmd := exec.Command("dpkg-deb", "--fsys-tarfile", path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("dpkg-deb %s: %w", path, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("dpkg-deb %s: %w", path, err)
	}
	rerr := c.readTar(tar.NewReader(stdout))
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("dpkg-deb %s: %w", path, err)
	}
	if rerr != nil {
		return fmt.Errorf("reading %s: %w", path, rerr)
	}
	return nil
}

func (c *corpus) readTar(tr *tar.Reader) error {
	c.packages++
	c.taken = 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg || !wanted(h.Name) || h.Size > 1<<20 {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		c.add(h.Name, b)
	}
}

func (c *corpus) readZip(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer zr.Close()
	c.packages++
	c.taken = 0
	files := append([]*zip.File(nil), zr.File...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		// Copies of the Go standard library inside modules (forks, vendored
		// trees) would put the Go question set's code into training.
		if !wanted(f.Name) || f.UncompressedSize64 > 1<<20 || strings.Contains(f.Name, "/vendor/") ||
			strings.Contains(f.Name, "tempfork") || strings.Contains(f.Name, "third_party") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("reading %s in %s: %w", f.Name, path, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("reading %s in %s: %w", f.Name, path, err)
		}
		c.add(f.Name, b)
	}
	return nil
}

// wanted keeps source and documentation files; minified bundles and
// generated code say little about how words relate.
func wanted(name string) bool {
	base := strings.ToLower(filepath.Base(name))
	if strings.Contains(base, ".min.") || strings.HasSuffix(base, ".pb.go") || strings.HasPrefix(base, "zz_generated") ||
		strings.HasSuffix(base, ".d.ts") || strings.Contains(name, "/node_modules/") {
		return false
	}
	switch filepath.Ext(base) {
	case ".py", ".go", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".md", ".rst", ".txt":
		return true
	}
	return false
}

func (c *corpus) add(name string, b []byte) {
	if c.taken >= c.capTokens {
		return
	}
	h := sha256.Sum256(b)
	if c.seen[h] {
		return
	}
	c.seen[h] = true
	// Very long lines are bundles or data, not prose or code.
	if n := bytes.Count(b, []byte("\n")) + 1; len(b)/n > 200 {
		return
	}
	if bytes.Contains(b[:min(len(b), 2048)], []byte("Code generated")) {
		return
	}
	if c.onFile != nil {
		c.onFile(name, b)
		return
	}
	text := string(b)
	if c.prose {
		text = proseOf(name, text)
	}
	var doc []int32
	tokenize.Each(text, func(t tokenize.Term) {
		// Whole identifiers are too specific to share meaning across code
		// bases; their parts carry it. Numbers carry none.
		if t.Whole || t.Text[0] >= '0' && t.Text[0] <= '9' {
			return
		}
		id, ok := c.index[t.Text]
		if !ok {
			id = int32(len(c.names))
			c.names = append(c.names, t.Text)
			c.index[t.Text] = id
		}
		doc = append(doc, id)
		c.counts[t.Text]++
	})
	c.files++
	c.total += len(doc)
	c.taken += len(doc)
	c.docs = append(c.docs, doc)
}

// vocabulary returns the n most frequent terms seen at least minCount times,
// most frequent first, ties by spelling.
func (c *corpus) vocabulary(n, minCount int) []string {
	var ws []string
	for w, k := range c.counts {
		if k >= minCount && len(w) <= 24 {
			ws = append(ws, w)
		}
	}
	sort.Slice(ws, func(i, j int) bool {
		if c.counts[ws[i]] != c.counts[ws[j]] {
			return c.counts[ws[i]] > c.counts[ws[j]]
		}
		return ws[i] < ws[j]
	})
	if len(ws) > n {
		ws = ws[:n]
	}
	return ws
}

type params struct {
	dim, window, negative, epochs int
	sample, alpha                 float64
}

type model struct {
	in, out []float32
}

// rng is word2vec's linear congruential generator: fast, and the same on
// every platform.
type rng uint64

func (r *rng) next() uint64 {
	*r = *r*25214903917 + 11
	return uint64(*r)
}

func train(stream []int32, freq []int, p params) model {
	v, d := len(freq), p.dim
	r := rng(1)
	m := model{in: make([]float32, v*d), out: make([]float32, v*d)}
	for i := range m.in {
		m.in[i] = (float32((r.next()>>16)&0xFFFF)/65536 - 0.5) / float32(d)
	}
	// Negative samples are drawn from the unigram distribution raised to 3/4.
	const tableSize = 1e7
	table := make([]int32, tableSize)
	var pow float64
	for _, f := range freq {
		pow += math.Pow(float64(f), 0.75)
	}
	w, acc := 0, math.Pow(float64(freq[0]), 0.75)/pow
	for i := range table {
		table[i] = int32(w)
		if float64(i)/tableSize > acc && w < v-1 {
			w++
			acc += math.Pow(float64(freq[w]), 0.75) / pow
		}
	}
	var total float64
	for _, f := range freq {
		total += float64(f)
	}
	keep := make([]uint32, v) // probability of keeping a term, scaled to 2^32
	for i, f := range freq {
		fr := float64(f) / total
		k := (math.Sqrt(fr/p.sample) + 1) * p.sample / fr
		keep[i] = uint32(math.Min(k, 1) * (1<<32 - 1))
	}
	var sig [1000]float32
	for i := range sig {
		x := (float64(i)/1000*2 - 1) * 6
		sig[i] = float32(math.Exp(x) / (math.Exp(x) + 1))
	}
	sigmoid := func(x float32) float32 {
		if x >= 6 {
			return 1
		}
		if x <= -6 {
			return 0
		}
		return sig[int((x+6)*(1000/12))]
	}
	grad := make([]float32, d)
	steps := float64(len(stream) * p.epochs)
	var done float64
	sent := make([]int32, 0, 4096)
	report := time.Now()
	for epoch := 0; epoch < p.epochs; epoch++ {
		pos := 0
		for pos < len(stream) {
			// Cut the next sentence: up to a boundary or 1,000 terms, with
			// frequent terms subsampled.
			sent = sent[:0]
			for pos < len(stream) && len(sent) < 1000 {
				t := stream[pos]
				pos++
				done++
				if t < 0 {
					break
				}
				if uint32(r.next()>>16) <= keep[t] {
					sent = append(sent, t)
				}
			}
			lr := float32(p.alpha * math.Max(1-done/steps, 0.0001))
			for i, center := range sent {
				b := int(r.next() % uint64(p.window))
				for j := i - p.window + b; j <= i+p.window-b; j++ {
					if j < 0 || j >= len(sent) || j == i {
						continue
					}
					ctx := m.in[int(sent[j])*d : int(sent[j])*d+d]
					clear(grad)
					for k := 0; k <= p.negative; k++ {
						target, label := center, float32(1)
						if k > 0 {
							target = table[(r.next()>>16)%tableSize]
							if target == center {
								continue
							}
							label = 0
						}
						o := m.out[int(target)*d : int(target)*d+d]
						var f float32
						for x := range ctx {
							f += ctx[x] * o[x]
						}
						g := (label - sigmoid(f)) * lr
						for x := range ctx {
							grad[x] += g * o[x]
							o[x] += g * ctx[x]
						}
					}
					for x := range ctx {
						ctx[x] += grad[x]
					}
				}
			}
			if time.Since(report) > 30*time.Second {
				report = time.Now()
				fmt.Fprintf(os.Stderr, "wordvec: %.1f%%\n", 100*done/steps)
			}
		}
	}
	return m
}

// finish centres the vectors (skip-gram vectors share a common direction
// that would make every pair of words look alike) and normalises them.
func finish(m model, v, d int) []float32 {
	mean := make([]float64, d)
	for i := 0; i < v; i++ {
		for x := 0; x < d; x++ {
			mean[x] += float64(m.in[i*d+x])
		}
	}
	out := make([]float32, v*d)
	for i := 0; i < v; i++ {
		var n float64
		for x := 0; x < d; x++ {
			y := float64(m.in[i*d+x]) - mean[x]/float64(v)
			out[i*d+x] = float32(y)
			n += y * y
		}
		n = math.Sqrt(n)
		for x := 0; x < d; x++ {
			out[i*d+x] /= float32(n)
		}
	}
	return out
}

func printNeighbours(words []string, ids map[string]int32, vecs []float32, d int, w string) {
	id, ok := ids[w]
	if !ok {
		fmt.Printf("%s: not in vocabulary\n", w)
		return
	}
	type nb struct {
		w string
		s float32
	}
	var nbs []nb
	q := vecs[int(id)*d : int(id)*d+d]
	for i, o := range words {
		var s float32
		for x := 0; x < d; x++ {
			s += q[x] * vecs[i*d+x]
		}
		nbs = append(nbs, nb{o, s})
	}
	sort.Slice(nbs, func(i, j int) bool { return nbs[i].s > nbs[j].s })
	var parts []string
	for _, n := range nbs[1:min(len(nbs), 16)] {
		parts = append(parts, fmt.Sprintf("%s %.2f", n.w, n.s))
	}
	fmt.Printf("%s: %s\n", w, strings.Join(parts, ", "))
}

// write stores the vectors themselves, as -from reads them:
// gzip of "AWV1", the term count and dimension as uint32, the terms each
// preceded by its length in a byte, then per term a float32 scale and dim
// int8 components.
func write(path string, words []string, vecs []float32, d int) error {
	return writeTables(path, "AWV1", words, d, vecs)
}

// writeTables writes gzip of magic, the term count and dimension (uint32),
// the terms each after its length in a byte, then each table's rows as a
// float32 scale and int8 components.
func writeTables(path, magic string, words []string, d int, tables ...[]float32) error {
	var buf bytes.Buffer
	buf.WriteString(magic)
	_ = binary.Write(&buf, binary.LittleEndian, uint32(len(words)))
	_ = binary.Write(&buf, binary.LittleEndian, uint32(d))
	for _, w := range words {
		buf.WriteByte(byte(len(w)))
		buf.WriteString(w)
	}
	for _, vecs := range tables {
		for i := range words {
			v := vecs[i*d : i*d+d]
			var mx float32
			for _, x := range v {
				mx = max(mx, float32(math.Abs(float64(x))))
			}
			scale := mx / 127
			_ = binary.Write(&buf, binary.LittleEndian, math.Float32bits(scale))
			for _, x := range v {
				q := int8(0)
				if scale > 0 {
					q = int8(math.Round(float64(x / scale)))
				}
				buf.WriteByte(byte(q))
			}
		}
	}
	return writeGzip(path, buf.Bytes())
}

func writeGzip(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	bw := bufio.NewWriter(f)
	gz, _ := gzip.NewWriterLevel(bw, gzip.BestCompression)
	if _, err := gz.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := gz.Close(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// proseOf keeps of a source file what is written for people: comments,
// docstrings and other multi-line strings, and declaration lines, whose
// identifiers sit beside the words that describe them. Documentation files
// are kept whole.
func proseOf(name, text string) string {
	ext := filepath.Ext(name)
	if ext == ".md" || ext == ".rst" || ext == ".txt" {
		return text
	}
	py := ext == ".py"
	var out strings.Builder
	lineStart := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			line := strings.TrimSpace(text[lineStart:i])
			for _, kw := range []string{"def ", "class ", "func ", "function ", "export ", "type ", "interface ", "async def "} {
				if strings.HasPrefix(line, kw) {
					out.WriteString(line)
					out.WriteByte('\n')
					break
				}
			}
			lineStart = i + 1
		case py && c == '#', !py && c == '/' && i+1 < len(text) && text[i+1] == '/':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			out.WriteString(text[i : i+j])
			out.WriteByte('\n')
			i += j - 1
		case !py && c == '/' && i+1 < len(text) && text[i+1] == '*':
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				j = len(text) - i - 2
			}
			out.WriteString(text[i+2 : i+2+j])
			out.WriteString("\n\n")
			i += j + 3
		case py && (strings.HasPrefix(text[i:], `"""`) || strings.HasPrefix(text[i:], "'''")):
			q := text[i : i+3]
			j := strings.Index(text[i+3:], q)
			if j < 0 {
				j = len(text) - i - 3
			}
			out.WriteString(text[i+3 : i+3+j])
			out.WriteString("\n\n")
			i += j + 5
		case c == '"' || c == '\'' || c == '`':
			// Skip a string literal, so that "http://" is not a comment.
			j := i + 1
			for j < len(text) && text[j] != c && (c == '`' || text[j] != '\n') {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		}
	}
	return out.String()
}

// readNeighbours reads a table as writeNeighbours wrote it.
func readNeighbours(path string) ([]string, [][]neighbour, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(raw) < 8 || string(raw[:4]) != "AWN1" {
		return nil, nil, fmt.Errorf("reading %s: not a neighbour table", path)
	}
	n := int(binary.LittleEndian.Uint32(raw[4:]))
	p := 8
	words := make([]string, n)
	for i := range words {
		l := int(raw[p])
		words[i] = string(raw[p+1 : p+1+l])
		p += 1 + l
	}
	nbs := make([][]neighbour, n)
	for i := range nbs {
		k := int(raw[p])
		p++
		for j := 0; j < k; j++ {
			nbs[i] = append(nbs[i], neighbour{int32(binary.LittleEndian.Uint16(raw[p:])), float32(raw[p+2]) / 255})
			p += 3
		}
	}
	return words, nbs, nil
}
