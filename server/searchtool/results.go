package searchtool

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/codegraph"
)

// MaxResultBytes bounds the JSON of one answer; results past it are left out
// and the answer says so.
const MaxResultBytes = 24 << 10

// Limits and defaults of the tools' numbers.
const (
	DefaultResults    = 5
	MaxResults        = search.MaxLimit
	DefaultGraphNodes = 20
	DefaultPaths      = 5
	MaxPaths          = codegraph.MaxPaths
	DefaultWalkDepth  = 1
	DefaultPathDepth  = 4
	MaxDepth          = codegraph.MaxDepth
)

// Output is the answer of svc_search_project and search_standards; which
// fields are set depends on the action.
type Output struct {
	Action       string       `json:"action"`
	Query        string       `json:"query,omitempty"`
	Method       string       `json:"method,omitempty" jsonschema:"The ranking used: hybrid, lexical or vector"`
	Results      *[]Hit       `json:"results,omitempty" jsonschema:"search_standards, search_code: the best matches first"`
	Symbol       *GraphSymbol `json:"symbol,omitempty" jsonschema:"find_*: the symbol the query names"`
	ToSymbol     *GraphSymbol `json:"to_symbol,omitempty" jsonschema:"find_call_paths: the symbol to_symbol names"`
	Callers      *[]GraphNode `json:"callers,omitempty" jsonschema:"find_callers: who calls the symbol, nearest first"`
	Dependencies *[]GraphNode `json:"dependencies,omitempty" jsonschema:"find_dependencies: what the symbol calls, nearest first"`
	// Implementations shares the shape of callers: each is one symbol, at
	// depth 1, via the interface.
	Implementations *[]GraphNode   `json:"implementations,omitempty" jsonschema:"find_implementations: the types (or methods) implementing the interface (or its method), by file"`
	Paths           *[]CallPath    `json:"paths,omitempty" jsonschema:"find_call_paths: chains of calls from symbol to to_symbol, shortest first"`
	Impact          *ImpactAnswer  `json:"impact,omitempty" jsonschema:"impact: the symbols a change touches, their callers and the tests that reach them"`
	Truncated       bool           `json:"truncated,omitempty" jsonschema:"More exists than is shown; the notice says what"`
	Notice          string         `json:"notice,omitempty" jsonschema:"Read it: the index is still building, the answer was cut, or nothing matched"`
	IndexStatus     *IndexStatus   `json:"index_status,omitempty" jsonschema:"The state of the index that answered"`
	Indexes         *[]IndexStatus `json:"indexes,omitempty" jsonschema:"index_status: both indexes"`
}

// Hit is one search result.
type Hit struct {
	Path      string   `json:"path" jsonschema:"File, relative to the project root"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Kind      string   `json:"kind" jsonschema:"section, func, method, type, const, var, package, imports, module, window or container"`
	Symbol    string   `json:"symbol,omitempty"`
	Section   string   `json:"section,omitempty" jsonschema:"Markdown heading path: A > B > C"`
	Signature string   `json:"signature,omitempty"`
	Language  string   `json:"language,omitempty"`
	Domain    string   `json:"domain,omitempty" jsonschema:"Standards: universal, development or workflow"`
	Score     float64  `json:"score"`
	Signals   []string `json:"signals" jsonschema:"What matched: name, summary, doc, keywords, signature, path, body, context, vector, graph"`
	Content   string   `json:"content,omitempty" jsonschema:"The lines, each prefixed with its number and a tab"`
	Truncated bool     `json:"truncated,omitempty" jsonschema:"content was cut; read the file for the rest"`
}

// GraphSymbol is a symbol of the call graph.
type GraphSymbol struct {
	Symbol    string `json:"symbol" jsonschema:"Qualified name: package.Type.Name"`
	Kind      string `json:"kind" jsonschema:"func, method, type, const, var or package"`
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Package   string `json:"package,omitempty"`
	Signature string `json:"signature,omitempty"`
}

// GraphNode is a symbol reached from the queried one.
type GraphNode struct {
	Symbol    string `json:"symbol" jsonschema:"Qualified name: package.Type.Name"`
	Kind      string `json:"kind"`
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Depth     int    `json:"depth" jsonschema:"1 for direct callers or dependencies"`
	Via       string `json:"via" jsonschema:"The symbol one level nearer the queried one"`
	CallLine  int    `json:"call_line,omitempty" jsonschema:"Line of the call, in the caller's file"`
	Loose     bool   `json:"loose,omitempty" jsonschema:"Linked by name only: the callee's type was not known"`
	Embeds    bool   `json:"embeds,omitempty" jsonschema:"Not a call: this type embeds or extends the other (call_line is where it names it)"`
	Value     bool   `json:"value,omitempty" jsonschema:"Not a call: the caller names the function as a value at call_line (passes, stores or returns it)"`
	Dispatch  string `json:"dispatch,omitempty" jsonschema:"The caller calls this interface method, which reaches via (a concrete Go method) when via's type is the value's"`
}

// CallPath is a chain of calls.
type CallPath struct {
	Steps []PathStep `json:"steps"`
	Loose bool       `json:"loose,omitempty" jsonschema:"Some link is by name only"`
}

// PathStep is one symbol of a call path.
type PathStep struct {
	Symbol    string `json:"symbol"`
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	CallLine  int    `json:"call_line,omitempty" jsonschema:"Line where this symbol calls the next one"`
}

// contentBudget shares the answer's size among n results: more lines each
// when fewer are asked for.
func contentBudget(n int) int {
	return min(max(18000/max(n, 1), 300), 1500)
}

// runSearch searches ix and shapes the results.
func runSearch(ctx context.Context, ix *search.Index, q search.Query) ([]Hit, error) {
	if q.ContentBudget == 0 {
		q.ContentBudget = contentBudget(q.Limit)
	}
	rs, err := ix.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	return toHits(rs, q.ContentBudget), nil
}

func toHits(rs []search.Result, budget int) []Hit {
	hits := make([]Hit, len(rs))
	for i, r := range rs {
		hits[i] = Hit{Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, Kind: r.Kind, Symbol: r.Symbol,
			Section: r.Section, Signature: r.Signature, Language: r.Language, Domain: r.Domain, Score: r.Score,
			Signals: r.Signals, Content: numbered(r.Content, r.StartLine), Truncated: r.Truncated}
		if hits[i].Signals == nil {
			hits[i].Signals = []string{}
		}
		if r.Truncated {
			shown := r.StartLine + strings.Count(r.Content, "\n")
			hits[i].Content += fmt.Sprintf("\n… cut at %d bytes: lines %d-%d not shown", budget, shown+1, r.EndLine)
		}
	}
	return hits
}

// numbered prefixes each line with its number and a tab.
func numbered(content string, first int) string {
	if content == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(content) + 6*strings.Count(content, "\n") + 6)
	for i, line := range strings.Split(content, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(first + i))
		b.WriteByte('\t')
		b.WriteString(line)
	}
	return b.String()
}

func graphSymbol(s codegraph.Symbol) GraphSymbol {
	return GraphSymbol{Symbol: s.Display(), Kind: s.Kind, Path: s.Path, StartLine: s.Line, EndLine: s.EndLine,
		Package: s.Package, Signature: s.Signature}
}

func graphNodes(w codegraph.Walk) []GraphNode {
	out := make([]GraphNode, len(w.Nodes))
	for i, n := range w.Nodes {
		out[i] = GraphNode{Symbol: n.Symbol.Display(), Kind: n.Symbol.Kind, Path: n.Symbol.Path, StartLine: n.Symbol.Line,
			EndLine: n.Symbol.EndLine, Depth: n.Depth, Via: n.Via, CallLine: n.Line, Loose: n.Loose, Embeds: n.Embeds, Value: n.Value, Dispatch: n.Dispatch}
	}
	return out
}

func callPaths(ps []codegraph.Path) []CallPath {
	out := make([]CallPath, len(ps))
	for i, p := range ps {
		cp := CallPath{Steps: make([]PathStep, len(p.Symbols)), Loose: p.Loose}
		for k, s := range p.Symbols {
			cp.Steps[k] = PathStep{Symbol: s.Display(), Path: s.Path, StartLine: s.Line}
			if k < len(p.Lines) {
				cp.Steps[k].CallLine = p.Lines[k]
			}
		}
		out[i] = cp
	}
	return out
}

// graphQuery is one question to the call graph.
type graphQuery struct {
	Action string // find_callers, find_dependencies, find_call_paths or find_implementations
	Symbol string
	To     string
	Depth  int
	Limit  int
	impact *impactQuery // the impact action's question
}

// FieldError says which argument named a symbol the graph could not resolve.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// runGraph answers a graph query from ix's call graph. A symbol that is
// unknown or ambiguous is a *FieldError wrapping the graph's error.
func runGraph(ix *search.Index, q graphQuery) (Output, error) {
	g := ix.Graph()
	if !g.Resolved() {
		// Resolving a large graph makes much garbage and leaves more live.
		defer func() {
			if ix.Stats().Files >= 1000 {
				settleMemory()
			}
		}()
	}
	out := Output{Action: q.Action, Query: q.Symbol}
	switch q.Action {
	case "find_callers", "find_dependencies":
		walk := g.Callers
		if q.Action == "find_dependencies" {
			walk = g.Callees
		}
		w, err := walk(q.Symbol, q.Depth, q.Limit)
		if err != nil {
			return Output{}, &FieldError{"query", err}
		}
		root := graphSymbol(w.Root)
		nodes := graphNodes(w)
		out.Symbol, out.Truncated = &root, w.Truncated
		if q.Action == "find_callers" {
			out.Callers = &nodes
		} else {
			out.Dependencies = &nodes
		}
		switch {
		case w.Truncated:
			out.Notice = fmt.Sprintf("Only the first %d are shown; raise n_results (up to %d) or lower max_depth.", len(nodes), MaxResults)
		case len(nodes) == 0 && q.Action == "find_callers":
			out.Notice = "No callers found. " + unseenCalls(w.Root.Language)
		case len(nodes) == 0:
			out.Notice = "No dependencies found. " + unseenCalls(w.Root.Language)
		}
	case "find_implementations":
		w, err := g.Implementations(q.Symbol, q.Limit)
		if err != nil {
			return Output{}, &FieldError{"query", err}
		}
		root := graphSymbol(w.Root)
		nodes := graphNodes(w)
		out.Symbol, out.Implementations, out.Truncated = &root, &nodes, w.Truncated
		switch {
		case w.Truncated:
			out.Notice = fmt.Sprintf("Only the first %d are shown; raise n_results (up to %d).", len(nodes), MaxResults)
		case len(nodes) == 0:
			out.Notice = "No type of the project has all of the interface's methods (methods a type gets by embedding another are not counted)."
		}
	case "find_call_paths":
		from, err := g.Lookup(q.Symbol)
		if err != nil {
			return Output{}, &FieldError{"query", err}
		}
		to, err := g.Lookup(q.To)
		if err != nil {
			return Output{}, &FieldError{"to_symbol", err}
		}
		ps, truncated, err := g.Paths(q.Symbol, q.To, q.Depth, q.Limit)
		if err != nil {
			return Output{}, &FieldError{"query", err}
		}
		fs, ts := graphSymbol(from), graphSymbol(to)
		paths := callPaths(ps)
		out.Symbol, out.ToSymbol, out.Paths, out.Truncated = &fs, &ts, &paths, truncated
		switch {
		case truncated:
			out.Notice = "More call paths of these lengths may exist; raise n_results (up to 20) to see more."
		case len(paths) == 0:
			out.Notice = fmt.Sprintf("No chain of calls of at most %d steps leads from %s to %s (calls through function values, and through interfaces held in local variables of no stated type or in fields of structs declared in another file, are not seen).",
				q.Depth, fs.Symbol, ts.Symbol)
		}
	default:
		return Output{}, fmt.Errorf("unknown graph action %q", q.Action)
	}
	return out, nil
}

// fit cuts an answer to MaxResultBytes, dropping results from the end (and
// shortening the content of the last one kept when that is enough), and says
// where it cut.
func fit(out *Output) {
	size := func() int {
		b, _ := json.Marshal(out)
		return len(b)
	}
	if size() <= MaxResultBytes {
		return
	}
	// Room for the notice saying where it cut.
	limit := MaxResultBytes - len(out.Notice) - 160
	var total, kept int
	switch {
	case out.Results != nil:
		hits := *out.Results
		total = len(hits)
		for len(hits) > 0 && size() > limit {
			last := &hits[len(hits)-1]
			over := size() - limit
			if c := len(last.Content); c > over+200 {
				cut := strings.LastIndexByte(last.Content[:c-over-100], '\n')
				if cut > 0 {
					last.Content = last.Content[:cut] + "\n… cut to keep the answer under 24 KiB"
					last.Truncated = true
					*out.Results = hits
					continue
				}
			}
			hits = hits[:len(hits)-1]
			*out.Results = hits
		}
		kept = len(hits)
	case out.Callers != nil || out.Dependencies != nil || out.Implementations != nil:
		nodes := out.Callers
		if nodes == nil {
			nodes = out.Dependencies
		}
		if nodes == nil {
			nodes = out.Implementations
		}
		total = len(*nodes)
		for len(*nodes) > 0 && size() > limit {
			*nodes = (*nodes)[:len(*nodes)-1]
		}
		kept = len(*nodes)
	case out.Impact != nil:
		im := out.Impact
		total = len(im.Tests) + len(im.Callers) + len(im.Changed)
		for len(im.Tests) > 0 && size() > limit {
			im.Tests = im.Tests[:len(im.Tests)-1]
		}
		for len(im.Callers) > 0 && size() > limit {
			im.Callers = im.Callers[:len(im.Callers)-1]
		}
		for len(im.Changed) > 0 && size() > limit {
			im.Changed = im.Changed[:len(im.Changed)-1]
		}
		kept = len(im.Tests) + len(im.Callers) + len(im.Changed)
	case out.Paths != nil:
		total = len(*out.Paths)
		for len(*out.Paths) > 0 && size() > limit {
			*out.Paths = (*out.Paths)[:len(*out.Paths)-1]
		}
		kept = len(*out.Paths)
	default:
		return
	}
	out.Truncated = true
	note := fmt.Sprintf("The answer was cut at 24 KiB: %d of %d shown; ask for fewer (n_results) or narrow the filters.", kept, total)
	if out.Notice != "" {
		note = out.Notice + " " + note
	}
	out.Notice = note
}

// unseenCalls says which calls the graph cannot see in a language.
func unseenCalls(lang string) string {
	if lang == "go" {
		return "Calls through function values and method values, and through a method an interface takes from a standard-library one (io.WriteCloser's Close), are not seen by the graph; callers through an interface are listed with the interface's method (dispatch)."
	}
	return "Calls through function values, and method calls on objects whose class the code does not state (an untyped callback parameter, a value narrowed by a type guard or a cast), are matched by name only or not seen by the graph."
}
