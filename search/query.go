package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/embed"
	"github.com/agentos-dev/agentos/search/lexical"
	"github.com/agentos-dev/agentos/search/scan"
	"github.com/agentos-dev/agentos/search/tokenize"
	"github.com/agentos-dev/agentos/search/vector"
)

// Method is a ranking method.
type Method string

// Ranking methods.
const (
	Hybrid  Method = "hybrid"  // lexical and vector fused (the default)
	Lexical Method = "lexical" // BM25F only
	Vector  Method = "vector"  // embedding similarity only
)

// Limits of a query.
const (
	DefaultLimit         = 10
	MaxLimit             = 50
	DefaultContentBudget = 1200
	MaxContentBudget     = 20000
	MaxQueryLen          = 2000
)

// Query is a search request.
type Query struct {
	Text   string
	Method Method // "" means Hybrid
	Limit  int    // results wanted, 1 to MaxLimit; 0 means DefaultLimit
	// Filters; empty means any.
	PathPrefix string // a folder ("net/http") or file path prefix
	Language   string // "go", "python", …, "markdown"
	Domain     string // standards: universal, development, workflow
	Kind       string // func, method, type, const, var, section, package, imports, module, window, container
	// ContentBudget caps each result's content in bytes: 0 means
	// DefaultContentBudget, negative means no content.
	ContentBudget int
	// MaxPerFile caps the results from one file (0: no cap), for variety.
	MaxPerFile int
}

// Result is one ranked chunk.
type Result struct {
	Path      string   `json:"path"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Kind      string   `json:"kind"`
	Symbol    string   `json:"symbol,omitempty"`
	Section   string   `json:"section,omitempty"` // markdown heading path, "A > B > C"
	Signature string   `json:"signature,omitempty"`
	Language  string   `json:"language"`
	Domain    string   `json:"domain,omitempty"`
	Score     float64  `json:"score"`
	Signals   []string `json:"signals"` // what matched: name, doc, keywords, signature, path, body, vector, graph
	Content   string   `json:"content,omitempty"`
	Truncated bool     `json:"truncated,omitempty"` // content was cut to the budget
}

// ErrInvalidQuery marks a query the caller must fix.
var ErrInvalidQuery = errors.New("invalid query")

// ErrNotReady says the index has not been built or loaded yet.
var ErrNotReady = errors.New("the index is still being built; try again in a few seconds")

var kindAliases = map[string]chunk.Kind{
	"function": chunk.Func, "class": chunk.Type, "struct": chunk.Type, "interface": chunk.Type,
	"enum": chunk.Type, "trait": chunk.Type, "constant": chunk.Const, "variable": chunk.Var,
	"impl": chunk.Container, "heading": chunk.Section,
}

func (q *Query) validate() error {
	q.Text = strings.TrimSpace(q.Text)
	switch {
	case q.Text == "":
		return fmt.Errorf("%w: the query text is empty", ErrInvalidQuery)
	case len(q.Text) > MaxQueryLen:
		return fmt.Errorf("%w: the query is longer than %d bytes", ErrInvalidQuery, MaxQueryLen)
	}
	switch q.Method {
	case "":
		q.Method = Hybrid
	case Hybrid, Lexical, Vector:
	default:
		return fmt.Errorf("%w: method %q is not hybrid, lexical or vector", ErrInvalidQuery, q.Method)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 0 || q.Limit > MaxLimit {
		return fmt.Errorf("%w: limit must be between 1 and %d", ErrInvalidQuery, MaxLimit)
	}
	if q.ContentBudget == 0 {
		q.ContentBudget = DefaultContentBudget
	}
	q.ContentBudget = min(q.ContentBudget, MaxContentBudget)
	q.PathPrefix = strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(q.PathPrefix)), "./")
	if q.PathPrefix == "." {
		q.PathPrefix = ""
	}
	q.Kind = strings.ToLower(strings.TrimSpace(q.Kind))
	if k, ok := kindAliases[q.Kind]; ok {
		q.Kind = string(k)
	}
	q.Language = strings.ToLower(strings.TrimSpace(q.Language))
	q.Domain = strings.ToLower(strings.TrimSpace(q.Domain))
	return nil
}

func (q *Query) accept(m *meta) bool {
	if m == nil {
		return false
	}
	if q.PathPrefix != "" {
		p := q.PathPrefix
		if !(m.Path == p || strings.HasPrefix(m.Path, strings.TrimSuffix(p, "/")+"/") ||
			!strings.HasSuffix(p, "/") && strings.HasPrefix(m.Path, p) && path0(p)) {
			return false
		}
	}
	return (q.Language == "" || m.Language == q.Language) &&
		(q.Domain == "" || m.Domain == q.Domain) &&
		(q.Kind == "" || string(m.Kind) == q.Kind)
}

// path0 reports whether a prefix names a file rather than a folder (it has an
// extension), in which case a plain prefix match is meant.
func path0(p string) bool {
	base := p[strings.LastIndex(p, "/")+1:]
	return strings.Contains(base, ".")
}

// candidate is a chunk in fusion.
type candidate struct {
	id       uint32
	lex      float64
	lexRank  int // 1-based; 0 when not in the lexical list
	vec      float64
	vecRank  int
	fields   uint8
	groups   int // query words it matched lexically
	score    float64
	hasLexed bool
	exact    bool // its symbol is what the query names
}

// scorePool recycles the per-document score buffers of vector search.
var scorePool sync.Pool

// queryTerms turns the query into lexical terms: one group per word, each
// word's vocabulary relations added to its group with weight expand, except
// those in more than maxDF documents (common words cost much and say little).
func queryTerms(text string, expand, abbrev float64, dfOf func(string) int, maxDF int) []lexical.QueryTerm {
	var out []lexical.QueryTerm
	seen := map[string]bool{}
	group := 0
	tokenize.Each(text, func(t tokenize.Term) {
		if seen[t.Text] {
			return
		}
		seen[t.Text] = true
		out = append(out, lexical.QueryTerm{Term: t.Text, Weight: 1, Group: group})
		if expand > 0 && !t.Whole {
			add := func(r string, w float64) {
				if df := dfOf(r); !seen[r] && df > 0 && df <= maxDF {
					out = append(out, lexical.QueryTerm{Term: r, Weight: w, Group: group})
				}
			}
			for _, r := range embed.Related(t.Text) {
				add(r, expand)
			}
			if abbrev > 0 {
				for _, r := range abbreviations(t.Text) {
					add(r, abbrev)
				}
			}
		}
		group++
	})
	return out
}

// Search ranks the index's chunks for q.
func (ix *Index) Search(ctx context.Context, q Query) ([]Result, error) {
	if err := q.validate(); err != nil {
		return nil, err
	}
	t := ix.opt.Tuning
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if !ix.ready {
		return nil, ErrNotReady
	}
	st := ix.st
	var qv []float32
	if q.Method != Lexical {
		var err error
		if we, ok := ix.opt.Embedder.(embed.WeightedQueryEmbedder); ok && t.QueryIDF > 0 {
			qv, err = we.EmbedQueryWeighted(ctx, q.Text, ix.idfWeight(st, t.QueryIDF))
		} else {
			qv, err = embed.Query(ctx, ix.opt.Embedder, q.Text)
		}
		if err != nil {
			return nil, fmt.Errorf("embed the query: %w", err)
		}
	}
	accept := func(id uint32) bool { return q.accept(st.metas[id]) }
	if q.PathPrefix == "" && q.Language == "" && q.Domain == "" && q.Kind == "" {
		// No filter: only removed chunks are left out, and a chunk's
		// metadata, one read from memory for each of the tens of thousands
		// of chunks a common word matches, is not read.
		accept = func(id uint32) bool { return st.metas[id] != nil }
	}
	nc := max(t.Candidates, q.Limit*4)
	if q.Method == Lexical || q.Method == Vector {
		nc = max(q.Limit*8, 100) // enough for priors to reorder
	}
	cands := map[uint32]*candidate{}
	get := func(id uint32) *candidate {
		c := cands[id]
		if c == nil {
			c = &candidate{id: id}
			cands[id] = c
		}
		return c
	}
	// The two legs run at once: lexical on its own goroutine, the vector
	// scan on the others.
	var lexHits []lexical.Hit
	nGroups := 0 // words of the query
	lexDone := make(chan struct{})
	go func() {
		defer close(lexDone)
		if q.Method == Vector {
			return
		}
		expand := t.ExpandWeight
		if q.Method == Lexical {
			expand = 0
		}
		// At least 20: in a small project every word is in a good share of
		// the chunks.
		maxDF := max(int(t.ExpandMaxDF*float64(st.lex.Len())), 20)
		dfOf := st.lex.DF
		if asks := askedKinds(q); !asks.tests && !asks.examples {
			// How common a word is, is a matter of the code itself: a
			// repository's tests and examples repeat the library's words
			// in long bodies, and counting them would let through, as
			// related words, ones the library itself uses too often to help.
			maxDF = max(int(t.ExpandMaxDF*float64(st.lex.Counted())), 20)
			dfOf = func(term string) int { return st.lex.DFCounted(term, maxDF) }
		}
		abbrev := t.AbbrevWeight
		if q.Method == Lexical {
			abbrev = 0
		}
		qts := queryTerms(q.Text, expand, abbrev, dfOf, maxDF)
		if len(qts) > 0 {
			nGroups = qts[len(qts)-1].Group + 1
		}
		lexHits = st.lex.Search(qts, nc, accept)
	}()
	var vscores []float32
	var vecHits []vector.Hit
	if q.Method != Lexical && len(qv) == st.vec.Dim() {
		buf, _ := scorePool.Get().(*[]float32)
		if buf == nil {
			buf = new([]float32)
		}
		defer scorePool.Put(buf)
		vscores = st.vec.ScoreAll(qv, *buf)
		*buf = vscores
		vecHits = vector.Top(vscores, nc, accept)
	}
	<-lexDone
	for i, h := range lexHits {
		c := get(h.Doc)
		c.lex, c.lexRank, c.fields, c.groups, c.hasLexed = h.Score, i+1, h.Fields, h.Groups, true
	}
	for i, h := range vecHits {
		get(h.ID).vecRank = i + 1
	}
	if vscores != nil {
		for id, c := range cands {
			if int(id) < len(vscores) {
				c.vec = float64(vscores[id])
			}
		}
	}
	// The definitions a named-symbol query names join the candidates
	// whatever the legs found (an import, such as CommonJS's
	// var View = require('./view'), defines nothing).
	exact, named := namedSymbol(q.Text), symbolNamed
	key := baseName(exact)
	if exact == "" {
		exact, named = spelledName(q.Text), spells
		key = exact
	}
	if exact != "" {
		st.names.lookup(st.metas, key, func(id uint32) {
			if m := st.metas[id]; m != nil && m.Kind != chunk.Imports && named(m, exact) && accept(id) {
				c := get(id)
				c.exact = true
				if int(id) < len(vscores) {
					c.vec = float64(vscores[id])
				}
			}
		})
	}
	asks := askedKinds(q)
	var actions, opposed map[string]bool
	if t.OppositeFactor != 1 && q.Method != Lexical {
		actions, opposed = queryActions(q.Text)
	}
	list := make([]*candidate, 0, len(cands))
	byScore := func(a, b *candidate) int {
		switch {
		case a.exact != b.exact:
			if a.exact {
				return -1
			}
			return 1
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return int(a.id) - int(b.id)
	}
	fuse := func() {
		list = list[:0]
		var maxLex, maxVec float64
		for _, c := range cands {
			list = append(list, c)
			maxLex = max(maxLex, c.lex)
			maxVec = max(maxVec, c.vec)
		}
		for _, c := range list {
			var base float64
			switch q.Method {
			case Lexical:
				base = c.lex
			case Vector:
				base = max(c.vec, 0)
			default:
				switch t.Fusion {
				case "weighted":
					share := t.LexicalShare
					if lang := st.metas[c.id].Language; lang == "typescript" || lang == "javascript" {
						share = t.ScriptLexicalShare
					}
					if maxLex > 0 {
						base += share * c.lex / maxLex
					}
					if maxVec > 0 {
						base += (1 - share) * max(c.vec, 0) / maxVec
					}
				default:
					if c.lexRank > 0 {
						base += 2 * t.LexicalShare / (t.RRFK + float64(c.lexRank))
					}
					if c.vecRank > 0 {
						base += 2 * (1 - t.LexicalShare) / (t.RRFK + float64(c.vecRank))
					}
				}
			}
			c.score = base * ix.prior(st, c.id, asks)
			if q.Method == Hybrid && t.CoverageWeight > 0 && nGroups > 1 {
				// A chunk that speaks of every part of the question beats one
				// that repeats a few of its words.
				c.score *= 1 - t.CoverageWeight + t.CoverageWeight*float64(c.groups)/float64(nGroups)
			}
			if len(opposed) > 0 && namedOpposite(st.metas[c.id].Symbol, actions, opposed) {
				c.score *= t.OppositeFactor
			}
		}
		for _, c := range list {
			if c.exact && c.score <= 0 {
				c.score = math.SmallestNonzeroFloat64 // found by name alone: kept, after the ones the legs found
			}
		}
		slices.SortFunc(list, byScore)
	}
	fuse()
	if q.Method == Hybrid && t.FeedbackVector > 0 && t.FeedbackDocs > 0 && vscores != nil &&
		len(list) >= 10*t.FeedbackDocs {
		// Pseudo-relevance feedback in the vector leg (Rocchio): the
		// query's vector moves towards the best chunks of this ranking,
		// which say in the code's own words what the question asked in
		// others; the candidates are scored again. Scoring every chunk
		// again found no more answers on the tuning sets and cost 5 ms.
		// With few candidates (a small project, a narrow filter) the best
		// ones are most of them and say nothing the query does not.
		top := list[:min(len(list), t.FeedbackDocs)]
		if qv2 := feedbackVector(st, qv, top, t.FeedbackVector); qv2 != nil {
			for id, c := range cands {
				if s := st.vec.Score(id, qv2); s != vector.Dead {
					c.vec = float64(s)
				}
			}
			fuse()
		}
	}
	if t.SiblingFactor != 1 && q.Method == Hybrid {
		// DB.QueryRowContext, Tx.QueryRowContext and Conn.QueryRowContext
		// are one answer; the second and third make room for QueryRow.
		seen := map[string]int{}
		for _, c := range list {
			m := st.metas[c.id]
			if m.Symbol == "" {
				continue
			}
			k := path.Dir(m.Path) + " " + baseName(m.Symbol)
			c.score *= math.Pow(t.SiblingFactor, float64(seen[k]))
			seen[k]++
		}
		slices.SortFunc(list, byScore)
	}
	out := make([]Result, 0, q.Limit)
	perFile := map[string]int{}
	for _, c := range list {
		if len(out) == q.Limit {
			break
		}
		if c.score <= 0 {
			continue
		}
		m := st.metas[c.id]
		if q.MaxPerFile > 0 {
			if perFile[m.Path] >= q.MaxPerFile {
				continue
			}
			perFile[m.Path]++
		}
		r := Result{Path: m.Path, StartLine: m.StartLine, EndLine: m.EndLine, Kind: string(m.Kind), Symbol: m.Symbol,
			Section: m.Section, Signature: m.Signature, Language: m.Language, Domain: m.Domain,
			Score: math.Round(c.score*1e6) / 1e6, Signals: []string{}}
		for f := 0; f < numFields; f++ {
			if c.fields&(1<<f) != 0 {
				r.Signals = append(r.Signals, signalName(f, m.Language))
			}
		}
		if c.vecRank > 0 {
			r.Signals = append(r.Signals, "vector")
		}
		if u := st.use[c.id]; u.Callers > 0 && t.fanInBoost(m.Language) > 0 || u.CallerPkgs > 0 && t.CallerPkgBoost > 0 {
			r.Signals = append(r.Signals, "graph")
		}
		if q.ContentBudget > 0 {
			r.Content, r.Truncated = ix.content(st, m, q.ContentBudget)
		}
		out = append(out, r)
	}
	return out, nil
}

// abbreviations returns the shortenings code commonly makes of a word by
// cutting its end: "hypot" for "hypotenuse", "config" for "configuration",
// "auth" for "authenticate". Each keeps at least four letters and drops at
// least two; shorter ones ("dir", "var") are too ambiguous to guess and are
// in the vocabulary where they matter.
func abbreviations(stem string) []string {
	var out []string
	for n := 4; n <= len(stem)-2; n++ {
		out = append(out, stem[:n])
	}
	return out
}

// queryActions returns the words of a query that have opposites (actions)
// and those opposites, less any the query also asks for (opposed). The
// vocabulary's relations are left out: its concepts are broad ("encode" and
// "decode" are both about JSON).
func queryActions(text string) (actions, opposed map[string]bool) {
	actions, opposed = map[string]bool{}, map[string]bool{}
	words := map[string]bool{}
	tokenize.Each(text, func(t tokenize.Term) {
		words[t.Text] = true
		for _, o := range embed.Opposites(t.Text) {
			actions[t.Text], opposed[o] = true, true
		}
	})
	for w := range words {
		delete(opposed, w)
	}
	return actions, opposed
}

// namedOpposite reports whether a symbol's own name (a method's without its
// receiver) names an opposed action and none of the query's: DecodeString
// when the query asks to encode a string.
func namedOpposite(symbol string, actions, opposed map[string]bool) bool {
	if symbol == "" {
		return false
	}
	name := baseName(symbol)
	found := false
	for _, w := range tokenize.Terms(name) {
		if actions[w] {
			return false
		}
		found = found || opposed[w]
	}
	return found
}

// idfWeight weighs a query term by its inverse document frequency to the
// power p; a term absent from the index counts as the rarest.
func (ix *Index) idfWeight(st *state, p float64) func(string) float64 {
	maxIDF := math.Log(1 + (float64(st.lex.Len())+0.5)/1.5)
	return func(term string) float64 {
		idf := st.lex.IDF(term)
		if idf == 0 {
			idf = maxIDF
		}
		return math.Pow(idf/maxIDF, p)
	}
}

// kindWords are the query words that ask for kinds of chunk the priors
// otherwise rank lower.
var kindWords = map[string]kinds{}

// kinds are what a query asks for by name.
type kinds struct {
	declarations bool // types, constants or variables ("the struct that …")
	tests        bool // tests ("the tests of the parser")
	imports      bool // import blocks ("where is net/http imported")
	examples     bool // examples or demos ("an example of a progress bar")
	deprecated   bool // deprecated symbols ("the deprecated way to …")
}

func init() {
	for words, k := range map[string]kinds{
		"type types struct interface class enum trait constant const variable var field": {declarations: true},
		"test tests testing unittest spec specs benchmark":                               {tests: true},
		"import imports imported importing":                                              {imports: true},
		"example examples demo demos sample samples":                                     {examples: true},
		"deprecated deprecation obsolete legacy":                                         {deprecated: true},
	} {
		for _, w := range tokenize.Terms(words) {
			kindWords[w] = k
		}
	}
}

// askedKinds returns the kinds of chunk a query asks for by name or by its
// kind filter.
func askedKinds(q Query) kinds {
	var k kinds
	tokenize.Each(q.Text, func(t tokenize.Term) {
		w := kindWords[t.Text]
		k.declarations = k.declarations || w.declarations
		k.tests = k.tests || w.tests
		k.imports = k.imports || w.imports
		k.examples = k.examples || w.examples
		k.deprecated = k.deprecated || w.deprecated
	})
	k.imports = k.imports || q.Kind == string(chunk.Imports)
	return k
}

// prior is a chunk's score factor from what it is, not what it says. Tests,
// import blocks, and types, constants and variables, rank lower unless the
// query asks for them (most questions ask what does something).
func (ix *Index) prior(st *state, id uint32, asks kinds) float64 {
	t := ix.opt.Tuning
	m := st.metas[id]
	p := 1.0
	if m.Test && !asks.tests {
		p *= t.TestFactor
	}
	switch m.Kind {
	case chunk.Imports:
		if !asks.imports {
			p *= t.ImportsFactor
		}
	case chunk.Module, chunk.Window:
		p *= t.ModuleFactor
	case chunk.Package:
		p *= t.PackageFactor
	case chunk.Func, chunk.Method, chunk.Type, chunk.Const, chunk.Var:
		if !m.Exported {
			p *= t.UnexportedFactor
		}
		if !m.HasDoc {
			p *= t.NoDocFactor
		}
		switch {
		case asks.declarations:
		case m.Kind == chunk.Type && m.Language == "python":
			p *= t.ClassFactor
		case m.Kind == chunk.Type:
			p *= t.TypeFactor
		case m.Kind == chunk.Const || m.Kind == chunk.Var:
			p *= t.ValueFactor
			if strings.Contains(m.Symbol, ".") {
				p *= t.MemberFactor
			}
		}
	}
	if strings.HasSuffix(m.Symbol, ".constructor") {
		p *= t.ConstructorFactor
	}
	if m.Internal {
		p *= t.InternalFactor
	}
	if m.Example && !asks.examples {
		p *= t.ExampleFactor
	}
	if m.Deprecated && !asks.deprecated {
		p *= t.DeprecatedFactor
	}
	if m.Generated {
		p *= t.GeneratedFactor
	}
	if m.Setter {
		p *= t.SetterFactor
	}
	u := st.use[id]
	p *= 1 + t.fanInBoost(m.Language)*math.Log1p(float64(u.Callers))
	p *= 1 + t.CallerPkgBoost*math.Log1p(float64(u.CallerPkgs))
	p *= 1 + t.ImporterBoost*math.Log1p(float64(u.PkgImporters))
	return p
}

// content returns a chunk's lines from its file, cut to budget bytes at a
// line boundary. When the file is as indexed, only the chunk's bytes are
// read; otherwise (it changed since) its lines are looked up afresh.
func (ix *Index) content(st *state, m *meta, budget int) (string, bool) {
	// Opened as when it was indexed: a file that became a link, or a
	// second link of something else, since then shows no lines.
	f, fi, err := ix.scanner.Open(m.Path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	rec := st.files[m.Path]
	if rec == nil || fi.Size() != rec.Size || fi.ModTime().UnixNano() != rec.ModTime ||
		m.EndByte > fi.Size() || m.EndByte < m.StartByte {
		data, err := io.ReadAll(io.LimitReader(f, scan.DefaultMaxSize*4))
		if err != nil {
			return "", false
		}
		return linesOf(data, m.StartLine, m.EndLine, budget)
	}
	n := m.EndByte - m.StartByte
	cut := n > int64(budget)
	buf := make([]byte, min(n, int64(budget)))
	if _, err := f.ReadAt(buf, m.StartByte); err != nil && err != io.EOF {
		return "", false
	}
	if cut {
		if k := bytes.LastIndexByte(buf, '\n'); k > 0 {
			buf = buf[:k]
		}
	}
	buf = bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
	text := strings.ReplaceAll(string(buf), "\r\n", "\n")
	return strings.ToValidUTF8(text, ""), cut
}

// linesOf returns lines start..end of data, cut to budget bytes at a line
// boundary.
func linesOf(data []byte, start, end, budget int) (string, bool) {
	off := 0
	for line := 1; line < start; line++ {
		k := bytes.IndexByte(data[off:], '\n')
		if k < 0 {
			return "", false
		}
		off += k + 1
	}
	var b strings.Builder
	for line := start; line <= end && off < len(data); line++ {
		stop, next := len(data), len(data)
		if k := bytes.IndexByte(data[off:], '\n'); k >= 0 {
			stop, next = off+k, off+k+1
		}
		l := bytes.TrimSuffix(data[off:stop], []byte("\r"))
		if b.Len()+len(l)+1 > budget {
			if b.Len() == 0 {
				b.WriteString(strings.ToValidUTF8(string(l[:min(len(l), budget)]), ""))
			}
			return b.String(), true
		}
		if line > start {
			b.WriteByte('\n')
		}
		b.Write(l)
		off = next
	}
	return b.String(), false
}
