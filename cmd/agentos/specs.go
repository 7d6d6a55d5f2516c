package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
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
		Short: "Show whether the finished specs still hold; check them; converge a drifted one; draft specs from code",
		Long: `A spec whose execution (spec_execution_v1) completed keeps its evidence: the commit it
finished on, each acceptance criterion's tests, and the symbols those tests reach.

  agentos specs                    every finished spec's state as its last check found it
  agentos specs check [NAME...]    run the traced tests on the code as it is now, in the gate's
                                   sandbox, and find the changes since completion that reach them
  agentos specs converge NAME      start an execution session that repairs the broken criteria
  agentos specs init [MODULE...]   draft specs for existing code from its code, tests and docs

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
	var dryRun bool
	initCmd := &cobra.Command{
		Use:   "init [MODULE...]",
		Short: "Draft specs for existing modules from their code, tests and docs",
		Long: `Init drafts a spec for each module named (a folder of the project's code), or for every
top-level folder that holds code when none is named, from what is there: what the module does
(its README or package documentation), its interfaces (the exported symbols of the code index)
and its existing tests as the acceptance criteria that already hold. Each test taken for a
criterion gets a comment naming it, as every test that proves a criterion does.

A draft is written to .agentos/specs/DATE-MODULE/ in the usual layout (README.md, srd.md,
specs.md, tasks.md, implementation.md) and says it was drafted from code. It is not a living
spec until a person reads it, corrects it and approves it with
  agentos workflow approve --spec DATE-MODULE
which records its evidence; agentos specs check then runs its tests. An existing spec of the
same name is never overwritten. --dry-run prints what would be written.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, p, cfg, err := specsEngine(dir)
			if err != nil {
				return err
			}
			closeGraph := useLocalGraph(cmd.Context(), s, e, p, cfg)
			defer closeGraph()
			drafts, err := e.DraftSpecs(cmd.Context(), workflow.DraftOptions{Modules: args, DryRun: dryRun})
			if err != nil {
				return cliError(err)
			}
			if asJSON {
				return printJSON(s, drafts)
			}
			printDrafts(s.Out, drafts, dryRun)
			return nil
		},
	}
	initCmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be written, and write nothing")
	cmd.AddCommand(check, converge, initCmd)
	return cmd
}

func printDrafts(w io.Writer, drafts []workflow.Draft, dryRun bool) {
	for i, d := range drafts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if d.NotWritten != "" {
			fmt.Fprintf(w, "%s: not drafted: %s\n", d.Module, d.NotWritten)
			continue
		}
		verb := "Drafted"
		if dryRun {
			verb = "Would draft"
		}
		fmt.Fprintf(w, "%s %s from %s: %d exported symbols, %d criteria, each an existing test.\n", verb, d.Dir, d.Module, d.Symbols, len(d.Criteria))
		for _, c := range d.Criteria {
			fmt.Fprintf(w, "  %s  %s\n", c.ID, c.Test)
		}
		for _, sk := range d.Skipped {
			fmt.Fprintf(w, "  not a criterion: %s\n", sk)
		}
		if len(d.Annotated) > 0 {
			how := "now name"
			if dryRun {
				how = "would name"
			}
			fmt.Fprintf(w, "Tests that %s their criterion in a comment: %s\n", how, strings.Join(d.Annotated, ", "))
		}
		for _, a := range d.ToAdd {
			fmt.Fprintf(w, "A person must add: %s\n", a)
		}
		if dryRun {
			for _, f := range sortedFiles(d.Files) {
				fmt.Fprintf(w, "\n--- %s\n%s", f, d.Files[f])
			}
			continue
		}
		fmt.Fprintf(w, "It is a draft, not a living spec: read it, correct it, then approve it with\n  agentos workflow approve --spec %s\n", d.Spec)
	}
}

func sortedFiles(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
		fmt.Fprintln(w, "No spec has finished yet (agentos specs init drafts specs for existing code).")
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
