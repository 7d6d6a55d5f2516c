package upgrade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
)

// pending records an upgrade that has changed the project and not yet
// finished. It lives in .agentos/backups/, which a rollback never touches,
// and is removed only once the upgrade finished or was rolled back and
// verified. Finding it means the upgrade was interrupted (a crash, a kill,
// a power cut): the next upgrade or rollback restores its backup first.
type pending struct {
	Report string `json:"report"`
	Backup string `json:"backup"`
}

func pendingPath(p project.Paths) string {
	return filepath.Join(p.Backups(), "upgrade-in-progress.json")
}

func writePending(p project.Paths, pd pending) error {
	data, _ := json.Marshal(pd)
	if err := os.MkdirAll(p.Backups(), 0o755); err != nil {
		return fmt.Errorf("record the upgrade in progress: %w", err)
	}
	if err := atomicfile.WriteFile(pendingPath(p), data, 0o644); err != nil {
		return fmt.Errorf("record the upgrade in progress: %w", err)
	}
	return nil
}

func removePending(p project.Paths) error {
	if err := os.Remove(pendingPath(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clear the upgrade in progress: %w", err)
	}
	return nil
}

func readPending(p project.Paths) (pending, bool, error) {
	data, err := os.ReadFile(pendingPath(p))
	if errors.Is(err, fs.ErrNotExist) {
		return pending{}, false, nil
	}
	if err != nil {
		return pending{}, false, fmt.Errorf("read %s: %w", p.Rel(pendingPath(p)), err)
	}
	var pd pending
	if err := json.Unmarshal(data, &pd); err != nil || pd.Backup == "" {
		return pending{}, false, fmt.Errorf("%s is damaged; restore a backup with `agentos rollback --to ID` (see `agentos rollback --list`) and delete it", p.Rel(pendingPath(p)))
	}
	// Both name files this record's reader opens and writes (the backup to
	// restore, the report to mark): each must be a name, not a path.
	for _, f := range []struct{ field, value string }{{"backup", pd.Backup}, {"report", pd.Report}} {
		if f.value != "" && !isName(f.value) {
			return pending{}, false, fmt.Errorf("%s: %s entry %q is refused: it is not a name in its folder; nothing was restored (restore a backup with `agentos rollback --to ID` and delete the file)", p.Rel(pendingPath(p)), f.field, f.value)
		}
	}
	return pd, true, nil
}

// recoverInterrupted rolls back an upgrade that was interrupted, and marks
// its report. It returns what it did, or "" when there was nothing to do.
// The caller holds the upgrade lock.
func recoverInterrupted(p project.Paths, env agentconfig.Env) (string, error) {
	pd, found, err := readPending(p)
	if err != nil || !found {
		return "", err
	}
	idx, err := readBackup(p, env, pd.Backup)
	if err != nil {
		return "", fmt.Errorf("upgrade %s was interrupted and its backup cannot be read: %w", pd.Report, err)
	}
	if err := restore(p, idx); err != nil {
		return "", fmt.Errorf("upgrade %s was interrupted: %w", pd.Report, err)
	}
	if pd.Report != "" {
		markRolledBack(p, pd.Report, "interrupted; rolled back to "+p.Rel(backupDir(p, idx.ID))+" by the next run, verified by checksums")
	}
	if err := removePending(p); err != nil {
		return "", err
	}
	if pd.Report == "" {
		return fmt.Sprintf("a rollback to %s had been interrupted; finished it (verified) before starting", p.Rel(backupDir(p, idx.ID))), nil
	}
	return fmt.Sprintf("upgrade %s had been interrupted; rolled back to %s (verified) before starting", pd.Report, p.Rel(backupDir(p, idx.ID))), nil
}

// markRolledBack updates an upgrade report after a rollback, if it exists.
func markRolledBack(p project.Paths, id, msg string) {
	path := filepath.Join(p.Root, filepath.FromSlash(workflow.UpgradeReportDir), id+".json")
	if !isName(id) || resolvedInside(p.Root, filepath.Dir(path)) != nil {
		return // not a report of this project's: nothing to mark
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var r map[string]any
	if json.Unmarshal(data, &r) != nil {
		return
	}
	steps, _ := r["steps"].([]any)
	r["steps"] = append(steps, workflow.UpgradeStep{Name: "rollback", Status: "ok", Message: msg, At: time.Now().UTC()})
	r["status"] = "rolled_back"
	r["finished_at"] = time.Now().UTC()
	if out, err := json.MarshalIndent(r, "", "  "); err == nil {
		atomicfile.WriteFile(path, append(out, '\n'), 0o644)
	}
}

// RollbackResult is what Rollback did.
type RollbackResult struct {
	Backup string `json:"backup"` // the backup restored, relative to the root
	Files  int    `json:"files"`  // files it holds, all verified
	Saved  string `json:"saved"`  // the backup of the state it replaced
	Server string `json:"server,omitempty"`
}

// RollbackPlan is what a rollback will do, decided before any of it: the
// backup it restores, and what it writes or deletes outside .agentos/,
// which the person is shown (and asked about) before it is done.
type RollbackPlan struct {
	Backup  string          `json:"backup"` // the backup's name in .agentos/backups/
	Files   int             `json:"files"`  // files it holds
	Outside []OutsideChange `json:"outside"`
}

// PlanRollback reads and checks the backup a rollback to to (a backup's
// name, or "" for the newest) would restore, and lists what it would write
// or delete outside .agentos/. It writes nothing. A backup whose record
// names a path it may not is refused here, before anyone is asked.
func PlanRollback(ctx context.Context, opts Options, to string) (*RollbackPlan, error) {
	p, err := openProject(opts.Dir)
	if err != nil {
		return nil, err
	}
	env := optionsEnv(opts)
	id, err := chooseBackup(p, to)
	if err != nil {
		return nil, err
	}
	idx, err := readBackup(p, env, id)
	if err != nil {
		return nil, fmt.Errorf("rollback: %w", err)
	}
	return &RollbackPlan{Backup: idx.ID, Files: len(idx.Files), Outside: outsideChanges(p, env, idx)}, nil
}

// chooseBackup is to, or when to is "" the newest backup an upgrade made
// (not one a rollback saved).
func chooseBackup(p project.Paths, to string) (string, error) {
	if to != "" {
		return to, nil
	}
	ids, err := Backups(p)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		if !strings.HasSuffix(id, BeforeRollback) {
			to = id
		}
	}
	if to == "" {
		return "", fmt.Errorf("rollback: no upgrade backups in %s", p.Rel(p.Backups()))
	}
	return to, nil
}

// optionsEnv is the environment that locates user-scoped client configs.
func optionsEnv(opts Options) agentconfig.Env {
	if opts.Env != nil {
		return *opts.Env
	}
	return agentconfig.SystemEnv()
}

// Rollback restores a backup by hand: to (a backup's name) or the newest.
// It checks every path the backup's record names before anything else,
// stops a running server, checks the result against the backup's
// checksums, and clears an interrupted upgrade it restores over.
func Rollback(ctx context.Context, opts Options, to string) (*RollbackResult, error) {
	p, unlock, err := openLocked(opts.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	to, err = chooseBackup(p, to)
	if err != nil {
		return nil, err
	}
	idx, err := readBackup(p, optionsEnv(opts), to)
	if err != nil {
		return nil, fmt.Errorf("rollback: %w", err)
	}
	srv, err := stopServer(ctx, p, opts.StopTimeout)
	if err != nil {
		return nil, fmt.Errorf("rollback: %w", err)
	}
	defer srv.release()
	// Save the project as it is first: a rollback by hand may come long
	// after the upgrade, and whatever the project did since is in this save.
	saved := time.Now().UTC().Format(idLayout) + BeforeRollback
	if _, err := createBackup(ctx, p, saved, outsideFiles(idx)); err != nil {
		return nil, fmt.Errorf("rollback: save the current state first: %w", err)
	}
	// Recorded like an upgrade in progress, so that a rollback cut off
	// part-way is finished by the next upgrade or rollback.
	prev, _, _ := readPending(p)
	if err := writePending(p, pending{Report: prev.Report, Backup: idx.ID}); err != nil {
		return nil, err
	}
	if err := restore(p, idx); err != nil {
		return nil, err
	}
	if prev.Report != "" {
		markRolledBack(p, prev.Report, "rolled back by hand to "+p.Rel(backupDir(p, idx.ID)))
	}
	if err := removePending(p); err != nil {
		return nil, err
	}
	srv.release()
	return &RollbackResult{Backup: p.Rel(backupDir(p, idx.ID)), Files: len(idx.Files), Saved: p.Rel(backupDir(p, saved)), Server: srv.restart(p)}, nil
}

// BeforeRollback ends the name of the backup a rollback saves of the state
// it replaces; `agentos rollback --to <that name>` undoes the rollback.
const BeforeRollback = "-before-rollback"

// outsideFiles are the files a backup holds or records absent outside its
// folders (the manifest, .gitignore, client files).
func outsideFiles(idx BackupIndex) []string {
	var out []string
	for _, e := range idx.Files {
		inDir := false
		for _, d := range idx.Dirs {
			if _, ok := inside(d, e.Path); ok {
				inDir = true
				break
			}
		}
		if !inDir {
			out = append(out, e.Path)
		}
	}
	return append(out, idx.Absent...)
}
