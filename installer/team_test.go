package installer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/project"
)

// committed is the part of a project's snapshot that version control
// holds: everything but what the .gitignore block leaves out.
func committed(tree map[string]string) map[string]string {
	var ignored []string
	lines := gitignoreBlockLines()
	for _, l := range lines[1 : len(lines)-1] {
		ignored = append(ignored, strings.TrimPrefix(l, "/"))
	}
	out := map[string]string{}
	for path, v := range tree {
		keep := path != "."
		for _, ig := range ignored {
			dir := strings.TrimSuffix(ig, "/")
			if path == dir || strings.HasPrefix(path, dir+"/") {
				keep = false
			}
		}
		if keep {
			out[path] = v
		}
	}
	return out
}

// cloneCommitted copies the committed files of src to a new folder, as a
// teammate's clone of the repository would hold them.
func cloneCommitted(t *testing.T, src, dst string) {
	t.Helper()
	for path := range committed(snapshot(t, src)) {
		from, to := filepath.Join(src, filepath.FromSlash(path)), filepath.Join(dst, filepath.FromSlash(path))
		fi, err := os.Lstat(from)
		if err != nil {
			t.Fatal(err)
		}
		if fi.IsDir() {
			if err := os.MkdirAll(to, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// A teammate clones the repository to another path on another machine and
// runs `agentos install` once: for every client whose default is team-safe
// (Team() says so) no committed file changes and the teammate's entry
// points at their own clone; for the clients whose project file must hold
// an absolute path, the install rewrites exactly that file, as Team() and
// the install's note say.
func TestTeammateCloneInstallChangesNoCommittedFile(t *testing.T) {
	t.Parallel()
	for _, c := range agentconfig.All() {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			mine, binary := newProject(t, map[string]string{"main.go": "package main\n", "AGENTS.md": "# team notes\n"})
			myEnv := homeFor(mine)
			tgt, err := c.TargetFor(mine, "", *myEnv)
			if err != nil {
				t.Skipf("%s has no config on linux: %v", c.Name, err)
			}
			installWith(t, Options{Dir: mine, BinaryPath: binary, Agents: []string{c.ID}, Env: myEnv})

			theirs, _ := newProject(t, nil)
			cloneCommitted(t, mine, theirs)
			before := committed(snapshot(t, theirs))
			theirEnv := homeFor(theirs)
			report := installWith(t, Options{Dir: theirs, BinaryPath: binary, Agents: []string{c.ID}, Env: theirEnv})
			after := committed(snapshot(t, theirs))

			var changed []string
			for path, v := range after {
				if before[path] != v {
					changed = append(changed, path)
				}
			}
			machinePath := strings.Contains(c.Team(), "absolute path")
			switch {
			case !machinePath && len(changed) > 0:
				t.Errorf("%s (%s): the teammate's install changed committed files %v", c.Name, c.Team(), changed)
			case machinePath && (len(changed) != 1 || changed[0] != c.ProjectFile):
				t.Errorf("%s (%s): changed %v, want only %s", c.Name, c.Team(), changed, c.ProjectFile)
			}
			if machinePath {
				note := ""
				for _, s := range report.Steps {
					if s.Path == c.ProjectFile {
						note = s.Detail
					}
				}
				if !strings.Contains(note, "machine-specific path") {
					t.Errorf("%s: the install does not say the file holds a machine-specific path: %q", c.Name, note)
				}
			}

			// The teammate's entry launches their own clone.
			theirTgt, _ := c.TargetFor(theirs, "", *theirEnv)
			data, err := os.ReadFile(theirTgt.Path)
			if err != nil {
				t.Fatal(err)
			}
			entry, ok, err := agentconfig.LookupEntry(c.Format, data, theirTgt.Key, agentconfig.ServerName, c.List)
			if err != nil || !ok {
				t.Fatalf("no entry in %s: %v", theirTgt.Path, err)
			}
			want := theirTgt.LaunchFor(theirs, PinnedBinary(mustPaths(t, theirs)))
			if got := c.Emit(want); !sameEntry(got, entry) {
				t.Errorf("teammate's entry = %v, want %v", entry, got)
			}
			if strings.Contains(string(data), mine) && tgt.Scope != agentconfig.ScopeUser {
				t.Errorf("%s still names the first clone %s", theirTgt.Path, mine)
			}
		})
	}
}

func mustPaths(t *testing.T, root string) project.Paths {
	t.Helper()
	p, err := project.At(root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sameEntry compares an emitted entry with one read back from a file, as
// JSON values (numbers of every format become float64).
func sameEntry(a agentconfig.Object, b map[string]any) bool {
	var x, y any
	da, _ := json.Marshal(a)
	db, _ := json.Marshal(b)
	json.Unmarshal(da, &x)
	json.Unmarshal(db, &y)
	return reflect.DeepEqual(x, y)
}
