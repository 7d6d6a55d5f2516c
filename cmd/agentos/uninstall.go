package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
)

func newUninstallCmd(s *streams) *cobra.Command {
	var opts installer.UninstallOptions
	var yes bool
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove agentos from a project",
		Long: `Uninstall shows its plan, saves every file it will change or delete to a backup folder,
then removes agentos's entries from every client config on this machine that points at
the project, its rules files and marked blocks, its .gitignore block, and .agentos/
except specs/ and standards/development/ (the project's own work). --purge removes
those too. Other servers, settings and your own text are kept.`,
		Example: "  agentos uninstall --yes\n  agentos uninstall --purge --dir ~/src/app --yes",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Dir == "" {
				p, err := project.Find("")
				if err != nil {
					return withCode(exitProject, err)
				}
				opts.Dir = p.Root
			}
			pl, err := installer.PlanUninstall(opts)
			if err != nil {
				return withCode(exitProject, err)
			}
			pl.Print(s.Out)
			if !yes {
				if ok, err := confirm(s, "Remove agentos?", "removed"); !ok {
					return err
				}
			}
			if err := pl.Apply(); err != nil {
				return err
			}
			fmt.Fprintf(s.Out, "agentos is removed from %s; the originals are in %s.\n", pl.Root, pl.BackupDir)
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&opts.Purge, "purge", false, "also delete .agentos/specs/ and .agentos/standards/development/")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "remove without asking")
	cmd.Flags().StringVar(&opts.BackupDir, "backup-dir", "", "where to save the originals (default: a new folder in your cache folder)")
	return cmd
}
