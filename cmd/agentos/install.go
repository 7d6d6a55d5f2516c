package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/installer"
)

func newInstallCmd(s *streams) *cobra.Command {
	var opts installer.Options
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install agentos into a project and configure Claude Code",
		Long: `Install lays out .agentos/ in the project (standards, workflows, specs, config, a pinned
copy of this binary), adds agentos's private folders to .gitignore, and writes the
Claude Code server entry into .mcp.json. Existing files are merged, never replaced;
running it again changes nothing and says so.`,
		Example: "  agentos install --dir ~/src/myproject --yes",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !opts.Yes {
				return withCode(exitUsage, fmt.Errorf("the interactive installer is not available yet; pass --yes to install with the defaults"))
			}
			report, err := installer.Install(cmd.Context(), opts)
			if err != nil {
				return err
			}
			report.Print(s.Out)
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "dir", ".", "project folder to install into")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "install without asking")
	return cmd
}
