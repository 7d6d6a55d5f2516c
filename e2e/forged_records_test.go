package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/upgrade"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
)

// The records an upgrade and a rollback act on are files in the project,
// which a cloned repository, or a test a gate runs, writes as it likes.
// These tests forge them through the built binary and check that nothing
// outside the project is created, replaced or deleted.

// outsideFiles lays out a folder beside the project with files a forged
// record aims at, and returns it.
func outsideFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"victim.txt":        "a file that is not the project's\n",
		"other.txt":         "another one\n",
		"folder/first.txt":  "first\n",
		"folder/second.txt": "second\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exactly maps every file under dir to its bytes' hash and its mode, and
// every link to where it leads.
func exactly(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			out[path] = "a link to " + target
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[path] = fmt.Sprintf("%s %v", upgradetest.Digest(data), fi.Mode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// refusedNaming checks that a run failed and said which record and which
// entry it refused.
func refusedNaming(t *testing.T, r result, file, entry string) {
	t.Helper()
	text := r.stdout + r.stderr
	if r.code == 0 || !strings.Contains(text, file) || !strings.Contains(text, fmt.Sprintf("%q", entry)) || !strings.Contains(text, "refused") {
		t.Errorf("want a refusal naming %s and %q; exit %d\n%s", file, entry, r.code, text)
	}
}

// A backup record forged to name absolute paths outside the project (an
// executable to create, a file to overwrite, a folder to empty, a file to
// delete) is refused by `agentos rollback`, with or without --yes, naming
// the record and the entry; every file outside is as it was, and the
// project too. The honest record, put back, still rolls back.
func TestForgedBackupRecordRefused(t *testing.T) {
	long(t) // upgrade refuses forged records (TestUpgradeRefusesForgedPendingRecord and others)
	t.Parallel()
	root, home, _ := upgradeProject(t)
	if r := runUp(t, root, home, "", "upgrade", "--yes"); r.code != 0 {
		t.Fatalf("upgrade: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	p, _ := project.At(root)
	ids, err := upgrade.Backups(p)
	if err != nil || len(ids) == 0 {
		t.Fatalf("backups: %v %v", ids, err)
	}
	id := ids[len(ids)-1]
	dir := filepath.Join(p.Backups(), id)
	record := filepath.Join(dir, "backup.json")
	honest, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	outside := outsideFiles(t)
	stored := func(name, content string) (string, string) {
		if err := os.WriteFile(filepath.Join(dir, "files", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return name, manifest.Sum([]byte(content))
	}
	forgeries := []struct {
		name  string
		forge func(idx *upgrade.BackupIndex) string // returns the entry refused
	}{
		{"creates an executable outside", func(idx *upgrade.BackupIndex) string {
			path := filepath.Join(outside, "run.sh")
			name, sum := stored("99990.sh", "#!/bin/sh\necho owned\n")
			idx.Files = append(idx.Files, upgrade.BackupEntry{Path: path, Stored: name, SHA256: sum, Mode: 0o755})
			return path
		}},
		{"overwrites a file outside", func(idx *upgrade.BackupIndex) string {
			path := filepath.Join(outside, "victim.txt")
			name, sum := stored("99991.txt", "overwritten\n")
			idx.Files = append(idx.Files, upgrade.BackupEntry{Path: path, Stored: name, SHA256: sum, Mode: 0o644})
			return path
		}},
		{"empties a folder outside", func(idx *upgrade.BackupIndex) string {
			path := filepath.Join(outside, "folder")
			idx.Dirs = append(idx.Dirs, path)
			return path
		}},
		{"deletes a file outside", func(idx *upgrade.BackupIndex) string {
			path := filepath.Join(outside, "other.txt")
			idx.Absent = append(idx.Absent, path)
			return path
		}},
	}
	want := filepath.ToSlash(filepath.Join(".agentos", "backups", id, "backup.json"))
	for _, f := range forgeries {
		var idx upgrade.BackupIndex
		if err := json.Unmarshal(honest, &idx); err != nil {
			t.Fatal(err)
		}
		entry := f.forge(&idx)
		data, _ := json.MarshalIndent(idx, "", "  ")
		if err := os.WriteFile(record, data, 0o644); err != nil {
			t.Fatal(err)
		}
		outsideBefore, projectBefore := exactly(t, outside), tree(t, root)
		backupsBefore, _ := upgrade.Backups(p)
		for _, args := range [][]string{{"rollback"}, {"rollback", "--yes"}, {"rollback", "--to", id, "--yes", "--json"}} {
			r := runUp(t, root, home, "", args...)
			refusedNaming(t, r, want, entry)
			if d := upgradetest.Diff(outsideBefore, exactly(t, outside)); len(d) > 0 {
				t.Fatalf("%s, %v: files outside the project changed: %v", f.name, args, d)
			}
			if d := upgradetest.Diff(projectBefore, tree(t, root)); len(d) > 0 {
				t.Errorf("%s, %v: the refused rollback changed the project: %v", f.name, args, d)
			}
			if after, _ := upgrade.Backups(p); len(after) != len(backupsBefore) {
				t.Errorf("%s, %v: the refused rollback saved a backup: %v", f.name, args, after)
			}
		}
	}
	if err := os.WriteFile(record, honest, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runUp(t, root, home, "", "rollback", "--yes"); r.code != 0 {
		t.Fatalf("the honest rollback: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A manifest entry that leaves the project, by .. or through a folder
// linked outside, recording the outside file's real hash (which would plan
// its removal), is refused by the plan and by the upgrade, naming the
// manifest and the entry; the file outside is as it was.
func TestForgedManifestEntryRefused(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"dotdot", "link"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			root, home, _ := upgradeProject(t)
			outside := outsideFiles(t)
			victim := filepath.Join(outside, "victim.txt")
			universal := filepath.Join(root, ".agentos", "standards", "universal")
			var rel string
			switch how {
			case "dotdot":
				up, err := filepath.Rel(universal, victim)
				if err != nil {
					t.Fatal(err)
				}
				rel = ".agentos/standards/universal/" + filepath.ToSlash(up)
			case "link":
				if runtime.GOOS == "windows" {
					t.Skip("symbolic links need privileges on Windows")
				}
				if err := os.Symlink(outside, filepath.Join(universal, "linked")); err != nil {
					t.Fatal(err)
				}
				rel = ".agentos/standards/universal/linked/victim.txt"
			}
			p, _ := project.At(root)
			m, _, err := manifest.Load(p)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(victim)
			m.Files[rel] = manifest.Entry{SHA256: manifest.Sum(data), Version: "0.9.0"}
			if err := manifest.Save(p, m); err != nil {
				t.Fatal(err)
			}
			outsideBefore, projectBefore := exactly(t, outside), exactly(t, root)
			for _, args := range [][]string{{"upgrade", "--dry-run"}, {"upgrade"}, {"upgrade", "--yes"}, {"upgrade", "--yes", "--json"}} {
				r := runUp(t, root, home, "", args...)
				refusedNaming(t, r, ".agentos/manifest.json", rel)
				if strings.Contains(r.stdout, "remove") {
					t.Errorf("%v: a removal was planned:\n%s", args, r.stdout)
				}
				if d := upgradetest.Diff(outsideBefore, exactly(t, outside)); len(d) > 0 {
					t.Fatalf("%v: files outside the project changed: %v", args, d)
				}
			}
			after := exactly(t, root)
			for path := range after {
				if strings.Contains(filepath.ToSlash(path), "/.agentos/.cache/") {
					delete(after, path) // the upgrade lock
				}
			}
			if d := upgradetest.Diff(projectBefore, after); len(d) > 0 {
				t.Errorf("the refused upgrades changed the project: %v", d)
			}
		})
	}
}

// A rollback that changes a file outside .agentos/ prints it first, and
// without --yes and without a terminal to ask on does nothing, as an
// upgrade does; with --yes it restores the file.
func TestRollbackAsksBeforeWritingOutside(t *testing.T) {
	long(t) // upgrade names a rollback's writes outside .agentos/ (TestPlanRollbackNamesWritesOutside)
	t.Parallel()
	root, home, _ := upgradeProject(t)
	gitignore := filepath.Join(root, ".gitignore")
	original, err := os.ReadFile(gitignore)
	if err != nil {
		t.Fatal(err)
	}
	if r := runUp(t, root, home, "", "upgrade", "--yes"); r.code != 0 {
		t.Fatalf("upgrade: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	edited := append(append([]byte{}, original...), "edited since the upgrade\n"...)
	if err := os.WriteFile(gitignore, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	r := runUp(t, root, home, "", "rollback")
	if r.code != exitUsage() || !strings.Contains(r.stdout, "replace") || !strings.Contains(r.stdout, ".gitignore") || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("rollback without --yes and no terminal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if d := upgradetest.Diff(before, tree(t, root)); len(d) > 0 {
		t.Fatalf("the refused rollback changed %v", d)
	}
	if r := runUp(t, root, home, "", "rollback", "--yes"); r.code != 0 || !strings.Contains(r.stdout, ".gitignore") {
		t.Fatalf("rollback --yes: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if data, _ := os.ReadFile(gitignore); string(data) != string(original) {
		t.Errorf(".gitignore was not restored:\n%s", data)
	}
}
