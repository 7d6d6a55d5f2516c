package installer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/manifest"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/markedblock"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
)

// UninstallOptions configure PlanUninstall.
type UninstallOptions struct {
	Dir string
	// Purge removes .agentos/ whole, the project's specs and development
	// standards included.
	Purge bool
	// BackupDir is where the originals go before anything is removed; ""
	// means a new folder under the user's cache folder.
	BackupDir string
	Env       *agentconfig.Env
}

// UninstallPlan is everything uninstall will do, computed before any of it.
type UninstallPlan struct {
	Root   string
	Edits  []agentconfig.Change // client configs, rules files, .gitignore
	Remove []string             // absolute paths under .agentos/ to delete
	Keep   []string             // project-relative paths kept
	// Edited are the files agentos installed under .agentos/ that the
	// project changed since (a universal standard made its own), which
	// the removal deletes: shown by name, kept in the backup.
	Edited    []string
	BackupDir string
	env       agentconfig.Env
}

// original is what file held before install first edited it, from its
// backup; nil when install created it (nothing was backed up).
func original(b agentconfig.Backups, file string) []byte {
	data, err := os.ReadFile(b.PathFor(file))
	if err != nil {
		return nil
	}
	return data
}

// PlanUninstall reads the project and plans removing agentos from it: our
// entries from every client config on this machine that points at the
// project, our rules files and blocks, the .gitignore block, and .agentos/
// except specs/ and standards/development/ (unless Purge).
func PlanUninstall(opts UninstallOptions) (*UninstallPlan, error) {
	p, err := resolveProject(opts.Dir)
	if err != nil {
		return nil, err
	}
	if !p.Installed() {
		return nil, fmt.Errorf("uninstall: no .agentos/ in %s", p.Root)
	}
	env := agentconfig.SystemEnv()
	if opts.Env != nil {
		env = *opts.Env
	}
	pl := &UninstallPlan{Root: p.Root, BackupDir: opts.BackupDir, env: env}
	if pl.BackupDir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		pl.BackupDir = filepath.Join(cache, "agentos", "uninstall", p.Name()+"-"+time.Now().UTC().Format("20060102T150405Z"))
	}
	backups := agentconfig.Backups{Dir: p.Backups(), Root: p.Root, Home: env.Home}
	for _, c := range agentconfig.All() {
		for _, t := range agentconfig.TargetsOf(c, p.Root, env) {
			if t.Scope == agentconfig.ScopeUser && !entryIsOurs(t, p) {
				continue
			}
			ch, err := agentconfig.PlanRemoveEntry(t, original(backups, t.Path))
			if err != nil {
				return nil, fmt.Errorf("uninstall: %w", err)
			}
			if ch.Action != agentconfig.Unchanged {
				pl.Edits = append(pl.Edits, ch)
			}
		}
	}
	rules, err := agentconfig.PlanRemoveRules(p.Root)
	if err != nil {
		return nil, fmt.Errorf("uninstall: %w", err)
	}
	pl.Edits = append(pl.Edits, rules...)
	ignore := filepath.Join(p.Root, ".gitignore")
	if data, perm, exists, err := readOptional(ignore); err != nil {
		return nil, err
	} else if exists {
		begin, end, found, err := ignoreBlock.Find(data)
		if err != nil {
			return nil, fmt.Errorf("uninstall: %s: %w", ignore, err)
		}
		if found {
			after := append(append([]byte{}, data[:begin]...), data[end:]...)
			after = bytes.TrimRight(after, "\r\n")
			if len(after) > 0 {
				after = append(after, markedblock.LineEnding(data)...)
			}
			ch := agentconfig.Change{Path: ignore, Kind: "gitignore", Action: agentconfig.Updated, Existed: true, Before: data, After: after, Perm: perm, UserOwned: true}
			if len(bytes.TrimSpace(after)) == 0 {
				ch.Action, ch.After = agentconfig.Removed, nil
			}
			pl.Edits = append(pl.Edits, ch)
		}
	}
	for i, ch := range pl.Edits {
		if ch.Action == agentconfig.Updated {
			pl.Edits[i].After = restoreEnding(ch.After, ch.Before, original(backups, ch.Path))
		}
	}
	if opts.Purge {
		pl.Remove = []string{p.AgentOS()}
		return pl, nil
	}
	keep := map[string]bool{p.Specs(): true, filepath.Join(p.Standards(), "development"): true}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("uninstall: %w", err)
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			switch {
			case keep[path]:
				pl.Keep = append(pl.Keep, p.Rel(path)+"/")
			case e.IsDir() && holdsKept(path, keep):
				if err := walk(path); err != nil {
					return err
				}
			default:
				pl.Remove = append(pl.Remove, path)
			}
		}
		return nil
	}
	if err := walk(p.AgentOS()); err != nil {
		return nil, err
	}
	pl.Edited = editedSince(p, pl.Remove)
	return pl, nil
}

// editedSince lists the files under the removed paths whose content is no
// longer what install wrote (the manifest's sums).
func editedSince(p project.Paths, removed []string) []string {
	m, found, err := manifest.Load(p)
	if err != nil || !found {
		return nil
	}
	var out []string
	for rel := range m.Files {
		abs := filepath.Join(p.Root, filepath.FromSlash(rel))
		under := slices.ContainsFunc(removed, func(r string) bool { return abs == r || strings.HasPrefix(abs, r+string(filepath.Separator)) })
		if !under || strings.HasPrefix(rel, ".agentos/bin/") {
			continue
		}
		if _, edited := m.Edited(p, rel); edited {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// restoreEnding gives after, a file with agentos's entry or block taken out,
// the line breaks at its end that it had before install: taking out what
// install appended leaves the blank line install put before it, or a line
// break install added to a last line that had none. original is the file
// before install (nil when install created it), before the file now.
// When the rest of the file is what it was before install, the file is
// that original byte for byte; otherwise it ends as it does now.
func restoreEnding(after, before, original []byte) []byte {
	body := bytes.TrimRight(after, "\r\n")
	if len(body) == 0 {
		return after
	}
	if original != nil && bytes.Equal(body, bytes.TrimRight(original, "\r\n")) {
		return bytes.Clone(original)
	}
	return append(bytes.Clone(body), before[len(bytes.TrimRight(before, "\r\n")):]...)
}

func holdsKept(dir string, keep map[string]bool) bool {
	for k := range keep {
		if strings.HasPrefix(k, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// entryIsOurs reports whether a user-scoped entry belongs to this project:
// its launch command or project root is this project's, or it is an HTTP
// entry in a client that has no project file (install put it there). An
// entry that names another project (its PROJECT_ROOT, or the project that
// records its port) is that project's: the client keeps one entry for all
// projects, and removing it would take it from the other project.
func entryIsOurs(t agentconfig.Target, p project.Paths) bool {
	if _, other := agentconfig.Displaced(t, p.Root); other {
		return false
	}
	data, err := os.ReadFile(t.Path)
	if err != nil {
		return false
	}
	e, ok, err := agentconfig.LookupEntry(t.Client.Format, data, t.Key, agentconfig.ServerName, t.Client.List)
	if err != nil || !ok {
		return false
	}
	if bytes.Contains([]byte(fmt.Sprint(e)), []byte(p.Root)) {
		return true
	}
	_, isLaunch := e["args"]
	return !isLaunch && t.Client.ProjectFile == ""
}

// Print shows the plan.
func (pl *UninstallPlan) Print(w io.Writer) {
	fmt.Fprintf(w, "Uninstall agentos from %s:\n", pl.Root)
	for _, ch := range pl.Edits {
		what := "remove the agentos entry from"
		switch {
		case ch.Kind == "rules" && ch.Action == agentconfig.Removed:
			what = "delete"
		case ch.Kind == "rules":
			what = "remove the agentos block from"
		case ch.Kind == "gitignore":
			what = "remove the agentos block from"
		case ch.Action == agentconfig.Removed:
			what = "delete (it held only agentos)"
		}
		fmt.Fprintf(w, "  %s %s\n", what, agentconfig.Display(ch.Path, pl.Root, pl.env.Home))
	}
	for _, path := range pl.Remove {
		rel, _ := filepath.Rel(pl.Root, path)
		fmt.Fprintf(w, "  delete %s\n", filepath.ToSlash(rel))
	}
	if len(pl.Edited) > 0 {
		fmt.Fprintf(w, "  of them, edited since install (the backup keeps them): %s\n", strings.Join(pl.Edited, ", "))
	}
	for _, k := range pl.Keep {
		fmt.Fprintf(w, "  keep   %s (--purge deletes it)\n", k)
	}
	fmt.Fprintf(w, "Originals are saved first to %s.\n", pl.BackupDir)
}

// Apply backs up every file the plan touches, then carries it out.
func (pl *UninstallPlan) Apply() error {
	for _, ch := range pl.Edits {
		dst := filepath.Join(pl.BackupDir, "files", filepath.FromSlash(strings.TrimPrefix(agentconfig.Display(ch.Path, pl.Root, pl.env.Home), "~/")))
		if strings.HasPrefix(agentconfig.Display(ch.Path, pl.Root, pl.env.Home), "~/") {
			dst = filepath.Join(pl.BackupDir, "home", strings.TrimPrefix(agentconfig.Display(ch.Path, pl.Root, pl.env.Home), "~/"))
		}
		if err := writeFile(dst, ch.Before, 0o600); err != nil {
			return fmt.Errorf("uninstall: back up %s: %w", ch.Path, err)
		}
	}
	for _, path := range pl.Remove {
		if err := copyTree(path, filepath.Join(pl.BackupDir, "agentos", mustRel(filepath.Join(pl.Root, project.Dir), path))); err != nil {
			return fmt.Errorf("uninstall: back up %s: %w", path, err)
		}
	}
	for _, ch := range pl.Edits {
		ch.UserOwned = false // saved above, with the rest
		if _, err := agentconfig.Apply(ch, agentconfig.Backups{}); err != nil {
			return fmt.Errorf("uninstall: %w", err)
		}
		if ch.Action == agentconfig.Removed {
			removeEmptyParents(pl.Root, filepath.Dir(ch.Path))
		}
	}
	for _, path := range pl.Remove {
		if err := removeAll(path); err != nil {
			return fmt.Errorf("uninstall: %w", err)
		}
	}
	if _, err := os.Stat(project.Paths{Root: pl.Root}.Config()); errors.Is(err, fs.ErrNotExist) {
		// The port is free for other projects again. The record only steers
		// choices, and drops projects whose folder is gone by itself, so a
		// failure here is not the uninstall's.
		_ = ports.Forget(context.Background(), pl.Root)
	}
	return nil
}

func mustRel(base, path string) string {
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return filepath.Base(path)
	}
	return rel
}

// copyTree copies a file or folder, skipping the pinned binary and the
// cache: both are rebuilt by install and would only bloat the backup. What
// goes while it copies (the state file of a server that stops) is skipped.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		name := d.Name()
		if d.IsDir() {
			if name == ".cache" || name == "bin" || name == "backups" && path != src {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if strings.Contains(filepath.ToSlash(path), "/.agentos/bin/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		return writeFile(target, data, 0o600)
	})
}

// removeEmptyParents removes dir and the folders above it, up to the
// project root, while they are empty: the folders install made for the
// files uninstall just deleted (.claude/commands/, .claude/skills/agentos/).
// A folder with anything left in it stays, and so does every folder above.
func removeEmptyParents(root, dir string) {
	for {
		rel, err := filepath.Rel(root, dir)
		if err != nil || rel == "." || !filepath.IsLocal(rel) {
			return
		}
		if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) { // not empty, or not ours to remove
			return
		}
		dir = filepath.Dir(dir)
	}
}

// removeAll is os.RemoveAll that tries again for a moment when a folder
// filled up while it was emptied: a server still running for the project
// (or one taking over from it) writes its log under .agentos/.cache.
func removeAll(path string) error {
	var err error
	for range 20 {
		if err = os.RemoveAll(path); err == nil || !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, syscall.EEXIST) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}
