package main

import (
	"fmt"
	"math"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/tokenize"
)

// A bridge is a pair of word tables trained so that a documented
// declaration's first sentence and the rest of it (its name, signature, the
// rest of its documentation, its path) embed close together: a sentence's
// vector is the normalised sum of its words' question-side vectors, a
// declaration's the normalised sum of its words' code-side vectors. Trained
// on the (summary, declaration) pairs of the same pinned sources, with the
// summary's words left out of the declaration's side, it learns which words of
// a description go with which words of code, which the built-in embedder's
// hashed words cannot.

// bridgePair is one declaration: the terms of its summary and of the rest.
type bridgePair struct{ q, c []int32 }

type bridgeCorpus struct {
	ids     map[string]int32
	words   []string
	df      []int // pairs holding each term, on either side
	pairs   []bridgePair
	seen    map[string]bool // summaries already taken: a copied function counts once
	skipped int
	// keepSummary puts the summary's words on the declaration's side too,
	// as the index's text of a declaration holds them.
	keepSummary bool
}

// addFile takes the documented declarations of a source file.
func (b *bridgeCorpus) addFile(name string, src []byte) {
	lang := chunk.LanguageOf(name)
	switch lang {
	case "go", "python", "typescript", "javascript":
	default:
		return
	}
	if chunk.IsTestFile(name) || chunk.IsExampleFile(name) || chunk.IsGenerated(src) {
		return
	}
	for _, c := range chunk.Code(name, lang, src) {
		if c.Symbol == "" || c.Test || strings.TrimSpace(c.Doc) == "" {
			continue
		}
		sum, rest := search.SplitSummary(c.Doc)
		key := strings.ToLower(strings.Join(strings.Fields(sum), " "))
		if b.seen[key] {
			b.skipped++
			continue
		}
		q := b.terms(sum, nil)
		if len(q) < 3 {
			continue
		}
		exclude := map[int32]bool{}
		for _, t := range q {
			exclude[t] = true
		}
		code := c.Symbol + "\n" + c.Signature + "\n" + trimBytes(rest, 600) + "\n" + strings.TrimSuffix(name, path.Ext(name))
		if b.keepSummary {
			code = sum + "\n" + code
			exclude = nil
		}
		cs := b.terms(code, exclude)
		if len(cs) < 2 {
			continue
		}
		b.seen[key] = true
		for _, t := range append(append([]int32(nil), q...), cs...) {
			b.df[t]++
		}
		b.pairs = append(b.pairs, bridgePair{q: q, c: cs})
	}
}

// terms returns the distinct search terms of text, words of identifiers
// rather than whole ones, and no numbers.
func (b *bridgeCorpus) terms(text string, exclude map[int32]bool) []int32 {
	var out []int32
	have := map[int32]bool{}
	tokenize.Each(text, func(t tokenize.Term) {
		if t.Whole || t.Text[0] >= '0' && t.Text[0] <= '9' || len(t.Text) > 30 {
			return
		}
		id, ok := b.ids[t.Text]
		if !ok {
			id = int32(len(b.words))
			b.ids[t.Text] = id
			b.words = append(b.words, t.Text)
			b.df = append(b.df, 0)
		}
		if !have[id] && !exclude[id] {
			have[id] = true
			out = append(out, id)
		}
	})
	return out
}

func trimBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

type bridgeParams struct {
	dim, vocab, minDF, batch, epochs int
	lr, scale                        float64
}

// trainBridge keeps the vocab terms found in at least minDF pairs, holds out
// one pair in fifty to report retrieval on pairs it did not train on, and
// trains with in-batch negatives (a symmetric softmax over the batch's
// scaled cosines) and Adagrad, single-threaded with a fixed seed.
func trainBridge(b *bridgeCorpus, p bridgeParams) (words []string, qt, ct []float32, mrr float64) {
	order := make([]int32, len(b.words))
	for i := range order {
		order[i] = int32(i)
	}
	sort.SliceStable(order, func(i, j int) bool { return b.df[order[i]] > b.df[order[j]] })
	remap := make([]int32, len(b.words))
	for i := range remap {
		remap[i] = -1
	}
	for _, id := range order {
		if len(words) >= p.vocab || b.df[id] < p.minDF {
			break
		}
		remap[id] = int32(len(words))
		words = append(words, b.words[id])
	}
	keep := func(ts []int32) []int32 {
		out := ts[:0:0]
		for _, t := range ts {
			if remap[t] >= 0 {
				out = append(out, remap[t])
			}
		}
		return out
	}
	var train, held []bridgePair
	r := rng(11)
	for i, pr := range b.pairs {
		q, c := keep(pr.q), keep(pr.c)
		if len(q) < 2 || len(c) < 1 {
			continue
		}
		if i%50 == 49 {
			held = append(held, bridgePair{q, c})
		} else {
			train = append(train, bridgePair{q, c})
		}
	}
	fmt.Fprintf(os.Stderr, "bridge: %d pairs (%d repeats skipped), vocabulary %d, %d to train on, %d held out\n",
		len(b.pairs), b.skipped, len(words), len(train), len(held))

	v, d := len(words), p.dim
	qt, ct = make([]float32, v*d), make([]float32, v*d)
	for i := range qt {
		qt[i] = (float32(r.next()%2001)/1000 - 1) * 0.1
		ct[i] = (float32(r.next()%2001)/1000 - 1) * 0.1
	}
	qa, ca := make([]float32, v*d), make([]float32, v*d) // Adagrad sums of squared gradients
	report := func(label string) {
		mrr = heldOutMRR(held, qt, ct, d)
		fmt.Fprintf(os.Stderr, "bridge: %s: held-out MRR@10 among %d: %.3f\n", label, min(1000, len(held)), mrr)
	}
	report("untrained")
	for e := 0; e < p.epochs; e++ {
		start := time.Now()
		for i := len(train) - 1; i > 0; i-- { // Fisher–Yates with our generator
			j := int(r.next() % uint64(i+1))
			train[i], train[j] = train[j], train[i]
		}
		var loss float64
		for s := 0; s+p.batch <= len(train); s += p.batch {
			loss += bridgeStep(train[s:s+p.batch], qt, ct, qa, ca, d, p.lr, p.scale)
		}
		fmt.Fprintf(os.Stderr, "bridge: epoch %d: loss %.3f in %s\n", e+1, loss/float64(len(train)/p.batch), time.Since(start).Round(time.Second))
		report(fmt.Sprintf("epoch %d", e+1))
	}
	return words, qt, ct, mrr
}

// encode sums the rows of terms in table and normalises the sum; it
// returns the length before normalising.
func encode(dst []float32, table []float32, terms []int32, d int) float32 {
	clear(dst)
	for _, t := range terms {
		row := table[int(t)*d : int(t)*d+d]
		for x := range dst {
			dst[x] += row[x]
		}
	}
	var n float32
	for _, x := range dst {
		n += x * x
	}
	n = float32(math.Sqrt(float64(n)))
	if n > 0 {
		for x := range dst {
			dst[x] /= n
		}
	}
	return n
}

// bridgeStep trains on one batch and returns its mean loss.
func bridgeStep(batch []bridgePair, qt, ct, qa, ca []float32, d int, lr, scale float64) float64 {
	n := len(batch)
	qv, cv := make([]float32, n*d), make([]float32, n*d)
	qn, cn := make([]float32, n), make([]float32, n)
	for i, pr := range batch {
		qn[i] = encode(qv[i*d:(i+1)*d], qt, pr.q, d)
		cn[i] = encode(cv[i*d:(i+1)*d], ct, pr.c, d)
	}
	s := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var dot float32
			a, b := qv[i*d:(i+1)*d], cv[j*d:(j+1)*d]
			for x := range a {
				dot += a[x] * b[x]
			}
			s[i*n+j] = scale * float64(dot)
		}
	}
	// g = dLoss/dS, rows (question → declaration) and columns both.
	g := make([]float64, n*n)
	var loss float64
	// softmax adds the softmax over the n scores at(0..n-1) to g and returns
	// the loss of the one at(i), the pair's own.
	softmax := func(i int, at func(k int) int) float64 {
		m := math.Inf(-1)
		for k := 0; k < n; k++ {
			m = math.Max(m, s[at(k)])
		}
		var z float64
		for k := 0; k < n; k++ {
			z += math.Exp(s[at(k)] - m)
		}
		for k := 0; k < n; k++ {
			g[at(k)] += math.Exp(s[at(k)]-m) / z / float64(n)
		}
		return m + math.Log(z) - s[at(i)]
	}
	for i := 0; i < n; i++ {
		loss += softmax(i, func(k int) int { return i*n + k }) // the question's row
		loss += softmax(i, func(k int) int { return k*n + i }) // the declaration's column
		g[i*n+i] -= 2 / float64(n)
	}
	dq, dc := make([]float32, n*d), make([]float32, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w := float32(g[i*n+j] * scale)
			if w == 0 {
				continue
			}
			a, b := qv[i*d:(i+1)*d], cv[j*d:(j+1)*d]
			da, db := dq[i*d:(i+1)*d], dc[j*d:(j+1)*d]
			for x := range a {
				da[x] += w * b[x]
				db[x] += w * a[x]
			}
		}
	}
	// Through the normalisation: d(v/|v|) = (g - (g·u)u)/|v|.
	project := func(grad, unit []float32, norm float32) {
		var dot float32
		for x := range grad {
			dot += grad[x] * unit[x]
		}
		for x := range grad {
			grad[x] = (grad[x] - dot*unit[x]) / max(norm, 1e-6)
		}
	}
	for i := 0; i < n; i++ {
		project(dq[i*d:(i+1)*d], qv[i*d:(i+1)*d], qn[i])
		project(dc[i*d:(i+1)*d], cv[i*d:(i+1)*d], cn[i])
	}
	// Sum each row's gradient over the batch, then one Adagrad step a row.
	apply := func(table, acc []float32, grads []float32, terms func(i int) []int32) {
		sum := map[int32][]float32{}
		for i := 0; i < n; i++ {
			gi := grads[i*d : (i+1)*d]
			for _, t := range terms(i) {
				row := sum[t]
				if row == nil {
					row = make([]float32, d)
					sum[t] = row
				}
				for x := range row {
					row[x] += gi[x]
				}
			}
		}
		for t, row := range sum {
			w, a := table[int(t)*d:int(t)*d+d], acc[int(t)*d:int(t)*d+d]
			for x := range row {
				a[x] += row[x] * row[x]
				w[x] -= float32(lr) * row[x] / float32(math.Sqrt(float64(a[x]))+1e-8)
			}
		}
	}
	apply(qt, qa, dq, func(i int) []int32 { return batch[i].q })
	apply(ct, ca, dc, func(i int) []int32 { return batch[i].c })
	return loss / float64(2*n)
}

// heldOutMRR ranks, for each held-out pair in groups of 1,000 (or all of
// them, when fewer), its declaration among the group's by cosine with its
// summary.
func heldOutMRR(held []bridgePair, qt, ct []float32, d int) float64 {
	group := min(1000, len(held))
	if group == 0 {
		return 0
	}
	var total float64
	var count int
	q, c := make([]float32, d), make([]float32, group*d)
	for s := 0; s+group <= len(held); s += group {
		for j := 0; j < group; j++ {
			encode(c[j*d:(j+1)*d], ct, held[s+j].c, d)
		}
		for i := 0; i < group; i++ {
			encode(q, qt, held[s+i].q, d)
			score := func(j int) float32 {
				var dot float32
				for x := 0; x < d; x++ {
					dot += q[x] * c[j*d+x]
				}
				return dot
			}
			own, rank := score(i), 1
			for j := 0; j < group; j++ {
				if j != i && score(j) > own {
					rank++
				}
			}
			if rank <= 10 {
				total += 1 / float64(rank)
			}
			count++
		}
	}
	if count == 0 {
		return 0
	}
	return total / float64(count)
}

// writeBridge stores the tables as writeTables does, with the magic "ABR1":
// the question side's rows, then the code side's.
func writeBridge(path string, words []string, qt, ct []float32, d int) error {
	return writeTables(path, "ABR1", words, d, qt, ct)
}
