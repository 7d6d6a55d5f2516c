package search

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/lexical"
	"github.com/agentos-dev/agentos/search/scan"
	"github.com/agentos-dev/agentos/search/tokenize"
)

// Indexing runs in stages so that the expensive ones run in parallel and
// outside the lock searches take:
//
//  1. read: read, parse and chunk a file; analyse each chunk's own text into
//     lexical terms; note the summaries it defines for other chunks to
//     borrow (types, the package) and the ones its chunks borrow.
//  2. addContext: once the summaries of every file read are known, add each
//     chunk's borrowed context to its terms and its embedding text.
//  3. embed (all at once for a build, so that batches are large).
//  4. apply: swap the file's chunks into the index.

// prepared is a file on its way into the index.
type prepared struct {
	path string
	info scan.File
	hash [16]byte
	skip error // not indexed: binary, too big, gone or unreadable
	// unreadable says skip is an error reading the file, not a rule.
	unreadable bool
	metas      []*meta
	docs       []lexical.Doc
	texts      []string   // embedding texts
	needs      [][]string // context keys each chunk borrows
	defs       map[string]string
	facts      *codegraph.FileFacts
	vecs       [][]float32 // set once embedded
}

func contentHash(data []byte) [16]byte {
	sum := sha256.Sum256(data)
	var h [16]byte
	copy(h[:], sum[:])
	return h
}

// read runs stage 1 for one file. indexed (or nil) holds the hash of the
// content the index has for a path: a file that still has that content is
// only read and hashed, since update keeps what the index has.
func (ix *Index) read(rel string, indexed map[string][16]byte) (*prepared, error) {
	for _, src := range chunk.SourcesOf(rel) {
		if ix.scanner.IsFile(src) {
			// Compiler output or a stub beside its source: the source's
			// definitions are the ones to find, and a bundle need not be
			// read to be left out.
			return &prepared{path: rel, skip: fmt.Errorf("%s repeats the declarations of %s", rel, src)}, nil
		}
	}
	data, info, err := ix.scanner.ReadFile(rel)
	p := &prepared{path: rel, info: info}
	switch {
	case errors.Is(err, scan.ErrBinary) || errors.Is(err, scan.ErrTooBig) || errors.Is(err, scan.ErrNotFollowed) || errors.Is(err, fs.ErrNotExist):
		p.skip = err
		return p, nil
	case err != nil:
		// One unreadable file must not stop a build: it is left out and
		// reported.
		p.skip, p.unreadable = err, true
		return p, nil
	}
	p.hash = contentHash(data)
	if h, ok := indexed[rel]; ok && h == p.hash {
		return p, nil
	}
	lang := chunk.LanguageOf(rel)
	var cs []chunk.Chunk
	switch lang {
	case "markdown":
		cs = chunk.Markdown(rel, data, ix.opt.Markdown)
	case "go":
		fset, f, err := chunk.ParseGo(rel, data)
		if err == nil {
			cs = chunk.GoChunks(rel, data, fset, f)
			test := chunk.IsTestFile(rel)
			for i := range cs {
				cs[i].Test = test
			}
			facts := codegraph.FromGo(rel, fset, f, ix.modules.importPath(path.Dir(rel)))
			p.facts = &facts
		} else {
			cs = chunk.Windows(rel, lang, data, 0, 0)
		}
	default:
		cs = chunk.Code(rel, lang, data)
		if len(cs) > 0 && cs[0].Kind != chunk.Window {
			facts := codegraph.FromChunks(rel, lang, cs, data)
			p.facts = &facts
		}
	}
	if p.facts == nil && lang != "markdown" {
		p.facts = &codegraph.FileFacts{Path: rel, Language: lang, Package: path.Dir(rel)}
	}
	domain := ix.opt.domainOf(rel)
	internal := strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/")
	generated := lang != "markdown" && chunk.IsGenerated(data)
	// A document in docs/ is documentation, searched as such; code there is
	// an example.
	example := lang != "markdown" && chunk.IsExampleFile(rel)
	p.defs = contextDefs(cs)
	lineStart := []int64{0}
	for i, b := range data {
		if b == '\n' {
			lineStart = append(lineStart, int64(i+1))
		}
	}
	offset := func(line int) int64 {
		if line-1 < len(lineStart) {
			return lineStart[max(line-1, 0)]
		}
		return int64(len(data))
	}
	for i := range cs {
		c := &cs[i]
		m := &meta{Path: rel, Language: c.Language, Domain: domain, Kind: c.Kind, Symbol: c.Symbol,
			Section: strings.Join(c.Heading, " > "), Signature: c.Signature, StartLine: c.StartLine,
			DeclLine: c.DeclLine, EndLine: c.EndLine, Exported: c.Exported, Test: c.Test,
			HasDoc: strings.TrimSpace(c.Doc) != "", Internal: internal, Generated: generated, Example: example,
			StartByte: offset(c.StartLine), EndByte: offset(c.EndLine + 1), Deprecated: isDeprecated(c),
			Setter: isSetter(c)}
		if len(m.Signature) > 300 {
			m.Signature = m.Signature[:300] + "…"
		}
		p.metas = append(p.metas, m)
		comments := sync.OnceValue(func() string { return innerComments(c) })
		p.docs = append(p.docs, lexical.Analyze(ix.lexicalFields(c, comments)...))
		p.texts = append(p.texts, ix.embedText(c, comments))
		p.needs = append(p.needs, contextNeeds(c))
	}
	return p, nil
}

// addContext runs stage 2: lookup gives the summary for a context key.
func (ix *Index) addContext(p *prepared, lookup func(string) string) {
	for i, keys := range p.needs {
		var parts []string
		for _, k := range keys {
			if s := lookup(k); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			continue
		}
		text := strings.Join(parts, "\n")
		fields := make([]string, numFields)
		fields[fieldContext] = text
		ctxDoc := lexical.Analyze(fields...)
		d := &p.docs[i]
		for term, tf := range ctxDoc.Terms {
			have := d.Terms[term]
			have[fieldContext] = tf[fieldContext]
			d.Terms[term] = have
		}
		d.Lengths[fieldContext] = ctxDoc.Lengths[fieldContext]
		p.texts[i] += "\n" + text
	}
	p.needs = nil
}

// embed embeds document texts, weighing terms by their rarity in st when
// the embedder supports it and the tuning asks for it. st must not change
// meanwhile (the caller holds writeMu, or owns st).
func (ix *Index) embed(ctx context.Context, st *state, texts []string) ([][]float32, error) {
	var (
		vs  [][]float32
		err error
	)
	if we, ok := ix.opt.Embedder.(embed.WeightedEmbedder); ok && ix.opt.Tuning.DocIDF > 0 && st.lex.Len() > 0 {
		vs, err = we.EmbedWeighted(ctx, texts, ix.idfWeight(st, ix.opt.Tuning.DocIDF))
	} else {
		vs, err = ix.opt.Embedder.Embed(ctx, texts)
	}
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("embedder %s returned %d vectors for %d texts", ix.opt.Embedder.Name(), len(vs), len(texts))
	}
	for _, v := range vs {
		if len(v) != ix.opt.Embedder.Dim() {
			return nil, fmt.Errorf("embedder %s returned a vector of %d dimensions, not %d", ix.opt.Embedder.Name(), len(v), ix.opt.Embedder.Dim())
		}
	}
	return vs, nil
}

// embedBatch is how many texts go to the embedder at once.
const embedBatch = 256

// embedAll embeds the texts of every prepared file, in batches, on
// ix.opt.Workers goroutines, with st's term statistics, setting each file's
// vecs.
func (ix *Index) embedAll(ctx context.Context, st *state, ps []*prepared) error {
	type item struct{ p, i int }
	var items []item
	var texts []string
	for pi, p := range ps {
		if p == nil || p.skip != nil {
			continue
		}
		p.vecs = make([][]float32, len(p.texts))
		for i, t := range p.texts {
			items = append(items, item{pi, i})
			texts = append(texts, t)
		}
	}
	batches := (len(texts) + embedBatch - 1) / embedBatch
	return ix.parallel(ctx, batches, func(ctx context.Context, b int) error {
		lo, hi := b*embedBatch, min((b+1)*embedBatch, len(texts))
		vs, err := ix.embed(ctx, st, texts[lo:hi])
		if err != nil {
			return err
		}
		for k, v := range vs {
			it := items[lo+k]
			ps[it.p].vecs[it.i] = v // distinct slots: no race
		}
		return nil
	})
}

// parallel calls fn for 0..n-1 on ix.opt.Workers goroutines and returns the
// first error, cancelling the rest.
func (ix *Index) parallel(ctx context.Context, n int, fn func(context.Context, int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	for w := 0; w < min(ix.opt.Workers, max(n, 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := ctx.Err(); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				if err := fn(ctx, i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
						cancel()
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// prepareFiles runs stages 1 to 3 for paths, borrowing context from base
// (the index's current summaries, or nil) overridden by the files' own.
// indexed (or nil) holds the content hash the index has for a path (read).
func (ix *Index) prepareFiles(ctx context.Context, st *state, paths []string, base map[string]string, indexed map[string][16]byte) ([]*prepared, error) {
	ps := make([]*prepared, len(paths))
	err := ix.parallel(ctx, len(paths), func(_ context.Context, i int) error {
		p, err := ix.read(paths[i], indexed)
		ps[i] = p
		return err
	})
	if err != nil {
		return nil, err
	}
	defs := map[string]string{}
	for _, p := range ps {
		for k, v := range p.defs {
			defs[k] = v
		}
	}
	lookup := func(k string) string {
		if v, ok := defs[k]; ok {
			return v
		}
		return base[k]
	}
	err = ix.parallel(ctx, len(ps), func(_ context.Context, i int) error {
		ix.addContext(ps[i], lookup)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// BuildStats report a build or refresh.
type BuildStats struct {
	Files   int `json:"files"`   // files indexed (re-read and analysed)
	Removed int `json:"removed"` // files dropped
	Skipped int `json:"skipped"` // files not indexed: binary, over the size limit or unreadable
	// Unreadable lists the files that could not be read, with why (the
	// first 20).
	Unreadable []string      `json:"unreadable,omitempty"`
	Chunks     int           `json:"chunks"`   // chunks in the index afterwards
	Duration   time.Duration `json:"duration"` //
}

// BuildOptions tune a build.
type BuildOptions struct {
	// Live makes the index searchable at once and publishes files as they
	// are indexed, so that searches see every file indexed so far; without
	// it searches keep answering from the previous content until the build
	// is complete.
	Live bool
	// Progress, when set, is called after each batch of files with the
	// number of files indexed so far and the total. It runs on the building
	// goroutine, outside the locks searches take.
	Progress func(done, total int)
}

// Build indexes every covered file from scratch and swaps the result in.
// Searches keep answering from the previous content meanwhile.
func (ix *Index) Build(ctx context.Context) (BuildStats, error) {
	return ix.BuildWith(ctx, BuildOptions{})
}

// BuildWith indexes every covered file from scratch, in batches of whole
// folders. A chunk borrows context only from files of its own folder, so a
// batch is complete in itself: the result is the same as indexing every file
// at once, and only one batch's analysis is held in memory at a time.
func (ix *Index) BuildWith(ctx context.Context, bo BuildOptions) (BuildStats, error) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	start := time.Now()
	files, err := ix.scanner.Walk()
	if err != nil {
		return BuildStats{}, err
	}
	st := ix.newState()
	st.in = interner{}
	if bo.Live {
		ix.mu.Lock()
		ix.st, ix.ready = st, true
		ix.mu.Unlock()
	}
	var bs BuildStats
	done := 0
	for _, batch := range folderBatches(files, buildBatchSize(len(files))) {
		ps, err := ix.prepareFiles(ctx, st, batch, nil, nil)
		if err != nil {
			return BuildStats{}, err
		}
		if err := ix.embedAll(ctx, st, ps); err != nil {
			return BuildStats{}, fmt.Errorf("embed: %w", err)
		}
		if bo.Live {
			ix.mu.Lock()
		}
		for _, p := range ps {
			if p.skip != nil {
				bs.Skipped++
				bs.noteUnreadable(p)
			} else {
				bs.Files++
			}
			st.apply(p)
		}
		if bo.Live {
			ix.mu.Unlock()
		}
		done += len(batch)
		if bo.Progress != nil {
			bo.Progress(done, len(files))
		}
	}
	ix.mu.Lock() // a live st is being searched
	st.vec.Trim()
	st.lex.Trim()
	tokenize.ForgetStems()
	st.in = nil
	st.refreshUses()
	ix.st, ix.ready, ix.built = st, true, time.Now()
	bs.Chunks = st.lex.Len()
	ix.mu.Unlock()
	bs.Duration = time.Since(start)
	return bs, nil
}

func (bs *BuildStats) noteUnreadable(p *prepared) {
	if p.unreadable && len(bs.Unreadable) < 20 {
		bs.Unreadable = append(bs.Unreadable, p.skip.Error())
	}
}

// buildBatchSize is about how many files a build indexes between two
// publications: small enough that progress shows and memory stays low, large
// enough to keep every worker busy and the embedder's batches full.
func buildBatchSize(total int) int {
	return min(max(total/40, 1), 256)
}

// folderBatches groups the files by folder, in walk order, and cuts the
// folders into batches of about size files (a folder is never split).
func folderBatches(files []scan.File, size int) [][]string {
	var order []string
	byDir := map[string][]string{}
	for _, f := range files {
		d := path.Dir(f.Path)
		if _, ok := byDir[d]; !ok {
			order = append(order, d)
		}
		byDir[d] = append(byDir[d], f.Path)
	}
	var out [][]string
	var cur []string
	for _, d := range order {
		cur = append(cur, byDir[d]...)
		if len(cur) >= size {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// update indexes paths into the live index: prepared and embedded outside
// the read lock, then swapped in. It reports which were applied and which
// skipped. The caller holds writeMu.
func (ix *Index) update(ctx context.Context, paths []string) (applied, skipped, unchanged int, err error) {
	// A file indexed before whose content is the same (a checkout that
	// rewrote it as it was, a touch) is only hashed, not analysed again.
	indexed := map[string][16]byte{}
	ix.mu.RLock()
	for _, p := range paths {
		if rec, ok := ix.st.files[p]; ok {
			indexed[p] = rec.Hash
		}
	}
	ix.mu.RUnlock()
	ps, err := ix.prepareFiles(ctx, ix.st, paths, ix.st.contexts, indexed)
	if err != nil {
		return 0, 0, 0, err
	}
	// Files whose content did not change only get their new size and time.
	var todo []*prepared
	ix.mu.RLock()
	for _, p := range ps {
		rec, ok := ix.st.files[p.path]
		switch {
		case ok && p.skip == nil && rec.Hash == p.hash:
			unchanged++
		case p.skip != nil && !ok:
			skipped++
		default:
			todo = append(todo, p)
		}
	}
	ix.mu.RUnlock()
	if err := ix.embedAll(ctx, ix.st, todo); err != nil {
		return 0, 0, 0, fmt.Errorf("embed: %w", err)
	}
	if len(todo) > 0 {
		// Applying needs the graph's facts: when a load left them encoded,
		// they are decoded here, outside the lock searches wait for.
		ix.st.graph.get()
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, p := range ps {
		if rec, ok := ix.st.files[p.path]; ok && p.skip == nil && rec.Hash == p.hash {
			rec.Size, rec.ModTime = p.info.Size, p.info.ModTime.UnixNano()
		}
	}
	for _, p := range todo {
		if p.skip != nil {
			skipped++
		} else {
			applied++
		}
		ix.st.apply(p)
		if p.skip == nil {
			for i, id := range ix.st.files[p.path].IDs {
				_ = ix.st.vec.Set(id, p.vecs[i])
			}
		}
	}
	ix.st.compact(false)
	return applied, skipped, unchanged, nil
}

// Refresh brings the index up to date with the files: new and changed files
// (by size, modification time, then content hash) are indexed, deleted ones
// dropped.
func (ix *Index) Refresh(ctx context.Context) (BuildStats, error) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	start := time.Now()
	files, err := ix.scanner.Walk()
	if err != nil {
		return BuildStats{}, err
	}
	ix.mu.RLock()
	var changed []string
	present := map[string]bool{}
	for _, f := range files {
		present[f.Path] = true
		rec, ok := ix.st.files[f.Path]
		if !ok || rec.Size != f.Size || rec.ModTime != f.ModTime.UnixNano() {
			changed = append(changed, f.Path)
		}
	}
	var gone []string
	for p := range ix.st.files {
		if !present[p] {
			gone = append(gone, p)
		}
	}
	ix.mu.RUnlock()
	var bs BuildStats
	applied, skipped, _, err := ix.update(ctx, changed)
	if err != nil {
		return BuildStats{}, err
	}
	bs.Files, bs.Skipped = applied, skipped
	if len(gone) > 0 {
		ix.st.graph.get() // decoded outside the lock, as in update
	}
	ix.mu.Lock()
	for _, p := range gone {
		if ix.st.remove(p) {
			bs.Removed++
		}
	}
	if bs.Files > 0 || bs.Removed > 0 {
		ix.st.compact(false)
		ix.st.refreshUses()
	}
	ix.ready = true
	bs.Chunks = ix.st.lex.Len()
	ix.mu.Unlock()
	bs.Duration = time.Since(start)
	return bs, nil
}

// UpdateFile makes the index reflect one file's current state: it is
// reindexed if it changed, dropped if it is gone or no longer covered
// (ignored, excluded, binary, too big), and so are the files that repeat it
// (see chunk.RepeatsOf). It reports whether the index changed.
func (ix *Index) UpdateFile(ctx context.Context, p string) (bool, error) {
	rel, err := ix.relPath(p)
	if err != nil {
		return false, err
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	removed := false
	var paths []string
	if ok, _ := ix.scanner.Accept(rel); ok {
		paths = append(paths, rel)
	} else {
		removed = ix.removeLocked(rel)
	}
	// A source that appears or goes decides whether the compiler output or
	// stubs beside it are indexed (pipeline's read leaves them out beside
	// their source): a.js is indexed once a.ts is deleted, and dropped once
	// a.ts is back.
	if repeats := chunk.RepeatsOf(rel); len(repeats) > 0 {
		sourceThere := ix.scanner.IsFile(rel)
		ix.mu.RLock()
		for _, r := range repeats {
			_, indexed := ix.st.files[r]
			if ok, _ := ix.scanner.Accept(r); ok && (indexed && sourceThere || !indexed && !sourceThere && ix.scanner.IsFile(r)) {
				paths = append(paths, r)
			}
		}
		ix.mu.RUnlock()
	}
	if len(paths) == 0 {
		return removed, nil
	}
	before := ix.indexed(paths)
	applied, _, _, err := ix.update(ctx, paths)
	return removed || applied > 0 || ix.indexed(paths) != before, err
}

// indexed returns which of paths the index holds, as a string of 0 and 1.
func (ix *Index) indexed(paths []string) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	b := make([]byte, len(paths))
	for i, p := range paths {
		b[i] = '0'
		if _, ok := ix.st.files[p]; ok {
			b[i] = '1'
		}
	}
	return string(b)
}
