package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/workflow"
)

func newSpecsCmd(s *streams) *cobra.Command {
	var dir string
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "specs",
		Short: "Show whether the finished specs still hold; check them; converge a drifted one",
		Long: `A spec whose execution (spec_execution_v1) completed keeps its evidence: the commit it
finished on, each acceptance criterion's tests, and the symbols those tests reach.

  agentos specs                    every finished spec's state as its last check found it
  agentos specs check [NAME...]    run the traced tests on the code as it is now, in the gate's
                                   sandbox, and find the changes since completion that reach them
  agentos specs converge NAME      start an execution session that repairs the broken criteria

A spec is holding (its tests pass as written and no change reaches them), drifted (a traced
test fails, was deleted or was changed), touched (its tests pass, but a change since it
finished reaches the symbols they test), unchecked (not checked since it finished) or
unverified (its evidence does not match the signature agentos wrote: it is never trusted).
check exits 1 when a spec is drifted or unverified.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, _, _, err := specsEngine(dir)
			if err != nil {
				return err
			}
			specs, err := e.Specs()
			if err != nil {
				return cliError(err)
			}
			if asJSON {
				return printJSON(s, specs)
			}
			printSpecs(s.Out, specs, all)
			return nil
		},
	}
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list every criterion, also the holding ones")
	check := &cobra.Command{
		Use:   "check [NAME...]",
		Short: "Run the finished specs' traced tests on the current code and record what they find",
		RunE: func(cmd *cobra.Command, args []string) error {
			e, p, cfg, err := specsEngine(dir)
			if err != nil {
				return err
			}
			closeGraph := useLocalGraph(cmd.Context(), s, e, p, cfg)
			defer closeGraph()
			specs, err := e.CheckSpecs(cmd.Context(), args)
			if err != nil {
				return cliError(err)
			}
			if asJSON {
				if err := printJSON(s, specs); err != nil {
					return err
				}
			} else {
				printSpecs(s.Out, specs, all)
			}
			for _, sp := range specs {
				if sp.State == workflow.SpecDrifted || sp.State == workflow.SpecUnverified {
					return withCode(exitFailure, errors.New("a finished spec no longer holds"))
				}
			}
			return nil
		},
	}
	check.Flags().BoolVar(&all, "all", false, "list every criterion, also the holding ones")
	var keep []string
	var owner string
	converge := &cobra.Command{
		Use:   "converge NAME",
		Short: "Start an execution session that repairs a drifted spec's broken criteria",
		Long: `Converge starts a spec_execution_v1 session on a finished spec whose tasks are the criteria
its check found drifted, and the touched criteria you name with --keep. The session is judged
as any execution is: it starts only while your approval of the spec holds, and each broken
criterion must be proven again (its test fails on the code it starts from and passes after
the change). The spec's changes.md records, dated, why it started and when it converged.
The session belongs to --owner (the client name of the agent that will do the work).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, p, cfg, err := specsEngine(dir)
			if err != nil {
				return err
			}
			closeGraph := useLocalGraph(cmd.Context(), s, e, p, cfg)
			defer closeGraph()
			actor := workflow.CLIActor
			if owner != "" {
				actor = workflow.Actor{Client: owner}
			}
			res, err := e.Converge(cmd.Context(), args[0], keep, actor)
			if err != nil {
				return cliError(err)
			}
			if asJSON {
				return printJSON(s, map[string]any{"session": res.Session.ID, "criteria": res.Criteria, "check": res.Check})
			}
			fmt.Fprintf(s.Out, "Started session %s (spec_execution_v1, phase %s), owned by %s, to repair %s.\n",
				res.Session.ID, res.Session.PhaseLabel(), res.Session.Owner.Client, strings.Join(res.Criteria, ", "))
			fmt.Fprintf(s.Out, "The change is recorded in .agentos/specs/%s/changes.md.\n", args[0])
			return nil
		},
	}
	converge.Flags().StringSliceVar(&keep, "keep", nil, "touched criteria to repair too (AC-…), comma-separated or repeated")
	converge.Flags().StringVar(&owner, "owner", "", "the client name of the agent that does the work (default: the terminal)")
	cmd.AddCommand(check, converge)
	return cmd
}

func specsEngine(dir string) (*workflow.Engine, project.Paths, config.Config, error) {
	p, cfg, _, err := openProject(dir)
	if err != nil {
		return nil, p, cfg, err
	}
	e, err := workflow.ForProject(p, cfg, nil)
	return e, p, cfg, err
}

// useLocalGraph gives the engine the saved code index's call graph, so a
// check names the symbols a change touched; without one it says so and
// judges by files.
func useLocalGraph(ctx context.Context, s *streams, e *workflow.Engine, p project.Paths, cfg config.Config) func() {
	l, err := openIndexes(ctx, s, p, cfg, searchtool.LocalOptions{Code: true})
	if err != nil {
		fmt.Fprintf(s.Err, "The code index cannot be opened (%v); changes are judged by file.\n", err)
		return func() {}
	}
	e.SetGraph(func(context.Context) (workflow.SymbolGraph, error) {
		g, err := l.CodeGraph()
		if err != nil {
			return nil, err
		}
		return g, nil
	})
	return l.Close
}

func printSpecs(w io.Writer, specs []workflow.SpecState, all bool) {
	if len(specs) == 0 {
		fmt.Fprintln(w, "No spec has finished spec_execution_v1 yet.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SPEC\tSTATE\tFINISHED\tCOMMIT\tCHECKED")
	for _, sp := range specs {
		checked := "never"
		if sp.CheckedAt != nil {
			checked = sp.CheckedAt.Local().Format(time.DateTime)
		}
		commit := sp.Commit
		if len(commit) > 12 {
			commit = commit[:12]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", sp.Spec, sp.State, sp.CompletedAt.Local().Format(time.DateOnly), commit, checked)
	}
	tw.Flush()
	for _, sp := range specs {
		if sp.Note != "" && sp.State != workflow.SpecUnchecked {
			fmt.Fprintf(w, "\n%s: %s\n", sp.Spec, sp.Note)
		}
		for _, c := range sp.Criteria {
			if c.State == workflow.SpecHolding && !all {
				continue
			}
			fmt.Fprintf(w, "\n%s %s %s: %s\n", sp.Spec, c.ID, c.State, c.Text)
			for _, t := range c.Tests {
				fmt.Fprintf(w, "  %s: %s", t.Test, t.State)
				if t.Failure != "" {
					fmt.Fprintf(w, ": %s", t.Failure)
				}
				fmt.Fprintln(w)
				for _, tc := range t.Touched {
					where := tc.File
					if tc.Symbol != "" {
						where = tc.Symbol + " (" + tc.File + ")"
					}
					if tc.Lines != "" {
						where += " lines " + tc.Lines
					}
					fmt.Fprintf(w, "    reached by a change to %s: %s\n", where, tc.Change)
				}
			}
		}
	}
}
