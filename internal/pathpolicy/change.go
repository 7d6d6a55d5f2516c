package pathpolicy

import (
	"io/fs"
	"os"
	"path"
	"strings"
)

// Checker decides whether paths of one project may be changed. It remembers
// the folders of the rules it found, so make one per operation: a rename of
// one of them afterwards is not seen.
type Checker struct {
	r       *os.Root
	loaded  bool
	anchors []anchor
}

// anchor is an existing folder some rule names: a path reaching the same
// folder under another name (through a symbolic link) is judged as if it
// used the rule's name.
type anchor struct {
	path string
	fi   fs.FileInfo
}

// NewChecker returns a Checker for the project opened as r.
func NewChecker(r *os.Root) *Checker { return &Checker{r: r} }

// CheckChange refuses a change to rel (slash-separated, relative to the root)
// when a rule protects it: by its name, or by the identity of the folders it
// goes through. The refusal is a *Refusal of kind Guarded.
func (c *Checker) CheckChange(rel string) error {
	rel = path.Clean(rel)
	if rule, ok := Match(rel); ok && rule.Access != Writable {
		return &Refusal{Kind: Guarded, Path: rel, Rule: rule}
	}
	c.load()
	if len(c.anchors) == 0 || rel == "." {
		return nil
	}
	// The deepest existing folder on the way that is an anchor decides; a
	// folder deeper than it cannot be one, or it would have been found first.
	// The last name is looked at, not followed: a change to a link changes
	// the link, and the caller checks what it points at separately.
	parts := strings.Split(rel, "/")
	for i := len(parts); i > 0; i-- {
		stat := c.r.Stat
		if i == len(parts) {
			stat = c.r.Lstat
		}
		fi, err := stat(strings.Join(parts[:i], "/"))
		if err != nil || !fi.IsDir() {
			continue
		}
		rest := strings.Join(parts[i:], "/")
		found := false
		for _, a := range c.anchors {
			if !os.SameFile(fi, a.fi) {
				continue
			}
			found = true
			if rule, ok := Match(path.Join(a.path, rest)); ok && rule.Access != Writable {
				return &Refusal{Kind: Guarded, Path: rel, Rule: rule}
			}
		}
		if found {
			return nil
		}
	}
	return nil
}

// load finds the existing folders the rules name.
func (c *Checker) load() {
	if c.loaded {
		return
	}
	c.loaded = true
	seen := map[string]bool{}
	for i, rule := range rules {
		pt := patterns[i]
		if pt.anyDepth {
			continue
		}
		p := strings.TrimSuffix(rule.Path, "/")
		if !pt.dir {
			p = path.Dir(p)
		}
		for ; p != "." && !seen[p]; p = path.Dir(p) {
			seen[p] = true
			if fi, err := c.r.Stat(p); err == nil && fi.IsDir() {
				c.anchors = append(c.anchors, anchor{p, fi})
			}
		}
	}
}
