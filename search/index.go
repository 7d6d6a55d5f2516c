// Package search is the project search engine: a standards index over
// markdown (standards and workflows) and a code index over source files, each
// searchable by hybrid ranking, with a call graph over the code.
//
// An Index cuts files into chunks (package chunk), indexes them lexically
// (package lexical, BM25F over identifier-aware terms) and as vectors
// (package vector, from an embed.Embedder — by default the built-in offline
// one), and, for code, records symbols and calls (package codegraph). Search
// fuses the lexical and vector rankings and weighs in priors: test files,
// import-only chunks and private or undocumented symbols rank lower, symbols
// called from many places higher.
//
// An Index is persisted to one snapshot file (package snapshot) with each
// file's size, modification time and content hash, so reopening reindexes
// only what changed. UpdateFile and RemoveFile keep it current; searches run
// concurrently with updates (readers share a lock that writers take only to
// swap in prepared changes).
package search

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/search/lexical"
	"github.com/agentos-dev/agentos/search/scan"
	"github.com/agentos-dev/agentos/search/vector"
)

// meta is what the index keeps of a chunk; its text stays in the file.
type meta struct {
	Path      string
	Language  string
	Domain    string
	Kind      chunk.Kind
	Symbol    string
	Section   string
	Signature string
	StartLine int
	DeclLine  int
	EndLine   int
	StartByte int64 // byte range of lines StartLine..EndLine in the file as indexed
	EndByte   int64
	Exported  bool
	Test      bool
	HasDoc    bool
	Internal  bool
	Generated bool
	Example   bool // code beside the project's own (chunk.IsExampleFile)
	// Deprecated says the symbol's documentation or annotations mark it
	// deprecated (isDeprecated).
	Deprecated bool
	// Setter says a function only stores values in fields (isSetter).
	Setter bool
}

// aside reports whether a chunk is from a test, an example or the like: the
// code beside the project's own.
func (m *meta) aside() bool { return m.Test || m.Example }

// fileRec is what the index knows of an indexed file.
type fileRec struct {
	Size    int64
	ModTime int64 // Unix nanoseconds
	Hash    [16]byte
	IDs     []uint32
	CtxKeys []string // contexts the file defines
}

// state is the searchable content of an index.
type state struct {
	metas []*meta // by chunk id; nil for removed chunks
	files map[string]*fileRec
	lex   *lexical.Index
	vec   *vector.Store
	graph *lazyGraph
	use   []use // by chunk id
	dead  int
	// contexts holds the summaries chunks borrow as context: a type's by
	// "folder\x00Type", a package's by "folder\x00" (Go) or
	// "file\x00" (other languages).
	contexts map[string]string
	names    symbolNames // chunks by symbol name, for named-symbol queries
	// in shares one copy of each name among the graph facts of the files a
	// build applies (as Load does): a parser gives every occurrence of an
	// identifier its own string. Nil outside a build.
	in interner
}

// Index is a searchable index of a set of files.
type Index struct {
	opt     Options
	scanner *scan.Scanner
	writeMu sync.Mutex   // serialises writers
	mu      sync.RWMutex // guards st
	st      *state
	modules modCache
	built   time.Time
	ready   bool
}

// New returns an empty index; Build, Load or Open fill it.
func New(opt Options) (*Index, error) {
	opt.normalize()
	root, err := filepath.Abs(opt.Root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	opt.Root = root
	sc, err := scan.New(scan.Options{Root: root, Paths: opt.Paths, Extensions: opt.extensions(),
		MaxSize: opt.MaxFileSize, Gitignore: opt.Gitignore})
	if err != nil {
		return nil, err
	}
	ix := &Index{opt: opt, scanner: sc}
	ix.modules.sc = sc
	ix.st = ix.newState()
	return ix, nil
}

func (ix *Index) newState() *state {
	lex := lexical.New(lexFields(ix.opt.Tuning))
	lex.SetK1(ix.opt.Tuning.K1)
	st := &state{files: map[string]*fileRec{}, lex: lex, vec: vector.New(ix.opt.Embedder.Dim()), graph: newLazyGraph(),
		contexts: map[string]string{}}
	st.setBackground()
	return st
}

// setBackground tells the lexical index which chunks are tests and examples:
// they are searched, but how common a word is and how long a chunk is are
// measured on the code itself, as tests repeat the code's words in long
// bodies.
func (st *state) setBackground() {
	st.lex.SetBackground(func(id uint32) bool {
		m := st.metas[id]
		return m != nil && m.aside()
	})
}

func lexFields(t *Tuning) []lexical.Field {
	fields := make([]lexical.Field, numFields)
	for f := range fields {
		fields[f] = lexical.Field{Name: fieldNames[f], Weight: t.FieldWeight[f], B: t.FieldB[f]}
	}
	return fields
}

// SetTuning changes the ranking weights. Those used when indexing
// (EmbedDocChars, EmbedBodyChars) apply from the next build.
func (ix *Index) SetTuning(t Tuning) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	*ix.opt.Tuning = t
	ix.st.lex.SetFields(lexFields(ix.opt.Tuning))
	ix.st.lex.SetK1(ix.opt.Tuning.K1)
}

// Options returns the index's options, with defaults filled in.
func (ix *Index) Options() Options { return ix.opt }

// Ready reports whether the index has been built or loaded.
func (ix *Index) Ready() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.ready
}

// Unload empties the index until the next Load or Build, which searches
// meanwhile are told with ErrNotReady: the memory it held can then be given
// back whole before a Load takes new memory.
func (ix *Index) Unload() {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.st, ix.ready = ix.newState(), false
}

// Stats describe an index.
type Stats struct {
	Files     int             `json:"files"`
	Chunks    int             `json:"chunks"`
	Graph     codegraph.Stats `json:"graph"`
	Embedder  string          `json:"embedder"`
	Dim       int             `json:"dim"`
	Ready     bool            `json:"ready"`
	BuiltAt   time.Time       `json:"built_at,omitzero"`
	Languages map[string]int  `json:"languages"` // files by language
}

// Stats returns the index's size.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := Stats{Files: len(ix.st.files), Chunks: ix.st.lex.Len(), Embedder: ix.opt.Embedder.Name(),
		Dim: ix.opt.Embedder.Dim(), Ready: ix.ready, BuiltAt: ix.built, Languages: map[string]int{}}
	for p := range ix.st.files {
		s.Languages[chunk.LanguageOf(p)]++
	}
	s.Graph = ix.st.graph.Stats()
	return s
}

// Graph returns the code graph. It is safe to query while the index changes;
// Build and Load swap in a new one, so get it again for each query rather
// than keeping it.
func (ix *Index) Graph() *codegraph.Graph {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.st.graph.get()
}

// apply puts a prepared file into st, replacing what it had for that path.
// Its symbols keep the use counts they had until the next refreshUses. The
// caller holds the write lock (or owns st).
func (st *state) apply(p *prepared) {
	var old map[string]use
	if rec, ok := st.files[p.path]; ok {
		old = map[string]use{}
		for _, id := range rec.IDs {
			if m := st.metas[id]; m != nil && m.Symbol != "" {
				old[m.Symbol] = st.use[id]
			}
		}
	}
	// The graph's facts of the file are replaced in one step below, never
	// removed first: a graph query runs outside the index's lock and must
	// not find the file missing while it is re-indexed.
	st.removeChunks(p.path)
	if p.skip != nil || p.facts == nil {
		st.graph.get().RemoveFile(p.path)
	}
	if p.skip != nil {
		return
	}
	rec := &fileRec{Size: p.info.Size, ModTime: p.info.ModTime.UnixNano(), Hash: p.hash}
	for k, v := range p.defs {
		st.contexts[k] = v
		rec.CtxKeys = append(rec.CtxKeys, k)
	}
	slices.Sort(rec.CtxKeys)
	for i, m := range p.metas {
		id := uint32(len(st.metas))
		st.metas = append(st.metas, m)
		st.use = append(st.use, old[m.Symbol])
		st.names.add(id, m)
		st.lex.Add(id, p.docs[i])
		if p.vecs != nil {
			_ = st.vec.Set(id, p.vecs[i]) // lengths checked against Dim at open
		}
		rec.IDs = append(rec.IDs, id)
	}
	st.files[p.path] = rec
	if p.facts != nil {
		if st.in != nil {
			f := p.facts
			internFacts(f, st.in)
			// The file's slices were grown by appending; a build keeps
			// hundreds of thousands of them, so each is cut to its length.
			f.Imports, f.Symbols, f.Signatures, f.Calls = slices.Clone(f.Imports), slices.Clone(f.Symbols),
				slices.Clone(f.Signatures), slices.Clone(f.Calls)
		}
		st.graph.get().SetFile(*p.facts)
	}
}

// remove drops a file from st.
func (st *state) remove(rel string) bool {
	if !st.removeChunks(rel) {
		return false
	}
	st.graph.get().RemoveFile(rel)
	return true
}

// removeChunks drops a file's chunks and records from st, leaving its graph
// facts.
func (st *state) removeChunks(rel string) bool {
	rec, ok := st.files[rel]
	if !ok {
		return false
	}
	for _, id := range rec.IDs {
		st.metas[id] = nil
		st.lex.Remove(id)
		st.vec.Remove(id)
		st.dead++
	}
	for _, k := range rec.CtxKeys {
		delete(st.contexts, k)
	}
	delete(st.files, rel)
	return true
}

// compact renumbers chunks densely when enough are dead.
func (st *state) compact(force bool) {
	if st.dead == 0 || !force && (st.dead < 1000 || st.dead*4 < len(st.metas)) {
		return
	}
	keep := make([]uint32, 0, len(st.metas)-st.dead)
	remap := make([]int32, len(st.metas))
	for id, m := range st.metas {
		remap[id] = -1
		if m != nil {
			remap[id] = int32(len(keep))
			keep = append(keep, uint32(id))
		}
	}
	st.lex.Compact(keep)
	st.vec.Compact(keep)
	metas := make([]*meta, len(keep))
	uses := make([]use, len(keep))
	for n, old := range keep {
		metas[n], uses[n] = st.metas[old], st.use[old]
	}
	for _, rec := range st.files {
		for i, id := range rec.IDs {
			rec.IDs[i] = uint32(remap[id])
		}
	}
	st.metas, st.use, st.dead = metas, uses, 0
	st.names.reset()
}

// use is how much a chunk's symbol is used (see codegraph.Use).
type use struct {
	Callers, CallerPkgs, PkgImporters int32
}

// refreshUses copies the graph's use counts onto the chunks, then lets the
// graph forget what it resolved to count them: most servers never get a
// graph query, and one that does resolves it again.
func (st *state) refreshUses() {
	g := st.graph.get()
	uses := g.Uses()
	defer g.Forget()
	for id, m := range st.metas {
		st.use[id] = use{}
		if m == nil || m.Symbol == "" {
			continue
		}
		if u, ok := uses[m.Path][m.Symbol]; ok {
			st.use[id] = use{int32(u.Callers), int32(u.CallerPkgs), int32(u.PkgImporter)}
		}
	}
}

// index's slash-separated relative form.
func (ix *Index) relPath(p string) (string, error) {
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(ix.opt.Root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s is outside the project root %s", p, ix.opt.Root)
		}
		p = r
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("%s is outside the project root", p)
	}
	return p, nil
}

// ReloadIgnores makes the index read the git ignore rules again; a Refresh
// then drops the files they now ignore and adds the ones they no longer do.
func (ix *Index) ReloadIgnores() { ix.scanner.ReloadIgnores() }

// RemoveFile drops one file from the index. It reports whether it was there.
func (ix *Index) RemoveFile(p string) (bool, error) {
	rel, err := ix.relPath(p)
	if err != nil {
		return false, err
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	return ix.removeLocked(rel), nil
}

func (ix *Index) removeLocked(rel string) bool {
	if _, ok := ix.st.files[rel]; ok {
		ix.st.graph.get() // decoded outside the lock, as in update
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ok := ix.st.remove(rel)
	if ok {
		ix.st.compact(false)
	}
	return ok
}

// RefreshGraphSignals recomputes the use counts ranking weighs in; updates of
// single files leave them as they were until the next Build, Refresh or this
// call.
func (ix *Index) RefreshGraphSignals() {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.st.refreshUses()
}

// modCache maps folders to Go import paths using go.mod files.
type modCache struct {
	sc   *scan.Scanner // reads go.mod files as every other file, through the path policy
	mu   sync.Mutex
	dirs map[string]modInfo // folder -> nearest module
}

type modInfo struct {
	dir, path string // module folder (relative) and module path; path "" when none
}

// importPath returns the Go import path of a folder relative to the root:
// the module path of the nearest go.mod at or above it joined with the rest,
// or the folder itself when there is none.
func (m *modCache) importPath(dir string) string {
	mi := m.module(dir)
	if mi.path == "" {
		return dir
	}
	if dir == mi.dir {
		return mi.path
	}
	rest := dir
	if mi.dir != "." {
		rest = strings.TrimPrefix(dir, mi.dir+"/")
	}
	return mi.path + "/" + rest
}

func (m *modCache) module(dir string) modInfo {
	m.mu.Lock()
	if mi, ok := m.dirs[dir]; ok {
		m.mu.Unlock()
		return mi
	}
	m.mu.Unlock()
	var mi modInfo
	if data, err := m.readGoMod(dir); err == nil {
		mi = modInfo{dir: dir, path: modulePath(data)}
	} else if dir != "." && dir != "" {
		mi = m.module(path.Dir(dir))
	}
	m.mu.Lock()
	if m.dirs == nil {
		m.dirs = map[string]modInfo{}
	}
	m.dirs[dir] = mi
	m.mu.Unlock()
	return mi
}

// readGoMod reads the go.mod of folder dir, if it has one.
func (m *modCache) readGoMod(dir string) ([]byte, error) {
	f, _, err := m.sc.Open(path.Join(dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, scan.DefaultMaxSize))
}

func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
