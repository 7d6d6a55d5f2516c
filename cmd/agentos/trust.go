package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
)

func newTrustCmd(s *streams) *cobra.Command {
	var dir string
	var agents []string
	cmd := &cobra.Command{
		Use:   "trust",
		Short: "Record this project folder as trusted by the agents that need it",
		Long: `Some agents read a project's MCP config only in a folder the person trusts: Codex
(trusted projects in ~/.codex/config.toml), Gemini CLI (~/.gemini/trustedFolders.json),
Qwen Code (~/.qwen/trustedFolders.json, when its folder trust is on) and GitHub Copilot CLI
(trustedFolders in ~/.copilot/config.json). Until then they show none of the project's
servers. Trust writes this folder into each agent's own trust file, merged like every
other edit (the original is saved once under .agentos/backups/).

Without --agent it acts for every agent that has an agentos entry for this project and
does not trust the folder yet. install --trust and connect --trust do the same for the
agents they configure.`,
		Example: "  agentos trust\n  agentos trust --agent codex --agent gemini",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			env := agentconfig.SystemEnv()
			var clients []agentconfig.Client
			for _, name := range installer.SplitAgentNames(agents) {
				c, err := agentconfig.Lookup(name)
				if err != nil {
					return withCode(exitUsage, err)
				}
				if c.Trust == nil {
					return withCode(exitUsage, fmt.Errorf("%s has no trusted folders to record; it reads the project's config without one", c.Name))
				}
				clients = append(clients, c)
			}
			if len(agents) == 0 {
				clients = agentconfig.Untrusted(p.Root, env)
				if len(clients) == 0 {
					fmt.Fprintln(s.Out, "No agent configured for this project waits for the folder to be trusted; nothing changed.")
					return nil
				}
			}
			backups := agentconfig.Backups{Dir: p.Backups(), Root: p.Root, Home: env.Home}
			for _, c := range clients {
				ch, backup, err := agentconfig.TrustFolder(c, p.Root, env, backups)
				if err != nil {
					return err
				}
				where := agentconfig.Display(ch.Path, p.Root, env.Home)
				if ch.Action == agentconfig.Unchanged {
					fmt.Fprintf(s.Out, "%s already trusts this folder (%s); nothing changed.\n", c.Name, where)
					continue
				}
				fmt.Fprintf(s.Out, "%s %s: %s trusts %s.\n", ch.Action, where, c.Name, p.Root)
				if backup != "" {
					fmt.Fprintf(s.Out, "  original saved to %s\n", agentconfig.Display(backup, p.Root, env.Home))
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().StringSliceVar(&agents, "agent", nil, "the agent that should trust the folder (repeat or comma-separate; default: every configured agent that needs it)")
	return cmd
}
