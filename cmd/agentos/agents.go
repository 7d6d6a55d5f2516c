package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentos-dev/agentos/agentconfig"
)

func agentIDs() string { return strings.Join(agentconfig.IDs(), ", ") }

func newAgentsCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "The MCP clients agentos can configure",
		Args:  cobra.NoArgs,
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List every client with what it supports and which facts are unverified",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows := agentRows()
			if asJSON {
				enc := json.NewEncoder(s.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tFORMAT\tPROJECT FILE\tLAUNCH ENTRY GOES TO\tHTTP\tAUTO-APPROVE\tRULES\tUNVERIFIED")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Format, dash(r.ProjectFile), r.DefaultTarget, dash(r.HTTP), dash(r.AutoApprove), dash(strings.Join(r.Rules, " ")), dash(strings.Join(r.Unverified, ", ")))
			}
			tw.Flush()
			fmt.Fprintln(s.Out, "\nTeams: a launch entry marked * sits in a project file that holds this machine's absolute path (the")
			fmt.Fprintln(s.Out, "client expands no workspace variable and has no local scope); each teammate's `agentos install` rewrites it.")
			fmt.Fprintln(s.Out, "Every other default keeps machine paths out of committed files.")
			fmt.Fprintf(s.Out, "User config paths are those of %s; `agentos agents list --json` shows every field and note.\n", runtime.GOOS)
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.AddCommand(list)
	return cmd
}

type agentRow struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Format      string `json:"format"`
	Key         string `json:"key"`
	ProjectFile string `json:"project_file,omitempty"`
	UserFile    string `json:"user_file,omitempty"`
	HTTP        string `json:"http,omitempty"` // how its HTTP entry is spelled; "" for stdio-only clients
	AutoApprove string `json:"auto_approve,omitempty"`
	// TrustFile is where the client records the folders it trusts, for a
	// client that reads a project's config only in one; Approve is the
	// command that approves a new project server.
	TrustFile    string `json:"trust_file,omitempty"`
	Approve      string `json:"approve,omitempty"`
	WorkspaceVar string `json:"workspace_var,omitempty"`
	// DefaultTarget is where install writes the launch entry when no
	// --scope is given; Team says how that behaves for a team.
	DefaultTarget string   `json:"default_target"`
	Team          string   `json:"team"`
	Rules         []string `json:"rules,omitempty"`
	Unverified    []string `json:"unverified,omitempty"`
	Note          string   `json:"note,omitempty"`
}

func agentRows() []agentRow {
	env := agentconfig.SystemEnv()
	var rows []agentRow
	for _, c := range agentconfig.All() {
		r := agentRow{ID: c.ID, Name: c.Name, Format: string(c.Format), Key: strings.Join(c.Key, "."), ProjectFile: c.ProjectFile,
			UserFile: agentconfig.Display(c.UserPath(env), "", env.Home), AutoApprove: c.Shape.AutoApprove, WorkspaceVar: c.WorkspaceVar,
			TrustFile: agentconfig.Display(c.TrustPath(env), "", env.Home), Approve: c.Approve, Unverified: c.Unverified, Note: c.Note}
		for k, v := range c.Shape.Approval { // Gemini CLI's and Qwen Code's trust: true
			r.AutoApprove = strings.TrimSpace(r.AutoApprove + " " + fmt.Sprintf("%s=%v", k, v))
		}
		if c.List {
			r.Key += " (list)"
		}
		r.Team = c.Team()
		switch c.DefaultScope() {
		case agentconfig.ScopeUser:
			r.DefaultTarget = "user config"
		case agentconfig.ScopeLocal:
			r.DefaultTarget = "local: " + c.LocalFile
			if c.LocalFile == "" {
				r.DefaultTarget = "local: " + agentconfig.Display(c.UserPath(env), "", env.Home) + " (this project)"
			}
		default:
			r.DefaultTarget = "project"
			if c.WorkspaceVar != "" {
				r.DefaultTarget += " (" + c.WorkspaceVar + ")"
			} else {
				r.DefaultTarget += " *"
			}
		}
		if c.CanHTTP() {
			var parts []string
			for _, f := range c.Emit(agentconfig.HTTPEntry("U")) {
				if f.Value == "U" {
					parts = append(parts, f.Key)
				} else if v, ok := f.Value.(string); ok && f.Key != "name" {
					parts = append(parts, f.Key+"="+v)
				}
			}
			r.HTTP = strings.Join(parts, " ")
		} else {
			r.HTTP = "stdio only (bridge)"
		}
		for _, rf := range c.Rules {
			r.Rules = append(r.Rules, rf.Path)
		}
		rows = append(rows, r)
	}
	return rows
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
