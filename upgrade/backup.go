package upgrade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
)

// KeepBackups is how many upgrade backups are kept; older ones are deleted
// once an upgrade succeeds.
const KeepBackups = 3

// backedUpDirs are the folders under .agentos/ an upgrade may change, and so
// the ones a backup holds and a rollback restores whole: every file in them
// that the backup does not hold is deleted by a rollback. Specs, development
// standards, the config, workflow sessions, indexes and logs are never
// changed, so never restored either: a rollback days later does not undo
// the project's later work there.
func backedUpDirs(p project.Paths) []string {
	return []string{
		filepath.Join(p.Standards(), "universal"),
		p.Workflows(),
		p.Bin(),
		manifest.BasesDir(p),
	}
}

// BackupEntry is one file of a backup.
type BackupEntry struct {
	Path   string      `json:"path"`   // absolute path of the original
	Stored string      `json:"stored"` // relative to the backup's files/, slash-separated
	SHA256 string      `json:"sha256"`
	Mode   fs.FileMode `json:"mode"`
}

// BackupIndex is a backup's backup.json: what it holds and what a rollback
// makes whole again.
type BackupIndex struct {
	ID    string        `json:"id"`
	Root  string        `json:"root"`
	Dirs  []string      `json:"dirs"`  // folders restored whole
	Files []BackupEntry `json:"files"` // every file, in the folders and outside them
	// Absent are files outside the folders that did not exist: a rollback
	// deletes them.
	Absent []string `json:"absent,omitempty"`
}

// backupSignature is the file beside backup.json holding its MAC under this
// machine's key (internal/machinekey, outside every project): a backup
// agentos made here. A cloned repository's backups, or one a test wrote,
// carry none that verifies, and a rollback of them restores only files in
// the project, never through a link out of it (checkBackup).
const backupSignature = "backup.sig"

// signedHere reports whether data, a backup's backup.json, was signed by
// this machine's key.
func signedHere(dir string, data []byte) bool {
	mac, err := os.ReadFile(filepath.Join(dir, backupSignature))
	if err != nil {
		return false
	}
	key, err := machinekey.Load()
	return err == nil && key.Verify(strings.TrimSpace(string(mac)), []byte("agentos backup"), data)
}

// backupDir is .agentos/backups/<id>.
func backupDir(p project.Paths, id string) string { return filepath.Join(p.Backups(), id) }

// createBackup copies the backed-up folders and the files outside them
// (extra: .gitignore, client configs the upgrade will touch) into
// .agentos/backups/<id>/, writes a SHA256SUMS list and backup.json, reads
// the copy back against the sums, and only then gives the folder its name.
// A crash part-way leaves only a .tmp- folder, which the next run deletes.
func createBackup(ctx context.Context, p project.Paths, id string, extra []string) (BackupIndex, error) {
	final := backupDir(p, id)
	tmp := filepath.Join(p.Backups(), ".tmp-"+id)
	if err := os.RemoveAll(tmp); err != nil {
		return BackupIndex{}, fmt.Errorf("backup: %w", err)
	}
	idx := BackupIndex{ID: id, Root: p.Root, Dirs: backedUpDirs(p)}
	n := 0
	store := func(path string, fi fs.FileInfo) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		stored := fmt.Sprintf("%05d%s", n, filepath.Ext(path))
		n++
		sum, err := copyFile(path, filepath.Join(tmp, "files", stored), fi.Mode().Perm())
		if err != nil {
			return fmt.Errorf("backup %s: %w", path, err)
		}
		idx.Files = append(idx.Files, BackupEntry{Path: path, Stored: stored, SHA256: sum, Mode: fi.Mode().Perm()})
		return nil
	}
	for _, dir := range idx.Dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && path == dir {
				return nil
			}
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			if !fi.Mode().IsRegular() {
				return nil // a link or device is not ours; a rollback leaves it
			}
			return store(path, fi)
		})
		if err != nil {
			os.RemoveAll(tmp)
			return BackupIndex{}, fmt.Errorf("backup: %w", err)
		}
	}
	for _, path := range extra {
		fi, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			idx.Absent = append(idx.Absent, path)
			continue
		}
		if err == nil {
			err = store(path, fi)
		}
		if err != nil {
			os.RemoveAll(tmp)
			return BackupIndex{}, fmt.Errorf("backup: %w", err)
		}
	}
	if err := writeIndex(tmp, idx); err != nil {
		os.RemoveAll(tmp)
		return BackupIndex{}, err
	}
	if err := verifyStored(tmp, idx); err != nil {
		os.RemoveAll(tmp)
		return BackupIndex{}, err
	}
	if err := fault(p, "backup-before-rename"); err != nil {
		os.RemoveAll(tmp)
		return BackupIndex{}, err
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		return BackupIndex{}, fmt.Errorf("backup: %w", err)
	}
	return idx, nil
}

// writeIndex writes backup.json, its signature (backupSignature) and the
// human-readable SHA256SUMS.
func writeIndex(dir string, idx BackupIndex) error {
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	data = append(data, '\n')
	if err := atomicfile.WriteFile(filepath.Join(dir, "backup.json"), data, 0o644); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	key, err := machinekey.Load()
	if err != nil {
		return fmt.Errorf("backup: sign: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, backupSignature), []byte(key.MAC([]byte("agentos backup"), data)+"\n"), 0o644); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	var sums strings.Builder
	for _, e := range idx.Files {
		fmt.Fprintf(&sums, "%s  %s\n", e.SHA256, e.Path)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// verifyStored reads every stored copy back against its sum.
func verifyStored(dir string, idx BackupIndex) error {
	for _, e := range idx.Files {
		sum, err := fileSum(filepath.Join(dir, "files", filepath.FromSlash(e.Stored)))
		if err != nil {
			return fmt.Errorf("backup: verify: %w", err)
		}
		if sum != e.SHA256 {
			return fmt.Errorf("backup: verify: the copy of %s does not match the original", e.Path)
		}
	}
	return nil
}

// readBackup reads a backup's index, rebased onto the project's root when
// the project moved, and checks every path it names (see checkBackup): the
// index is a file in the project, so a rollback trusts none of it until
// then. env locates the client configs a backup may hold outside the
// project.
func readBackup(p project.Paths, env agentconfig.Env, id string) (BackupIndex, error) {
	if !isName(id) {
		return BackupIndex{}, fmt.Errorf("%q is not a backup name", id)
	}
	file := filepath.Join(backupDir(p, id), "backup.json")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return BackupIndex{}, fmt.Errorf("no backup %s in %s (see `agentos rollback --list`)", id, p.Rel(p.Backups()))
	}
	if err != nil {
		return BackupIndex{}, fmt.Errorf("read backup %s: %w", id, err)
	}
	var idx BackupIndex
	if err := json.Unmarshal(data, &idx); err != nil {
		return BackupIndex{}, fmt.Errorf("backup %s is damaged: %w", id, err)
	}
	if idx.Root != p.Root {
		// The project moved: rebase every path onto the new root.
		rebase := func(path string) string {
			if rel, ok := inside(idx.Root, path); ok {
				return filepath.Join(p.Root, rel)
			}
			return path
		}
		for i := range idx.Dirs {
			idx.Dirs[i] = rebase(idx.Dirs[i])
		}
		for i := range idx.Files {
			idx.Files[i].Path = rebase(idx.Files[i].Path)
		}
		for i := range idx.Absent {
			idx.Absent[i] = rebase(idx.Absent[i])
		}
		idx.Root = p.Root
	}
	// The folder read is the backup, whatever name the record gives itself:
	// the stored copies are read from it.
	idx.ID = id
	if err := checkBackup(p, env, idx, p.Rel(file), signedHere(backupDir(p, id), data)); err != nil {
		return BackupIndex{}, err
	}
	return idx, nil
}

// Backups lists the project's upgrade backups, oldest first.
func Backups(p project.Paths) ([]string, error) {
	entries, err := os.ReadDir(p.Backups())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(p.Backups(), e.Name(), "backup.json")); err == nil {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// restore puts the project back as the backup holds it: every file copied
// back that differs, every file in the backed-up folders the backup does
// not hold deleted, every file recorded absent deleted. It then checks the
// result byte for byte against the sums.
func restore(p project.Paths, idx BackupIndex) error {
	dir := backupDir(p, idx.ID)
	if err := verifyStored(dir, idx); err != nil {
		return fmt.Errorf("rollback: backup %s is damaged, nothing was restored: %w", idx.ID, err)
	}
	held := map[string]BackupEntry{}
	for _, e := range idx.Files {
		held[e.Path] = e
	}
	for _, d := range idx.Dirs {
		var extra []string
		err := filepath.WalkDir(d, func(path string, de fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && path == d {
				return nil
			}
			if err != nil || de.IsDir() {
				return err
			}
			if _, ok := held[path]; !ok && de.Type().IsRegular() {
				extra = append(extra, path)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
		for _, path := range extra {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("rollback: %w", err)
			}
		}
	}
	for _, path := range idx.Absent {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rollback: %w", err)
		}
		removeTemps(tempsOf(path))
	}
	for _, e := range idx.Files {
		removeTemps(tempsOf(e.Path)) // a write the kill cut short
	}
	for i, e := range idx.Files {
		if i == len(idx.Files)/2 {
			if err := fault(p, "restore-mid"); err != nil {
				return err
			}
		}
		if sum, err := fileSum(e.Path); err == nil && sum == e.SHA256 {
			if fi, err := os.Stat(e.Path); err == nil && fi.Mode().Perm() == e.Mode {
				continue
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "files", filepath.FromSlash(e.Stored)))
		if err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
		// A file outside the backed-up folders may be a link (a dotfile
		// manager's): it was backed up through the link, so it is restored
		// through it, and the link stays.
		target, err := atomicfile.Resolve(e.Path)
		if dangling := (*atomicfile.DanglingLinkError)(nil); errors.As(err, &dangling) {
			target, err = dangling.Target, nil
		}
		if err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
		if err := writeReplacing(target, data, e.Mode); err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
	}
	return verifyRestored(idx)
}

// verifyRestored checks the project against the backup byte for byte.
func verifyRestored(idx BackupIndex) error {
	held := map[string]bool{}
	for _, e := range idx.Files {
		held[e.Path] = true
		sum, err := fileSum(e.Path)
		if err != nil {
			return fmt.Errorf("rollback: verify: %w", err)
		}
		if sum != e.SHA256 {
			return fmt.Errorf("rollback: verify: %s does not match the backup", e.Path)
		}
	}
	for _, path := range idx.Absent {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("rollback: verify: %s should not exist", path)
		}
	}
	for _, d := range idx.Dirs {
		err := filepath.WalkDir(d, func(path string, de fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && path == d {
				return nil
			}
			if err != nil || de.IsDir() {
				return err
			}
			if de.Type().IsRegular() && !held[path] {
				return fmt.Errorf("%s is not in the backup", path)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("rollback: verify: %w", err)
		}
	}
	return nil
}

// pruneBackups deletes all but the newest KeepBackups backups, and any
// unfinished backup folder.
func pruneBackups(p project.Paths, keep string) error {
	ids, err := Backups(p)
	if err != nil {
		return err
	}
	for i := 0; i < len(ids)-KeepBackups; i++ {
		if ids[i] == keep {
			continue
		}
		if err := os.RemoveAll(backupDir(p, ids[i])); err != nil {
			return fmt.Errorf("prune backups: %w", err)
		}
	}
	return nil
}

// removeUnfinishedBackups deletes .tmp- folders left by a crash while a
// backup was being written.
func removeUnfinishedBackups(p project.Paths) {
	entries, _ := os.ReadDir(p.Backups())
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), ".tmp-") {
			os.RemoveAll(filepath.Join(p.Backups(), e.Name()))
		}
	}
}

// copyFile copies src to dst (creating its folder) with perm, synced, and
// returns the SHA-256 of what it copied.
func copyFile(src, dst string, perm fs.FileMode) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return "", err
	}
	h := newHasher()
	if _, err := io.Copy(io.MultiWriter(out, h), in); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return h.sum(), nil
}

// fileSum returns the hex SHA-256 of a file.
func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := newHasher()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return h.sum(), nil
}
