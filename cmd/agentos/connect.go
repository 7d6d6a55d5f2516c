package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
)

func newConnectCmd(s *streams) *cobra.Command {
	var dir, scope string
	var agents []string
	var trust, replace bool
	cmd := &cobra.Command{
		Use:   "connect",
		Short: "Connect a secondary agent to this project's running server",
		Long: `Connect reads .agentos/.mcp_server_state.json, checks that the primary server is running
and answers MCP, and writes the agent's entry for it: the server's HTTP URL spelled the
way that client wants it, or, for a client that speaks stdio only (Claude Desktop,
Junie), a stdio command that bridges to the running server. Both agents then share
one server and one state. The agent's config is merged, never replaced, and its
original is saved once under .agentos/backups/. In a terminal, without --agent, a menu
asks which agent; --agent may be repeated or comma-separated. An HTTP entry auto-approves
the same tools as a launch entry, and keeps the tools you approved in the entry it replaces.

For an agent that reads the project's config only in a trusted folder (Codex, Gemini CLI,
Qwen Code, Copilot CLI), connect says how to trust it; --trust records the folder in that
agent's own trust file.

Cline, Windsurf, Goose and Claude Desktop keep one agentos entry for all projects. When it
serves another project that still exists, connect asks in a terminal and otherwise refuses,
unless --replace is given; an entry for a project folder that is gone is replaced.

Agents: ` + agentIDs(),
		Example: "  agentos connect --agent codex --trust\n  agentos connect --agent opencode,qwen\n  agentos connect --agent claude-desktop --dir ~/src/app",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			if len(agents) == 0 {
				if !isTerminal(s.InFile) || !isTerminal(s.OutFile) {
					return withCode(exitUsage, fmt.Errorf("name the agent to connect with --agent (one of: %s)", agentIDs()))
				}
				accessible := os.Getenv("TERM") == "dumb" || os.Getenv("ACCESSIBLE") != ""
				picked, err := installer.PickAgent(cmd.Context(), installer.WizardIO{In: s.In, Out: s.Out, Accessible: accessible})
				if err != nil {
					return err
				}
				agents = []string{picked}
			}
			var clients []agentconfig.Client
			for _, name := range installer.SplitAgentNames(agents) {
				c, err := agentconfig.Lookup(name)
				if err != nil {
					return withCode(exitUsage, err)
				}
				clients = append(clients, c)
			}
			env := agentconfig.SystemEnv()
			for _, c := range clients {
				if err := connectOne(cmd.Context(), s, p, c, agentconfig.Scope(scope), trust, replace, env); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().StringSliceVar(&agents, "agent", nil, "the agent to connect (repeat or comma-separate for several)")
	cmd.Flags().BoolVar(&trust, "trust", false, "record this folder as trusted where the agent keeps its trusted folders (Codex, Gemini CLI, Qwen Code, Copilot CLI)")
	cmd.Flags().BoolVar(&replace, "replace", false, "point the agent's one user-level entry (Cline, Windsurf, Goose, Claude Desktop) at this project even when it serves another project")
	cmd.Flags().StringVar(&scope, "scope", "", "where the entry goes: project or user (default: the project file when the client has one)")
	return cmd
}

// connectOne connects one agent and says what it did, what the agent needs
// besides (a bearer token, a trusted folder) and what to do next.
func connectOne(ctx context.Context, s *streams, p project.Paths, c agentconfig.Client, scope agentconfig.Scope, trust, replace bool, env agentconfig.Env) error {
	res, err := agentconfig.Connect(ctx, p, c, scope, env, replace)
	// The agent's one entry serves another project: a person at a
	// terminal is asked; anywhere else the refusal names --replace.
	var te *agentconfig.TakeoverError
	if errors.As(err, &te) && len(te.Takeovers) == 1 && isTerminal(s.InFile) && isTerminal(s.OutFile) {
		accessible := os.Getenv("TERM") == "dumb" || os.Getenv("ACCESSIBLE") != ""
		ok, askErr := installer.ConfirmTakeover(ctx, installer.WizardIO{In: s.In, Out: s.Out, Accessible: accessible}, te.Takeovers[0])
		if askErr != nil {
			return askErr
		}
		if !ok {
			fmt.Fprintf(s.Out, "%s's entry was left as it is; nothing changed.\n", c.Name)
			return silentExit(exitFailure)
		}
		res, err = agentconfig.Connect(ctx, p, c, scope, env, true)
	}
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
	if res.Took != nil {
		fmt.Fprintln(s.Out, "  "+res.Took.Note())
	}
	if res.URL != "" {
		fmt.Fprintf(s.Out, "  endpoint %s answers MCP.\n", res.URL)
	}
	if res.Note != "" {
		fmt.Fprintln(s.Out, "  "+res.Note)
	}
	if how := res.Target.ApproveHow(); how != "" && res.Change.Action != agentconfig.Unchanged {
		fmt.Fprintln(s.Out, "  "+how)
	}
	if res.Target.NeedsTrust(env) {
		switch trusted, _ := c.Trusted(p.Root, env); {
		case trust:
			ch, backup, err := agentconfig.TrustFolder(c, p.Root, env, agentconfig.Backups{Dir: p.Backups(), Root: p.Root, Home: env.Home})
			if err != nil {
				return err
			}
			if ch.Action != agentconfig.Unchanged {
				fmt.Fprintf(s.Out, "%s %s: %s now trusts this folder.\n", ch.Action, agentconfig.Display(ch.Path, p.Root, env.Home), c.Name)
				if backup != "" {
					fmt.Fprintf(s.Out, "  original saved to %s\n", agentconfig.Display(backup, p.Root, env.Home))
				}
			}
		case !trusted:
			fmt.Fprintln(s.Out, "  "+c.TrustHow(p.Root, env))
		}
	}
	fmt.Fprintf(s.Out, "Restart %s (or reload its MCP servers), then ask it to call get_server_info.\n", c.Name)
	return nil
}
