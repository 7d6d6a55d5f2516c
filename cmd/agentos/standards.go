package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/standards"
)

func newStandardsCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "standards",
		Short: "List, check or start the project's standards",
		Long: `Standards are the Markdown files under .agentos/standards/ that agents search before they
write code: universal/ holds those agentos ships, development/ the project's own.`,
		Args: cobra.NoArgs, // "standards foo" is an unknown command, exit 2
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newStandardsListCmd(s), newStandardsLintCmd(s), newStandardsNewCmd(s))
	return cmd
}

// A listed standard's origin (standardsListed.State).
const (
	standardShipped = "shipped"
	standardEdited  = "edited since install"
	standardOwn     = "the project's own"
)

type standardsListed struct {
	standards.Listed
	State string `json:"state"`
}

func newStandardsListCmd(s *streams) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's standards: path, title, and whether agentos shipped it, you edited it, or it is the project's own",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			listed, err := standards.List(p.Standards())
			if err != nil {
				return err
			}
			// What install or upgrade wrote is in the manifest; a file it
			// does not name is the project's.
			m, _, err := manifest.Load(p)
			if err != nil {
				return err
			}
			rows := make([]standardsListed, len(listed))
			for i, l := range listed {
				rows[i] = standardsListed{Listed: l, State: standardOwn}
				rel := filepath.ToSlash(p.Rel(filepath.Join(p.Standards(), filepath.FromSlash(l.Path))))
				switch recorded, edited := m.Edited(p, rel); {
				case edited:
					rows[i].State = standardEdited
				case recorded:
					rows[i].State = standardShipped
				}
			}
			if asJSON {
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			if len(rows) == 0 {
				fmt.Fprintf(s.Out, "No standards in %s.\n", p.Rel(p.Standards()))
				return nil
			}
			tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
			for _, r := range rows {
				if r.State == standardShipped {
					fmt.Fprintf(tw, "%s\t%s\n", r.Path, r.Title)
				} else {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Path, r.Title, r.State)
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func newStandardsLintCmd(s *streams) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check standards against the standard format",
		Long: `Lint checks each standard for the format agentos expects: a keywords first line, a title,
the sections TL;DR, Questions this answers (5 to 8 questions), Purpose, Problem, Standard,
Examples (with code), Anti-patterns and Checklist, a footer with Version (major.minor.patch),
Created, Last Updated and Next review dates, relative links that resolve, and no [[fill: ...]]
placeholders left. Each problem is printed as file:line: message.

PATH is a standard or a folder of them (every .md file below it but README.md). Without PATH,
lint checks the project's .agentos/standards/.

Exit status: 0 when there are no problems, 1 when there are, 2 when a PATH does not exist,
3 when no .agentos/ is found.`,
		Example: `  agentos standards lint
  agentos standards lint .agentos/standards/development/api-versioning.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			paths := args
			display := func(name string) string { return name }
			if len(paths) == 0 {
				p, err := project.Find(dir)
				if err != nil {
					return withCode(exitProject, err)
				}
				paths = []string{p.Standards()}
				display = p.Rel
			}
			files, err := standards.Files(paths...)
			if err != nil {
				return withCode(exitUsage, err)
			}
			if len(files) == 0 {
				shown := make([]string, len(paths))
				for i, p := range paths {
					shown[i] = display(p)
				}
				return fmt.Errorf("no standards (.md files) found in %s", strings.Join(shown, ", "))
			}
			problems := standards.Lint(files)
			for i := range problems {
				problems[i].File = display(problems[i].File)
			}
			if asJSON {
				if err := printLintJSON(s, len(files), problems); err != nil {
					return err
				}
			} else {
				printLint(s, len(files), problems)
			}
			if len(problems) > 0 {
				return silentExit(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder whose standards to check when no PATH is given (default: found from the working directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func printLint(s *streams, files int, problems []standards.Problem) {
	if len(problems) == 0 {
		fmt.Fprintf(s.Out, "%d %s checked: no problems.\n", files, plural(files, "standard", "standards"))
		return
	}
	bad := map[string]bool{}
	for _, p := range problems {
		fmt.Fprintln(s.Out, p)
		bad[p.File] = true
	}
	fmt.Fprintf(s.Err, "%d %s in %d of %d %s.\n", len(problems), plural(len(problems), "problem", "problems"),
		len(bad), files, plural(files, "standard", "standards"))
}

func printLintJSON(s *streams, files int, problems []standards.Problem) error {
	if problems == nil {
		problems = []standards.Problem{}
	}
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Files    int                 `json:"files"`
		Problems []standards.Problem `json:"problems"`
	}{files, problems})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newStandardsNewCmd(s *streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Start a new project standard from the template",
		Long: `New writes .agentos/standards/development/NAME.md: a skeleton in the standard format,
dated today, with a [[fill: ...]] placeholder for each part to write. It never replaces an
existing file. NAME is lower-case words joined by hyphens, such as api-versioning.

Exit status: 0 when the file was created, 1 when it already exists, 2 for a bad NAME,
3 when no .agentos/ is found.`,
		Example: "  agentos standards new api-versioning",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := strings.TrimSuffix(args[0], ".md")
			if err := standards.CheckName(name); err != nil {
				return withCode(exitUsage, err)
			}
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			path, err := standards.New(filepath.Join(p.Standards(), "development"), name, time.Now())
			if errors.Is(err, standards.ErrExists) {
				return fmt.Errorf("%s already exists and was left as it is; edit it, or pick another name",
					p.Rel(filepath.Join(p.Standards(), "development", name+".md")))
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(s.Out, "Created %s.\nReplace each [[fill: ...]] part, then check it with `agentos standards lint`.\n", p.Rel(path))
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	return cmd
}
