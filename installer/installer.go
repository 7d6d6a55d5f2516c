// Package installer owns `agentos install`: it lays out .agentos/ in a project,
// writes the initial .agentos/config/mcp.yaml from what it detects in the
// code, copies the universal standards to .agentos/standards/universal/ and
// renders the standards of each detected language into
// .agentos/standards/development/ (never replacing a file that exists), pins
// a copy of the running binary under .agentos/bin/, keeps a managed
// block in the project's .gitignore, and configures the chosen agents
// through package agentconfig: the primary's launch entry, secondaries'
// HTTP (or bridging stdio) entries, rules files and slash commands. It also
// owns the install wizard (huh forms, or accessible prompts) and uninstall.
//
// Install reads and validates everything before it writes anything, writes
// each file atomically, never overwrites a user's config, merges into files
// it shares with the user, and backs up the original of each shared file once.
// Running it again changes nothing and says so.
package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
)

// Options configure Install.
type Options struct {
	// Dir is the project folder to install into; "" means the working directory.
	Dir string
	// Yes installs with the defaults without asking. This installer never
	// asks, so Install behaves the same either way; the command requires it
	// so that an interactive installer can later become the default.
	Yes bool
	// BinaryPath is the agentos binary to pin into .agentos/bin/; "" means
	// the running executable.
	BinaryPath string
	// Agents are the primary agents' client ids or names (comma-separated
	// names are split): each gets a launch entry. Empty means Claude Code.
	Agents []string
	// IDE is the IDE the agent runs in, when it matters (Cline in Cursor).
	IDE string
	// For is a free-form phrase naming the agent and IDE: "Cline in Cursor".
	For string
	// Secondary are agents that share the primary's server over HTTP.
	Secondary []string
	// Scope is where the primary entry goes: "" (the project file when the
	// client has one), "project", "local" or "user".
	Scope string
	// Trust records the project folder as trusted in the trust file of each
	// configured client that reads a project's config only in a trusted
	// folder (Codex, Gemini CLI, Qwen Code, Copilot CLI).
	Trust bool
	// Force installs into a folder that does not look like a project: the
	// home folder, the file system's root, or a folder of files with no
	// project marker (see checkRoot).
	Force bool
	// Replace lets the install take a client's single user-level entry
	// (Cline's: one for all projects) from another project that still
	// exists. Without it such an install fails with an
	// *agentconfig.TakeoverError and writes nothing; the wizard asks.
	Replace bool
	// Env locates user-scoped config files; nil means this machine's.
	Env *agentconfig.Env
	// SourcePaths and Languages, when set, replace what detection finds
	// in a new config (the wizard asks to confirm them).
	SourcePaths []string
	Languages   []string
	// CoverageThreshold, when above 0, is the new config's
	// workflow.coverage_threshold.
	CoverageThreshold float64
	// NoPin skips pinning a copy of the binary in .agentos/bin/: the
	// agents' entries run the binary that runs the install, where it is.
	NoPin bool
	// Progress, when set, is told after each file or folder is written.
	Progress func(Progress)
}

// change is one planned step: what the report will say and, when something
// must be written, how to write it. Planning every step before applying any
// is what lets a bad input fail the install without touching the project.
type change struct {
	step  Step
	apply func() error // nil when the step has nothing to write
	// precheck is an error found while planning that must stop the
	// install before anything is written (an unwritable user folder).
	precheck error
	// also are other files apply writes besides the step's path
	// (absolute), which the journal must be able to put back too.
	also []string
}

// Install installs agentos into the project at opts.Dir and reports every
// step. When it returns an error caused by the project's existing files, it
// has written nothing.
func Install(ctx context.Context, opts Options) (*Report, error) {
	p, err := installRoot(opts)
	if err != nil {
		return nil, err
	}
	changes, detected, err := plan(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	report := &Report{Root: p.Root, Detected: detected, Steps: []Step{}}
	if agents, err := ResolveAgents(opts); err == nil {
		report.Agents = agents.Names()
	}
	if pending(changes) {
		if err := checkWritable(p.Root); err != nil {
			return nil, err
		}
	}
	for _, c := range changes {
		if c.precheck != nil {
			return nil, c.precheck
		}
	}
	if err := applyAll(ctx, newJournal(p, userEnv(opts).Home), changes, report, opts.Progress); err != nil {
		return nil, err
	}
	// Once applied, the pinned copy holds the bytes of the binary pinned.
	pinnedFrom := ""
	if !opts.NoPin {
		if pinnedFrom, err = sourceBinary(opts); err != nil {
			return nil, err
		}
	}
	if err := recordManifest(p, pinnedFrom); err != nil {
		return nil, err
	}
	return report, nil
}

// Preview plans the install and reports every step it would take, with the
// before and after content of the files it would change, writing nothing.
func Preview(ctx context.Context, opts Options) (*Report, error) {
	p, err := installRoot(opts)
	if err != nil {
		return nil, err
	}
	changes, detected, err := plan(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	report := &Report{Root: p.Root, Detected: detected, Steps: []Step{}, Changed: pending(changes)}
	if agents, err := ResolveAgents(opts); err == nil {
		report.Agents = agents.Names()
	}
	for _, c := range changes {
		report.Steps = append(report.Steps, c.step)
	}
	return report, nil
}

// plan reads the project and decides every step, in the order they are
// applied: the binary is pinned before a client config points at it.
func plan(ctx context.Context, p project.Paths, opts Options) ([]change, *Detection, error) {
	// The user's config is checked first: if it is broken, nothing else matters.
	cfg, detected, port, err := planConfig(ctx, p, opts)
	if err != nil {
		return nil, nil, err
	}
	changes, err := planLayout(p)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, cfg)
	universal, err := planUniversalStandards(p)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, universal...)
	workflows, err := planWorkflows(p)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, workflows...)
	languages, sourcePaths, err := projectLanguages(p, detected)
	if err != nil {
		return nil, nil, err
	}
	generated, err := planLanguageStandards(p, languages, sourcePaths)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, generated...)
	bin, err := planBinary(p, opts)
	if err != nil {
		return nil, nil, err
	}
	ignore, err := planGitignore(p)
	if err != nil {
		return nil, nil, err
	}
	agents, err := planAgents(ctx, p, opts, port)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, bin, ignore)
	return append(changes, agents...), detected, nil
}

// resolveProject makes dir absolute and checks that it is an existing
// folder. "" means the project found from the working directory: the
// nearest folder at or above it that holds .agentos/, in the same git
// repository (project.Nearest), else the working directory itself (a first
// install).
func resolveProject(dir string) (project.Paths, error) {
	p, _, err := findProject(dir)
	return p, err
}

// installRoot is the folder an install with opts goes into: resolveProject's,
// checked to be a folder a project may be installed in (checkRoot) unless
// opts.Force.
func installRoot(opts Options) (project.Paths, error) {
	p, foundFrom, err := findProject(opts.Dir)
	if err != nil || opts.Force {
		return p, err
	}
	return p, checkRoot(p, foundFrom)
}

// findProject is resolveProject, also returning the working directory when
// the project was found above it ("" otherwise).
func findProject(dir string) (p project.Paths, foundFrom string, err error) {
	if dir == "" {
		dir = "."
		if wd, err := os.Getwd(); err == nil {
			// Not above the git repository the folder is in: an agentos
			// above it is another project's (project.Nearest), and this
			// install is the repository's first.
			if root, _, found := project.Nearest(wd); found {
				dir = root
				if root != wd {
					foundFrom = wd
				}
			}
		}
	}
	p, err = project.At(dir)
	if err != nil {
		return project.Paths{}, "", fmt.Errorf("install: %w", err)
	}
	fi, err := os.Stat(p.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return project.Paths{}, "", fmt.Errorf("install: project folder %s does not exist", p.Root)
	}
	if err != nil {
		return project.Paths{}, "", fmt.Errorf("install: %w", err)
	}
	if !fi.IsDir() {
		return project.Paths{}, "", fmt.Errorf("install: %s is not a folder", p.Root)
	}
	return p, foundFrom, nil
}

// checkRoot refuses the folders an install there is almost always a slip:
// the home folder and the file system's root, where every folder below
// would then find that install as its project (as `install` in
// ~/src/newproj found an accidental one in ~ and said "up to date"). Any
// other folder may be a project, an empty one a new project: a project
// need not hold a marker agentos knows. --force installs anyway.
func checkRoot(p project.Paths, foundFrom string) error {
	home, _ := os.UserHomeDir()
	where := ""
	switch {
	case home != "" && project.SameFolder(p.Root, home):
		where = "your home folder"
	case filepath.Dir(p.Root) == p.Root:
		where = "the root of the file system"
	}
	if foundFrom != "" {
		if where == "" {
			return nil // a subfolder of a project: the project is meant, as git finds its repository
		}
		return fmt.Errorf("install: the agentos found from %s is installed in %s, %s, which is rarely meant: to install into this folder, pass --dir %s; to update the one in %s, pass --dir %s (and `agentos uninstall --dir %s` removes it)",
			foundFrom, p.Root, where, foundFrom, p.Root, p.Root, p.Root)
	}
	if p.Installed() {
		return nil // already chosen once
	}
	if where != "" {
		return fmt.Errorf("install: %s is %s, not a project: every folder below it would find this install as its project; install into the project's own folder (--dir), or pass --force if this really is one", p.Root, where)
	}
	return nil
}

// checkWritable fails early with a plain message when the project folder
// cannot be written, rather than part-way through the install.
func checkWritable(root string) error {
	f, err := os.CreateTemp(root, ".agentos-install-*")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("install: cannot write to %s: permission denied", root)
		}
		return fmt.Errorf("install: cannot write to %s: %w", root, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

func pending(changes []change) bool {
	for _, c := range changes {
		if c.apply != nil {
			return true
		}
	}
	return false
}

// writeFile creates path's folder and writes data to it atomically.
func writeFile(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("install: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, perm); err != nil {
		return fmt.Errorf("install: %w", err)
	}
	return nil
}

// backup plans saving the original of a shared file before its first edit.
// Only the first original is kept: it is the file as it was before agentos
// ever touched it, which is what a user wants back.
type backup struct {
	path string // absolute; "" when no backup is needed
	data []byte
	perm fs.FileMode
}

// planBackup returns the backup to write before editing the file name (at
// the project root), or an empty backup when one already exists.
func planBackup(p project.Paths, name string, original []byte, perm fs.FileMode) (backup, error) {
	path := filepath.Join(p.Backups(), "original", name)
	_, err := os.Lstat(path)
	if err == nil {
		return backup{}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return backup{}, fmt.Errorf("install: check backup %s: %w", path, err)
	}
	return backup{path: path, data: original, perm: perm}, nil
}

// rel names the backup for the report: "" when there is none to write.
func (b backup) rel(p project.Paths) string {
	if b.path == "" {
		return ""
	}
	return p.Rel(b.path)
}

// write saves the backup, if any.
func (b backup) write() error {
	if b.path == "" {
		return nil
	}
	return writeFile(b.path, b.data, b.perm)
}

// readOptional reads a file that may not exist; exists is false when it does not.
func readOptional(path string) (data []byte, perm fs.FileMode, exists bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, fmt.Errorf("install: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("install: %s is not a regular file", path)
	}
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, 0, false, fmt.Errorf("install: %w", err)
	}
	return data, fi.Mode().Perm(), true, nil
}
