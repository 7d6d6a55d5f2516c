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
	// Kept marks a file agentos would write that the user has changed: it
	// was left as it is. Printed as "kept (edited)".
	Kept Action = "kept"
	// Skipped marks a step the options turned off (the pinned binary with
	// --no-pin).
	Skipped Action = "skipped"
)

// Step kinds, one per thing the installer manages.
const (
	StepFolder    = "folder"
	StepConfig    = "config"
	StepBinary    = "binary"
	StepGitignore = "gitignore"
	StepMCPJSON   = "mcp_json"
	StepStandard  = "standard"
	// StepAgentConfig is a client's MCP config (StepMCPJSON for .mcp.json).
	StepAgentConfig = "agent_config"
	// StepRules is a rules file an agent reads.
	StepRules = "rules"
	// StepCommand is a slash-command (prompt) file of an agent.
	StepCommand = "command"
	// StepTrust is a client's record of the folders it trusts (--trust).
	StepTrust = "trust"
)

// Step is one thing the installer ensured, in the order it was done.
type Step struct {
	Kind   string `json:"kind"`             // one of the Step* constants
	Path   string `json:"path"`             // relative to the project root, slash-separated
	Action Action `json:"action"`           // created, updated or unchanged
	Backup string `json:"backup,omitempty"` // where the original was saved by this run, relative to the project root
	Detail string `json:"detail,omitempty"` // one sentence for the user, if the step has more to say
	Client string `json:"client,omitempty"` // the agent a config or rules step is for
	// Trust says how to have the client trust the project folder, when it
	// reads the entry only in a trusted folder and does not trust it yet.
	Trust string `json:"trust,omitempty"`
	// Before and After are the content of a changed user-visible file, for
	// the plan's diff; not reported.
	Before []byte `json:"-"`
	After  []byte `json:"-"`
}

// Report is the outcome of Install.
type Report struct {
	Root     string     `json:"root"`               // absolute project root
	Changed  bool       `json:"changed"`            // whether any step created or updated something
	Steps    []Step     `json:"steps"`              // every step, changed or not
	Detected *Detection `json:"detected,omitempty"` // what detection found, when this run wrote the config
	Agents   []string   `json:"agents,omitempty"`   // the primary agents' names
}

// Print writes a short summary for a person: what changed and what to do next,
// or a single line when the project was already up to date.
func (r *Report) Print(w io.Writer) {
	if !r.Changed {
		fmt.Fprintf(w, "agentos is up to date in %s; nothing changed.\n", r.Root)
		printKept(w, r.Steps)
		for _, s := range r.Steps { // the settings of a config install did not write that wait for trust
			if s.Kind == StepConfig && s.Detail != "" {
				fmt.Fprintf(w, "  %-10s %s\n             %s\n", s.Action, s.Path, s.Detail)
			}
		}
		printTrust(w, r.Steps)
		return
	}
	fmt.Fprintf(w, "Installed agentos in %s:\n", r.Root)
	printFolders(w, r.Steps)
	printed := false
	for _, s := range r.Steps {
		if s.Kind == StepFolder {
			continue
		}
		if s.Kind == StepStandard {
			if !printed {
				printStandards(w, r.Steps)
				printed = true
			}
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
	printTrust(w, r.Steps)
	agents := "Claude Code"
	if len(r.Agents) > 0 {
		agents = joinAnd(r.Agents)
	}
	fmt.Fprintln(w, "\nNext steps:")
	if len(r.Agents) > 1 {
		fmt.Fprintf(w, "  1. Restart %s: the first to start runs the agentos server from its MCP config, the others share it.\n", agents)
	} else {
		fmt.Fprintf(w, "  1. Restart %s so it starts the agentos server from its MCP config.\n", agents)
	}
	fmt.Fprintln(w, "  2. Ask the agent to call get_server_info to check that agentos is connected.")
	fmt.Fprintln(w, "  3. Ask it to search the standards for error handling, then to start a spec for a small feature.")
	fmt.Fprintln(w, "  Check the setup any time with `agentos doctor`.")
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

// printStandards summarises the standard steps in one line per folder
// (universal/, development/), then lists each kept file: dozens of
// standards listed one by one would bury the steps that matter.
func printStandards(w io.Writer, steps []Step) {
	type group struct {
		name            string
		total           int
		created, others []string
	}
	var groups []*group
	byName := map[string]*group{}
	for _, s := range steps {
		if s.Kind != StepStandard {
			continue
		}
		name := standardsGroup(s.Path)
		g := byName[name]
		if g == nil {
			g = &group{name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		g.total++
		switch s.Action {
		case Created:
			g.created = append(g.created, strings.TrimPrefix(s.Path, name))
		case Unchanged, Kept:
		default:
			g.others = append(g.others, s.Path)
		}
	}
	for _, g := range groups {
		n := plural(g.total, "standard", "standards")
		if g.name == workflowsGroup {
			n = plural(g.total, "workflow file", "workflow files")
		}
		switch {
		case len(g.created) == g.total:
			fmt.Fprintf(w, "  %-10s %s (%d %s)\n", Created, g.name, g.total, n)
		case len(g.created) == 0:
			fmt.Fprintf(w, "  %-10s %s (%d %s)\n", Unchanged, g.name, g.total, n)
		default:
			fmt.Fprintf(w, "  %-10s %s: %d of %d %s: %s\n", Created, g.name, len(g.created), g.total, n, shortList(g.created, 4))
		}
	}
	printKept(w, steps)
}

// printTrust says, for each client that does not trust the project folder
// yet, how to trust it (until then it shows none of the project's servers),
// and for each that holds a new server for approval, how to approve it.
func printTrust(w io.Writer, steps []Step) {
	first := true
	for _, s := range steps {
		if s.Trust == "" {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nBefore these agents use the project's server:")
			first = false
		}
		fmt.Fprintf(w, "  - %s\n", s.Trust)
	}
}

// workflowsGroup is the folder of the shipped workflow definitions, which
// install lays out beside the standards (and reports the same way).
const workflowsGroup = ".agentos/workflows/"

// printKept lists the files agentos left alone because the user edited them.
func printKept(w io.Writer, steps []Step) {
	for _, s := range steps {
		if s.Action == Kept {
			fmt.Fprintf(w, "  %-10s %s\n             %s.\n", "kept (edited)", s.Path, upperFirst(s.Detail))
		}
	}
}

// joinAnd joins names as a sentence does: "A", "A and B", "A, B and C".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// shortList joins up to max items and says how many more there are.
func shortList(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:max], ", "), len(items)-max)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
