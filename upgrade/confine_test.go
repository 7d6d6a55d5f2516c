package upgrade

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
)

// forgery is a project after an honest upgrade, with a folder outside it
// holding files a forged record aims at.
type forgery struct {
	f       *fixture
	outside string // beside the project and the home folder
	victim  string // a file in outside
	id      string // the upgrade's backup
}

func newForgery(t *testing.T) *forgery {
	t.Helper()
	s := newScenario(t)
	if _, err := Run(context.Background(), s.f.opts()); err != nil {
		t.Fatal(err)
	}
	ids, _ := Backups(s.f.p)
	g := &forgery{f: s.f, outside: filepath.Join(filepath.Dir(s.f.root), "outside"), id: ids[len(ids)-1]}
	g.victim = filepath.Join(g.outside, "victim.txt")
	write(t, g.victim, "a file that is not the project's\n")
	write(t, filepath.Join(g.outside, "folder", "kept.txt"), "kept\n")
	return g
}

// snapshot hashes every file of the project (backups and reports too), the
// home folder and the outside folder, leaving links as links, so that a
// refusal can be shown to have changed nothing.
func (g *forgery) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range []string{g.f.root, g.f.home, g.outside} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				target, err := os.Readlink(path)
				out[path] = "link to " + target
				return err
			}
			data, err := os.ReadFile(path)
			out[path] = fmt.Sprintf("%s %v", manifest.Sum(data), fi.Mode().Perm())
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func (g *forgery) indexPath() string {
	return filepath.Join(backupDir(g.f.p, g.id), "backup.json")
}

// edit rewrites the backup's record; the stored copies are left as they are.
func (g *forgery) edit(t *testing.T, change func(*BackupIndex)) {
	t.Helper()
	var idx BackupIndex
	if err := json.Unmarshal([]byte(read(t, g.indexPath())), &idx); err != nil {
		t.Fatal(err)
	}
	change(&idx)
	data, _ := json.MarshalIndent(idx, "", "  ")
	write(t, g.indexPath(), string(data))
}

// store adds a stored copy with content to the backup, as a forger would,
// so that only the path can be what is refused.
func (g *forgery) store(t *testing.T, idx *BackupIndex, path, content string, mode fs.FileMode) {
	t.Helper()
	stored := fmt.Sprintf("%05d.forged", len(idx.Files))
	write(t, filepath.Join(backupDir(g.f.p, g.id), "files", stored), content)
	idx.Files = append(idx.Files, BackupEntry{Path: path, Stored: stored, SHA256: manifest.Sum([]byte(content)), Mode: mode})
}

// A forged backup record is refused before anything is restored, saved or
// stopped: by the plan a person is shown, and by the rollback itself. The
// error names the record and the entry.
func TestRollbackRefusesForgedBackup(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		forge func(t *testing.T, g *forgery, idx *BackupIndex) string // returns the entry the error names
	}{
		{"an executable created outside", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			path := filepath.Join(g.outside, "run.sh")
			g.store(t, idx, path, "#!/bin/sh\necho owned\n", 0o755)
			return path
		}},
		{"a file outside overwritten", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			g.store(t, idx, g.victim, "overwritten\n", 0o644)
			return g.victim
		}},
		{"a folder outside restored whole", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			dir := filepath.Join(g.outside, "folder")
			idx.Dirs = append(idx.Dirs, dir)
			return dir
		}},
		{"the project root restored whole", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			idx.Dirs = append(idx.Dirs, g.f.root)
			return g.f.root
		}},
		{"a file outside recorded absent", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			idx.Absent = append(idx.Absent, g.victim)
			return g.victim
		}},
		{"a file in the home folder that is no client config", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			path := filepath.Join(g.f.home, ".bashrc")
			g.store(t, idx, path, "echo owned\n", 0o644)
			return path
		}},
		{"a path with ..", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			path := g.f.root + string(filepath.Separator) + filepath.Join(".agentos", "..", "..", "outside", "victim.txt")
			idx.Absent = append(idx.Absent, path)
			return path
		}},
		{"a relative path", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			idx.Absent = append(idx.Absent, "victim.txt")
			return "victim.txt"
		}},
		{"a git hook", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			path := filepath.Join(g.f.root, ".git", "hooks", "pre-commit")
			g.store(t, idx, path, "#!/bin/sh\necho owned\n", 0o755)
			return path
		}},
		{"a folder in the project linked outside", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			if err := os.Symlink(g.outside, filepath.Join(g.f.root, "linked")); err != nil {
				t.Skip("no symbolic links:", err)
			}
			path := filepath.Join(g.f.root, "linked", "victim.txt")
			g.store(t, idx, path, "overwritten\n", 0o644)
			return path
		}},
		{"a stored copy outside the backup", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			idx.Files[0].Stored = "../../../../outside/victim.txt"
			return idx.Files[0].Path
		}},
		{"the project's .gitignore linked outside and restored through", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			path := filepath.Join(g.f.root, ".gitignore")
			os.Remove(path)
			if err := os.Symlink(g.victim, path); err != nil {
				t.Skip("no symbolic links:", err)
			}
			g.store(t, idx, path, "overwritten\n", 0o644)
			return path
		}},
		{"a client config in the home folder, in a backup not made here", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			path := filepath.Join(g.f.home, ".claude.json")
			if !clientFiles(g.f.p, g.f.env)[path] {
				t.Skip("~/.claude.json is not one of this project's client files here")
			}
			g.store(t, idx, path, "{}\n", 0o644)
			return path
		}},
		{"a mode beyond permissions", func(t *testing.T, g *forgery, idx *BackupIndex) string {
			idx.Files[0].Mode |= fs.ModeSetuid
			return idx.Files[0].Path
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			g := newForgery(t)
			var entry string
			g.edit(t, func(idx *BackupIndex) { entry = c.forge(t, g, idx) })
			before := g.snapshot(t)
			check := func(what string, err error) {
				t.Helper()
				if err == nil {
					t.Fatalf("%s accepted the forged record", what)
				}
				for _, want := range []string{filepath.ToSlash(filepath.Join(".agentos", "backups", g.id, "backup.json")), fmt.Sprintf("%q", entry), "refused"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%s: the error does not name %s: %v", what, want, err)
					}
				}
			}
			_, err := PlanRollback(context.Background(), g.f.opts(), "")
			check("the plan", err)
			_, err = Rollback(context.Background(), g.f.opts(), "")
			check("the rollback", err)
			if d := upgradetest.Diff(before, g.snapshot(t)); len(d) > 0 {
				t.Errorf("a refused rollback changed %v", d)
			}
		})
	}
}

// An interrupted upgrade whose backup record is forged is not restored by
// the next upgrade: its plan and its run refuse it, and nothing changes.
func TestUpgradeRefusesForgedInterruptedBackup(t *testing.T) {
	t.Parallel()
	g := newForgery(t)
	g.edit(t, func(idx *BackupIndex) { idx.Absent = append(idx.Absent, g.victim) })
	if err := writePending(g.f.p, pending{Report: g.id, Backup: g.id}); err != nil {
		t.Fatal(err)
	}
	before := g.snapshot(t)
	if _, err := MakePlan(context.Background(), g.f.opts()); err == nil || !strings.Contains(err.Error(), "backup.json") || !strings.Contains(err.Error(), g.victim) {
		t.Errorf("plan: %v", err)
	}
	if _, err := Run(context.Background(), g.f.opts()); err == nil || !strings.Contains(err.Error(), "backup.json") || !strings.Contains(err.Error(), g.victim) {
		t.Errorf("run: %v", err)
	}
	if d := upgradetest.Diff(before, g.snapshot(t)); len(d) > 0 {
		t.Errorf("changed %v", d)
	}
}

// The record of an upgrade in progress names a backup and a report by
// name; a path in either is refused, and nothing changes.
func TestUpgradeRefusesForgedPendingRecord(t *testing.T) {
	t.Parallel()
	for _, pd := range []pending{
		{Report: "../../../../outside/victim", Backup: "x"},
		{Backup: "../../../outside"},
	} {
		g := newForgery(t)
		pd := pd
		if pd.Backup == "x" {
			pd.Backup = g.id
		}
		if err := writePending(g.f.p, pd); err != nil {
			t.Fatal(err)
		}
		before := g.snapshot(t)
		_, err := Run(context.Background(), g.f.opts())
		if err == nil || !strings.Contains(err.Error(), "upgrade-in-progress.json") || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%+v: %v", pd, err)
		}
		if d := upgradetest.Diff(before, g.snapshot(t)); len(d) > 0 {
			t.Errorf("%+v: changed %v", pd, d)
		}
	}
}

// A manifest entry that leaves the project, by .. or through a linked
// folder, is refused before the upgrade writes anything, even when it
// records the outside file's real hash (which would plan its removal).
func TestUpgradeRefusesManifestEntryOutside(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"dotdot", "link"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			g := newForgery(t)
			write(t, g.f.newBinary, "#!/bin/sh\necho agentos 1.1\n") // something to upgrade
			rel := ".agentos/standards/universal/../../../../outside/victim.txt"
			if how == "link" {
				if err := os.Symlink(g.outside, filepath.Join(g.f.root, ".agentos", "standards", "universal", "linked")); err != nil {
					t.Skip("no symbolic links:", err)
				}
				rel = ".agentos/standards/universal/linked/victim.txt"
			}
			m, _, err := manifest.Load(g.f.p)
			if err != nil {
				t.Fatal(err)
			}
			m.Files[rel] = manifest.Entry{SHA256: manifest.Sum([]byte(read(t, g.victim))), Version: "0.9.0"}
			if err := manifest.Save(g.f.p, m); err != nil {
				t.Fatal(err)
			}
			before := g.snapshot(t)
			for what, do := range map[string]func() error{
				"plan": func() error { _, err := MakePlan(context.Background(), g.f.opts()); return err },
				"run":  func() error { _, err := Run(context.Background(), g.f.opts()); return err },
			} {
				err := do()
				if err == nil || !strings.Contains(err.Error(), ".agentos/manifest.json") || !strings.Contains(err.Error(), fmt.Sprintf("%q", rel)) {
					t.Errorf("%s: %v", what, err)
				}
			}
			if d := upgradetest.Diff(before, g.snapshot(t)); len(d) > 0 {
				t.Errorf("changed %v", d)
			}
		})
	}
}

// The plan of an honest rollback names what it writes outside .agentos/,
// and the files it leaves as they are it does not name.
func TestPlanRollbackNamesWritesOutside(t *testing.T) {
	t.Parallel()
	g := newForgery(t)
	pl, err := PlanRollback(context.Background(), g.f.opts(), "")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Backup != g.id || len(pl.Outside) != 0 {
		t.Fatalf("plan %+v, want %s and nothing outside .agentos/", pl, g.id)
	}
	gitignore := filepath.Join(g.f.root, ".gitignore")
	write(t, gitignore, read(t, gitignore)+"edited since\n")
	pl, err = PlanRollback(context.Background(), g.f.opts(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pl.Outside, OutsideChange{Action: "replace", Path: ".gitignore"}) {
		t.Errorf("the plan does not name .gitignore: %+v", pl.Outside)
	}
	if _, err := Rollback(context.Background(), g.f.opts(), pl.Backup); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(read(t, gitignore), "edited since") {
		t.Error(".gitignore was not restored")
	}
}

// A project moved after its upgrade still rolls back: the record's paths
// are rebased onto the new root before they are checked.
func TestRollbackAfterTheProjectMoved(t *testing.T) {
	t.Parallel()
	g := newForgery(t)
	moved := filepath.Join(filepath.Dir(g.f.root), "moved")
	if err := os.Rename(g.f.root, moved); err != nil {
		t.Fatal(err)
	}
	o := g.f.opts()
	o.Dir = moved
	if _, err := Rollback(context.Background(), o, g.id); err != nil {
		t.Fatal(err)
	}
}

// A folder the upgrade writes into that is a link out of the project stops
// the upgrade and the rollback before anything is written.
func TestOwnFolderLinkedOutsideRefused(t *testing.T) {
	t.Parallel()
	g := newForgery(t)
	backups := g.f.p.Backups()
	moved := filepath.Join(g.outside, "backups")
	if err := os.Rename(backups, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, backups); err != nil {
		t.Skip("no symbolic links:", err)
	}
	before := g.snapshot(t)
	for what, run := range map[string]func() error{
		"the plan":     func() error { _, err := MakePlan(context.Background(), g.f.opts()); return err },
		"the upgrade":  func() error { _, err := Run(context.Background(), g.f.opts()); return err },
		"the rollback": func() error { _, err := Rollback(context.Background(), g.f.opts(), ""); return err },
	} {
		if err := run(); err == nil || !strings.Contains(err.Error(), ".agentos/backups is refused") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if d := upgradetest.Diff(before, g.snapshot(t)); len(d) > 0 {
		t.Errorf("a refused upgrade changed %v", d)
	}
}
