package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/serverctl"
	"github.com/agentos-dev/agentos/server"
)

func newUninstallCmd(s *streams) *cobra.Command {
	var opts installer.UninstallOptions
	var yes, dryRun bool
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove agentos from a project",
		Long: `Uninstall shows its plan (--dry-run stops there), saves every file it will change or
delete to a backup folder, then removes agentos's entries from every client config on this
machine that points at the project, its rules files and marked blocks, its .gitignore block,
and .agentos/ except specs/ and standards/development/ (the project's own work). --purge
removes those too. Other servers, settings and your own text are kept.

A server running for the project is stopped first, with any that takes over from it.
When it cannot be stopped, uninstall says why and removes nothing, unless --yes is
given: then it goes ahead, and the server stops by itself once its .agentos/config/
is gone.`,
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
			p, err := project.At(pl.Root)
			if err != nil {
				return withCode(exitProject, err)
			}
			pl.Print(s.Out)
			if pr := server.ProbeProject(cmd.Context(), p); pr.PID > 0 {
				fmt.Fprintf(s.Out, "The server running for this project (pid %d) is stopped first.\n", pr.PID)
			}
			if dryRun {
				fmt.Fprintln(s.Out, "Nothing was changed (--dry-run).")
				return nil
			}
			if !yes {
				if ok, err := confirm(s, "Remove agentos?", "removed"); !ok {
					return err
				}
			}
			srv, err := stopServer(cmd.Context(), s, p, yes)
			if err != nil {
				return err
			}
			defer srv.Release()
			if runtime.GOOS == "windows" {
				srv.Release() // the lock's file is removed with .agentos/.cache, which Windows refuses while it is open
			}
			// Planned again: the stopped server removed its state file, and
			// saved its indexes.
			opts.BackupDir = pl.BackupDir
			if pl, err = installer.PlanUninstall(opts); err != nil {
				return withCode(exitProject, err)
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
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the plan and change nothing")
	cmd.Flags().StringVar(&opts.BackupDir, "backup-dir", "", "where to save the originals (default: a new folder in your cache folder)")
	return cmd
}

// stopServer stops the project's running server, and any that takes over
// from it, and holds the project lock so that none starts while the files
// go. A server that cannot be stopped is reported, and stops the uninstall
// unless yes: then a warning says so and the uninstall goes ahead (the
// server stops by itself when its .agentos/config/ is gone); the returned
// lock is then nil, which Release ignores.
func stopServer(ctx context.Context, s *streams, p project.Paths, yes bool) (*serverctl.Stopped, error) {
	srv, err := serverctl.Stop(ctx, p, serverctl.Options{Again: "run agentos uninstall again", Successors: true})
	switch {
	case err == nil:
		if srv.PID != 0 {
			fmt.Fprintf(s.Out, "agentos %s.\n", srv.Note)
		}
		return srv, nil
	case ctx.Err() != nil:
		return nil, err
	case !yes:
		return nil, withCode(exitConflict, fmt.Errorf("the server running for %s could not be stopped, so nothing was removed: %w (or run with --yes to remove agentos while it runs; it stops by itself once .agentos/config/ is gone)", p.Root, err))
	}
	fmt.Fprintf(s.Err, "agentos: warning: the server running for this project could not be stopped: %v. Removing agentos anyway (--yes); the server stops by itself once .agentos/config/ is gone.\n", err)
	return nil, nil
}
