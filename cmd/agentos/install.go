package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/installer"
)

func newInstallCmd(s *streams) *cobra.Command {
	var opts installer.Options
	var asJSON, dryRun bool
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install agentos into a project and configure your agents",
		Long: `Install lays out .agentos/ in the project (standards, workflows, specs, config, a pinned
copy of this binary), adds agentos's private folders to .gitignore, writes each primary
agent's MCP entry (the client launches the server; the first to start runs it, the others
share it) and its rules file, and gives each secondary agent an entry that shares the
server over HTTP. --agent and --secondary may be repeated or comma-separated.

Codex, Gemini CLI, Qwen Code and Copilot CLI read a project's MCP config only in a folder
the person trusts: install says how to trust it, and --trust records the folder in each
such agent's own trust file (see 'agentos trust').

Existing files are merged, never replaced: other servers, settings and comments are
kept, the original is saved once under .agentos/backups/, and a malformed file stops
the install before anything is written. Running it again changes nothing and says so;
running it with another --agent adds that agent and removes nothing.

Cline, Windsurf, Goose and Claude Desktop keep one agentos entry for all projects, in the
user config (as does any agent installed with --scope user). When that entry serves another
project that still exists, install refuses to repoint it (the wizard asks) unless --replace
is given; an entry for a project folder that is gone is replaced without asking.

Agents: ` + agentIDs() + `
(see 'agentos agents list').`,
		Example: `  agentos install --yes                                 Claude Code, the default
  agentos install --agent cursor --secondary codex --yes
  agentos install --agent claude-code --agent gemini --secondary codex --trust --yes
  agentos install --for "Cline in Cursor" --yes
  agentos install --agent claude-code --scope local --yes   keep the entry out of .mcp.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			interactive := !opts.Yes && !dryRun && isTerminal(s.InFile) && isTerminal(s.OutFile)
			if interactive {
				return runInstallWizard(cmd, s, opts)
			}
			if _, err := installer.ResolveAgents(opts); err != nil {
				return withCode(exitUsage, err)
			}
			if dryRun || !opts.Yes {
				// The plan, with the diff of every file it changes, as
				// upgrade and uninstall show theirs.
				pl, err := installer.Preview(cmd.Context(), opts)
				if err != nil {
					return err
				}
				if asJSON {
					enc := json.NewEncoder(s.Out)
					enc.SetIndent("", "  ")
					if err := enc.Encode(pl); err != nil {
						return err
					}
				} else if !pl.Changed {
					fmt.Fprintf(s.Out, "agentos is up to date in %s; an install would change nothing.\n", pl.Root)
				} else {
					installer.PrintPlan(s.Out, pl)
				}
				if dryRun {
					return nil
				}
				return withCode(exitUsage, fmt.Errorf("nothing was installed: there is no terminal to ask in; run again with --yes to carry out this plan"))
			}
			report, err := installer.Install(cmd.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(report)
			}
			report.Print(s.Out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Dir, "dir", "", "project folder (default: the project found from the working directory, else the working directory)")
	f.BoolVarP(&opts.Yes, "yes", "y", false, "install without asking")
	f.StringSliceVar(&opts.Agents, "agent", nil, "primary agent: a client that launches the server (default claude-code; repeat or comma-separate for several)")
	f.StringVar(&opts.IDE, "ide", "", "the IDE the agent runs in, when it matters (cursor, vscode)")
	f.StringVar(&opts.For, "for", "", `agent and IDE as you would say it: "Cline in Cursor"`)
	f.StringSliceVar(&opts.Secondary, "secondary", nil, "agents that share the primary's server over HTTP (repeat or comma-separate)")
	f.StringVar(&opts.Scope, "scope", "", "where the primary entry goes: project, local (Claude Code) or user")
	f.StringSliceVar(&opts.SourcePaths, "source-paths", nil, "folders to index in a new config (default: the whole project, .gitignore honoured)")
	f.StringSliceVar(&opts.Languages, "languages", nil, "languages of a new config (default: detected)")
	f.Float64Var(&opts.CoverageThreshold, "coverage-threshold", 0, "a new config's workflow.coverage_threshold (default 80)")
	f.BoolVar(&opts.Trust, "trust", false, "record this folder as trusted in the trust file of each agent that needs it (Codex, Gemini CLI, Qwen Code, Copilot CLI)")
	f.BoolVar(&opts.Replace, "replace", false, "point an agent's one user-level entry (Cline, Windsurf, Goose, Claude Desktop, --scope user) at this project even when it serves another project")
	f.BoolVar(&opts.NoPin, "no-pin", false, "do not copy this binary into .agentos/bin/; the agents run it where it is")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.BoolVar(&dryRun, "dry-run", false, "print the plan and the diff of every file it would change, and change nothing")
	f.BoolVar(&opts.Force, "force", false, "install into the home folder or the file system's root (refused without it: every folder below would find that install)")
	cmd.MarkFlagsMutuallyExclusive("for", "agent")
	return cmd
}
