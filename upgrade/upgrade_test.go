package upgrade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
	"github.com/agentos-dev/agentos/workflow"
)

// fixture is an installed project with a fake pinned binary and a home
// folder of its own, and a newer fake binary to upgrade to.
type fixture struct {
	root, home string
	p          project.Paths
	env        agentconfig.Env
	newBinary  string
}

func newInstalled(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{root: filepath.Join(base, "project"), home: filepath.Join(base, "home")}
	for _, d := range []string{f.root, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.p, _ = project.At(f.root)
	f.env = agentconfig.HomeEnv(f.home)
	old := filepath.Join(base, "agentos-old")
	f.newBinary = filepath.Join(base, "agentos-new")
	write(t, old, "#!/bin/sh\necho agentos 0.9\n")
	write(t, f.newBinary, "#!/bin/sh\necho agentos 1.0\n")
	os.Chmod(old, 0o755)
	os.Chmod(f.newBinary, 0o755)
	write(t, filepath.Join(f.root, ".gitignore"), "node_modules/\n")
	if _, err := installer.Install(context.Background(), installer.Options{Dir: f.root, Yes: true, BinaryPath: old, Env: &f.env}); err != nil {
		t.Fatal(err)
	}
	return f
}

// setFault makes upgrades of f's project call hook at every fault point,
// until the test ends.
func setFault(t *testing.T, f *fixture, hook func(point string) error) {
	t.Helper()
	faultHooks.Store(f.p.Root, hook)
	t.Cleanup(func() { faultHooks.Delete(f.p.Root) })
}

func (f *fixture) opts() Options {
	return Options{Dir: f.root, Binary: f.newBinary, Env: &f.env}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func (f *fixture) abs(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

// shipped returns the recorded standards and workflow files, sorted.
func (f *fixture) shipped(t *testing.T) []string {
	t.Helper()
	m, found, err := manifest.Load(f.p)
	if err != nil || !found {
		t.Fatalf("manifest: found %v, %v", found, err)
	}
	var out []string
	for _, rel := range m.Paths() {
		if strings.HasSuffix(rel, ".md") || strings.HasSuffix(rel, ".yaml") {
			out = append(out, rel)
		}
	}
	return out
}

// earlier rewrites the project as if an earlier version had installed it:
// for each file in old, the earlier version shipped old[rel] (nil: did not
// ship it) and wrote it; the manifest records that.
func (f *fixture) earlier(t *testing.T, old map[string]*string) {
	t.Helper()
	m, _, err := manifest.Load(f.p)
	if err != nil {
		t.Fatal(err)
	}
	m.AssetVersion = "0.9.0"
	for rel, text := range old {
		if text == nil {
			delete(m.Files, rel)
			os.Remove(f.abs(rel))
			continue
		}
		write(t, f.abs(rel), *text)
		if err := manifest.Record(f.p, &m, rel, []byte(*text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := manifest.Save(f.p, m); err != nil {
		t.Fatal(err)
	}
}

// snapshot hashes every file of the project and the home folder, except
// backups, caches and upgrade reports, which an upgrade adds by design.
func (f *fixture) snapshot(t *testing.T) map[string]string {
	t.Helper()
	return upgradetest.Snapshot(t, f.root, []string{f.root, f.home}, func(_ string, data []byte, fi fs.FileInfo) string {
		return fmt.Sprintf("%s %v", upgradetest.Digest(data), fi.Mode().Perm())
	})
}

func ptr(s string) *string { return &s }

// replaceLine returns text with its n-th line (0-based) replaced.
func replaceLine(text string, n int, with string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[n] = with + "\n"
	return strings.Join(lines, "")
}

// scenario installs, then fakes an earlier version with one file per case.
type scenario struct {
	f                                                          *fixture
	updated, merged, conflicted, kept, deleted, removed, added string
	userMerged, userConflicted, userKept                       string
}

func newScenario(t *testing.T) *scenario {
	t.Helper()
	f := newInstalled(t)
	files := f.shipped(t)
	if len(files) < 8 {
		t.Fatalf("only %d shipped files", len(files))
	}
	s := &scenario{f: f, updated: files[0], merged: files[1], conflicted: files[2], kept: files[3], deleted: files[4], added: files[5]}
	s.removed = ".agentos/standards/universal/testing/retired-practice.md"
	cur := func(rel string) string { return read(t, f.abs(rel)) }
	old := map[string]*string{
		s.updated:    ptr(replaceLine(cur(s.updated), 2, "an older line")),
		s.merged:     ptr(replaceLine(cur(s.merged), 2, "an older line")),
		s.conflicted: ptr(replaceLine(cur(s.conflicted), 2, "an older line")),
		s.kept:       ptr(cur(s.kept)),
		s.deleted:    ptr(replaceLine(cur(s.deleted), 2, "an older line")),
		s.added:      nil,
		s.removed:    ptr("# Retired practice\n\nShipped by the earlier version only.\n"),
	}
	f.earlier(t, old)
	// The project's own edits.
	s.userMerged = cur(s.merged) + "\nA note the project added at the end.\n"
	write(t, f.abs(s.merged), s.userMerged)
	s.userConflicted = replaceLine(cur(s.conflicted), 2, "the project's own wording")
	write(t, f.abs(s.conflicted), s.userConflicted)
	s.userKept = cur(s.kept) + "\nThe project's addition.\n"
	write(t, f.abs(s.kept), s.userKept)
	os.Remove(f.abs(s.deleted))
	return s
}

func TestUpgradeFromEarlierVersion(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	f := s.f
	want := func(rel string) string {
		data, err := fs.ReadFile(embeddedFS(t, f), rel)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	pl, err := MakePlan(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	actions := map[string]Action{}
	for _, fp := range pl.Files {
		actions[fp.Path] = fp.Action
	}
	for rel, a := range map[string]Action{s.updated: Update, s.merged: Merge, s.conflicted: Conflict, s.kept: Keep, s.deleted: StayDeleted, s.added: Add, s.removed: Remove} {
		if actions[rel] != a {
			t.Errorf("plan %s: %s, want %s", rel, actions[rel], a)
		}
	}
	// The summary counts every line the plan shows: the files, and the
	// binary, .gitignore, mcp.yaml's keys and client configs it changes.
	files := map[Action]int{}
	for _, fp := range pl.Files {
		files[fp.Action]++
	}
	extra := len(pl.Configs)
	for _, a := range []Action{pl.Binary, pl.Gitignore, pl.Port, pl.Auth} {
		if a != Unchanged {
			extra++
		}
	}
	total, counted := len(pl.Files)+extra, 0
	for _, n := range pl.Counts() {
		counted += n
	}
	if extra == 0 || counted != total {
		t.Errorf("Counts adds up to %d for %d files and %d other changes", counted, len(pl.Files), extra)
	}
	// The project's own work, which an upgrade never touches.
	own := map[string]string{
		".agentos/specs/2026-01-01-login/spec.md":               "# Login\n",
		".agentos/standards/development/our-conventions.md":     "# Ours\n",
		".agentos/state/sessions/abc.json":                      `{"id":"abc"}`,
		".agentos/standards/universal/testing/project-extra.md": "# Our extra\n",
	}
	for rel, text := range own {
		write(t, f.abs(rel), text)
	}
	r, err := Run(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	for rel, text := range own {
		if got := read(t, f.abs(rel)); got != text {
			t.Errorf("%s was changed", rel)
		}
	}
	if r.Status != "succeeded" || r.ToVersion != installer.AssetVersion() || r.FromVersion != "0.9.0" {
		t.Fatalf("report: status %s, %s → %s", r.Status, r.FromVersion, r.ToVersion)
	}
	if got := read(t, f.abs(s.updated)); got != want(s.updated) {
		t.Errorf("%s was not updated", s.updated)
	}
	if got := read(t, f.abs(s.merged)); !strings.Contains(got, "A note the project added at the end.") || !strings.Contains(got, strings.SplitAfter(want(s.merged), "\n")[2]) {
		t.Errorf("%s did not merge both changes:\n%s", s.merged, got)
	}
	if got := read(t, f.abs(s.conflicted)); got != s.userConflicted {
		t.Errorf("%s: the project's file was not kept on a conflict", s.conflicted)
	}
	if got := read(t, f.abs(s.conflicted)+NewSuffix); got != want(s.conflicted) {
		t.Errorf("%s%s does not hold the new version", s.conflicted, NewSuffix)
	}
	if len(r.Conflicts) != 1 || r.Conflicts[0] != s.conflicted+NewSuffix {
		t.Errorf("conflicts reported: %v", r.Conflicts)
	}
	if got := read(t, f.abs(s.kept)); got != s.userKept {
		t.Errorf("%s: the project's edit was not kept", s.kept)
	}
	if _, err := os.Stat(f.abs(s.deleted)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: deleted by the project, but back", s.deleted)
	}
	if got := read(t, f.abs(s.added)); got != want(s.added) {
		t.Errorf("%s was not added", s.added)
	}
	if _, err := os.Stat(f.abs(s.removed)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: removed upstream and untouched, but still there", s.removed)
	}
	if got := read(t, installer.PinnedBinary(f.p)); got != read(t, f.newBinary) {
		t.Error("the binary was not swapped")
	}
	// The report is where the workflow's gates read it, and they pass.
	data, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(r.Path)))
	if err != nil {
		t.Fatal(err)
	}
	var wr workflow.UpgradeReport
	if err := json.Unmarshal(data, &wr); err != nil || wr.Status != "succeeded" || len(wr.Steps) != 6 {
		t.Fatalf("report on disk: %v %+v", err, wr)
	}
	ids, _ := Backups(f.p)
	if len(ids) != 1 {
		t.Fatalf("backups: %v", ids)
	}
	if _, err := os.Stat(filepath.Join(f.p.Backups(), ids[0], "SHA256SUMS")); err != nil {
		t.Error(err)
	}

	// A second upgrade right after changes nothing.
	before := f.snapshot(t)
	r2, err := Run(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if !r2.UpToDate {
		t.Errorf("second upgrade was not a no-op: %+v", r2.Files)
	}
	if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
		t.Errorf("second upgrade changed %v", d)
	}
	if len(r2.Conflicts) != 1 {
		t.Errorf("the unresolved conflict is no longer reported: %v", r2.Conflicts)
	}

	// Resolving the conflict by taking the new line merges cleanly next time.
	write(t, f.abs(s.conflicted), replaceLine(want(s.conflicted), 5, "resolved by the project"))
	os.Remove(f.abs(s.conflicted) + NewSuffix)
	pl, err = MakePlan(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	for _, fp := range pl.Files {
		if fp.Path == s.conflicted && fp.Action == Conflict {
			t.Errorf("a resolved conflict is reported again")
		}
	}

	// Rollback by hand restores the project as it was before the upgrade;
	// what the project did since is saved first, and a second rollback to
	// that save brings it back.
	ownLater := ".agentos/standards/universal/testing/written-after-the-upgrade.md"
	write(t, f.abs(ownLater), "# Ours, written later\n")
	afterUpgrade := f.snapshot(t)
	res, err := Rollback(context.Background(), f.opts(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(res.Saved, BeforeRollback) {
		t.Fatalf("saved %q", res.Saved)
	}
	defer func() {
		if _, err := Rollback(context.Background(), f.opts(), filepath.Base(res.Saved)); err != nil {
			t.Fatal(err)
		}
		if d := upgradetest.Diff(afterUpgrade, f.snapshot(t)); len(d) > 0 {
			t.Errorf("undoing the rollback left %v", d)
		}
	}()
	if res.Files == 0 {
		t.Error("rollback restored no files")
	}
	if got := read(t, f.abs(s.merged)); got != s.userMerged {
		t.Error("rollback did not restore the pre-upgrade file")
	}
	if _, err := os.Stat(f.abs(s.added)); !errors.Is(err, fs.ErrNotExist) {
		t.Error("rollback left a file the upgrade added")
	}
}

func embeddedFS(t *testing.T, f *fixture) fs.FS {
	t.Helper()
	src, err := EmbeddedSource(f.p)
	if err != nil {
		t.Fatal(err)
	}
	m := mapFS{}
	for _, files := range src.Trees {
		for rel, data := range files {
			m[rel] = data
		}
	}
	return m
}

// mapFS serves a map of slash paths as an fs.FS, for ReadFile only.
type mapFS map[string][]byte

func (m mapFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
}
func (m mapFS) ReadFile(name string) ([]byte, error) {
	data, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return data, nil
}

// Every point where an upgrade can fail leaves the project byte-identical
// to before, and the report names the step.
func TestUpgradeFaultsRollBack(t *testing.T) {
	t.Parallel()
	points := []string{StepPreflight, "backup-before-rename", StepBackup, "update-mid", StepUpdate, StepGitignore, StepValidate, StepFinalize}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			t.Parallel()
			s := newScenario(t)
			f := s.f
			before := f.snapshot(t)
			setFault(t, f, func(at string) error {
				if at == point {
					return errors.New("injected")
				}
				return nil
			})
			_, err := Run(context.Background(), f.opts())
			if err == nil || !strings.Contains(err.Error(), "injected") {
				t.Fatalf("err = %v", err)
			}
			if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
				t.Fatalf("after a failure at %s the project differs: %v", point, d)
			}
			if _, err := os.Stat(pendingPath(f.p)); !errors.Is(err, fs.ErrNotExist) {
				t.Error("the in-progress record was left behind")
			}
			r := newestReport(t, f)
			failed := ""
			for _, st := range r.Steps {
				if st.Status == "failed" {
					failed = st.Name
				}
			}
			wantStep := point
			if point == "update-mid" {
				wantStep = StepUpdate
			}
			if point == "backup-before-rename" {
				wantStep = StepBackup
			}
			if failed != wantStep {
				t.Errorf("report names %q as failed, want %q", failed, wantStep)
			}
			if wantStatus := "rolled_back"; point == StepPreflight || point == "backup-before-rename" {
				if r.Status != "failed" {
					t.Errorf("status %s, want failed (nothing changed)", r.Status)
				}
			} else if r.Status != wantStatus {
				t.Errorf("status %s, want %s", r.Status, wantStatus)
			}
			// Without the fault the same upgrade goes through.
			faultHooks.Delete(f.p.Root)
			if _, err := Run(context.Background(), f.opts()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func newestReport(t *testing.T, f *fixture) Report {
	t.Helper()
	dir := filepath.Join(f.root, filepath.FromSlash(workflow.UpgradeReportDir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("no report")
	}
	sort.Strings(names)
	var r Report
	if err := json.Unmarshal([]byte(read(t, filepath.Join(dir, names[len(names)-1]))), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// An upgrade interrupted after it changed files (the process killed) is
// rolled back by the next run before it starts again.
func TestInterruptedUpgradeRecovers(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	f := s.f
	before := f.snapshot(t)
	// Simulate a kill half-way through the update: the fault leaves the
	// in-progress record, as a killed process would, by failing the rollback.
	setFault(t, f, func(at string) error {
		if at == "update-mid" {
			panic("killed")
		}
		return nil
	})
	func() {
		defer func() { recover() }()
		Run(context.Background(), f.opts())
	}()
	faultHooks.Delete(f.p.Root)
	if _, err := os.Stat(pendingPath(f.p)); err != nil {
		t.Fatalf("no in-progress record after the interruption: %v", err)
	}
	if pl, err := MakePlan(context.Background(), f.opts()); err != nil || pl.Interrupted == "" {
		t.Errorf("the dry run does not say an upgrade was interrupted: %v", err)
	}
	// The lock was released by the defer; a rollback now restores the backup.
	if _, err := Rollback(context.Background(), f.opts(), ""); err != nil {
		t.Fatal(err)
	}
	if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
		t.Fatalf("after rollback the project differs: %v", d)
	}
	if r := newestReport(t, f); r.Status != "rolled_back" {
		t.Errorf("interrupted report status %s", r.Status)
	}
}

// Random customisations: whatever the project edited, added or deleted is
// never lost, and every conflict is reported with its .agentos-new file.
func TestUpgradeRandomCustomisations(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if env := os.Getenv("AGENTOS_TEST_SEED"); env != "" {
		fmt.Sscan(env, &seed)
	}
	t.Logf("seed %d (set AGENTOS_TEST_SEED to repeat)", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	for round := range 3 {
		f := newInstalled(t)
		files := f.shipped(t)
		type kind int
		const (
			untouched kind = iota
			userElsewhere
			userSameLines
			userDeleted
			userOnly
		)
		kinds := map[string]kind{}
		userText := map[string]string{}
		userLine := map[string]string{}
		old := map[string]*string{}
		for i, rel := range files {
			cur := read(t, f.abs(rel))
			lines := strings.Count(cur, "\n")
			if lines < 12 || !strings.HasSuffix(rel, ".md") { // random lines would break YAML, which validation rejects
				continue
			}
			k := kind(rng.IntN(5))
			kinds[rel] = k
			up := 2 + rng.IntN(lines/2-2) // the line upstream changed, first half
			older := replaceLine(cur, up, fmt.Sprintf("older line %d", i))
			if k != userOnly {
				old[rel] = &older
			} else {
				old[rel] = ptr(cur)
				older = cur
			}
			mark := fmt.Sprintf("PROJECT EDIT %d-%d", round, i)
			userLine[rel] = mark
			switch k {
			case userElsewhere, userOnly:
				at := lines/2 + 2 + rng.IntN(lines-lines/2-3) // second half, away from upstream's line
				userText[rel] = replaceLine(older, at, mark)
			case userSameLines:
				userText[rel] = replaceLine(older, up, mark)
			}
		}
		f.earlier(t, old)
		for rel, text := range userText {
			write(t, f.abs(rel), text)
		}
		for rel, k := range kinds {
			if k == userDeleted {
				os.Remove(f.abs(rel))
			}
		}
		// A file of the project's own beside the shipped ones.
		own := ".agentos/standards/universal/testing/our-own-practice.md"
		write(t, f.abs(own), "# Ours\n")
		r, err := Run(context.Background(), f.opts())
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if read(t, f.abs(own)) != "# Ours\n" {
			t.Errorf("round %d: the project's own file changed", round)
		}
		conflicts := map[string]bool{}
		for _, c := range r.Conflicts {
			conflicts[strings.TrimSuffix(c, NewSuffix)] = true
		}
		for rel, k := range kinds {
			path := f.abs(rel)
			_, newErr := os.Stat(path + NewSuffix)
			if conflicts[rel] != (newErr == nil) {
				t.Errorf("round %d: %s: reported conflict %v, .agentos-new exists %v", round, rel, conflicts[rel], newErr == nil)
			}
			switch k {
			case userDeleted:
				if _, err := os.Stat(path); err == nil {
					t.Errorf("round %d: %s was deleted by the project and came back", round, rel)
				}
			case untouched:
				if conflicts[rel] {
					t.Errorf("round %d: %s untouched but in conflict", round, rel)
				}
			case userSameLines:
				if !conflicts[rel] {
					t.Errorf("round %d: %s: both changed the same line, no conflict reported", round, rel)
				}
				fallthrough
			default:
				if got := read(t, path); !strings.Contains(got, userLine[rel]) {
					t.Errorf("round %d: %s lost the project's edit (kind %d)", round, rel, k)
				}
				if conflicts[rel] && read(t, path) != userText[rel] {
					t.Errorf("round %d: %s: on a conflict the project's file must stay as it was", round, rel)
				}
			}
		}
		before := f.snapshot(t)
		if r2, err := Run(context.Background(), f.opts()); err != nil || !r2.UpToDate {
			t.Fatalf("round %d: second upgrade: %v, up to date %v", round, err, r2 != nil && r2.UpToDate)
		}
		if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
			t.Errorf("round %d: second upgrade changed %v", round, d)
		}
	}
}

func TestUpgradeBadInput(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	write(t, manifest.Path(f.p), "{not json")
	before2 := f.snapshot(t)
	if _, err := Run(context.Background(), f.opts()); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged manifest: %v", err)
	}
	if d := upgradetest.Diff(before2, f.snapshot(t)); len(d) > 0 {
		t.Errorf("a damaged manifest changed %v", d)
	}
	o := f.opts()
	o.From = filepath.Join(t.TempDir(), "no-such-repo")
	if _, err := MakePlan(context.Background(), o); err == nil {
		t.Error("a missing --from repository was accepted")
	}
	if _, err := Rollback(context.Background(), f.opts(), "../etc"); err == nil {
		t.Error("rollback to a path was accepted")
	}
	if _, err := Rollback(context.Background(), f.opts(), "20000101T000000.000000Z"); err == nil {
		t.Error("rollback to a missing backup was accepted")
	}
	if _, err := Run(context.Background(), Options{Dir: t.TempDir()}); err == nil || !errors.Is(err, project.ErrNotFound) {
		t.Errorf("upgrade of a folder without .agentos/: %v", err)
	}
	// A folder where a shipped file belongs stops the plan; nothing changes.
	f2 := newInstalled(t)
	rel := f2.shipped(t)[0]
	os.Remove(f2.abs(rel))
	os.MkdirAll(f2.abs(rel), 0o755)
	snap := f2.snapshot(t)
	if _, err := Run(context.Background(), f2.opts()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("folder in place of a file: %v", err)
	}
	if d := upgradetest.Diff(snap, f2.snapshot(t)); len(d) > 0 {
		t.Errorf("changed %v", d)
	}
}

// Two upgrades never run at once.
func TestUpgradeLock(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	unlock, err := lockUpgrade(f.p)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := Run(context.Background(), f.opts()); err == nil || !strings.Contains(err.Error(), "another upgrade") {
		t.Errorf("second upgrade: %v", err)
	}
}

// Backups beyond the last three are deleted.
func TestUpgradeKeepsThreeBackups(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	for i := range 5 {
		write(t, f.newBinary, fmt.Sprintf("#!/bin/sh\necho agentos 1.%d\n", i))
		if _, err := Run(context.Background(), f.opts()); err != nil {
			t.Fatal(err)
		}
	}
	ids, _ := Backups(f.p)
	if len(ids) != KeepBackups {
		t.Errorf("backups: %v", ids)
	}
}

// A config that does not load stops the upgrade before anything changes.
func TestUpgradeRefusesBrokenConfig(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	write(t, installer.PinnedBinary(f.p), "an older build")
	cfg := filepath.Join(f.root, ".agentos", "config", "mcp.yaml")
	write(t, cfg, read(t, cfg)+"\nsearch: twice\n")
	before := f.snapshot(t)
	_, err := Run(context.Background(), f.opts())
	if err == nil || !strings.Contains(err.Error(), "preflight") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("err = %v", err)
	}
	if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
		t.Errorf("changed %v", d)
	}
}

// A rollback cut off part-way is finished by the next run.
func TestInterruptedRollbackIsFinished(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	f := s.f
	before := f.snapshot(t)
	if _, err := Run(context.Background(), f.opts()); err != nil {
		t.Fatal(err)
	}
	ids, _ := Backups(f.p)
	idx, err := readBackup(f.p, f.env, ids[len(ids)-1])
	if err != nil {
		t.Fatal(err)
	}
	// What a rollback killed after its first file leaves: the record, and a
	// project part restored.
	if err := writePending(f.p, pending{Backup: idx.ID}); err != nil {
		t.Fatal(err)
	}
	write(t, f.abs(s.merged), s.userMerged)
	if _, err := Run(context.Background(), f.opts()); err != nil {
		t.Fatal(err)
	}
	// The run finished the rollback, then upgraded again from there.
	if r := newestReport(t, f); !strings.Contains(r.Recovered, "rollback") || r.Status != "succeeded" {
		t.Errorf("recovered %q, status %s", r.Recovered, r.Status)
	}
	if _, err := Rollback(context.Background(), f.opts(), ""); err != nil {
		t.Fatal(err)
	}
	if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
		t.Errorf("after the last rollback the project differs: %v", d)
	}
}

// A kill between an atomic write and its rename leaves a temporary file; the
// next upgrade or rollback deletes those where only upgrades write, and a
// restore those beside the files it restores.
func TestLeftoverTempsRemoved(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	if _, err := Run(context.Background(), f.opts()); err != nil {
		t.Fatal(err)
	}
	left := []string{
		filepath.Join(f.root, filepath.FromSlash(workflow.UpgradeReportDir), ".20261123T000000Z.json.tmp-123"),
		filepath.Join(manifest.BasesDir(f.p), ".abc.tmp-456"),
		filepath.Join(f.p.AgentOS(), ".manifest.json.tmp-789"),
		filepath.Join(f.root, "..gitignore.tmp-42"),
	}
	for _, l := range left {
		write(t, l, "cut short")
	}
	keep := filepath.Join(f.p.AgentOS(), "..mcp_server_state.json.tmp-1") // a running server's own
	write(t, keep, "{}")
	if _, err := Rollback(context.Background(), f.opts(), ""); err != nil {
		t.Fatal(err)
	}
	for _, l := range left {
		if _, err := os.Stat(l); err == nil {
			t.Errorf("left behind: %s", f.p.Rel(l))
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file that is not the upgrade's was removed: %v", err)
	}
}

// A rollback restores a linked .gitignore and client config through their
// links (dotfile managers keep them as links): the links stay links.
func TestRollbackKeepsLinkedFiles(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	f := s.f
	kept := filepath.Join(filepath.Dir(f.root), "dotfiles")
	gitignore, claude := filepath.Join(f.root, ".gitignore"), filepath.Join(f.home, ".claude.json")
	// An earlier version's entry, which the upgrade refreshes.
	write(t, claude, strings.Replace(read(t, claude), `"dual"`, `"stdio-legacy"`, 1))
	before := map[string]string{}
	for _, path := range []string{gitignore, claude} {
		before[path] = read(t, path)
		target := filepath.Join(kept, filepath.Base(path))
		write(t, target, before[path])
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	setFault(t, f, func(at string) error {
		if at == StepFinalize {
			if read(t, claude) == before[claude] {
				t.Error("the upgrade did not refresh the entry, so there is nothing to roll back")
			}
			// As an edit of the upgrade's would leave it.
			write(t, gitignore, before[gitignore]+"# changed by the upgrade\n")
			return errors.New("injected")
		}
		return nil
	})
	if _, err := Run(context.Background(), f.opts()); err == nil || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("err = %v", err)
	}
	for path, want := range before {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link after the rollback (%v)", path, err)
		}
		if got := read(t, path); got != want {
			t.Errorf("%s after the rollback:\n%s\nwant:\n%s", path, got, want)
		}
	}
}
