package installer

import (
	"fmt"
	"io"
	"strings"
)

// Action says what a step did to its path.
type Action string

// The actions a step reports.
const (
	Created   Action = "created"
	Updated   Action = "updated"
	Unchanged Action = "unchanged"
)

// Step kinds, one per thing the installer manages.
const (
	StepFolder    = "folder"
	StepConfig    = "config"
	StepBinary    = "binary"
	StepGitignore = "gitignore"
	StepMCPJSON   = "mcp_json"
)

// Step is one thing the installer ensured, in the order it was done.
type Step struct {
	Kind   string `json:"kind"`             // one of the Step* constants
	Path   string `json:"path"`             // relative to the project root, slash-separated
	Action Action `json:"action"`           // created, updated or unchanged
	Backup string `json:"backup,omitempty"` // where the original was saved by this run, relative to the project root
	Detail string `json:"detail,omitempty"` // one sentence for the user, if the step has more to say
}

// Report is the outcome of Install.
type Report struct {
	Root     string     `json:"root"`               // absolute project root
	Changed  bool       `json:"changed"`            // whether any step created or updated something
	Steps    []Step     `json:"steps"`              // every step, changed or not
	Detected *Detection `json:"detected,omitempty"` // what detection found, when this run wrote the config
}

// Print writes a short summary for a person: what changed and what to do next,
// or a single line when the project was already up to date.
func (r *Report) Print(w io.Writer) {
	if !r.Changed {
		fmt.Fprintf(w, "agentos is up to date in %s; nothing changed.\n", r.Root)
		return
	}
	fmt.Fprintf(w, "Installed agentos in %s:\n", r.Root)
	printFolders(w, r.Steps)
	for _, s := range r.Steps {
		if s.Kind == StepFolder {
			continue
		}
		line := fmt.Sprintf("  %-10s %s", s.Action, s.Path)
		if s.Backup != "" {
			line += fmt.Sprintf(" (original saved to %s)", s.Backup)
		}
		fmt.Fprintln(w, line)
		if s.Detail != "" {
			fmt.Fprintf(w, "             %s\n", s.Detail)
		}
	}
	fmt.Fprintln(w, "\nNext steps:")
	fmt.Fprintln(w, "  1. Restart Claude Code so it starts the agentos server listed in .mcp.json.")
	fmt.Fprintln(w, "  2. Ask the agent to call get_server_info to check that agentos is connected.")
}

// printFolders summarises the layout steps in one line; listing nine empty
// folders one by one would bury the steps that matter.
func printFolders(w io.Writer, steps []Step) {
	var total int
	var created []string
	for _, s := range steps {
		if s.Kind != StepFolder {
			continue
		}
		total++
		if s.Action != Unchanged {
			created = append(created, strings.TrimPrefix(s.Path, ".agentos/"))
		}
	}
	switch {
	case total == 0:
	case len(created) == 0:
		fmt.Fprintf(w, "  %-10s .agentos/ folders\n", Unchanged)
	case len(created) == total:
		fmt.Fprintf(w, "  %-10s .agentos/ folders (%d)\n", Created, total)
	default:
		fmt.Fprintf(w, "  %-10s .agentos/ folders: %s\n", Created, strings.Join(created, ", "))
	}
}
