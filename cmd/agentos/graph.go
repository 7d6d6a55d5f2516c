package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search/codegraph"
	"github.com/agentos-dev/agentos/server/searchtool"
)

func newGraphCmd(s *streams) *cobra.Command {
	var dir string
	var depth, n int
	var asJSON, verbose, diff bool
	cmd := &cobra.Command{
		Use:   "graph callers|deps|impls|path|impact SYMBOL [TO]",
		Short: "Ask the code's call graph: callers, dependencies, implementations, call paths, the impact of a change",
		Long: `Graph answers from the code index's call graph:

  agentos graph callers SYMBOL     who calls SYMBOL (--depth levels up, default 1)
  agentos graph deps SYMBOL        what SYMBOL calls (--depth levels down, default 1)
  agentos graph impls INTERFACE    the types implementing a Go interface (io.Reader), or
                                   their methods implementing one of its methods (Reader.Read)
  agentos graph path FROM TO       chains of calls from FROM to TO, shortest first (--depth: longest, default 4)
  agentos graph impact SYMBOL      what a change to SYMBOL reaches: its callers (--depth levels up, default 3)
                                   and the tests that reach it (at least 5 levels up), each with the chain of
                                   calls and its confidence (exact, or by name when a link was matched by name)
  agentos graph impact --diff [REV]
                                   the same for the symbols whose lines the work tree changed against the git
                                   revision REV (default HEAD: the changes not committed yet, untracked files too)

A symbol is named plainly (Parse), qualified (url.Parse, Server.Shutdown) or by file
(net/url/url.go:Parse). An unknown name lists close ones; an ambiguous one lists the candidates.

When this project's server runs, graph asks it (its svc_search_project tool), which holds the
code index in memory; otherwise it loads the saved code index. The answer is the same either way.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("graph needs what to ask (callers, deps, impls, path or impact) and a symbol")}
			}
			want, needs := 2, "one SYMBOL"
			switch args[0] {
			case "callers", "deps":
			case "impls":
				needs = "one INTERFACE"
			case "path":
				want, needs = 3, "FROM and TO"
			case "impact":
				needs = "one SYMBOL, or --diff [REV]"
				if diff && len(args) > 2 {
					return usageError{fmt.Errorf("graph impact --diff takes at most one revision; given %q", args[1:])}
				}
				if diff {
					return nil
				}
			default:
				return usageError{fmt.Errorf("graph cannot ask %q: ask callers, deps, impls, path or impact", args[0])}
			}
			if diff {
				return usageError{errors.New("--diff applies to graph impact only")}
			}
			if len(args) != want {
				got := "none"
				if len(args) > 1 {
					got = fmt.Sprintf("%q", args[1:])
				}
				return usageError{fmt.Errorf("graph %s takes %s; given %s", args[0], needs, got)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "impact" {
				return runImpact(cmd, s, dir, args[1:], diff, depth, n, asJSON, verbose)
			}
			action, to := graphActions[args[0]], ""
			if args[0] == "path" {
				to = args[2]
			}
			if args[0] == "impls" && cmd.Flags().Changed("depth") {
				return withCode(exitUsage, errors.New("--depth does not apply to impls: an interface's implementations are one level"))
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
			p, cfg, _, err := openProject(dir)
			if err != nil {
				return err
			}
			var out searchtool.Output
			query := map[string]any{"action": action, "query": args[1], "max_depth": depth, "n_results": n}
			if to != "" {
				query["to_symbol"] = to
			}
			ask := askGraph(query, &out)
			local := graphLocally(cmd.Context(), s, p, cfg, codeOnly, &out, func(l *searchtool.Local) (searchtool.Output, error) {
				return l.Graph(action, args[1], to, depth, n)
			})
			if err := askRunning(cmd.Context(), s, p, cfg, verbose, ask, local); err != nil {
				return printCandidates(s, err)
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
	cmd.Flags().IntVar(&depth, "depth", 0, fmt.Sprintf("levels to follow (callers, deps; default %d; impact: default %d) or longest chain (path; default %d); at most %d",
		searchtool.DefaultWalkDepth, searchtool.DefaultImpactDepth, searchtool.DefaultPathDepth, searchtool.MaxDepth))
	cmd.Flags().IntVarP(&n, "n", "n", 0, fmt.Sprintf("at most this many symbols (default %d), paths (default %d), or impact's callers and tests (default %d each)",
		searchtool.DefaultGraphNodes, searchtool.DefaultPaths, searchtool.DefaultImpactNodes))
	cmd.Flags().BoolVar(&diff, "diff", false, "impact: of the work tree's changes against a git revision (the argument; default HEAD)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "say on stderr whether the running server answered or the saved code index was loaded, and why")
	cmd.ValidArgs = []string{"callers", "deps", "impls", "path", "impact"}
	return cmd
}

// graphActions maps the command's first argument to svc_search_project's action.
var graphActions = map[string]string{"callers": "find_callers", "deps": "find_dependencies", "impls": "find_implementations", "path": "find_call_paths"}

// candidatesError is an ambiguous symbol with the symbols it matches;
// the command lists them on stderr after anything else it says.
type candidatesError struct {
	msg   string
	cands []searchtool.GraphSymbol
}

func (e *candidatesError) Error() string { return e.msg }

// graphCLIError turns the saved index's ambiguous-name error into a
// *candidatesError.
func graphCLIError(err error) error {
	var amb *codegraph.AmbiguousError
	if errors.As(err, &amb) {
		cands := make([]searchtool.GraphSymbol, len(amb.Candidates))
		for i, c := range amb.Candidates {
			cands[i] = searchtool.GraphSymbol{Symbol: c.Display(), Path: c.Path, StartLine: c.Line}
		}
		return &candidatesError{amb.Error(), cands}
	}
	return err
}

// graphToolError is graphCLIError for the server's answer: an ambiguous
// name is a tool error whose details list the candidates.
func graphToolError(te *toolError) error {
	var d struct {
		Candidates []searchtool.GraphSymbol `json:"candidates"`
	}
	if json.Unmarshal(te.Details, &d) == nil && len(d.Candidates) > 0 {
		return &candidatesError{te.Message, d.Candidates}
	}
	return te
}

// printCandidates lists the symbols an ambiguous name matches, when err
// is a *candidatesError, and ends the command with exit 1.
func printCandidates(s *streams, err error) error {
	var ce *candidatesError
	if !errors.As(err, &ce) {
		return err
	}
	fmt.Fprintf(s.Err, "%s. Candidates:\n", strings.TrimSuffix(ce.msg, "."))
	for _, c := range ce.cands {
		fmt.Fprintf(s.Err, "  %s  %s:%d\n", c.Symbol, c.Path, c.StartLine)
	}
	return silentExit(exitFailure)
}

func printGraph(w io.Writer, out searchtool.Output) {
	sym := func(g *searchtool.GraphSymbol) string {
		if g.Path == "" {
			return g.Symbol + " (" + g.Kind + ")"
		}
		return fmt.Sprintf("%s (%s:%d)", g.Symbol, g.Path, g.StartLine)
	}
	nodes, what := out.Callers, "callers of"
	switch {
	case out.Dependencies != nil:
		nodes, what = out.Dependencies, "dependencies of"
	case out.Implementations != nil:
		nodes, what = out.Implementations, "implementations of"
	}
	if nodes != nil {
		fmt.Fprintf(w, "%s %s:\n", what, sym(out.Symbol))
		for _, n := range *nodes {
			loc := n.Path
			if n.StartLine > 0 {
				loc = fmt.Sprintf("%s:%d", n.Path, n.StartLine)
			}
			if out.Implementations != nil { // one level: no depth to show
				fmt.Fprintf(w, "  %s  %s", n.Symbol, loc)
			} else {
				fmt.Fprintf(w, "  %d  %s  %s", n.Depth, n.Symbol, loc)
			}
			switch {
			case n.Embeds:
				fmt.Fprintf(w, "  (embedding or inheritance, with %s at line %d)", n.Via, n.CallLine)
			case n.Value:
				fmt.Fprintf(w, "  (a function value, not a call, with %s at line %d)", n.Via, n.CallLine)
			case n.Dispatch != "":
				fmt.Fprintf(w, "  (via %s, call at line %d, reaching %s through the interface)", n.Dispatch, n.CallLine, n.Via)
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
	printFreshness(w, out)
}

// printFreshness says what the answer's index reflects, unless its notice
// said so already.
func printFreshness(w io.Writer, out searchtool.Output) {
	if f := searchtool.Freshness(out.IndexStatus); f != "" && !strings.Contains(out.Notice, f) {
		fmt.Fprintln(w, f)
	}
}

// toolWords turns the search tool's parameter names, which its notices
// name for agents, into this command's flags.
var toolWords = strings.NewReplacer("n_results", "-n", "max_depth", "--depth")

// askGraph asks the running server's svc_search_project the graph question
// args and keeps the answer in out; it says so when the server cannot
// answer yet (its code index still opening), so that the caller reads the
// saved index instead.
func askGraph(args map[string]any, out *searchtool.Output) func(ctx context.Context, r *running) (bool, string, error) {
	return func(ctx context.Context, r *running) (bool, string, error) {
		o, err := r.search(ctx, args)
		var te *toolError
		switch {
		case errors.As(err, &te) && te.opening():
			return false, "the server's code index is still being opened", nil
		case te != nil:
			return true, "", graphToolError(te)
		case err != nil:
			return false, "", err
		case o.IndexStatus == nil:
			return false, "the server's answer carries no index status", nil
		}
		o.IndexStatus = searchtool.Reflected(o.IndexStatus)
		*out = o
		return true, "", nil
	}
}

// graphLocally answers a graph question from the saved code index, when no
// server runs, keeping the answer and the index's status in out. options
// is called then, not before: the server may answer instead.
func graphLocally(ctx context.Context, s *streams, p project.Paths, cfg config.Config, options func() searchtool.LocalOptions, out *searchtool.Output,
	question func(*searchtool.Local) (searchtool.Output, error)) func() error {
	return func() error {
		l, err := openIndexes(ctx, s, p, cfg, options())
		if err != nil {
			return err
		}
		defer l.Close()
		*out, err = question(l)
		if err != nil {
			return graphCLIError(err)
		}
		out.IndexStatus = l.Status(searchtool.Code)
		return nil
	}
}

// codeOnly is the saved code index alone.
func codeOnly() searchtool.LocalOptions { return searchtool.LocalOptions{Code: true} }
