package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
)

func newConnectCmd(s *streams) *cobra.Command {
	var dir, agent, scope string
	cmd := &cobra.Command{
		Use:   "connect",
		Short: "Connect a secondary agent to this project's running server",
		Long: `Connect reads .agentos/.mcp_server_state.json, checks that the primary server is running
and answers MCP, and writes the agent's entry for it: the server's HTTP URL spelled the
way that client wants it, or, for a client that speaks stdio only (Claude Desktop,
Junie), a stdio command that bridges to the running server. Both agents then share
one server and one state. The agent's config is merged, never replaced, and its
original is saved once under .agentos/backups/. In a terminal, without --agent, a menu
asks which agent.

Agents: ` + agentIDs(),
		Example: "  agentos connect --agent codex\n  agentos connect --agent claude-desktop --dir ~/src/app",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			if agent == "" {
				if !isTerminal(s.InFile) || !isTerminal(s.OutFile) {
					return withCode(exitUsage, fmt.Errorf("name the agent to connect with --agent (one of: %s)", agentIDs()))
				}
				accessible := os.Getenv("TERM") == "dumb" || os.Getenv("ACCESSIBLE") != ""
				picked, err := installer.PickAgent(cmd.Context(), installer.WizardIO{In: s.In, Out: s.Out, Accessible: accessible})
				if err != nil {
					return err
				}
				agent = picked
			}
			c, err := agentconfig.Lookup(agent)
			if err != nil {
				return withCode(exitUsage, err)
			}
			env := agentconfig.SystemEnv()
			res, err := agentconfig.Connect(cmd.Context(), p, c, agentconfig.Scope(scope), env)
			var nr *agentconfig.NotRunningError
			if errors.As(err, &nr) {
				fmt.Fprintln(s.Out, "The primary agentos server is not running for", p.Root+":", nr.Reason)
				fmt.Fprintln(s.Out, "Start it by opening the project in your primary agent (it launches the server), or run:")
				fmt.Fprintf(s.Out, "  %s serve --transport dual --project-root %s\n", agentconfig.PinnedBinary(p), p.Root)
				fmt.Fprintln(s.Out, "then run `agentos connect` again.")
				return silentExit(exitFailure)
			}
			if err != nil {
				return err
			}
			where := agentconfig.Display(res.Target.Path, p.Root, env.Home)
			switch res.Change.Action {
			case agentconfig.Unchanged:
				fmt.Fprintf(s.Out, "%s is already connected (%s); nothing changed.\n", c.Name, where)
			default:
				fmt.Fprintf(s.Out, "%s %s with the agentos entry for %s.\n", res.Change.Action, where, c.Name)
				if res.Backup != "" {
					fmt.Fprintf(s.Out, "  original saved to %s\n", agentconfig.Display(res.Backup, p.Root, env.Home))
				}
			}
			if res.URL != "" {
				fmt.Fprintf(s.Out, "  endpoint %s answers MCP.\n", res.URL)
			}
			if res.Note != "" {
				fmt.Fprintln(s.Out, "  "+res.Note)
			}
			fmt.Fprintf(s.Out, "Restart %s (or reload its MCP servers), then ask it to call get_server_info.\n", c.Name)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().StringVar(&agent, "agent", "", "the agent to connect")
	cmd.Flags().StringVar(&scope, "scope", "", "where the entry goes: project or user (default: the project file when the client has one)")
	return cmd
}
