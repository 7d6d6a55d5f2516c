package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/trust"
)

func newTrustCmd(s *streams) *cobra.Command {
	var dir string
	var agents []string
	var yes bool
	cmd := &cobra.Command{
		Use:   "trust",
		Short: "Allow the project's own settings that run code or send data, and record the folder as trusted by the agents that need it",
		Long: `The settings of .agentos/config/mcp.yaml that run code, send data away or let more callers
in (a test command of the project's own, an unsandboxed gate, a remote embedder and the key
it is sent, server.auth: none, a browser program or hosts) take effect only once you trust
them: a cloned repository brings its mcp.yaml with it. Until then agentos uses its built-in
defaults for them and says so (serve's log, get_server_info, the gates' warnings, doctor).
Trust shows exactly those values and records them for this folder, outside the project (in
trusted.json beside ports.json); a changed value asks again. A config install wrote is
trusted already.

Some agents read a project's MCP config only in a folder the person trusts: Codex
(trusted projects in ~/.codex/config.toml), Gemini CLI (~/.gemini/trustedFolders.json),
Qwen Code (~/.qwen/trustedFolders.json, when its folder trust is on) and GitHub Copilot CLI
(trustedFolders in ~/.copilot/config.json). Until then they show none of the project's
servers. Trust writes this folder into each agent's own trust file, merged like every
other edit (the original is saved once under .agentos/backups/).

Without --agent it first asks about the settings, then acts for every agent that has an agentos entry for this project and
does not trust the folder yet. install --trust and connect --trust do the same for the
agents they configure.`,
		Example: "  agentos trust\n  agentos trust --agent codex --agent gemini",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			if len(agents) == 0 {
				if err := trustSettings(cmd, s, p, yes); err != nil {
					return err
				}
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
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "allow the settings shown without asking (for scripts; read them first)")
	cmd.Flags().StringSliceVar(&agents, "agent", nil, "the agent that should trust the folder (repeat or comma-separate; default: every configured agent that needs it)")
	return cmd
}

// trustSettings shows the settings of the project's config that wait for
// the person and records them once the person allows them.
func trustSettings(cmd *cobra.Command, s *streams, p project.Paths, yes bool) error {
	cfg, err := config.Load(p.Config())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return withCode(exitProject, fmt.Errorf("invalid configuration: %w", err))
	}
	st := trust.Check(p.Root, cfg)
	if st.RecordErr != nil {
		fmt.Fprintf(s.Err, "agentos: %v; it is written anew.\n", st.RecordErr)
	}
	if len(st.Settings) == 0 {
		fmt.Fprintln(s.Out, "The project's settings ask for nothing beyond agentos's defaults.")
		return nil
	}
	if st.Trusted {
		fmt.Fprintf(s.Out, "The project's settings are trusted already (%d that run code, send data or let callers in).\n", len(st.Settings))
		return nil
	}
	fmt.Fprintln(s.Out, ".agentos/config/mcp.yaml asks for what only you should allow:")
	for _, set := range st.Settings {
		fmt.Fprintf(s.Out, "  %s: %s\n      %s\n", set.Key, strconv.Quote(set.Value), set.What)
	}
	if !yes {
		ok, err := confirm(s, fmt.Sprintf("Allow these settings for %s?", p.Root), "trusted")
		if err != nil || !ok {
			return err
		}
	}
	if err := trust.Record(cmd.Context(), p.Root, cfg); err != nil {
		return err
	}
	fmt.Fprintln(s.Out, "Trusted. The gates use them from their next run; restart the server (your agent's MCP reconnect) for the others.")
	return nil
}
