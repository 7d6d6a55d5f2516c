package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/internal/buildinfo"
)

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of agentos",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := buildinfo.Get()
			if asJSON {
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					buildinfo.Info
					Platform string `json:"platform"`
				}{info, runtime.GOOS + "/" + runtime.GOARCH})
			}
			fmt.Fprintf(s.Out, "agentos %s", info.Version)
			if info.Commit != "" {
				fmt.Fprintf(s.Out, " (%.12s", info.Commit)
				if info.Modified {
					fmt.Fprint(s.Out, ", with uncommitted changes")
				}
				fmt.Fprint(s.Out, ")")
			}
			fmt.Fprintf(s.Out, " %s %s/%s\n", info.GoVersion, runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
