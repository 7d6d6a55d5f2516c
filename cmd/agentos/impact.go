package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/server"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/workflow"
)

// runImpact is `agentos graph impact SYMBOL` and `agentos graph impact
// --diff [REV]`: asked of the running server when there is one, as the
// other graph questions are, else of the saved code index.
func runImpact(cmd *cobra.Command, s *streams, dir string, args []string, diff bool, depth, n int, asJSON, verbose bool) error {
	if !cmd.Flags().Changed("depth") {
		depth = searchtool.DefaultImpactDepth
	}
	if depth < 1 || depth > searchtool.MaxDepth {
		return withCode(exitUsage, fmt.Errorf("--depth must be between 1 and %d", searchtool.MaxDepth))
	}
	if !cmd.Flags().Changed("n") {
		n = searchtool.DefaultImpactNodes
	}
	if n < 1 || n > searchtool.MaxResults {
		return withCode(exitUsage, fmt.Errorf("-n must be between 1 and %d", searchtool.MaxResults))
	}
	symbol, base := "", ""
	if diff {
		base = "HEAD"
		if len(args) == 1 {
			base = args[0]
		}
	} else {
		symbol = args[0]
	}
	p, cfg, _, err := openProject(dir)
	if err != nil {
		return err
	}
	var out searchtool.Output
	query := map[string]any{"action": "impact", "max_depth": depth, "n_results": n}
	if diff {
		query["diff_base"] = base
	} else {
		query["query"] = symbol
	}
	ask := askGraph(query, &out)
	withCriteria := func() searchtool.LocalOptions {
		o := codeOnly()
		if e, err := workflow.ForProject(p, cfg, nil); err == nil {
			o.Criteria = server.SpecCriteria(e)
		}
		return o
	}
	local := graphLocally(cmd.Context(), s, p, cfg, withCriteria, &out, func(l *searchtool.Local) (searchtool.Output, error) {
		return l.Impact(cmd.Context(), symbol, diff, base, depth, n)
	})
	if err := askRunning(cmd.Context(), s, p, cfg, verbose, ask, local); err != nil {
		return printCandidates(s, err)
	}
	if asJSON {
		return printJSON(s, out)
	}
	printImpact(s.Out, out)
	return nil
}

func printImpact(w io.Writer, out searchtool.Output) {
	im := out.Impact
	if im == nil {
		return
	}
	if im.DiffBase != "" {
		fmt.Fprintf(w, "changes against %s: %d symbols touched\n", im.DiffBase, im.ChangedTotal)
	} else {
		fmt.Fprintln(w, "changed:")
	}
	for _, c := range im.Changed {
		fmt.Fprintf(w, "  %s  %s:%d\n", c.Symbol, c.Path, c.StartLine)
	}
	if len(im.OtherFiles) > 0 {
		fmt.Fprintf(w, "changed files with no symbol in the graph: %s\n", strings.Join(im.OtherFiles, ", "))
	}
	list := func(title string, nodes []searchtool.ImpactNode) {
		fmt.Fprintf(w, "%s (%d):\n", title, len(nodes))
		for _, n := range nodes {
			conf := ""
			switch n.Confidence {
			case "by_name":
				conf = "  [by name]"
			case "inferred":
				conf = "  [inferred]"
			}
			fmt.Fprintf(w, "  %d  %s  %s:%d%s\n", n.Depth, n.Symbol, n.Path, n.StartLine, conf)
			if len(n.Why) > 1 {
				fmt.Fprintf(w, "       why: %s\n", strings.Join(n.Why, " → "))
			}
			for _, note := range n.Notes {
				fmt.Fprintf(w, "            %s\n", note)
			}
		}
	}
	list(fmt.Sprintf("callers, up to %d calls", im.Depth), im.Callers)
	list(fmt.Sprintf("tests reaching the change, up to %d calls", im.TestDepth), im.Tests)
	if !im.SpecsTraced {
		fmt.Fprintln(w, "specs and criteria: not traced to tests yet")
	} else if im.Criteria != nil {
		fmt.Fprintf(w, "finished specs' criteria the change may break (%d):\n", len(*im.Criteria))
		for _, c := range *im.Criteria {
			fmt.Fprintf(w, "  %s %s  tests: %s\n", c.Spec, c.Criterion, strings.Join(c.Tests, ", "))
		}
	}
	if out.Notice != "" {
		fmt.Fprintln(w, toolWords.Replace(out.Notice))
	}
	printFreshness(w, out)
}
