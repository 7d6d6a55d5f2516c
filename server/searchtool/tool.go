package searchtool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/server/toolkit"
)

var actions = []string{"search_standards", "search_code", "find_callers", "find_dependencies", "find_call_paths", "find_implementations", "impact", "index_status"}

var methods = []string{string(search.Hybrid), string(search.Lexical), string(search.Vector)}

var domains = []string{search.DomainUniversal, search.DomainDevelopment, search.DomainWorkflow}

// kinds are the symbol kinds a filter may name, with the aliases the engine
// maps onto them.
var kinds = []string{"section", "func", "method", "type", "const", "var", "package", "imports", "module", "window", "container",
	"function", "class", "struct", "interface", "enum", "trait", "constant", "variable", "impl", "heading"}

type input struct {
	Action   string         `json:"action"`
	Query    string         `json:"query"`
	Method   string         `json:"method"`
	NResults *int           `json:"n_results"`
	MaxDepth *int           `json:"max_depth"`
	ToSymbol string         `json:"to_symbol"`
	DiffBase string         `json:"diff_base"`
	Filters  map[string]any `json:"filters"`
}

// ProjectTool returns svc_search_project over the service's indexes.
func ProjectTool(s *Service) toolkit.Tool {
	def := mcp.NewTool("svc_search_project",
		mcp.WithDescription("Search this project's standards and code, and ask its call graph. "+
			"search_standards / search_code: ranked chunks (path, start_line, end_line, section or symbol, numbered lines) for a question in plain words or identifiers. "+
			"find_callers / find_dependencies: who calls a symbol, what it calls (to max_depth); for a type, also the types that embed or extend it, or that it embeds or extends (marked embeds); a function passed or stored rather than called is marked value. find_call_paths: chains of calls from query to to_symbol. "+
			"find_implementations: the types whose methods implement a Go interface (by method names and parameter counts), or their methods implementing an interface's method. "+
			"impact: what a change reaches: the changed symbols (query, or the lines the work tree changed against the git revision diff_base, untracked files included), their callers to max_depth and the tests that reach them, each with the chain of calls and a confidence (exact, by_name, or inferred: a call the standard library makes, e.g. fmt calling a String method). "+
			"index_status: whether the indexes are ready. While an index builds, answers cover the files indexed so far and say so in notice and index_status."),
		mcp.WithString("action", mcp.Required(), mcp.Enum(actions...), mcp.Description("What to do")),
		mcp.WithString("query", mcp.MaxLength(search.MaxQueryLen), mcp.Description("search_*: what you look for, in words or identifiers. "+
			"find_*: the symbol, named plainly (Parse), qualified (url.Parse, Server.Shutdown) or by file (pkg/url/url.go:Parse)")),
		mcp.WithString("method", mcp.Enum(methods...), mcp.DefaultString(string(search.Hybrid)),
			mcp.Description("search_*: ranking — hybrid (lexical and semantic fused), lexical (exact words and identifiers) or vector (semantic)")),
		mcp.WithInteger("n_results", mcp.Min(1), mcp.Max(MaxResults),
			mcp.Description("How many: search results (default 5, at most 50), callers, dependencies or implementations (default 20, at most 50), call paths (default 5, at most 20), impact's callers and tests (default 25 each, at most 50)")),
		mcp.WithInteger("max_depth", mcp.Min(1), mcp.Max(MaxDepth),
			mcp.Description("find_callers, find_dependencies: levels to follow (default 1: direct only); find_call_paths: longest chain (default 4); impact: levels of callers listed (default 3; tests are looked for at least 5 up); at most 6")),
		mcp.WithString("to_symbol", mcp.Description("find_call_paths: the symbol the chains end at")),
		mcp.WithString("diff_base", mcp.MaxLength(200), mcp.Description("impact, instead of query: a git revision; the change is the work tree's diff against it (HEAD: the changes not committed yet)")),
		mcp.WithObject("filters", mcp.Description("search_*: narrow the results; every field optional"),
			mcp.Properties(map[string]any{
				"path":     map[string]any{"type": "string", "description": "Folder or file path prefix, relative to the project root"},
				"language": map[string]any{"type": "string", "enum": supportedLanguages(), "description": "Language of the file"},
				"domain":   map[string]any{"type": "string", "enum": domains, "description": "search_standards: universal, development or workflow"},
				"kind":     map[string]any{"type": "string", "enum": kinds, "description": "Kind of chunk: func, method, type, class, section …"},
			}),
			mcp.AdditionalProperties(false)),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Search the project", true, false, true, false),
	)
	return toolkit.Tool{Def: def, Handler: toolkit.Handler(func(ctx context.Context, _ mcp.CallToolRequest, in input) (Output, error) {
		return s.handle(ctx, in)
	})}
}

type standardsInput struct {
	Query    string `json:"query"`
	NResults *int   `json:"n_results"`
}

// StandardsTool returns search_standards: the standards search on its own.
func StandardsTool(s *Service) toolkit.Tool {
	def := mcp.NewTool("search_standards",
		mcp.WithDescription("Search this project's engineering standards and workflows (.agentos/standards, .agentos/workflows) for guidance on a topic: "+
			"ranked sections with path, start_line, end_line, heading path and numbered lines. Ask before designing or reviewing code."),
		mcp.WithString("query", mcp.Required(), mcp.MaxLength(search.MaxQueryLen), mcp.Description("The topic or question, e.g. \"retries with backoff\" or \"how to name test files\"")),
		mcp.WithInteger("n_results", mcp.Min(1), mcp.Max(MaxResults), mcp.Description("How many sections (default 5, at most 50)")),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Search the standards", true, false, true, false),
	)
	return toolkit.Tool{Def: def, Handler: toolkit.Handler(func(ctx context.Context, _ mcp.CallToolRequest, in standardsInput) (Output, error) {
		return s.handle(ctx, input{Action: "search_standards", Query: in.Query, NResults: in.NResults})
	})}
}

func (s *Service) handle(ctx context.Context, in input) (Output, error) {
	if !slices.Contains(actions, in.Action) {
		return Output{}, toolkit.Validation("action", "unknown action %q; use one of: %s", in.Action, strings.Join(actions, ", "))
	}
	if in.Action == "index_status" {
		st := s.Status()
		return Output{Action: in.Action, Indexes: &st}, nil
	}
	q := strings.TrimSpace(in.Query)
	if in.Action == "impact" {
		return s.impact(ctx, in, q)
	}
	if in.DiffBase != "" {
		return Output{}, toolkit.Validation("diff_base", "diff_base applies to impact only")
	}
	if q == "" {
		what := "what to search for"
		if strings.HasPrefix(in.Action, "find_") {
			what = "the symbol, e.g. Parse, url.Parse or path/to/file.go:Parse"
		}
		return Output{}, toolkit.Validation("query", "%s needs query: %s", in.Action, what)
	}
	if len(q) > search.MaxQueryLen {
		return Output{}, toolkit.Validation("query", "query is %d bytes; the limit is %d", len(q), search.MaxQueryLen)
	}
	if in.Method != "" && !slices.Contains(methods, in.Method) {
		return Output{}, toolkit.Validation("method", "method must be hybrid, lexical or vector, not %q", in.Method)
	}
	if in.MaxDepth != nil && (*in.MaxDepth < 1 || *in.MaxDepth > MaxDepth) {
		return Output{}, toolkit.Validation("max_depth", "max_depth must be between 1 and %d, not %d", MaxDepth, *in.MaxDepth)
	}
	limit, maxLimit := DefaultResults, MaxResults
	switch in.Action {
	case "find_callers", "find_dependencies", "find_implementations":
		limit = DefaultGraphNodes
	case "find_call_paths":
		limit, maxLimit = DefaultPaths, MaxPaths
	}
	if in.NResults != nil {
		if *in.NResults < 1 || *in.NResults > maxLimit {
			return Output{}, toolkit.Validation("n_results", "n_results for %s must be between 1 and %d, not %d", in.Action, maxLimit, *in.NResults)
		}
		limit = *in.NResults
	}
	if strings.HasPrefix(in.Action, "search_") {
		sq, err := searchQuery(in, q, limit)
		if err != nil {
			return Output{}, err
		}
		idx := Code
		if in.Action == "search_standards" {
			idx = Standards
		}
		out, err := s.search(ctx, idx, sq)
		if err != nil {
			return Output{}, err
		}
		out.Action = in.Action
		fit(&out)
		return out, nil
	}
	if len(in.Filters) > 0 {
		return Output{}, toolkit.Validation("filters", "filters apply to search_standards and search_code only")
	}
	gq := graphQuery{Action: in.Action, Symbol: q, Limit: limit, Depth: DefaultWalkDepth}
	if in.Action == "find_call_paths" {
		gq.Depth = DefaultPathDepth
		gq.To = strings.TrimSpace(in.ToSymbol)
		if gq.To == "" {
			return Output{}, toolkit.Validation("to_symbol", "find_call_paths needs to_symbol: the symbol the chains end at")
		}
	}
	if in.MaxDepth != nil {
		gq.Depth = *in.MaxDepth
	}
	out, err := s.graph(ctx, gq)
	if err != nil {
		return Output{}, err
	}
	fit(&out)
	return out, nil
}

// impact validates an impact question and answers it.
func (s *Service) impact(ctx context.Context, in input, q string) (Output, error) {
	base := strings.TrimSpace(in.DiffBase)
	switch {
	case q == "" && base == "":
		return Output{}, toolkit.Validation("query", "impact needs query (a symbol, e.g. Parse or url.Parse) or diff_base (a git revision; HEAD for the changes not committed yet)")
	case q != "" && base != "":
		return Output{}, toolkit.Validation("diff_base", "impact takes query or diff_base, not both")
	case len(q) > search.MaxQueryLen:
		return Output{}, toolkit.Validation("query", "query is %d bytes; the limit is %d", len(q), search.MaxQueryLen)
	case len(in.Filters) > 0:
		return Output{}, toolkit.Validation("filters", "filters apply to search_standards and search_code only")
	case in.ToSymbol != "":
		return Output{}, toolkit.Validation("to_symbol", "to_symbol applies to find_call_paths only")
	}
	iq := impactQuery{Symbol: q, Diff: base != "", DiffBase: base, Depth: DefaultImpactDepth, Limit: DefaultImpactNodes}
	if in.MaxDepth != nil {
		if *in.MaxDepth < 1 || *in.MaxDepth > MaxDepth {
			return Output{}, toolkit.Validation("max_depth", "max_depth must be between 1 and %d, not %d", MaxDepth, *in.MaxDepth)
		}
		iq.Depth = *in.MaxDepth
	}
	if in.NResults != nil {
		if *in.NResults < 1 || *in.NResults > MaxResults {
			return Output{}, toolkit.Validation("n_results", "n_results for impact must be between 1 and %d, not %d", MaxResults, *in.NResults)
		}
		iq.Limit = *in.NResults
	}
	out, err := s.graph(ctx, graphQuery{Action: "impact", impact: &iq})
	if err != nil {
		return Output{}, err
	}
	fit(&out)
	return out, nil
}

// searchQuery validates the filters and makes the engine's query.
func searchQuery(in input, text string, limit int) (search.Query, error) {
	q := search.Query{Text: text, Method: search.Method(in.Method), Limit: limit}
	for k, v := range in.Filters {
		field := "filters." + k
		s, ok := v.(string)
		if !ok {
			return q, toolkit.Validation(field, "%s must be a string", field)
		}
		s = strings.TrimSpace(s)
		switch k {
		case "path":
			q.PathPrefix = s
		case "language":
			s = strings.ToLower(s)
			if s != "" && chunk.Languages[s] == nil {
				return q, toolkit.Validation(field, "%s must be one of %s, not %q", field, strings.Join(supportedLanguages(), ", "), s)
			}
			q.Language = s
		case "domain":
			s = strings.ToLower(s)
			if s != "" && !slices.Contains(domains, s) {
				return q, toolkit.Validation(field, "%s must be universal, development or workflow, not %q", field, s)
			}
			if s != "" && in.Action != "search_standards" {
				return q, toolkit.Validation(field, "%s applies to search_standards only", field)
			}
			q.Domain = s
		case "kind":
			s = strings.ToLower(s)
			if s != "" && !slices.Contains(kinds, s) {
				return q, toolkit.Validation(field, "%s must be one of %s, not %q", field, strings.Join(kinds, ", "), s)
			}
			q.Kind = s
		default:
			return q, toolkit.Validation(field, "unknown filter %q; use path, language, domain or kind", k)
		}
	}
	return q, nil
}

// openWait bounds how long a search waits for an index that is still being
// opened; openPoll is how often it looks meanwhile. Variables for tests.
var (
	openWait = 2 * time.Second
	openPoll = 20 * time.Millisecond
)

// searchOpened runs q on h. Just after a start the index is still being
// opened (a saved one loads in well under a second): rather than answer
// nothing, it waits for the index, up to openWait. It returns the index's
// status of the answer, and search.ErrNotReady when the wait ran out.
func searchOpened(ctx context.Context, h *handle, q search.Query) (IndexStatus, []Hit, error) {
	deadline := time.Now().Add(openWait)
	for {
		st := h.Status()
		if st.State == StateFailed || st.State == StateDisabled {
			return st, nil, nil
		}
		err := search.ErrNotReady
		var hits []Hit
		if searchable(st.State) {
			hits, err = runSearch(ctx, h.ix, q)
		}
		if !errors.Is(err, search.ErrNotReady) || time.Now().After(deadline) {
			return st, hits, err
		}
		select {
		case <-ctx.Done():
			return st, nil, ctx.Err()
		case <-time.After(openPoll):
		}
	}
}

// waitOpened waits, up to openWait, until h answers (or failed, or has
// nothing to index), and returns its status then.
func waitOpened(ctx context.Context, h *handle) IndexStatus {
	deadline := time.Now().Add(openWait)
	for {
		st := h.Status()
		if searchable(st.State) || st.State == StateFailed || st.State == StateDisabled || time.Now().After(deadline) {
			return st
		}
		select {
		case <-ctx.Done():
			return st
		case <-time.After(openPoll):
		}
	}
}

// search asks one index, saying when the answer is partial.
func (s *Service) search(ctx context.Context, name string, q search.Query) (Output, error) {
	h := s.index(name)
	st, hits, err := searchOpened(ctx, h, q)
	if ctx.Err() != nil {
		return Output{}, ctx.Err()
	}
	out := Output{Query: q.Text, Method: string(q.Method), IndexStatus: &st}
	if out.Method == "" {
		out.Method = string(search.Hybrid)
	}
	empty := []Hit{}
	switch {
	case st.State == StateFailed:
		return Output{}, toolkit.Errorf(toolkit.CodeBusinessLogic,
			"the %s index is unavailable: %s. Fix the cause (the server log has details); it is retried when the configuration changes or the server restarts", name, st.Detail).
			WithDetails(map[string]any{"index_status": st})
	case st.State == StateDisabled:
		out.Results = &empty
		out.Notice = fmt.Sprintf("The %s index is disabled: %s.", name, st.Detail)
		return out, nil
	case errors.Is(err, search.ErrNotReady):
		out.Results = &empty
		out.Notice = fmt.Sprintf("The %s index is still being opened (%s) after a wait of %s", name, st.State, openWait)
		if st.FilesTotal > 0 {
			out.Notice += fmt.Sprintf(": %d of %d files indexed", st.FilesDone, st.FilesTotal)
		}
		out.Notice += "; no results yet. Ask again in a few seconds."
		return out, nil
	case errors.Is(err, search.ErrInvalidQuery):
		return Output{}, toolkit.Validation("query", "%s", strings.TrimPrefix(err.Error(), search.ErrInvalidQuery.Error()+": "))
	case err != nil:
		s.log.Error("search", "index", name, "err", err)
		return Output{}, err
	}
	out.Results = &hits
	switch st.State {
	case StateBuilding:
		out.Notice = fmt.Sprintf("The %s index is still building: %d of %d files indexed so far, and these results cover only those. Ask again in a few seconds for complete results.",
			name, st.FilesDone, st.FilesTotal)
	case StateRefreshing:
		out.Notice = fmt.Sprintf("The saved %s index answered while files changed since the server last ran are reindexed; the latest edits may be missing.", name)
	}
	if n := freshNotice(name, st); n != "" {
		out.Notice = n
	}
	if len(hits) == 0 && out.Notice == "" {
		out.Notice = fmt.Sprintf("Nothing in the %s index (%d files) matches. Try other words, method lexical for exact identifiers, or fewer filters.", name, st.FilesDone)
	}
	return out, nil
}

// graph asks the code index's call graph.
func (s *Service) graph(ctx context.Context, q graphQuery) (Output, error) {
	h := s.index(Code)
	st := waitOpened(ctx, h)
	switch {
	case st.State == StateFailed || st.State == StateDisabled:
		return Output{}, toolkit.Errorf(toolkit.CodeBusinessLogic, "the code index is %s: %s", st.State, st.Detail).
			WithDetails(map[string]any{"index_status": st})
	case !searchable(st.State):
		return Output{}, toolkit.Errorf(toolkit.CodeBusinessLogic, "the code index is still being opened (%s) after a wait of %s; ask again in a few seconds", st.State, openWait).
			WithDetails(map[string]any{"index_status": st})
	}
	var out Output
	var err error
	if q.impact != nil {
		out, err = runImpact(ctx, h.ix, *q.impact, s.opts.Criteria)
	} else {
		out, err = runGraph(h.ix, q)
	}
	if err != nil {
		return Output{}, graphError(err, st)
	}
	out.IndexStatus = &st
	if st.State == StateBuilding {
		partial := fmt.Sprintf("The code index is still building (%d of %d files): the graph is incomplete.", st.FilesDone, st.FilesTotal)
		out.Notice = strings.TrimSpace(partial + " " + out.Notice)
	}
	if n := freshNotice(Code, st); n != "" {
		out.Notice = strings.TrimSpace(n + " " + out.Notice)
	}
	return out, nil
}

// graphError maps the graph's name resolution errors to the envelope.
func graphError(err error, st IndexStatus) error {
	field := "query"
	var fe *FieldError
	if errors.As(err, &fe) {
		field = fe.Field
	}
	building := ""
	if st.State == StateBuilding {
		building = fmt.Sprintf(" The code index is still building (%d of %d files); it may not be indexed yet.", st.FilesDone, st.FilesTotal)
	}
	var amb *codegraph.AmbiguousError
	var nf *codegraph.NotFoundError
	var ni *codegraph.NotInterfaceError
	switch {
	case errors.As(err, &ni):
		return toolkit.Validation(field, "%s; find_implementations takes an interface (io.Reader) or an interface's method (Reader.Read)", ni.Error())
	case errors.As(err, &amb):
		cands := make([]GraphSymbol, len(amb.Candidates))
		for i, c := range amb.Candidates {
			cands[i] = graphSymbol(c)
		}
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "%s", amb.Error()).
			WithDetails(map[string]any{"field": field, "candidates": cands})
	case errors.As(err, &nf):
		return toolkit.Errorf(toolkit.CodeNotFound, "%s.%s", strings.TrimSuffix(nf.Error(), "."), building).
			WithDetails(map[string]any{"field": field, "suggestions": nonNil(nf.Suggestions)})
	case fe != nil:
		// impact's own checks: a package named, no repository, a revision git does not know.
		return toolkit.Validation(field, "%s", fe.Err.Error())
	}
	return err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
