package fsys

import (
	"bufio"
	"bytes"
	"errors"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// guardProtected refuses a change to a path the project's path policy
// protects. paths are the forms of one argument to check (as given, and
// resolved); shown is the form the message names.
func (o *op) guardProtected(field, shown string, paths ...string) error {
	for _, p := range paths {
		if err := o.policy().CheckChange(p); err != nil {
			return o.refusal(field, shown, err)
		}
	}
	return nil
}

// policy returns the call's path-policy checker, made on first use.
func (o *op) policy() *pathpolicy.Checker {
	if o.pc == nil {
		o.pc = pathpolicy.NewChecker(o.r)
	}
	return o.pc
}

// refusal turns a refusal of the path policy about shown into the envelope
// the client sees; any other error goes through osError.
func (o *op) refusal(field, shown string, err error) error {
	var ref *pathpolicy.Refusal
	if !errors.As(err, &ref) {
		return o.osError(field, shown, err)
	}
	named := *ref
	named.Path = shown
	code := toolkit.CodeForbidden
	if ref.Kind == pathpolicy.NotRegular {
		code = toolkit.CodeValidation
	}
	return pathError(code, field, "%s", named.Error())
}

// guardWrite refuses a write to protected paths always and to gitignored
// paths unless the caller overrode it.
func (o *op) guardWrite(field, shown string, isDir bool, paths ...string) error {
	if err := o.guardProtected(field, shown, paths...); err != nil {
		return err
	}
	return o.guardIgnored(field, shown, isDir, paths...)
}

// guardIgnored refuses a write to a gitignored path unless the caller
// overrode it. isDir tells the ignore rules whether the final component is
// a folder (patterns ending in / match only those).
func (o *op) guardIgnored(field, shown string, isDir bool, paths ...string) error {
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
