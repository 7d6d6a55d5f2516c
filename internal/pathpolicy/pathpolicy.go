// Package pathpolicy owns which files of a project an agent may read and which
// it may change, for everything agentos does on an agent's behalf:
// svc_filesystem and the search indexers decide through it and nowhere else,
// so they cannot disagree.
//
// A file may be read (OpenFile) when it lies inside the project root, is
// reached through real folders only (no symbolic link), is a regular file with
// a single link (another link could be a file outside the project), and is not
// a secret. The check is made on the file actually opened, so a link swapped
// in between a check and the open is caught.
//
// A path may be changed (CheckChange) unless a rule of the table protects it:
// agentos's own files, the project files that launch or connect an MCP server,
// and the clients' files that grant an agent permissions or run commands by
// themselves. Names compare case-insensitively, and Windows' equivalent
// spellings (trailing dots and spaces, alternate data streams) count as the
// name, because on those file systems they are the same file. A protected path
// reached under another name (a folder that is a symbolic link to it) is
// recognised by identity, not by name.
package pathpolicy

import (
	"fmt"
	"path"
	"strings"
)

// Access says what an agent may do with the files of a rule.
type Access int

// The kinds of access.
const (
	Writable  Access = iota // read and change: an ordinary project file
	Protected               // read, never change
	Secret                  // neither read nor change
)

func (a Access) String() string {
	switch a {
	case Writable:
		return "writable"
	case Protected:
		return "protected"
	case Secret:
		return "secret"
	}
	return fmt.Sprintf("Access(%d)", int(a))
}

// Rule is one row of the policy.
type Rule struct {
	// Path is slash-separated and relative to the project root. A trailing
	// "/" makes it a folder rule: the folder and everything in it. A leading
	// "**/" matches the name at any depth.
	Path   string
	Access Access
	Why    string // what the files are, which is why the rule exists
	Change string // how a person changes them; "" for writable rules
}

// Rules returns the policy's table, in its order.
func Rules() []Rule { return append([]Rule(nil), rules...) }

// pattern is a rule's path split for matching.
type pattern struct {
	parts    []string // normalised names
	dir      bool     // covers everything below
	anyDepth bool     // matches at any depth
}

func parse(p string) pattern {
	var pt pattern
	if rest, ok := strings.CutPrefix(p, "**/"); ok {
		pt.anyDepth, p = true, rest
	}
	if rest, ok := strings.CutSuffix(p, "/"); ok {
		pt.dir, p = true, rest
	}
	pt.parts = names(p)
	return pt
}

var patterns = func() []pattern {
	ps := make([]pattern, len(rules))
	for i, r := range rules {
		ps[i] = parse(r.Path)
	}
	return ps
}()

// names splits a slash-separated relative path into normalised names.
func names(p string) []string {
	p = path.Clean(p)
	if p == "." || p == "" {
		return nil
	}
	parts := strings.Split(p, "/")
	for i, n := range parts {
		parts[i] = normalize(n)
	}
	return parts
}

// normalize returns the name a case-insensitive file system sees: lower case,
// without the trailing dots and spaces Windows drops, and without an NTFS
// stream suffix (".mcp.json::$DATA" is .mcp.json). Over-matching a strange
// name on other systems costs nothing; under-matching would be a hole.
func normalize(name string) string {
	if i := strings.IndexByte(name, ':'); i > 0 {
		name = name[:i]
	}
	return strings.ToLower(strings.TrimRight(name, ". "))
}

// end reports where pattern pt matches the names of a path: the number of
// names up to and including the match's last one, or 0 when it does not
// match.
func (pt pattern) end(ns []string) int {
	n := len(pt.parts)
	if !pt.anyDepth {
		if len(ns) < n || !pt.dir && len(ns) != n || !equal(ns[:n], pt.parts) {
			return 0
		}
		return n
	}
	for i := len(ns) - n; i >= 0; i-- {
		if equal(ns[i:i+n], pt.parts) && (pt.dir || i+n == len(ns)) {
			return i + n
		}
	}
	return 0
}

// equal reports whether names a match pattern names b, where a pattern
// name "*suffix" matches any name that ends in suffix.
func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(strings.HasPrefix(b[i], "*") && strings.HasSuffix(a[i], b[i][1:]) && len(a[i]) > len(b[i])-1) {
			return false
		}
	}
	return true
}

// Match returns the rule that governs rel (slash-separated, relative to the
// project root): of the rules that cover it, the one matching deepest. A
// path no rule covers is an ordinary, writable file: ok is false.
func Match(rel string) (r Rule, ok bool) {
	ns := names(rel)
	best := 0
	for i, pt := range patterns {
		if e := pt.end(ns); e > best {
			r, ok, best = rules[i], true, e
		}
	}
	return r, ok
}

// Within returns a rule that protects a path strictly below rel: a symbolic
// link placed at rel would give that protected path a new meaning.
func Within(rel string) (Rule, bool) {
	ns := names(rel)
	for i, pt := range patterns {
		if pt.anyDepth || rules[i].Access == Writable || len(pt.parts) <= len(ns) {
			continue
		}
		if equal(pt.parts[:len(ns)], ns) {
			return rules[i], true
		}
	}
	return Rule{}, false
}

// Markdown renders the table for docs/security.md, whose copy TestDocsTable keeps
// equal to it.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| path | agents may | what it is | how a person changes it |\n|---|---|---|---|\n")
	for _, r := range rules {
		may := map[Access]string{Writable: "read, change", Protected: "read", Secret: "nothing"}[r.Access]
		change := r.Change
		if change == "" {
			change = "–"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.Path, may, strings.ReplaceAll(r.Why, "|", `\|`), strings.ReplaceAll(change, "|", `\|`))
	}
	return b.String()
}
