package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/server/searchtool"
)

// openIndexes finds the project and opens the asked indexes in this process.
func openIndexes(ctx context.Context, s *streams, dir string, o searchtool.LocalOptions) (*searchtool.Local, error) {
	p, cfg, _, err := openProject(dir)
	if err != nil {
		return nil, err
	}
	pr := newProgress(s.Err)
	o.Progress = pr.report
	l, err := searchtool.OpenLocal(ctx, p, cfg, o)
	pr.stop()
	if errors.Is(err, searchtool.ErrIndexBusy) {
		return nil, withCode(exitConflict, fmt.Errorf("%w; stop it to rebuild, or let it keep the index current", err))
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

func newIndexCmd(s *streams) *cobra.Command {
	var dir string
	var rebuild, asJSON bool
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or update this project's search indexes (standards and code)",
		Long: `Index brings the standards index (.agentos/standards, .agentos/workflows) and the code index
(code.source_paths in code.languages) up to date and saves them under .agentos/.cache/indexes/:
a saved index is loaded and only files changed since are reindexed; --rebuild starts over.

A running server keeps the indexes current itself; while it runs, index works on an
in-memory copy and writes nothing, and --rebuild is refused (exit 4).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := openIndexes(cmd.Context(), s, dir, searchtool.LocalOptions{Standards: true, Code: true, Rebuild: rebuild})
			if err != nil {
				return err
			}
			defer l.Close()
			if asJSON {
				return printJSON(s, map[string]any{"read_only": l.ReadOnly, "indexes": []*searchtool.LocalIndex{l.Standards, l.Code}})
			}
			for _, li := range []*searchtool.LocalIndex{l.Standards, l.Code} {
				printIndexSummary(s.Out, li)
			}
			if l.ReadOnly {
				fmt.Fprintln(s.Out, "A running agentos server keeps this project's indexes; nothing was written.")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "build from scratch instead of updating the saved indexes")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func printIndexSummary(w io.Writer, li *searchtool.LocalIndex) {
	if li.Disabled != "" {
		fmt.Fprintf(w, "%-9s disabled: %s\n", li.Name, li.Disabled)
		return
	}
	how := fmt.Sprintf("loaded; %d files reindexed, %d removed", li.Build.Files, li.Build.Removed)
	if !li.Loaded {
		how = "built (" + li.Rebuilt + ")"
	}
	fmt.Fprintf(w, "%-9s %d files, %d chunks", li.Name, li.Stats.Files, li.Stats.Chunks)
	if li.Stats.Graph.Symbols > 0 {
		fmt.Fprintf(w, ", %d symbols, %d calls", li.Stats.Graph.Symbols, li.Stats.Graph.Calls)
	}
	fmt.Fprintf(w, " — %s in %.1f s", how, li.Duration.Seconds())
	if li.Snapshot > 0 {
		fmt.Fprintf(w, "; saved index %.1f MiB", float64(li.Snapshot)/(1<<20))
	}
	fmt.Fprintln(w)
	for _, n := range li.Notes {
		fmt.Fprintf(w, "%-9s note: %s\n", "", n)
	}
}

func newSearchCmd(s *streams) *cobra.Command {
	var dir, method string
	var code, standards, asJSON bool
	var n int
	cmd := &cobra.Command{
		Use:   "search QUERY…",
		Short: "Search this project's standards and code",
		Long: `Search ranks the chunks of the standards and the code for a question in plain words or
identifiers (both indexes unless --code or --standards). It uses the saved indexes, updated
for files changed since, as the server's svc_search_project tool does.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if code && standards {
				return withCode(exitUsage, errors.New("--code and --standards exclude each other; leave both out to search both"))
			}
			if n < 1 || n > search.MaxLimit {
				return withCode(exitUsage, fmt.Errorf("-n must be between 1 and %d", search.MaxLimit))
			}
			switch search.Method(method) {
			case search.Hybrid, search.Lexical, search.Vector:
			default:
				return withCode(exitUsage, fmt.Errorf("--method must be hybrid, lexical or vector, not %q", method))
			}
			query := strings.TrimSpace(strings.Join(args, " "))
			if query == "" {
				return withCode(exitUsage, errors.New("the query is empty"))
			}
			o := searchtool.LocalOptions{Standards: !code, Code: !standards}
			l, err := openIndexes(cmd.Context(), s, dir, o)
			if err != nil {
				return err
			}
			defer l.Close()
			answers := map[string]searchtool.Output{}
			for _, idx := range []string{searchtool.Standards, searchtool.Code} {
				if idx == searchtool.Standards && !o.Standards || idx == searchtool.Code && !o.Code {
					continue
				}
				hits, err := l.Search(cmd.Context(), idx, search.Query{Text: query, Method: search.Method(method), Limit: n})
				if err != nil {
					return err
				}
				answers[idx] = searchtool.Output{Action: "search_" + idx, Query: query, Method: method, Results: &hits}
			}
			if asJSON {
				return printJSON(s, answers)
			}
			for _, idx := range []string{searchtool.Standards, searchtool.Code} {
				if a, ok := answers[idx]; ok {
					printHits(s.Out, idx, *a.Results)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&code, "code", false, "search the code only")
	cmd.Flags().BoolVar(&standards, "standards", false, "search the standards only")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().StringVar(&method, "method", "hybrid", "hybrid, lexical or vector")
	cmd.Flags().IntVarP(&n, "n", "n", 5, "results per index (at most 50)")
	cmd.RegisterFlagCompletionFunc("method", fixedCompletion("hybrid", "lexical", "vector"))
	return cmd
}

// printHits lists results with the first lines of each.
func printHits(w io.Writer, idx string, hits []searchtool.Hit) {
	if len(hits) == 0 {
		fmt.Fprintf(w, "%s: no matches\n", idx)
		return
	}
	fmt.Fprintf(w, "%s:\n", idx)
	for i, h := range hits {
		what := h.Kind + " " + h.Symbol
		if h.Section != "" {
			what = h.Section
		}
		fmt.Fprintf(w, "%2d. %s:%d-%d  %s  (%.3f; %s)\n", i+1, h.Path, h.StartLine, h.EndLine, strings.TrimSpace(what), h.Score, strings.Join(h.Signals, ", "))
		lines := strings.Split(h.Content, "\n")
		for k, line := range lines {
			if k == 6 {
				fmt.Fprintf(w, "      … %d more lines\n", len(lines)-k)
				break
			}
			fmt.Fprintf(w, "      %s\n", strings.Replace(line, "\t", "  ", 1))
		}
	}
}

func newGraphCmd(s *streams) *cobra.Command {
	var dir string
	var depth, n int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "graph callers|deps|path SYMBOL [TO]",
		Short: "Ask the code's call graph: callers, dependencies, call paths",
		Long: `Graph answers from the code index's call graph:

  agentos graph callers SYMBOL     who calls SYMBOL (--depth levels up, default 1)
  agentos graph deps SYMBOL        what SYMBOL calls (--depth levels down, default 1)
  agentos graph path FROM TO       chains of calls from FROM to TO, shortest first (--depth: longest, default 4)

A symbol is named plainly (Parse), qualified (url.Parse, Server.Shutdown) or by file
(net/url/url.go:Parse). An unknown name lists close ones; an ambiguous one lists the candidates.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return errors.New("requires at least 2 arg(s): callers|deps|path and a symbol")
			}
			want := 2
			switch args[0] {
			case "callers", "deps":
			case "path":
				want = 3
			default:
				return fmt.Errorf("invalid argument %q: use callers, deps or path", args[0])
			}
			if len(args) != want {
				return fmt.Errorf("accepts %d arg(s) for %s, received %d", want, args[0], len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			action, to := map[string]string{"callers": "find_callers", "deps": "find_dependencies", "path": "find_call_paths"}[args[0]], ""
			if args[0] == "path" {
				to = args[2]
			}
			if !cmd.Flags().Changed("depth") {
				depth = searchtool.DefaultWalkDepth
				if args[0] == "path" {
					depth = searchtool.DefaultPathDepth
				}
			}
			if depth < 1 || depth > searchtool.MaxDepth {
				return withCode(exitUsage, fmt.Errorf("--depth must be between 1 and %d", searchtool.MaxDepth))
			}
			maxN := searchtool.MaxResults
			if args[0] == "path" {
				maxN = searchtool.MaxPaths
			}
			if !cmd.Flags().Changed("n") {
				n = searchtool.DefaultGraphNodes
				if args[0] == "path" {
					n = searchtool.DefaultPaths
				}
			}
			if n < 1 || n > maxN {
				return withCode(exitUsage, fmt.Errorf("-n must be between 1 and %d", maxN))
			}
			l, err := openIndexes(cmd.Context(), s, dir, searchtool.LocalOptions{Code: true})
			if err != nil {
				return err
			}
			defer l.Close()
			out, err := l.Graph(action, args[1], to, depth, n)
			if err != nil {
				return graphCLIError(s, err)
			}
			if asJSON {
				return printJSON(s, out)
			}
			printGraph(s.Out, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	// Registered with no default: each action has its own, which the usage
	// text names (cobra would print a second, single one).
	cmd.Flags().IntVar(&depth, "depth", 0, fmt.Sprintf("levels to follow (callers, deps; default %d) or longest chain (path; default %d); at most %d",
		searchtool.DefaultWalkDepth, searchtool.DefaultPathDepth, searchtool.MaxDepth))
	cmd.Flags().IntVarP(&n, "n", "n", 0, fmt.Sprintf("at most this many symbols (default %d) or paths (default %d)", searchtool.DefaultGraphNodes, searchtool.DefaultPaths))
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.ValidArgs = []string{"callers", "deps", "path"}
	return cmd
}

// graphCLIError explains an unknown or ambiguous symbol.
func graphCLIError(s *streams, err error) error {
	var amb *codegraph.AmbiguousError
	if errors.As(err, &amb) {
		fmt.Fprintf(s.Err, "%s. Candidates:\n", strings.TrimSuffix(amb.Error(), "."))
		for _, c := range amb.Candidates {
			fmt.Fprintf(s.Err, "  %s  %s:%d\n", c.Display(), c.Path, c.Line)
		}
		return silentExit(exitFailure)
	}
	return err
}

func printGraph(w io.Writer, out searchtool.Output) {
	sym := func(g *searchtool.GraphSymbol) string {
		if g.Path == "" {
			return g.Symbol + " (" + g.Kind + ")"
		}
		return fmt.Sprintf("%s (%s:%d)", g.Symbol, g.Path, g.StartLine)
	}
	nodes, what := out.Callers, "callers of"
	if out.Dependencies != nil {
		nodes, what = out.Dependencies, "dependencies of"
	}
	if nodes != nil {
		fmt.Fprintf(w, "%s %s:\n", what, sym(out.Symbol))
		for _, n := range *nodes {
			loc := n.Path
			if n.StartLine > 0 {
				loc = fmt.Sprintf("%s:%d", n.Path, n.StartLine)
			}
			fmt.Fprintf(w, "  %d  %s  %s", n.Depth, n.Symbol, loc)
			switch {
			case n.Embeds:
				fmt.Fprintf(w, "  (embedding or inheritance, with %s at line %d)", n.Via, n.CallLine)
			case n.CallLine > 0:
				fmt.Fprintf(w, "  (via %s, call at line %d)", n.Via, n.CallLine)
			}
			if n.Loose {
				fmt.Fprint(w, "  [by name]")
			}
			fmt.Fprintln(w)
		}
	}
	if out.Paths != nil {
		fmt.Fprintf(w, "call paths from %s to %s:\n", sym(out.Symbol), sym(out.ToSymbol))
		for i, p := range *out.Paths {
			var parts []string
			for _, st := range p.Steps {
				part := st.Symbol
				if st.CallLine > 0 {
					part += fmt.Sprintf(" (%s:%d)", st.Path, st.CallLine)
				}
				parts = append(parts, part)
			}
			fmt.Fprintf(w, "  %d. %s\n", i+1, strings.Join(parts, " → "))
		}
	}
	if out.Notice != "" {
		fmt.Fprintln(w, toolWords.Replace(out.Notice))
	}
}

// toolWords turns the search tool's parameter names, which its notices
// name for agents, into this command's flags.
var toolWords = strings.NewReplacer("n_results", "-n", "max_depth", "--depth")

// progress shows what OpenLocal is doing on a terminal: a redrawn line with
// an activity bar. Without a terminal (a log, a CI job) it shows nothing:
// the command's final lines say what was built.
type progress struct {
	w    io.Writer
	tty  bool
	mu   sync.Mutex
	cur  searchtool.Progress
	from time.Time
	quit chan struct{}
	done chan struct{}
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, tty: writerIsTerminal(w), quit: make(chan struct{}), done: make(chan struct{})}
	if !p.tty {
		close(p.done)
		return p
	}
	go func() {
		defer close(p.done)
		t := time.NewTicker(120 * time.Millisecond)
		defer t.Stop()
		for tick := 0; ; tick++ {
			select {
			case <-p.quit:
				return
			case <-t.C:
				p.mu.Lock()
				if p.cur.Phase != "" && p.cur.Phase != "done" && p.cur.Phase != "disabled" {
					fmt.Fprintf(p.w, "\r\033[K%s %s", p.bar(tick), p.line())
				}
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *progress) line() string {
	s := fmt.Sprintf("%s: %s", p.cur.Index, p.cur.Phase)
	if p.cur.Phase == "building" && p.cur.Files > 0 {
		s += fmt.Sprintf(" %d/%d files", p.cur.Done, p.cur.Files)
	}
	return s + fmt.Sprintf("  %.1fs", time.Since(p.from).Seconds())
}

// bar shows how far a build is, or activity while the total is not known.
func (p *progress) bar(tick int) string {
	const width, block = 20, 5
	if p.cur.Phase == "building" && p.cur.Files > 0 {
		n := width * p.cur.Done / p.cur.Files
		return "[" + strings.Repeat("=", n) + strings.Repeat(" ", width-n) + "]"
	}
	pos := tick % (2 * (width - block))
	if pos >= width-block {
		pos = 2*(width-block) - pos
	}
	return "[" + strings.Repeat(" ", pos) + strings.Repeat("=", block) + strings.Repeat(" ", width-block-pos) + "]"
}

func (p *progress) report(pr searchtool.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr.Index != p.cur.Index || pr.Phase != p.cur.Phase {
		p.from = time.Now()
	}
	p.cur = pr
	if p.tty && pr.Phase == "done" {
		fmt.Fprintf(p.w, "\r\033[K")
	}
}

func (p *progress) stop() {
	if p.tty {
		close(p.quit)
	}
	<-p.done
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// writerIsTerminal reports whether w is an interactive terminal.
func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
