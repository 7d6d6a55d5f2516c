package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
)

func newStatusCmd(s *streams) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show whether this project's agentos server is running",
		Long: `Status reads .agentos/.mcp_server_state.json, checks it (a URL on 127.0.0.1 in the port range,
a live process holding the project lock, an endpoint answering as this project's server; a
stale or forged file is named as such and gets nothing but that check), and prints the
transport, URL, pid and uptime. When the project's recorded port (server.port) is busy, or another
project records it, it names who holds it, the fallback port the server runs on, and the fix: HTTP
clients configured with the recorded port reach whatever listens there.

Exit status: 0 when the server is running, 1 when it is not (the reason is printed),
3 when no .agentos/ is found.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := project.Find(dir)
			if err != nil {
				return withCode(exitProject, err)
			}
			pr := server.ProbeProject(cmd.Context(), p)
			conflict, fix := portConflict(cmd.Context(), p, pr)
			if asJSON {
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(struct {
					server.Probe
					PortConflict string `json:"port_conflict,omitempty"`
					PortFix      string `json:"port_fix,omitempty"`
				}{pr, conflict, fix}); err != nil {
					return err
				}
			} else {
				printProbe(s, p, pr)
				if conflict != "" {
					fmt.Fprintf(s.Out, "  port:      %s\n  fix:       %s\n", conflict, fix)
				}
			}
			if !pr.Running {
				return silentExit(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: found from the working directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func printProbe(s *streams, p project.Paths, pr server.Probe) {
	if !pr.Running {
		fmt.Fprintf(s.Out, "agentos server for %s: not running\n  reason: %s\n", p.Root, pr.Reason)
		return
	}
	fmt.Fprintf(s.Out, "agentos server for %s: running\n", p.Root)
	fmt.Fprintf(s.Out, "  transport: %s\n", pr.Transport)
	if pr.URL != "" {
		fmt.Fprintf(s.Out, "  url:       %s\n", pr.URL)
	}
	fmt.Fprintf(s.Out, "  pid:       %d\n", pr.PID)
	if pr.Uptime != "" {
		fmt.Fprintf(s.Out, "  uptime:    %s\n", pr.Uptime)
	}
	if pr.Reason != "" {
		fmt.Fprintf(s.Out, "  note:      %s\n", pr.Reason)
	}
}
