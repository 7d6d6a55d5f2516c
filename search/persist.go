package search

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/search/snapshot"
)

// formatVersion changes whenever what is stored, or how files are chunked and
// tokenized, changes: an index of another version is rebuilt. 2: graph facts
// keep per-file strings once a file, not once a symbol. 3: and the types a
// type embeds or extends. 4: and Go interfaces' methods and arities, calls
// through typed parameters and fields, through super, and Rust trait impls.
// 5: TypeScript doc comments as the index reads them (overloads, JSDoc
// prose) and TypeScript signatures without their type parameters. 6: the
// header holds the graph's size, which a load no longer decodes. 7: postings
// are stored compressed, as the index keeps them. 8: a symbol without a doc
// comment is indexed with the comments inside its body; a bundler's
// annotation (#__PURE__) is no doc comment; functions named as values are
// in the graph's facts, which are stored compressed; markdown's HTML
// comments are not read; a chunk records whether it is deprecated. 9: a
// Python function's @overload signatures are one chunk with it. 10: outside
// Go, a call named in a comment or a string is no call site, and variables
// and top-level statements call too. 11: and a field named in one is no
// field, a method call is no call of a variable of its name,
// and CommonJS's require(…) declarations are imports. 12: a Go call through a
// chain of fields (s.cfg.Store.Get()) records the whole chain. 13: outside
// Go, a call on a parameter whose class the signature states goes to the
// class's method. 14: TypeScript, JavaScript and Python files' imports and
// exports (FileFacts.Bindings), reads of properties that may be getters,
// calls with type arguments.
// 15: Go facts record range, type switch, type assertion and package-level
// variables' types, containers' element types and calls on a call's result.
// 16: a chunk records whether it is a Go setter. 17: Go facts record a
// function's second result and its result count.
// 18: Go facts record the named types each function names (FileFacts.Types),
// for the calls the standard library makes (impact).
// 19: TypeScript facts digest what declarations say their values are called
// with (FileFacts.Callables), for the class of a callback's parameters.
// 20: TypeScript, JavaScript and Python setters are marked too.
const formatVersion = 20

// SnapshotFile is the name of an index's snapshot in Options.Dir. It does
// not end in .snap: Jest takes every *.snap file under its roots for a
// snapshot of its own, and one no test wrote is "obsolete" and fails its
// run (with --ci or CI=true), so a project's honest tests failed.
const SnapshotFile = "index.snapshot"

// LegacySnapshotFile is the name snapshots had before SnapshotFile; see
// MigrateSnapshot.
const LegacySnapshotFile = "index.snap"

// MigrateSnapshot renames a snapshot saved under LegacySnapshotFile in dir to
// SnapshotFile, so an index saved by an earlier agentos is still loaded; when
// both exist the legacy one is stale and is removed. It also removes what
// interrupted saves of the legacy name left. Only the process that alone
// writes the index may call it (the holder of the index lock).
func MigrateSnapshot(dir string) error {
	legacy, current := filepath.Join(dir, LegacySnapshotFile), filepath.Join(dir, SnapshotFile)
	var err error
	if _, statErr := os.Lstat(legacy); statErr == nil {
		if _, curErr := os.Lstat(current); errors.Is(curErr, fs.ErrNotExist) {
			err = os.Rename(legacy, current)
		} else {
			err = os.Remove(legacy)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("move the index snapshot %s to %s: %w", legacy, SnapshotFile, err)
		} else {
			err = nil
		}
	}
	_, leftErr := atomicfile.RemoveLeftovers(legacy)
	return errors.Join(err, leftErr)
}

// ErrEmbedderChanged says a snapshot was made with another embedder (name or
// dimension); its vectors cannot be used.
var ErrEmbedderChanged = errors.New("the index was built with another embedder")

type header struct {
	Embedder string
	Dim      int
	Texts    string // how embedding texts were made
	Built    time.Time
	Paths    []string
	Langs    []string
	Graph    codegraph.Stats // the size of the graph section's facts
}

type persistedFile struct {
	Path string
	Rec  fileRec
}

// Save writes the index to Options.Dir/SnapshotFile atomically.
func (ix *Index) Save() error {
	if ix.opt.Dir == "" {
		return errors.New("the index has no folder to save to")
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.Lock()
	ix.st.compact(true)
	ix.mu.Unlock()

	if err := os.MkdirAll(ix.opt.Dir, 0o755); err != nil {
		return fmt.Errorf("create the index folder: %w", err)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var graph []byte
	var stats codegraph.Stats
	err := snapshot.WriteStream(filepath.Join(ix.opt.Dir, SnapshotFile), formatVersion, func(add func(string, []byte) error) error {
		var err error
		graph, stats, err = ix.encode(add)
		return err
	})
	if err != nil {
		return fmt.Errorf("save the index: %w", err)
	}
	// The facts were just encoded; until they are needed again the index
	// keeps them so, as a load leaves them.
	ix.st.graph.shelve(bytes.Clone(graph), stats)
	return nil
}

func gobBytes(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// encode adds the index's sections to a snapshot one at a time, each
// encoded only when the one before is written, so that a save holds one
// section's bytes at once beside the index (see snapshot.WriteStream). It
// returns the graph section and the graph's size.
func (ix *Index) encode(add func(name string, data []byte) error) ([]byte, codegraph.Stats, error) {
	st := ix.st
	stats := st.graph.Stats()
	sections := []struct {
		name string
		v    func() any
	}{
		{"header", func() any {
			return header{Embedder: ix.opt.Embedder.Name(), Dim: ix.opt.Embedder.Dim(), Texts: ix.embedConfig(),
				Built: ix.built, Paths: ix.opt.Paths, Langs: ix.opt.Languages, Graph: stats}
		}},
		{"files", func() any {
			files := make([]persistedFile, 0, len(st.files))
			for p, r := range st.files {
				files = append(files, persistedFile{p, *r})
			}
			return files
		}},
		{"chunks", func() any {
			metas := make([]meta, len(st.metas))
			for i, m := range st.metas {
				if m != nil {
					metas[i] = *m
				}
			}
			return metas
		}},
		{"uses", func() any { return st.use }},
		{"contexts", func() any { return st.contexts }},
	}
	for _, s := range sections {
		b, err := gobBytes(s.v())
		if err != nil {
			return nil, stats, fmt.Errorf("encode the index %s: %w", s.name, err)
		}
		if err := add(s.name, b); err != nil {
			return nil, stats, err
		}
	}
	graph, err := st.graph.encoded()
	if err != nil {
		return nil, stats, fmt.Errorf("encode the index graph: %w", err)
	}
	if err := add("graph", graph); err != nil {
		return nil, stats, err
	}
	lb, err := st.lex.MarshalBinary()
	if err != nil {
		return nil, stats, err
	}
	if err := add("lexical", lb); err != nil {
		return nil, stats, err
	}
	vb, err := st.vec.MarshalBinary()
	if err != nil {
		return nil, stats, err
	}
	return graph, stats, add("vector", vb)
}

// embedConfig describes what goes into embedding texts, so that vectors made
// otherwise are not reused.
func (ix *Index) embedConfig() string {
	t := ix.opt.Tuning
	cfg := fmt.Sprintf("doc=%d body=%d docidf=%g", t.EmbedDocChars, t.EmbedBodyChars, t.DocIDF)
	if t.EmbedBodyCharsNoDoc > 0 {
		cfg += fmt.Sprintf(" nodocbody=%d", t.EmbedBodyCharsNoDoc)
	}
	return cfg
}

// Load replaces the index's content with its snapshot. The error satisfies
// errors.Is with fs.ErrNotExist when there is none, snapshot.ErrCorrupt or
// snapshot.ErrVersion when it cannot be read, ErrEmbedderChanged when it was
// made with another embedder. Each means: build the index instead (Open does).
func (ix *Index) Load() error {
	if ix.opt.Dir == "" {
		return fmt.Errorf("the index has no folder: %w", fs.ErrNotExist)
	}
	var (
		h      header
		st     = ix.newState()
		files  []persistedFile
		metas  []meta
		graph  []byte
		have   = map[string]bool{}
		decode = func(name string, data []byte, v any) error {
			if err := gob.NewDecoder(bytes.NewReader(data)).Decode(v); err != nil {
				return fmt.Errorf("%w: %s: %v", snapshot.ErrCorrupt, name, err)
			}
			return nil
		}
	)
	// The sections come one at a time, each in a buffer of its own, in the
	// order Save wrote them: the header first, so that a snapshot of another
	// embedder is turned down before anything else is decoded.
	err := snapshot.ReadStream(filepath.Join(ix.opt.Dir, SnapshotFile), formatVersion, func(name string, data []byte) error {
		if !have["header"] && name != "header" {
			return fmt.Errorf("%w: %s before the header", snapshot.ErrCorrupt, name)
		}
		have[name] = true
		switch name {
		case "header":
			if err := decode(name, data, &h); err != nil {
				return err
			}
			if h.Embedder != ix.opt.Embedder.Name() || h.Dim != ix.opt.Embedder.Dim() || h.Texts != ix.embedConfig() {
				return fmt.Errorf("%w (%s/%d, now %s/%d)", ErrEmbedderChanged, h.Embedder, h.Dim,
					ix.opt.Embedder.Name(), ix.opt.Embedder.Dim())
			}
		case "files":
			return decode(name, data, &files)
		case "chunks":
			return decode(name, data, &metas)
		case "uses":
			return decode(name, data, &st.use)
		case "contexts":
			return decode(name, data, &st.contexts)
		case "graph":
			graph = data
		case "lexical":
			if err := st.lex.UnmarshalBinary(data); err != nil {
				return fmt.Errorf("%w: %v", snapshot.ErrCorrupt, err)
			}
			st.setBackground() // decoding resets the lexical index whole
		case "vector":
			if err := st.vec.UnmarshalBinary(data); err != nil {
				return fmt.Errorf("%w: %v", snapshot.ErrCorrupt, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, name := range []string{"files", "chunks", "uses", "contexts", "graph", "lexical", "vector"} {
		if !have[name] {
			return fmt.Errorf("%w: no %s section", snapshot.ErrCorrupt, name)
		}
	}
	// Decoding gives every string its own copy; the same few paths, kinds
	// and package names repeat over tens of thousands of chunks and symbols,
	// so share one copy of each (a tenth of a large index's memory).
	in := interner{}
	st.metas = make([]*meta, len(metas))
	for i := range metas {
		m := &metas[i]
		if m.Path == "" {
			st.dead++
			continue
		}
		m.Path, m.Language, m.Domain, m.Kind = in.s(m.Path), in.s(m.Language), in.s(m.Domain), chunk.Kind(in.s(string(m.Kind)))
		st.metas[i] = m
	}
	st.graph = encodedGraph(graph, h.Graph) // the section's own buffer, kept as it is
	if len(st.use) != len(st.metas) {
		st.use = make([]use, len(st.metas))
	}
	for _, f := range files {
		r := f.Rec
		for _, id := range r.IDs {
			if int(id) >= len(st.metas) || st.metas[id] == nil {
				return fmt.Errorf("%w: file %s has an unknown chunk", snapshot.ErrCorrupt, f.Path)
			}
		}
		st.files[f.Path] = &r
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.Lock()
	ix.st, ix.ready, ix.built = st, true, h.Built
	ix.mu.Unlock()
	return nil
}

// OpenReport says how Open got its index.
type OpenReport struct {
	Loaded  bool       `json:"loaded"`            // from the snapshot
	Rebuilt string     `json:"rebuilt,omitempty"` // why it was built instead, when it was
	Stats   BuildStats `json:"stats"`             // the build, or the refresh after loading
}

// Open returns a ready index: its snapshot loaded and refreshed when there
// is a usable one, else built from the files and saved (when Options.Dir is
// set). To answer searches (with ErrNotReady) while that runs, call New and
// then Index.Open on another goroutine.
func Open(ctx context.Context, opt Options) (*Index, OpenReport, error) {
	ix, err := New(opt)
	if err != nil {
		return nil, OpenReport{}, err
	}
	rep, err := ix.Open(ctx)
	if err != nil {
		return nil, rep, err
	}
	return ix, rep, nil
}

// Open makes the index ready: it loads and refreshes the snapshot when there
// is a usable one, else builds the index from the files, and saves the
// result (when Options.Dir is set). A snapshot that is missing, corrupt, of
// another format or made with another embedder is rebuilt; the report says
// why.
func (ix *Index) Open(ctx context.Context) (OpenReport, error) {
	var rep OpenReport
	if ix.opt.Dir != "" {
		err := ix.Load()
		switch {
		case err == nil:
			rep.Loaded = true
			st, err := ix.Refresh(ctx)
			if err != nil {
				return rep, err
			}
			rep.Stats = st
			if st.Files > 0 || st.Removed > 0 {
				if err := ix.Save(); err != nil {
					return rep, err
				}
			}
			return rep, nil
		case errors.Is(err, fs.ErrNotExist):
			rep.Rebuilt = "no saved index"
		default:
			rep.Rebuilt = err.Error()
		}
	}
	st, err := ix.Build(ctx)
	if err != nil {
		return rep, err
	}
	rep.Stats = st
	if ix.opt.Dir != "" {
		if err := ix.Save(); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// interner hands out one shared copy of each string.
type interner map[string]string

func (in interner) s(v string) string {
	if c, ok := in[v]; ok {
		return c
	}
	in[v] = v
	return v
}

func internFacts(f *codegraph.FileFacts, in interner) {
	f.Path, f.Language, f.Package, f.PkgName = in.s(f.Path), in.s(f.Language), in.s(f.Package), in.s(f.PkgName)
	for i := range f.Imports {
		f.Imports[i] = in.s(f.Imports[i])
	}
	for i := range f.Symbols {
		y := &f.Symbols[i]
		y.Name, y.Recv, y.Kind = in.s(y.Name), in.s(y.Recv), in.s(y.Kind)
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		c.Recv, c.Name = in.s(c.Recv), in.s(c.Name)
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		fl.Struct, fl.Name, fl.Type = in.s(fl.Struct), in.s(fl.Name), in.s(fl.Type)
	}
	for i := range f.Types {
		f.Types[i].Name = in.s(f.Types[i].Name)
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		b.Local, b.Module, b.Name = in.s(b.Local), in.s(b.Module), in.s(b.Name)
	}
}
