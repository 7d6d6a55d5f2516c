// Package project owns where a project's agentos files live: finding the
// project root and naming every path under .agentos/ in one place, so no other
// package spells those paths by hand.
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Dir is the name of the per-project state directory.
const Dir = ".agentos"

// EnvRoot names the environment variable an IDE sets to point the server at a project.
const EnvRoot = "PROJECT_ROOT"

// ErrNotFound is returned by Find when no project root can be determined.
var ErrNotFound = errors.New("no .agentos/ found")

// Paths names the files and folders of one installed project.
type Paths struct {
	Root string // absolute project root
}

// At returns the paths of the project rooted at root (made absolute).
func At(root string) (Paths, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Paths{}, fmt.Errorf("resolve project root %q: %w", root, err)
	}
	return Paths{Root: abs}, nil
}

func (p Paths) join(elem ...string) string {
	return filepath.Join(append([]string{p.Root, Dir}, elem...)...)
}

func (p Paths) AgentOS() string          { return p.join() }
func (p Paths) Config() string           { return p.join("config", "mcp.yaml") }
func (p Paths) StateFile() string        { return p.join(".mcp_server_state.json") }
func (p Paths) Cache() string            { return p.join(".cache") }
func (p Paths) Lock() string             { return p.join(".cache", "server.lock") }
func (p Paths) AuthToken() string        { return p.join(".cache", "auth_token") }
func (p Paths) Logs() string             { return p.join(".cache", "logs") }
func (p Paths) ServerLog() string        { return p.join(".cache", "logs", "server.log") }
func (p Paths) Indexes() string          { return p.join(".cache", "indexes") }
func (p Paths) Bin() string              { return p.join("bin") }
func (p Paths) Backups() string          { return p.join("backups") }
func (p Paths) Standards() string        { return p.join("standards") }
func (p Paths) Workflows() string        { return p.join("workflows") }
func (p Paths) Specs() string            { return p.join("specs") }
func (p Paths) Scripts() string          { return p.join("scripts") }
func (p Paths) Name() string             { return filepath.Base(p.Root) }
func (p Paths) Installed() bool          { return isDir(p.AgentOS()) }
func (p Paths) Rel(path string) string   { return relOrSelf(p.Root, path) }
func (p Paths) ConfigDir() string        { return filepath.Dir(p.Config()) }
func (p Paths) StateDir() string         { return p.join("state") }
func (p Paths) IndexDir(n string) string { return p.join(".cache", "indexes", n) }

// Find determines the project root: an explicit flag value first, then the
// PROJECT_ROOT environment variable, then the nearest folder at or above the
// working directory that holds .agentos/. The explicit and environment forms
// must point at an installed project.
func Find(flagValue string) (Paths, error) {
	for _, candidate := range []struct{ value, source string }{
		{flagValue, "--project-root or --dir"},
		{os.Getenv(EnvRoot), EnvRoot},
	} {
		if candidate.value == "" {
			continue
		}
		p, err := At(candidate.value)
		if err != nil {
			return Paths{}, err
		}
		if !p.Installed() {
			return Paths{}, fmt.Errorf("%w in %s (from %s); run `agentos install --dir %s`", ErrNotFound, p.Root, candidate.source, p.Root)
		}
		return p, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return Paths{}, fmt.Errorf("find project root: %w", err)
	}
	root, outer, found := Nearest(wd)
	if found {
		return At(root)
	}
	if outer != "" {
		return Paths{}, fmt.Errorf("%w in %s up to its git repository's root %s; the agentos in %s, above that repository, is another project's: `agentos install --dir %s` sets this repository up, and --dir %s names that project",
			ErrNotFound, wd, root, outer, root, outer)
	}
	return Paths{}, fmt.Errorf("%w in %s or any parent folder; run `agentos install` in your project", ErrNotFound, wd)
}

// Nearest finds the project dir belongs to: the nearest folder at or above
// dir that holds .agentos/, looking no higher than the root of the git
// repository dir is in (the first folder up that holds .git, a folder or a
// worktree's file). A project installed above another repository is not
// that repository's, as git does not take an outer repository for the one
// it is in: ~/src/newproj, a repository of its own, is not part of an
// agentos installed in ~/src. When the search stops at a repository's root
// without finding one, root is that folder and outer names the installed
// project above it, if there is one.
func Nearest(dir string) (root, outer string, found bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if isDir(filepath.Join(d, Dir)) {
			if root != "" {
				return root, d, false // above the repository's root
			}
			return d, "", true
		}
		if root == "" {
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				root = d
			}
		}
		if filepath.Dir(d) == d {
			return root, "", false
		}
	}
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func relOrSelf(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// SameFolder reports whether a and b name the same folder, however spelled:
// cleaned, or through a symbolic link (macOS's /var and /private/var).
func SameFolder(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
