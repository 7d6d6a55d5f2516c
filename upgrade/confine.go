package upgrade

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
)

// The records an upgrade and a rollback act on (the manifest, a backup's
// backup.json, the record of an upgrade in progress) are files in the
// project, and a cloned repository or a test run by a gate writes those as
// it likes. Every path read from them is checked here before anything is
// written: a path in the project must stay in it, through any symbolic link
// on its way, and a backup may name a file outside the project only when it
// is one of the client configs agentos itself writes there.

// errOutside says a path is not under the project root.
var errOutside = errors.New("it is outside the project")

// inside returns path relative to dir when it lies under dir (or is dir).
func inside(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// resolvedInside checks that path, with every symbolic link on its way
// resolved (path's own too, when it exists), lies under root resolved the
// same way. A path that does not exist yet is judged by its nearest
// existing parent, the folder a write would create the rest in; a link to
// nothing on the way is refused, as nothing can say where it leads.
func resolvedInside(root, path string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("resolve the project root: %w", err)
	}
	existing := path
	for {
		_, err := os.Lstat(existing)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("check %s: %w", existing, err)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return errOutside
		}
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return fmt.Errorf("%s is a symbolic link that cannot be followed: %w", existing, err)
	}
	if _, ok := inside(realRoot, real); !ok {
		return fmt.Errorf("%s leads through a symbolic link to %s, outside the project", existing, real)
	}
	return nil
}

// inProject checks an absolute path read from a record: clean, under the
// root, not in the project's git metadata (a hook there would run the next
// time anyone commits, and agentos never writes there), and with no folder
// on its way a link out of the project. The file itself may be a link: a
// dotfile manager leaves .gitignore as one, and a restore writes through it
// as the plan shows.
func inProject(p project.Paths, path string) error {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return errors.New("it is not a clean absolute path")
	}
	rel, ok := inside(p.Root, path)
	if !ok {
		return errOutside
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return errors.New("it is in the project's git metadata, which agentos never writes")
		}
	}
	return resolvedInside(p.Root, filepath.Dir(path))
}

// clientFiles are the client configs outside the project that agentos may
// have backed up for it: every file the client registry names for this
// project and home folder (~/.claude.json, ~/.codex/config.toml,
// ~/.gemini/settings.json and the rest), exactly as it names them.
func clientFiles(p project.Paths, env agentconfig.Env) map[string]bool {
	out := map[string]bool{}
	for _, c := range agentconfig.All() {
		for _, t := range agentconfig.TargetsOf(c, p.Root, env) {
			if _, in := inside(p.Root, t.Path); !in {
				out[filepath.Clean(t.Path)] = true
			}
		}
	}
	return out
}

// checkBackup checks every path a backup's record names, before a rollback
// acts on any: the folders restored whole must be the ones a backup holds
// (restoring a folder deletes every file in it the backup does not hold),
// each file must be in the project or one of the client configs agentos
// writes, each stored copy must be in the backup, and each mode only
// permission bits. file names the record in the errors.
func checkBackup(p project.Paths, env agentconfig.Env, idx BackupIndex, file string, signed bool) error {
	refuse := func(field, entry string, why error) error {
		return fmt.Errorf("%s: %s entry %q is refused: %w; nothing was restored", file, field, entry, why)
	}
	known := map[string]bool{}
	for _, d := range backedUpDirs(p) {
		known[d] = true
	}
	for _, d := range idx.Dirs {
		if !known[d] {
			return refuse("dirs", d, errors.New("it is not one of the folders an upgrade backs up whole"))
		}
		if err := resolvedInside(p.Root, d); err != nil {
			return refuse("dirs", d, err)
		}
	}
	clients := clientFiles(p, env)
	check := func(path string) error {
		if clients[path] {
			if !signed {
				return errNotSignedHere
			}
			return nil
		}
		err := inProject(p, path)
		if errors.Is(err, errOutside) {
			return errors.New("it is outside the project and not a client config agentos writes for this project")
		}
		if err == nil && !signed {
			// The file itself may be a link (a dotfile manager's) only in
			// a backup made here: a forged one would write through it.
			if err := resolvedInside(p.Root, path); err != nil {
				return fmt.Errorf("%w (%v)", errNotSignedHere, err)
			}
		}
		return err
	}
	for _, e := range idx.Files {
		if err := check(e.Path); err != nil {
			return refuse("files", e.Path, err)
		}
		if !filepath.IsLocal(filepath.FromSlash(e.Stored)) {
			return refuse("files", e.Path, fmt.Errorf("its stored copy %q is not in the backup", e.Stored))
		}
		if e.Mode&^fs.ModePerm != 0 {
			return refuse("files", e.Path, fmt.Errorf("mode %v is more than permission bits", e.Mode))
		}
	}
	for _, path := range idx.Absent {
		if err := check(path); err != nil {
			return refuse("absent", path, err)
		}
	}
	return nil
}

// errNotSignedHere refuses what only a backup agentos made on this machine
// may restore: files outside the project, and writes through a link.
var errNotSignedHere = errors.New("the backup was not made by agentos on this machine (its backup.sig does not verify), so it may restore only files inside the project, not through a link out of it")

// isName reports whether s names a file in a folder: one local element,
// not hidden (the .tmp- folders of unfinished backups are not backups).
func isName(s string) bool {
	return s != "" && filepath.IsLocal(s) && !strings.ContainsAny(s, `/\`) && !strings.HasPrefix(s, ".")
}

// OutsideChange is one file a rollback writes or deletes outside .agentos/,
// which the person is shown before it is done.
type OutsideChange struct {
	Action string `json:"action"` // "create", "replace" or "delete"
	Path   string `json:"path"`   // relative to the root, ~/… in the home folder, else absolute
	// Through is where the write lands when Path is a symbolic link (a
	// dotfile manager's): the link stays, the file it leads to is replaced.
	Through string `json:"through,omitempty"`
}

// outsideChanges lists what restoring idx writes or deletes outside
// .agentos/: files that differ from the backup and files recorded absent
// that exist. (The folders restored whole are all in .agentos/.)
func outsideChanges(p project.Paths, env agentconfig.Env, idx BackupIndex) []OutsideChange {
	show := func(path string) string { return agentconfig.Display(path, p.Root, env.Home) }
	var out []OutsideChange
	for _, e := range idx.Files {
		if _, in := inside(p.AgentOS(), e.Path); in {
			continue
		}
		if sum, err := fileSum(e.Path); err == nil && sum == e.SHA256 {
			if fi, err := os.Stat(e.Path); err == nil && fi.Mode().Perm() == e.Mode {
				continue
			}
		}
		ch := OutsideChange{Action: "replace", Path: show(e.Path)}
		if _, err := os.Lstat(e.Path); errors.Is(err, fs.ErrNotExist) {
			ch.Action = "create"
		}
		target, err := atomicfile.Resolve(e.Path)
		if dangling := (*atomicfile.DanglingLinkError)(nil); errors.As(err, &dangling) {
			target, err = dangling.Target, nil
		}
		if err == nil && target != e.Path {
			ch.Through = show(target)
		}
		out = append(out, ch)
	}
	for _, path := range idx.Absent {
		if _, in := inside(p.AgentOS(), path); in {
			continue
		}
		if _, err := os.Lstat(path); err == nil {
			out = append(out, OutsideChange{Action: "delete", Path: show(path)})
		}
	}
	return out
}
