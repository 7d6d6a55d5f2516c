package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/upgrade"
)

func newUpgradeCmd(s *streams) *cobra.Command {
	var opts upgrade.Options
	var dryRun, yes, asJSON bool
	cmd := &cobra.Command{
		Use:   "upgrade",
		Short: "Upgrade agentos in this project in place, keeping the project's edits",
		Long: `Upgrade brings the project's standards, workflows, pinned binary, .gitignore block and
client entries up to this agentos (or to a git repository's standards and workflows with
--from), in steps: preflight (free disk, no other upgrade, a running server is stopped),
backup (.agentos/backups/<id>/ with SHA256SUMS; the last 3 are kept), update, .gitignore,
validate (config, workflows, standards lint, client entries, an in-process server), finalize.
Any failure rolls the project back to the backup, verified byte for byte.

Per file: untouched → updated; edited by you and unchanged upstream → kept; both changed →
merged line by line, or on a conflict your file is kept and the new one is written beside it
as <file>.agentos-new; deleted by you → stays deleted; new upstream → added; removed
upstream → removed only if untouched. specs/, standards/development/ and workflow sessions
are never touched. The report is written to .agentos/state/upgrade/<id>.json.`,
		Example: `  agentos upgrade --dry-run
  agentos upgrade --yes
  agentos upgrade --from https://github.com/acme/standards.git@v2 --yes
  agentos upgrade --from ../team-standards --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(opts.Dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			opts.Dir = p.Root
			pl, err := upgrade.MakePlan(cmd.Context(), opts)
			if errors.Is(err, project.ErrNotFound) {
				return withCode(exitProject, err)
			}
			if err != nil {
				return err
			}
			if dryRun {
				if asJSON {
					return printJSON(s, planJSON(pl))
				}
				printPlan(s, pl)
				return nil
			}
			if !yes && (pl.Changes() || len(pl.Recovery) > 0) {
				if !asJSON {
					printPlan(s, pl)
				}
				if ok, err := confirm(s, "Upgrade?", "changed"); !ok {
					return err
				}
			}
			r, err := upgrade.Run(cmd.Context(), opts)
			if asJSON && r != nil {
				if perr := printJSON(s, r); perr != nil {
					return perr
				}
			} else if r != nil && err == nil {
				printReport(s, r)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Dir, "dir", "", "project folder (default: found from the working directory)")
	f.StringVar(&opts.From, "from", "", "upgrade the standards and workflows from a git repository: a local path or URL, optionally @BRANCH, @TAG or @COMMIT")
	f.BoolVar(&dryRun, "dry-run", false, "print the plan per file and change nothing")
	f.BoolVarP(&yes, "yes", "y", false, "upgrade without asking")
	f.BoolVar(&asJSON, "json", false, "print the plan or the report as JSON")
	return cmd
}

func newRollbackCmd(s *streams) *cobra.Command {
	var opts upgrade.Options
	var to string
	var list, yes, asJSON bool
	cmd := &cobra.Command{
		Use:   "rollback",
		Short: "Restore the project from an upgrade backup",
		Long: `Rollback restores .agentos/ (standards/universal, workflows, bin, the manifest and
its bases), .gitignore and the client files an upgrade changed from a backup in
.agentos/backups/, and checks the result byte for byte against the backup's checksums.
specs/, standards/development/, the config and workflow sessions are not part of a backup and are
left as they are. Without --to, the newest upgrade backup is restored. The state it replaces is
saved first as a backup named <time>-before-rollback, so a rollback can itself be undone.

The backup's record is a file in the project, so every path it names is checked first: one
outside the project (other than the client configs agentos writes) is refused and nothing is
restored. What the rollback writes or deletes outside .agentos/ is printed before it is done,
and asked about unless --yes is given.`,
		Example: "  agentos rollback --list\n  agentos rollback\n  agentos rollback --to 20260102T030405.000000Z --yes",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(opts.Dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			opts.Dir = p.Root
			if list {
				ids, err := upgrade.Backups(p)
				if err != nil {
					return err
				}
				if asJSON {
					if ids == nil {
						ids = []string{}
					}
					return printJSON(s, ids)
				}
				if len(ids) == 0 {
					fmt.Fprintln(s.Out, "No upgrade backups.")
				}
				for _, id := range ids {
					fmt.Fprintln(s.Out, id)
				}
				return nil
			}
			pl, err := upgrade.PlanRollback(cmd.Context(), opts, to)
			if err != nil {
				return err
			}
			if !asJSON && len(pl.Outside) > 0 {
				printRollbackPlan(s, pl)
			}
			// As with an upgrade: a change outside .agentos/ is asked about,
			// and without a terminal to ask on only --yes carries it out.
			if !yes && len(pl.Outside) > 0 {
				if ok, err := confirm(s, "Roll back?", "restored"); !ok {
					return err
				}
			}
			res, err := upgrade.Rollback(cmd.Context(), opts, pl.Backup)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(s, res)
			}
			fmt.Fprintf(s.Out, "Restored %s (%d files, verified by checksums).\n", res.Backup, res.Files)
			fmt.Fprintf(s.Out, "The state it replaced is saved in %s: `agentos rollback --to %s` undoes this rollback.\n", res.Saved, filepath.Base(res.Saved))
			if res.Server != "" {
				fmt.Fprintln(s.Out, "Server:", res.Server)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().StringVar(&to, "to", "", "the backup to restore (a folder name in .agentos/backups/; default the newest)")
	cmd.Flags().BoolVar(&list, "list", false, "list the backups, oldest first")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "roll back without asking, even when files outside .agentos/ change")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

type planFile struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

func planJSON(pl *upgrade.Plan) any {
	files := []planFile{}
	for _, f := range pl.Files {
		files = append(files, planFile{Path: f.Path, Action: string(f.Action)})
	}
	configs := []string{}
	for _, c := range pl.Configs {
		configs = append(configs, c.Path)
	}
	return map[string]any{
		"root": pl.Root, "source": pl.Source.Name, "from_version": pl.FromVersion, "to_version": pl.Source.Version,
		"changes": pl.Changes(), "interrupted": pl.Interrupted, "recovery": outsideJSON(pl.Recovery), "files": files, "binary": pl.Binary, "gitignore": pl.Gitignore, "port": pl.Port, "auth": pl.Auth, "configs": configs,
	}
}

func printPlan(s *streams, pl *upgrade.Plan) {
	fmt.Fprintf(s.Out, "Upgrade plan for %s: %s → %s (%s)\n", pl.Root, pl.FromVersion, pl.Source.Version, pl.Source.Name)
	if pl.Interrupted != "" {
		fmt.Fprintf(s.Out, "Upgrade %s was interrupted part-way: the upgrade rolls it back to its backup first (or run `agentos rollback`); this plan is against the files as they are now.\n", pl.Interrupted)
	}
	if len(pl.Recovery) > 0 {
		fmt.Fprintln(s.Out, "Finishing the interrupted upgrade or rollback first writes outside .agentos/:")
		printOutside(s, pl.Recovery)
	}
	shown := 0
	for _, f := range pl.Files {
		if f.Action == upgrade.Unchanged {
			continue
		}
		shown++
		note := ""
		switch f.Action {
		case upgrade.Conflict:
			note = "  (yours kept; the new version goes to " + f.Path + upgrade.NewSuffix + ")"
		case upgrade.Keep, upgrade.KeepRemoved:
			note = "  (your edit is kept)"
		case upgrade.StayDeleted:
			note = "  (you deleted it; it stays deleted)"
		}
		fmt.Fprintf(s.Out, "  %-12s %s%s\n", f.Action, f.Path, note)
	}
	if pl.Binary != upgrade.Unchanged {
		fmt.Fprintf(s.Out, "  %-12s .agentos/bin/agentos\n", pl.Binary)
		shown++
	}
	if pl.Gitignore != upgrade.Unchanged {
		fmt.Fprintf(s.Out, "  %-12s .gitignore (agentos block)\n", pl.Gitignore)
		shown++
	}
	if pl.Port != upgrade.Unchanged {
		fmt.Fprintf(s.Out, "  %-12s .agentos/config/mcp.yaml: server.port, this project's own HTTP port (only that key's lines)\n", pl.Port)
		shown++
	}
	if pl.Auth != upgrade.Unchanged {
		fmt.Fprintf(s.Out, "  %-12s .agentos/config/mcp.yaml: server.auth none -> user, so other users on this machine cannot call the tools (only that block)\n", pl.Auth)
		shown++
	}
	for _, c := range pl.Configs {
		fmt.Fprintf(s.Out, "  %-12s %s (agentos entry or block)\n", upgrade.Update, c.Path)
		shown++
	}
	c := pl.Counts()
	fmt.Fprintf(s.Out, "%d update, %d merge, %d conflict, %d add, %d remove, %d keep, %d unchanged\n",
		c[upgrade.Update], c[upgrade.Merge], c[upgrade.Conflict], c[upgrade.Add], c[upgrade.Remove],
		c[upgrade.Keep]+c[upgrade.KeepRemoved]+c[upgrade.StayDeleted], c[upgrade.Unchanged])
	if !pl.Changes() {
		fmt.Fprintln(s.Out, "Already up to date: nothing to change.")
	}
}

func printReport(s *streams, r *upgrade.Report) {
	if r.Recovered != "" {
		fmt.Fprintln(s.Out, r.Recovered)
	}
	if r.UpToDate {
		fmt.Fprintf(s.Out, "Already up to date (%s); nothing was changed.\n", r.ToVersion)
		if len(r.Conflicts) > 0 {
			fmt.Fprintf(s.Out, "Still to merge by hand: %s\n", strings.Join(r.Conflicts, ", "))
		}
		return
	}
	for _, st := range r.Steps {
		fmt.Fprintf(s.Out, "  %-10s %-6s %s\n", st.Name, st.Status, st.Message)
	}
	fmt.Fprintf(s.Out, "Upgraded %s → %s. Backup: %s. Report: %s\n", r.FromVersion, r.ToVersion, r.Backup, r.Path)
	if len(r.Conflicts) > 0 {
		fmt.Fprintf(s.Out, "Conflicts kept your files; merge these by hand and delete them: %s\n", strings.Join(r.Conflicts, ", "))
	}
	if r.Server != "" {
		fmt.Fprintln(s.Out, "Server:", r.Server)
	}
}

// printRollbackPlan shows what a rollback writes or deletes outside
// .agentos/ before it is done: the backup's record is a file in the
// project, so the person sees where it writes, not only that it does.
func printRollbackPlan(s *streams, pl *upgrade.RollbackPlan) {
	fmt.Fprintf(s.Out, "Rollback to %s restores .agentos/ from its %d files and, outside .agentos/:\n", pl.Backup, pl.Files)
	printOutside(s, pl.Outside)
}

// printOutside lists changes outside .agentos/, one a line. The paths come
// from a record in the project: printed as printable, so that no control
// character in one can hide another.
func printOutside(s *streams, changes []upgrade.OutsideChange) {
	for _, c := range changes {
		note := ""
		if c.Through != "" {
			note = "  (a link: the file written is " + printable(c.Through) + ")"
		}
		fmt.Fprintf(s.Out, "  %-12s %s%s\n", c.Action, printable(c.Path), note)
	}
}

// outsideJSON is changes, never null.
func outsideJSON(changes []upgrade.OutsideChange) []upgrade.OutsideChange {
	if changes == nil {
		return []upgrade.OutsideChange{}
	}
	return changes
}
