package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/server/searchtool"
)

// openIndexes opens project p's asked indexes in this process.
func openIndexes(ctx context.Context, s *streams, p project.Paths, cfg config.Config, o searchtool.LocalOptions) (*searchtool.Local, error) {
	pr := newProgress(s.RawErr)
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
			p, cfg, _, err := openProject(dir)
			if err != nil {
				return err
			}
			l, err := openIndexes(cmd.Context(), s, p, cfg, searchtool.LocalOptions{Standards: true, Code: true, Rebuild: rebuild})
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
	var code, standards, asJSON, verbose bool
	var n int
	cmd := &cobra.Command{
		Use:   "search QUERY…",
		Short: "Search this project's standards and code",
		Long: `Search ranks the chunks of the standards and the code for a question in plain words or
identifiers (both indexes unless --code or --standards). When this project's server runs, it
asks the server (its svc_search_project tool), which holds the indexes in memory; otherwise
it loads the saved indexes, updated for files changed since. The answer is the same either way.`,
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
			p, cfg, _, err := openProject(dir)
			if err != nil {
				return err
			}
			var names []string
			if !code {
				names = append(names, searchtool.Standards)
			}
			if !standards {
				names = append(names, searchtool.Code)
			}
			answers := map[string]searchtool.Output{}
			ask := func(ctx context.Context, r *running) (bool, string, error) {
				return searchRunning(ctx, s, r, names, query, method, n, answers)
			}
			local := func() error {
				return searchLocally(cmd.Context(), s, p, cfg, names, query, method, n, answers)
			}
			if err := askRunning(cmd.Context(), s, p, cfg, verbose, ask, local); err != nil {
				return err
			}
			if asJSON {
				return printJSON(s, answers)
			}
			for _, idx := range names {
				printHits(s.Out, idx, *answers[idx].Results)
				if f := searchtool.Freshness(answers[idx].IndexStatus); f != "" {
					fmt.Fprintln(s.Out, f)
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
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "say on stderr whether the running server answered or the saved indexes were loaded, and why")
	cmd.RegisterFlagCompletionFunc("method", fixedCompletion("hybrid", "lexical", "vector"))
	return cmd
}

// searchLocally loads the named indexes in this process and searches them.
func searchLocally(ctx context.Context, s *streams, p project.Paths, cfg config.Config, names []string, query, method string, n int, answers map[string]searchtool.Output) error {
	o := searchtool.LocalOptions{Standards: slices.Contains(names, searchtool.Standards), Code: slices.Contains(names, searchtool.Code)}
	l, err := openIndexes(ctx, s, p, cfg, o)
	if err != nil {
		return err
	}
	defer l.Close()
	for _, idx := range names {
		hits, err := l.Search(ctx, idx, search.Query{Text: query, Method: search.Method(method), Limit: n})
		if err != nil {
			return err
		}
		answers[idx] = searchOutput(idx, query, method, hits, l.Status(idx))
	}
	return nil
}

// searchOutput is what the command prints of one index's answer, whichever
// way it came.
func searchOutput(idx, query, method string, hits []searchtool.Hit, st *searchtool.IndexStatus) searchtool.Output {
	return searchtool.Output{Action: "search_" + idx, Query: query, Method: method, Results: &hits, IndexStatus: st}
}

// searchRunning asks the running server. It declines (false, why) when the
// server's answer would not be the one the saved indexes give: the server
// cut it to the size an agent gets, or the index is still being opened.
func searchRunning(ctx context.Context, s *streams, r *running, names []string, query, method string, n int, answers map[string]searchtool.Output) (bool, string, error) {
	for _, idx := range names {
		out, err := r.search(ctx, map[string]any{"action": "search_" + idx, "query": query, "method": method, "n_results": n})
		if err != nil {
			return false, "", err
		}
		st := out.IndexStatus
		switch {
		case out.Truncated:
			return false, "the server's answer was cut to the size an agent gets", nil
		case st == nil || out.Results == nil:
			return false, "the server's answer carries no index status", nil
		case st.State == searchtool.StateDisabled:
			return false, "", fmt.Errorf("the %s index is disabled: %s", idx, st.Detail)
		case openingState(st.State):
			return false, fmt.Sprintf("the server's %s index is still being opened", idx), nil
		case st.State != searchtool.StateReady && out.Notice != "":
			// Building or refreshing: the answer covers what is indexed so far.
			fmt.Fprintf(s.Err, "agentos: %s\n", out.Notice)
		}
		answers[idx] = searchOutput(idx, query, method, *out.Results, searchtool.Reflected(st))
	}
	return true, "", nil
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
