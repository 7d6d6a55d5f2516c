package installer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// Agents are the clients an install configures, resolved from Options.
type Agents struct {
	// Primaries each get a launch entry: whichever client starts first runs
	// the server, the others' servers share it.
	Primaries []agentconfig.Client
	IDE       *agentconfig.Client
	Secondary []agentconfig.Client
}

// Primary is the first primary agent, the one the wizard and the report
// speak of.
func (a Agents) Primary() agentconfig.Client { return a.Primaries[0] }

// Names lists the primaries' names, for the report.
func (a Agents) Names() []string {
	out := make([]string, len(a.Primaries))
	for i, c := range a.Primaries {
		out[i] = c.Name
	}
	return out
}

// ResolveAgents reads the agent options: --for's phrase, else every --agent
// (each repeat or comma-separated name adds a primary) and --ide, else the
// default; then every --secondary. A client named twice is configured once,
// as a primary when it is named as one.
func ResolveAgents(opts Options) (Agents, error) {
	var a Agents
	seen := map[string]bool{}
	switch {
	case opts.For != "":
		ch, err := agentconfig.ParsePhrase(opts.For)
		if err != nil {
			return Agents{}, fmt.Errorf("install: --for: %w", err)
		}
		a.Primaries, a.IDE = []agentconfig.Client{ch.Agent}, ch.IDE
		seen[ch.Agent.ID] = true
	default:
		names := SplitAgentNames(opts.Agents)
		if len(names) == 0 {
			names = []string{DefaultAgent}
		}
		for _, name := range names {
			c, err := agentconfig.Lookup(name)
			if err != nil {
				return Agents{}, fmt.Errorf("install: --agent: %w", err)
			}
			if !seen[c.ID] {
				seen[c.ID] = true
				a.Primaries = append(a.Primaries, c)
			}
		}
	}
	if opts.IDE != "" {
		ide, err := agentconfig.Lookup(opts.IDE)
		if err != nil {
			return Agents{}, fmt.Errorf("install: --ide: %w", err)
		}
		a.IDE = &ide
	}
	for _, name := range SplitAgentNames(opts.Secondary) {
		c, err := agentconfig.Lookup(name)
		if err != nil {
			return Agents{}, fmt.Errorf("install: --secondary: %w", err)
		}
		if !seen[c.ID] {
			seen[c.ID] = true
			a.Secondary = append(a.Secondary, c)
		}
	}
	return a, nil
}

// SplitAgentNames reads repeated, comma-separated agent flags into names.
func SplitAgentNames(flags []string) []string {
	var out []string
	for _, f := range flags {
		for _, name := range strings.Split(f, ",") {
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}

// inIDE adapts an extension's user paths to the IDE it runs in: Roo's
// settings live under Cursor's user folder when it runs in Cursor.
func inIDE(c agentconfig.Client, ide *agentconfig.Client) agentconfig.Client {
	if ide == nil || ide.ID != "cursor" {
		return c
	}
	paths := map[string]string{}
	for goos, p := range c.UserFile {
		paths[goos] = strings.Replace(p, "/Code/User/", "/Cursor/User/", 1)
	}
	c.UserFile = paths
	return c
}

// planAgents plans each primary's launch entry and rules, and each
// secondary's HTTP (or bridging stdio) entry and rules.
func planAgents(ctx context.Context, p project.Paths, opts Options, plannedPort int) ([]change, error) {
	agents, err := ResolveAgents(opts)
	if err != nil {
		return nil, err
	}
	env := userEnv(opts)
	text, err := agentconfig.RulesText()
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	backups := agentconfig.Backups{Dir: p.Backups(), Root: p.Root, Home: env.Home}
	var changes []change
	seenRules := map[string]bool{}
	addRules := func(c agentconfig.Client) error {
		rules, err := agentconfig.PlanRules(c, p.Root, text)
		if err != nil {
			return fmt.Errorf("install: %w", err)
		}
		for _, ch := range rules {
			if seenRules[ch.Path] {
				continue
			}
			seenRules[ch.Path] = true
			kind := StepRules
			if ch.Kind == "command" {
				kind = StepCommand
			}
			changes = append(changes, agentChange(p, env, backups, ch, kind, ""))
		}
		return nil
	}

	// addTrust follows the config step of t just planned (the last change):
	// it records the folder as trusted where the client keeps that
	// (--trust), or has that step say how to trust it and, for a client
	// that approves each new project server, how to approve it.
	addTrust := func(t agentconfig.Target) error {
		if how := t.ApproveHow(); how != "" && changes[len(changes)-1].step.Action != Unchanged {
			changes[len(changes)-1].step.Trust = how
		}
		if !t.NeedsTrust(env) {
			return nil
		}
		if !opts.Trust {
			if ok, err := t.Client.Trusted(p.Root, env); !ok || err != nil {
				step := &changes[len(changes)-1].step
				step.Trust = strings.TrimSpace(t.Client.TrustHow(p.Root, env) + " " + step.Trust)
			}
			return nil
		}
		ch, err := agentconfig.PlanTrust(t.Client, p.Root, env)
		if err != nil {
			return fmt.Errorf("install: --trust: %w", err)
		}
		changes = append(changes, agentChange(p, env, backups, ch, StepTrust, "Trusts this folder for "+t.Client.Name+", which reads the project's MCP config only in a trusted folder."))
		return nil
	}

	binary, err := launchBinary(p, opts)
	if err != nil {
		return nil, err
	}
	targets, err := agentTargets(p, agents, opts, env)
	if err != nil {
		return nil, err
	}
	var refused []agentconfig.Takeover
	for _, at := range targets {
		t := at.target
		var entry agentconfig.Entry
		var note string
		if at.primary {
			entry = t.LaunchFor(p.Root, binary)
			if t.Portable && !strings.HasPrefix(entry.Command, t.Client.WorkspaceVar) {
				t.Portable = false // the binary is outside the project (--no-pin)
			}
			note = teamNote(t, binary)
		} else {
			entry, note = SecondaryEntry(ctx, p, t.Client, binary, plannedPort)
		}
		if from, ok := agentconfig.Displaced(t, p.Root); ok {
			k := agentconfig.Takeover{Target: t, From: from, Root: p.Root}
			if from.Gone == "" && !opts.Replace {
				refused = append(refused, k)
			}
			note = strings.TrimSpace(k.Note() + " " + note)
		}
		ch, err := agentconfig.PlanEntry(t, entry)
		if err != nil {
			return nil, fmt.Errorf("install: %w", err)
		}
		c := agentChange(p, env, backups, ch, StepAgentConfig, note)
		if t.Single() && c.apply != nil {
			c.apply = recordingSingle(c.apply, p, t.Client, agentconfig.KindOf(entry))
			c.also = append(c.also, agentconfig.SingleRecord(p))
		}
		changes = append(changes, c)
		if err := addTrust(t); err != nil {
			return nil, err
		}
		if err := addRules(t.Client); err != nil {
			return nil, err
		}
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("install: %w", &agentconfig.TakeoverError{Takeovers: refused})
	}
	return changes, nil
}

// agentTarget is one client config an install writes an entry into: a
// primary's launch entry or a secondary's shared one.
type agentTarget struct {
	target  agentconfig.Target
	primary bool
}

// agentTargets lists where the install writes each agent's entry, the
// primaries first: each primary in opts.Scope, each secondary in its
// client's default scope, with an extension's user paths adapted to the
// IDE it runs in. t.Client is the adapted client.
func agentTargets(p project.Paths, agents Agents, opts Options, env agentconfig.Env) ([]agentTarget, error) {
	var out []agentTarget
	for _, c := range agents.Primaries {
		t, err := inIDE(c, agents.IDE).TargetFor(p.Root, agentconfig.Scope(opts.Scope), env)
		if err != nil {
			return nil, fmt.Errorf("install: %w", err)
		}
		out = append(out, agentTarget{target: t, primary: true})
	}
	for _, c := range agents.Secondary {
		c = inIDE(c, agents.IDE)
		t, err := c.TargetFor(p.Root, "", env)
		if err != nil {
			return nil, fmt.Errorf("install: secondary %s: %w", c.Name, err)
		}
		out = append(out, agentTarget{target: t})
	}
	return out, nil
}

// Takeovers lists the single user-level entries (Cline's, Windsurf's…) an
// install with opts would take from other projects that still exist: what
// the wizard asks about before it plans, since without opts.Replace the
// plan refuses them.
func Takeovers(opts Options) ([]agentconfig.Takeover, error) {
	p, err := installRoot(opts)
	if err != nil {
		return nil, err
	}
	agents, err := ResolveAgents(opts)
	if err != nil {
		return nil, err
	}
	targets, err := agentTargets(p, agents, opts, userEnv(opts))
	if err != nil {
		return nil, err
	}
	var out []agentconfig.Takeover
	for _, at := range targets {
		if from, ok := agentconfig.Displaced(at.target, p.Root); ok && from.Gone == "" {
			out = append(out, agentconfig.Takeover{Target: at.target, From: from, Root: p.Root})
		}
	}
	return out, nil
}

// recordingSingle wraps the write of a client's single user-level entry so
// that, once it is written, the project records having it: doctor there can
// then tell the project lost it when another project takes it.
func recordingSingle(apply func() error, p project.Paths, c agentconfig.Client, kind string) func() error {
	return func() error {
		if err := apply(); err != nil {
			return err
		}
		if err := agentconfig.RecordSingle(p, c, kind); err != nil {
			return fmt.Errorf("install: %w", err)
		}
		return nil
	}
}

// userEnv locates user-scoped files: opts.Env, else this machine's.
func userEnv(opts Options) agentconfig.Env {
	if opts.Env != nil {
		return *opts.Env
	}
	return agentconfig.SystemEnv()
}

// SecondaryEntry is the entry a secondary agent gets: the running primary's
// URL, from a state file state.Verify trusts (or, before it first runs, the
// port the config records — on a first install, plannedPort, the one it
// will record — else the first port of the configured range), or
// for a stdio-only client a stdio command running binary that bridges.
func SecondaryEntry(ctx context.Context, p project.Paths, c agentconfig.Client, binary string, plannedPort int) (agentconfig.Entry, string) {
	if !c.CanHTTP() {
		return agentconfig.Bridge(binary, p.Root),
			c.Name + " speaks stdio only: its entry runs `agentos serve --transport stdio`, which bridges to the primary server."
	}
	cfg := config.LoadOrDefault(p.Config())
	st, err := state.ReadVerified(ctx, p, cfg)
	if err == nil {
		return agentconfig.HTTPEntry(st.URL), "Points at the running server, " + st.URL + "."
	}
	port := cfg.Server.Port
	if plannedPort != 0 {
		port = plannedPort
	}
	if port != 0 {
		url := fmt.Sprintf("http://%s:%d%s", state.Host, port, state.EndpointPath)
		return agentconfig.HTTPEntry(url), "Points at the project's recorded port (server.port in .agentos/config/mcp.yaml), " + url + ", where the server listens when it runs."
	}
	lo, _, perr := cfg.Ports()
	if perr != nil {
		lo = config.DefaultPortMin
	}
	url := fmt.Sprintf("http://%s:%d%s", state.Host, lo, state.EndpointPath)
	note := "The server is not running yet, so this assumes the first port of the range (" + url + "); run `agentos connect --agent " + c.ID + "` once the primary runs to confirm it."
	if !errors.Is(err, state.ErrMissing) {
		note = "The state file was not used (" + err.Error() + "), so this assumes the first port of the range (" + url + "); run `agentos connect --agent " + c.ID + "` once the primary runs to confirm it."
	}
	return agentconfig.HTTPEntry(url), note
}

// teamNote says whether a config file works for every teammate.
func teamNote(t agentconfig.Target, binary string) string {
	switch {
	case t.Portable:
		return "Uses " + t.Client.WorkspaceVar + ", so the file works on every machine and can be committed."
	case t.Scope == agentconfig.ScopeLocal:
		return "In " + t.Client.Name + "'s local scope: your user config, for this project only, so nothing committed holds this machine's path; each teammate runs `agentos install` once."
	case t.Scope == agentconfig.ScopeUser && t.Client.ProjectFile == "":
		return t.Client.Name + " has no project config: the entry is in your user config and points at this project."
	case t.Scope == agentconfig.ScopeUser:
		return "In your user config, so it applies to every project you open in " + t.Client.Name + " and points at this one."
	case t.Client.WorkspaceVar != "" && t.Scope == agentconfig.ScopeProject:
		return "The binary is not pinned in the project (--no-pin), so this file names " + binary + " instead of " + t.Client.WorkspaceVar + ": a machine-specific path."
	case t.Client.LocalScope:
		return "This file holds a machine-specific path (" + binary + "); drop --scope project to keep it in your local scope instead."
	default:
		return t.Client.Name + " expands no workspace variable and has no per-project local scope, so this file holds a machine-specific path (" + binary + "): if it is committed, each teammate's `agentos install` rewrites it with theirs."
	}
}

// checkWritableNear checks, for a file outside the project (a user-scoped
// config), that its nearest existing folder can be written, so that a
// read-only home fails the install before the project is touched.
func checkWritableNear(path, root string) error {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return nil // the project root is checked as a whole
	}
	dir := filepath.Dir(path)
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
	if err := checkWritable(dir); err != nil {
		return fmt.Errorf("install: cannot write %s: %w", path, err)
	}
	return nil
}

// agentChange turns an agentconfig plan into an installer step.
func agentChange(p project.Paths, env agentconfig.Env, backups agentconfig.Backups, ch agentconfig.Change, kind, note string) change {
	display := agentconfig.Display(ch.Path, p.Root, env.Home)
	if kind == StepAgentConfig {
		kind = stepKind(display)
	}
	step := Step{Kind: kind, Path: display, Action: Action(ch.Action), Client: ch.Client}
	if ch.Action == agentconfig.Unchanged {
		return change{step: step}
	}
	step.Detail = note
	if ch.UserOwned && ch.Existed {
		if _, err := os.Lstat(backups.PathFor(ch.Path)); err != nil {
			step.Backup = agentconfig.Display(backups.PathFor(ch.Path), p.Root, env.Home)
		}
	}
	step.Before, step.After = ch.Before, ch.After
	if err := checkWritableNear(ch.Path, p.Root); err != nil {
		return change{step: step, apply: func() error { return err }, precheck: err}
	}
	return change{step: step, apply: func() error {
		if _, err := agentconfig.Apply(ch, backups); err != nil {
			return fmt.Errorf("install: %w", err)
		}
		return nil
	}}
}
