package upgrade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/filecmp"
	"github.com/agentos-dev/agentos/internal/filesum"
	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
)

// Options configure Plan, Run and Rollback.
type Options struct {
	// Dir is the installed project; "" means the working directory.
	Dir string
	// From is a git repository (a local path or URL, optionally @REF) with
	// the standards and workflows to upgrade to; "" means this binary's own.
	From string
	// Binary is the agentos binary to pin; "" means the running one.
	Binary string
	// Env locates user-scoped client configs; nil means this machine's.
	Env *agentconfig.Env
	// ValidateTimeout bounds the validation's in-process server; 0 means 60 s.
	ValidateTimeout time.Duration
	// StopTimeout bounds waiting for a running server to stop; 0 means 15 s.
	StopTimeout time.Duration
}

// Step names, in order; the report records each.
const (
	StepPreflight = "preflight"
	StepBackup    = "backup"
	StepUpdate    = "update"
	StepGitignore = "gitignore"
	StepValidate  = "validate"
	StepFinalize  = "finalize"
)

// Report is what an upgrade writes to .agentos/state/upgrade/<id>.json: the
// report agentos_upgrade_v1's gates read, and what was done to each file.
type Report struct {
	workflow.UpgradeReport
	Source    string     `json:"source"`
	Backup    string     `json:"backup,omitempty"` // the backup's folder, relative to the root
	Files     []FilePlan `json:"files"`            // every shipped file that is not unchanged
	Conflicts []string   `json:"conflicts"`        // the .agentos-new files to merge by hand
	Configs   []string   `json:"configs"`          // client configs and rules files refreshed
	Binary    Action     `json:"binary"`
	Gitignore Action     `json:"gitignore"`
	Port      int        `json:"port,omitempty"`      // the server.port recorded in mcp.yaml, when the project had none
	Server    string     `json:"server,omitempty"`    // what was done about a running server
	Recovered string     `json:"recovered,omitempty"` // an interrupted upgrade this run rolled back first
	UpToDate  bool       `json:"up_to_date"`
	Validated string     `json:"validated,omitempty"`
	Path      string     `json:"-"` // where the report was written, relative to the root
}

// Plan is everything an upgrade will do, decided before any of it.
type Plan struct {
	Root        string
	Source      Source
	FromVersion string
	Files       []FilePlan
	Binary      Action
	Gitignore   Action
	// Port is Add when mcp.yaml has no server.port, which the upgrade
	// records (the port is chosen when it is written).
	Port Action
	// Auth is Update when mcp.yaml holds the server.auth block an earlier
	// install wrote (auth: none, any local process), which the upgrade
	// moves to today's default (auth: user).
	Auth    Action
	Configs []agentconfig.Change // only those that change
	// Interrupted names an upgrade that was cut off part-way: the run rolls
	// it back before anything else, so the plan shown is from its backup's
	// state only once that is done.
	Interrupted string
	// Recovery is what rolling back the interrupted upgrade (or finishing
	// an interrupted rollback) writes or deletes outside .agentos/ first.
	Recovery []OutsideChange

	p          project.Paths
	next       manifest.Manifest
	binary     []byte
	unpinned   bool   // no pinned binary: installed with --no-pin
	launch     string // the agentos the agents' entries run (agentconfig.LaunchBinary)
	ignorePath string
	ignore     []byte
	ignorePerm fs.FileMode
	env        agentconfig.Env
}

// Changes reports whether the plan writes anything.
func (pl *Plan) Changes() bool {
	if pl.Binary != Unchanged || pl.Gitignore != Unchanged || pl.Port != Unchanged || pl.Auth != Unchanged || len(pl.Configs) > 0 {
		return true
	}
	for _, f := range pl.Files {
		if f.Changes() {
			return true
		}
	}
	return false
}

// Counts tallies by action everything the plan lists: the shipped files,
// and the binary, the .gitignore block, mcp.yaml's port and auth and the
// client configs it changes, so that its summary adds up to its lines.
func (pl *Plan) Counts() map[Action]int {
	out := map[Action]int{}
	for _, f := range pl.Files {
		out[f.Action]++
	}
	for _, a := range []Action{pl.Binary, pl.Gitignore, pl.Port, pl.Auth} {
		if a != Unchanged && a != "" {
			out[a]++
		}
	}
	out[Update] += len(pl.Configs)
	return out
}

// openProject resolves dir to an installed project.
func openProject(dir string) (project.Paths, error) {
	if dir == "" {
		dir = "."
	}
	p, err := project.At(dir)
	if err != nil {
		return p, fmt.Errorf("upgrade: %w", err)
	}
	if !p.Installed() {
		return p, fmt.Errorf("upgrade: %w in %s; run `agentos install --dir %s` first", project.ErrNotFound, p.Root, p.Root)
	}
	// The folders an upgrade or a rollback writes into are in the project,
	// which a cloned repository shapes: none may be a link out of it, or
	// the backups, the restored folders and the pinned binary would land
	// wherever it points.
	for _, dir := range append([]string{p.AgentOS(), p.Backups(), p.StateDir(), p.Cache()}, backedUpDirs(p)...) {
		if err := resolvedInside(p.Root, dir); err != nil {
			return p, fmt.Errorf("upgrade: %s is refused: %w; replace the link with a folder", p.Rel(dir), err)
		}
	}
	return p, nil
}

// MakePlan reads the source and the project and decides every change,
// writing nothing. It is what --dry-run prints.
func MakePlan(ctx context.Context, opts Options) (*Plan, error) {
	p, err := openProject(opts.Dir)
	if err != nil {
		return nil, err
	}
	return makePlan(ctx, p, opts)
}

func makePlan(ctx context.Context, p project.Paths, opts Options) (*Plan, error) {
	var src Source
	var err error
	if opts.From != "" {
		src, err = GitSource(ctx, p, opts.From)
	} else {
		src, err = EmbeddedSource(p)
	}
	if err != nil {
		return nil, fmt.Errorf("upgrade: %w", err)
	}
	if opts.Binary != "" {
		src.Binary = opts.Binary
	}
	old, found, err := manifest.Load(p)
	if err != nil {
		return nil, fmt.Errorf("upgrade: %w", err)
	}
	pl := &Plan{Root: p.Root, Source: src, FromVersion: old.AssetVersion, p: p, env: optionsEnv(opts)}
	if pd, found, err := readPending(p); err == nil && found {
		// The run restores this backup before anything else: it is checked
		// now, and what it writes outside .agentos/ is part of the plan.
		idx, err := readBackup(p, pl.env, pd.Backup)
		if err != nil {
			return nil, fmt.Errorf("upgrade: an upgrade or rollback was interrupted, and the backup that finishes it cannot be used: %w", err)
		}
		pl.Interrupted, pl.Recovery = pd.Report, outsideChanges(p, pl.env, idx)
	}
	if !found {
		pl.FromVersion = "unknown (installed without a manifest)"
	}
	pl.Files, pl.next, err = planFiles(p, src, old)
	if err != nil {
		return nil, fmt.Errorf("upgrade: %w", err)
	}
	if err := pl.planBinary(); err != nil {
		return nil, err
	}
	if !pl.unpinned {
		// Carried out, the plan leaves the pinned copy holding the source
		// binary's bytes; the source's digest is remembered per build.
		sum, err := filesum.Sum(src.Binary)
		if err != nil {
			return nil, fmt.Errorf("upgrade: the binary to pin: %w", err)
		}
		pl.next.Files[p.Rel(installer.PinnedBinary(p))] = manifest.Entry{SHA256: sum, Version: src.Version}
	}
	if err := pl.planGitignore(); err != nil {
		return nil, err
	}
	pl.Port, pl.Auth = Unchanged, Unchanged
	pl.planPort()
	pl.planAuth()
	if pl.Configs, err = planConfigs(p, pl.env, pl.launch); err != nil {
		return nil, fmt.Errorf("upgrade: %w", err)
	}
	return pl, nil
}

func (pl *Plan) planBinary() error {
	target := installer.PinnedBinary(pl.p)
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		// Installed with --no-pin: the agents run an agentos outside the
		// project, which is upgraded where it is, not here; from now on,
		// the one that upgrades the project.
		launch, err := agentconfig.LaunchBinary(pl.p)
		if err != nil {
			return fmt.Errorf("upgrade: %w", err)
		}
		pl.Binary, pl.unpinned, pl.launch = Unchanged, true, launch
		return nil
	}
	pl.launch = target
	si, err := os.Stat(pl.Source.Binary)
	if err != nil {
		return fmt.Errorf("upgrade: the binary to pin: %w", err)
	}
	ti, terr := os.Stat(target)
	if terr == nil && os.SameFile(si, ti) {
		pl.Binary = Unchanged // running the pinned copy itself
		return nil
	}
	switch {
	case terr != nil && !errors.Is(terr, fs.ErrNotExist):
		return fmt.Errorf("upgrade: read %s: %w", target, terr)
	case terr != nil:
		pl.Binary = Add
	case !ti.Mode().IsRegular():
		return fmt.Errorf("upgrade: %s is not a regular file; move it away and run the upgrade again", target)
	default:
		// Compared side by side, not read whole: the usual upgrade keeps
		// the binary it has.
		same, err := filecmp.Same(pl.Source.Binary, target)
		if err != nil {
			return fmt.Errorf("upgrade: %w", err)
		}
		if same && binaryModeOK(ti.Mode()) {
			pl.Binary = Unchanged
			return nil
		}
		pl.Binary = Update
	}
	data, err := os.ReadFile(pl.Source.Binary)
	if err != nil {
		return fmt.Errorf("upgrade: the binary to pin: %w", err)
	}
	pl.binary = data
	return nil
}

func (pl *Plan) planGitignore() error {
	path, before, after, perm, err := installer.RefreshedGitignore(pl.p)
	if err != nil {
		return fmt.Errorf("upgrade: %w", err)
	}
	pl.ignorePath, pl.ignorePerm = path, perm
	switch {
	case before == nil:
		pl.Gitignore, pl.ignore = Add, after
	case !bytes.Equal(before, after):
		pl.Gitignore, pl.ignore = Update, after
	default:
		pl.Gitignore = Unchanged
	}
	return nil
}

// Run upgrades the project in place: preflight, backup, update, .gitignore,
// validate, finalize. Any failure after the backup rolls the project back
// to it, verified by checksums; the report names the step that failed. An
// upgrade that finds nothing to do writes nothing and reports UpToDate.
func Run(ctx context.Context, opts Options) (*Report, error) {
	p, unlock, err := openLocked(opts.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	removeUnfinishedBackups(p)
	recovered, err := recoverInterrupted(p, optionsEnv(opts))
	if err != nil {
		return nil, err
	}
	pl, err := makePlan(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	r := &Report{Source: pl.Source.Name, Binary: pl.Binary, Gitignore: pl.Gitignore, Recovered: recovered, Files: []FilePlan{}, Conflicts: []string{}, Configs: []string{}}
	r.FromVersion, r.ToVersion = pl.FromVersion, pl.Source.Version
	for _, f := range pl.Files {
		if f.Action != Unchanged {
			r.Files = append(r.Files, f)
		}
		if f.Action == Conflict {
			r.Conflicts = append(r.Conflicts, f.Path+NewSuffix)
		}
	}
	for _, c := range pl.Configs {
		r.Configs = append(r.Configs, agentconfig.Display(c.Path, p.Root, pl.env.Home))
	}
	if !pl.Changes() {
		r.UpToDate = true
		return r, nil
	}
	u := &run{p: p, pl: pl, opts: opts, r: r}
	return r, u.run(ctx)
}

// idLayout names upgrade reports and backups: UTC, so that names sort by time.
const idLayout = "20060102T150405.000000Z"

// run is one upgrade under way.
type run struct {
	p      project.Paths
	pl     *Plan
	opts   Options
	r      *Report
	backup *BackupIndex
	server *stoppedServer
	// invalidBefore are the project's workflows that did not parse before
	// the upgrade: validation fails only on ones the upgrade broke.
	invalidBefore map[string]string
}

func (u *run) run(ctx context.Context) error {
	now := time.Now().UTC()
	u.r.ID = now.Format(idLayout)
	u.r.StartedAt = now
	u.r.Status = "running"
	u.r.Path = filepath.ToSlash(filepath.Join(workflow.UpgradeReportDir, u.r.ID+".json"))
	defer func() {
		if u.server != nil {
			u.server.release()
		}
	}()
	steps := []struct {
		name string
		do   func(context.Context) (string, error)
	}{
		{StepPreflight, u.preflight},
		{StepBackup, u.doBackup},
		{StepUpdate, u.update},
		{StepGitignore, u.gitignore},
		{StepValidate, u.validate},
		{StepFinalize, u.finalize},
	}
	for _, s := range steps {
		msg, err := s.do(ctx)
		if err == nil {
			err = fault(u.p, s.name)
		}
		if err != nil {
			return u.fail(s.name, err)
		}
		u.record(s.name, "ok", msg)
		if s.name == StepFinalize {
			u.r.Status = "succeeded"
			u.r.FinishedAt = time.Now().UTC()
		}
		if err := u.writeReport(); err != nil {
			return u.fail(s.name, err)
		}
	}
	if err := removePending(u.p); err != nil {
		return err
	}
	u.r.Server = u.server.restart(u.p)
	return u.writeReport()
}

func (u *run) record(step, status, msg string) {
	u.r.Steps = append(u.r.Steps, workflow.UpgradeStep{Name: step, Status: status, Message: msg, At: time.Now().UTC()})
}

// fail records the failed step, rolls back when anything was changed, and
// returns the error the command shows.
func (u *run) fail(step string, cause error) error {
	u.record(step, "failed", cause.Error())
	u.r.FinishedAt = time.Now().UTC()
	if u.backup == nil {
		u.r.Status = "failed"
		u.r.Server = u.server.restart(u.p)
		u.writeReport()
		return fmt.Errorf("upgrade: %s: %w (nothing was changed)", step, cause)
	}
	if err := restore(u.p, *u.backup); err != nil {
		u.r.Status = "failed"
		u.record("rollback", "failed", err.Error())
		u.writeReport()
		return fmt.Errorf("upgrade: %s: %w; the automatic rollback failed too (%v): run `agentos rollback --to %s`", step, cause, err, u.backup.ID)
	}
	removePending(u.p)
	u.record("rollback", "ok", "restored "+u.r.Backup+", verified by checksums")
	u.r.Status = "rolled_back"
	u.r.Server = u.server.restart(u.p) // the version it ran before
	u.writeReport()
	return fmt.Errorf("upgrade: %s: %w; the project was rolled back to %s and verified byte for byte", step, cause, u.r.Backup)
}

func (u *run) writeReport() error {
	dir := filepath.Join(u.p.Root, filepath.FromSlash(workflow.UpgradeReportDir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	data, err := json.MarshalIndent(u.r, "", "  ")
	if err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, u.r.ID+".json"), append(data, '\n'), 0o644)
}

// preflight checks the disk and stops a running server.
func (u *run) preflight(ctx context.Context) (string, error) {
	size, err := treeSize(u.p.AgentOS(), u.p.Backups())
	if err != nil {
		return "", err
	}
	free, err := freeBytes(u.p.AgentOS())
	if err != nil {
		return "", fmt.Errorf("free disk space: %w", err)
	}
	if free < 2*size {
		return "", fmt.Errorf("%s free, but the upgrade needs twice the size of .agentos/ (%s)", humanBytes(free), humanBytes(2*size))
	}
	if _, err := loadConfig(u.p); err != nil {
		return "", fmt.Errorf("%w; fix it first (the upgrade does not change it)", err)
	}
	if u.invalidBefore, _, err = invalidWorkflows(u.p); err != nil {
		return "", err
	}
	srv, err := stopServer(ctx, u.p, u.opts.StopTimeout)
	if err != nil {
		return "", err
	}
	u.server = srv
	c := u.pl.Counts()
	return fmt.Sprintf("%s free (need %s); %s; plan: %d update, %d merge, %d conflict, %d add, %d remove, %d keep",
		humanBytes(free), humanBytes(2*size), srv.note, c[Update], c[Merge], c[Conflict], c[Add], c[Remove], c[Keep]+c[KeepRemoved]+c[StayDeleted]), nil
}

func (u *run) doBackup(ctx context.Context) (string, error) {
	extra := []string{manifest.Path(u.p), u.pl.ignorePath}
	if u.pl.Port != Unchanged || u.pl.Auth != Unchanged {
		extra = append(extra, u.p.Config())
	}
	for _, c := range u.pl.Configs {
		extra = append(extra, c.Path)
	}
	idx, err := createBackup(ctx, u.p, u.r.ID, extra)
	if err != nil {
		return "", err
	}
	if err := writePending(u.p, pending{Report: u.r.ID, Backup: idx.ID}); err != nil {
		os.RemoveAll(backupDir(u.p, idx.ID))
		return "", err
	}
	u.backup = &idx
	u.r.Backup = u.p.Rel(backupDir(u.p, idx.ID))
	return fmt.Sprintf("%d files in %s, verified by SHA256SUMS", len(idx.Files), u.r.Backup), nil
}

// update writes the files, the bases and the manifest, then swaps the
// binary, then refreshes the client configs.
func (u *run) update(ctx context.Context) (string, error) {
	changed := 0
	for i, f := range u.pl.Files {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if i == len(u.pl.Files)/2 {
			if err := fault(u.p, "update-mid"); err != nil {
				return "", err
			}
		}
		abs := filepath.Join(u.p.Root, filepath.FromSlash(f.Path))
		var err error
		switch f.Action {
		case Update, Merge, Add:
			err = writeAtomic(abs, f.text, 0o644)
		case Remove:
			err = os.Remove(abs)
		case Conflict:
			if f.needsWrite {
				err = writeAtomic(abs+NewSuffix, f.text, 0o644)
			}
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", f.Path, err)
		}
		if f.Changes() {
			changed++
		}
		if f.theirs != nil {
			if e, ok := u.pl.next.Files[f.Path]; ok && e.SHA256 == manifest.Sum(f.theirs) {
				if _, err := manifest.PutBase(u.p, f.theirs); err != nil {
					return "", err
				}
			}
		}
	}
	if err := manifest.Save(u.p, u.pl.next); err != nil {
		return "", err
	}
	if u.pl.binary != nil {
		if err := writeReplacing(installer.PinnedBinary(u.p), u.pl.binary, 0o755); err != nil {
			return "", fmt.Errorf("swap the binary: %w", err)
		}
	}
	// Client configs are planned again now: an IDE may have rewritten its
	// file since (Claude Code often does), and its changes must survive.
	// Only files the backup holds are written.
	backedUp := map[string]bool{}
	for _, c := range u.pl.Configs {
		backedUp[c.Path] = true
	}
	configs, err := planConfigs(u.p, u.pl.env, u.pl.launch)
	if err != nil {
		return "", err
	}
	backups := agentconfig.Backups{Dir: u.p.Backups(), Root: u.p.Root, Home: u.pl.env.Home}
	for _, c := range configs {
		if !backedUp[c.Path] {
			continue // changed under us to need a refresh: the next upgrade does it
		}
		if _, err := agentconfig.Apply(c, backups); err != nil {
			return "", err
		}
	}
	if err := u.recordPort(ctx); err != nil {
		return "", err
	}
	if err := u.migrateAuth(); err != nil {
		return "", err
	}
	msg := fmt.Sprintf("%d files written, %d conflicts beside their files as %s, binary %s, %d client files refreshed",
		changed, len(u.r.Conflicts), NewSuffix, u.pl.Binary, len(u.pl.Configs))
	if u.r.Port != 0 {
		msg += fmt.Sprintf(", server.port %d recorded in %s", u.r.Port, u.p.Rel(u.p.Config()))
	}
	if u.pl.Auth != Unchanged {
		msg += ", server.auth: user (only your OS user may call the HTTP transport)"
	}
	return msg, nil
}

func (u *run) gitignore(context.Context) (string, error) {
	if u.pl.Gitignore == Unchanged {
		return ".gitignore block already current", nil
	}
	if err := writeAtomic(u.pl.ignorePath, u.pl.ignore, u.pl.ignorePerm); err != nil {
		return "", err
	}
	return ".gitignore block refreshed", nil
}

func (u *run) finalize(context.Context) (string, error) {
	if err := pruneBackups(u.p, u.backup.ID); err != nil {
		return "", err
	}
	if err := manifest.PruneBases(u.p, u.pl.next); err != nil {
		return "", err
	}
	return fmt.Sprintf("kept the last %d backups", KeepBackups), nil
}

// openLocked opens the installed project at dir under the upgrade lock.
func openLocked(dir string) (project.Paths, func(), error) {
	p, err := openProject(dir)
	if err != nil {
		return p, nil, err
	}
	unlock, err := lockUpgrade(p)
	if err == nil {
		removeLeftoverTemps(p)
	}
	return p, unlock, err
}

// removeLeftoverTemps deletes what an atomic write leaves when the process
// is killed between writing a temporary file and renaming it, where only
// upgrades write: beside the reports and the record of an upgrade in
// progress, in the bases, and beside the manifest. (Those beside restored
// files go with the restore.) The caller holds the upgrade lock.
func removeLeftoverTemps(p project.Paths) {
	for _, pattern := range []string{
		filepath.Join(p.Root, filepath.FromSlash(workflow.UpgradeReportDir), ".*.tmp-*"),
		filepath.Join(manifest.BasesDir(p), ".*.tmp-*"),
		tempsOf(manifest.Path(p)),
	} {
		removeTemps(pattern)
	}
}

// tempsOf is the pattern of the temporary files an atomic write of path
// makes (see internal/atomicfile).
func tempsOf(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
}

// removeTemps deletes the regular files matching pattern.
func removeTemps(pattern string) {
	matches, _ := filepath.Glob(pattern)
	for _, m := range matches {
		if fi, err := os.Lstat(m); err == nil && fi.Mode().IsRegular() {
			os.Remove(m)
		}
	}
}

// lockUpgrade takes the project's upgrade lock, so two upgrades (or an
// upgrade and a rollback) never run at once. The operating system releases
// it if the process dies.
func lockUpgrade(p project.Paths) (func(), error) {
	if err := os.MkdirAll(p.Cache(), 0o755); err != nil {
		return nil, fmt.Errorf("upgrade: %w", err)
	}
	fl := flock.New(filepath.Join(p.Cache(), "upgrade.lock"))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("upgrade: lock: %w", err)
	}
	if !ok {
		return nil, errors.New("upgrade: another upgrade or rollback is running in this project; wait for it to finish")
	}
	return func() { fl.Unlock() }, nil
}

// writeAtomic creates path's folder and writes data atomically.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, perm)
}

// treeSize sums the sizes of the files under dir, skipping skip.
func treeSize(dir, skip string) (uint64, error) {
	var n uint64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == skip {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += uint64(fi.Size())
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("size of %s: %w", dir, err)
	}
	return n, nil
}

func humanBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
}

func binaryModeOK(m fs.FileMode) bool {
	return m.Perm()&0o111 != 0 || os.PathSeparator == '\\'
}
