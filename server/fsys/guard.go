package fsys

import (
	"bufio"
	"bytes"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// protectedReason says why writing rel is refused whatever the options, or
// returns "" when it is not. Names compare case-insensitively because on
// case-insensitive file systems .GIT is .git.
func protectedReason(rel string) string {
	parts := split(rel)
	for _, p := range parts {
		if strings.EqualFold(p, ".git") {
			return "the .git folder belongs to git"
		}
	}
	if len(parts) >= 2 && strings.EqualFold(parts[0], ".agentos") {
		switch {
		case strings.EqualFold(parts[1], ".cache"):
			return "the .agentos/.cache folder holds the server's private state"
		case strings.EqualFold(parts[1], "state"):
			// Workflow sessions and approvals: an agent changes them only
			// through svc_workflow, whose gates it cannot talk its way past.
			return "the .agentos/state folder holds workflow sessions and approvals; use svc_workflow"
		}
	}
	return ""
}

// guardProtected refuses a write that would touch a protected path. paths
// are the forms of one argument to check (as given, and resolved).
func guardProtected(field, shown string, paths ...string) error {
	for _, p := range paths {
		if reason := protectedReason(p); reason != "" {
			return pathError(toolkit.CodeForbidden, field, "writing to %q is not allowed: %s", shown, reason)
		}
	}
	return nil
}

// guardWrite refuses a write to protected paths always and to gitignored
// paths unless the caller overrode it. isDir tells the ignore rules whether
// the final component is a folder (patterns ending in / match only those).
func (o *op) guardWrite(field, shown string, isDir bool, paths ...string) error {
	if err := guardProtected(field, shown, paths...); err != nil {
		return err
	}
	if o.in.OverrideGitignore {
		return nil
	}
	for _, p := range paths {
		if o.ignoreRules().ignored(p, isDir) {
			return pathError(toolkit.CodeForbidden, field,
				"%q is ignored by the project's .gitignore; set override_gitignore to true to write it anyway", shown)
		}
	}
	return nil
}

func (o *op) ignoreRules() *ignorer {
	if o.ig == nil {
		o.ig = &ignorer{op: o, perDir: map[string][]gitignore.Pattern{}}
	}
	return o.ig
}

// ignorer answers gitignore questions for one call. It reads only the ignore
// files that can affect the paths asked about (.git/info/exclude and the
// .gitignore of each ancestor folder) rather than walking the project, and
// caches them for the call: fresh per call, so edits are seen at once.
type ignorer struct {
	op      *op
	exclude []gitignore.Pattern
	loaded  bool
	perDir  map[string][]gitignore.Pattern
}

// ignored reports whether rel (slash-separated, relative to the root) is
// ignored. As in git, a path under an ignored folder is ignored whatever
// later patterns say, so each ancestor is checked on the way down.
func (ig *ignorer) ignored(rel string, isDir bool) bool {
	parts := split(rel)
	if !ig.loaded {
		ig.exclude = ig.read(".git/info/exclude", nil)
		ig.loaded = true
	}
	patterns := append([]gitignore.Pattern(nil), ig.exclude...)
	for i := range parts {
		patterns = append(patterns, ig.dirPatterns(parts[:i])...)
		last := i == len(parts)-1
		if gitignore.NewMatcher(patterns).Match(parts[:i+1], !last || isDir) {
			return true
		}
	}
	return false
}

// dirPatterns returns the patterns of the .gitignore in folder dir.
func (ig *ignorer) dirPatterns(dir []string) []gitignore.Pattern {
	key := path.Join(dir...)
	if ps, ok := ig.perDir[key]; ok {
		return ps
	}
	ps := ig.read(path.Join(key, ".gitignore"), dir)
	ig.perDir[key] = ps
	return ps
}

// read parses one ignore file through the root. As in git, a missing or
// unreadable ignore file contributes no patterns.
func (ig *ignorer) read(name string, domain []string) []gitignore.Pattern {
	data, err := ig.op.r.ReadFile(name)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
