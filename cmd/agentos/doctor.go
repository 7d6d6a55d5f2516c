package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/shellquote"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/project"
)

func newDoctorCmd(s *streams) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check this project's agentos setup and say how to fix what is wrong",
		Long: `Doctor checks each cause of "Failed to connect": the config loads; the pinned binary is
there and is this agentos's build; the primary server runs in dual mode and its search
indexes have not failed; and every client
config on this machine that holds an agentos entry parses and has an absolute command
path, the project root, the right port, the /mcp path, 127.0.0.1 rather than localhost
and a transport spelling the client's current version reads as streamable HTTP (an older
spelling it still reads is a note). It also checks the test command the workflow
gates run: a project with tests needs one, and the default's runner must be installed with
what writes its reports (pytest-cov, @vitest/coverage-v8, jest-junit). It prints ✓ or ✗ per check, with the fix.

A server that is not running yet is a note (•), not a failure: the primary agent starts it.
A stale state file, a server in stdio-only mode (the fix names the client whose entry
launched it), an entry pointing at another port than the running server's, a folder a
client does not trust, a project server Qwen Code shows as pending approval, a stdio entry
in a client that speaks HTTP or one with no primary to bridge to, and an entry whose
binary is missing are failures, each printed with its fix.

Exit status: 0 when every check passes, 1 when any fails, 3 when no .agentos/ is found.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			if uninstalled(p) {
				return withCode(exitProject, fmt.Errorf("agentos is not installed in %s: its .agentos/ holds only what uninstall keeps (specs, development standards); `agentos install --dir %s` sets it up again", p.Root, shellquote.Arg(p.Root)))
			}
			checks := agentconfig.Diagnose(cmd.Context(), p, agentconfig.SystemEnv())
			if c, ok := testCommandCheck(cmd.Context(), p); ok {
				checks = append(checks, c)
			}
			if c, ok := sandboxCheck(p); ok {
				checks = append(checks, c)
			}
			if c, ok := trustCheck(p); ok {
				checks = append(checks, c)
			}
			checks = appendPortCheck(cmd.Context(), p, checks)
			failed := 0
			for _, c := range checks {
				if !c.OK {
					failed++
				}
			}
			if asJSON {
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(struct {
					Root   string              `json:"root"`
					OK     bool                `json:"ok"`
					Checks []agentconfig.Check `json:"checks"`
				}{p.Root, failed == 0, checks}); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(s.Out, "agentos doctor for %s\n", p.Root)
				for _, c := range checks {
					mark := "✓"
					switch {
					case !c.OK:
						mark = "✗"
					case c.Note:
						mark = "•"
					}
					fmt.Fprintf(s.Out, "%s %s: %s\n", mark, c.Name, c.Detail)
					if !c.OK && c.Fix != "" {
						fmt.Fprintf(s.Out, "    fix: %s\n", c.Fix)
					}
				}
				if failed == 0 {
					fmt.Fprintln(s.Out, "Everything checks out.")
				} else {
					fmt.Fprintf(s.Out, "%d of %d checks failed.\n", failed, len(checks))
				}
			}
			if failed > 0 {
				return silentExit(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

// uninstalled reports whether the project's .agentos/ is what uninstall
// leaves: no config and no pinned binary. Its clients' entries are gone
// too, so checking them would only tell a person to fix what was removed.
func uninstalled(p project.Paths) bool {
	_, errCfg := os.Stat(p.Config())
	_, errBin := os.Stat(p.Bin())
	return errors.Is(errCfg, fs.ErrNotExist) && errors.Is(errBin, fs.ErrNotExist)
}
