package agentconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/markedblock"
)

// Action says what a planned change does to its file.
type Action string

// The actions.
const (
	Created   Action = "created"
	Updated   Action = "updated"
	Unchanged Action = "unchanged"
	Removed   Action = "removed"
)

// Change is one planned edit of one file. Nothing is written until the
// caller applies it; Before is what the file held, After what it will hold
// (nil with Removed: the file is deleted).
type Change struct {
	Path    string // absolute
	Kind    string // "config", "rules" or "command"
	Client  string // the client id it is for
	Action  Action
	Existed bool
	Before  []byte
	After   []byte
	Perm    fs.FileMode
	// UserOwned is true for a file the user owns too (a config, a shared
	// rules file): back it up once before the first edit.
	UserOwned bool
	Note      string // one sentence for the user, if there is more to say
}

// Merge sets name's entry under key in a file of the given format and
// reports whether anything changed. The result has been parsed back and
// checked to hold the entry; everything else in the file is kept, its
// byte-order mark and line endings included.
func Merge(format Format, data []byte, key []string, name string, list bool, value Object, fresh Object) ([]byte, bool, error) {
	form, text := readForm(data)
	out, changed, err := merge(format, text, key, name, list, value, fresh)
	if err != nil {
		return nil, false, err
	}
	if !changed {
		return data, false, nil
	}
	return form.restore(out), true, nil
}

func merge(format Format, data []byte, key []string, name string, list bool, value Object, fresh Object) ([]byte, bool, error) {
	switch format {
	case JSON, JSONC:
		return mergeJSON(data, key, name, value)
	case YAML:
		return mergeYAML(data, key, name, list, value, fresh)
	case TOML:
		return mergeTOML(data, key, name, value)
	}
	return nil, false, fmt.Errorf("unknown format %q", format)
}

// Remove deletes name's entry under key; changed is false when there was none.
func Remove(format Format, data []byte, key []string, name string, list bool) ([]byte, bool, error) {
	form, text := readForm(data)
	out, changed, err := remove(format, text, key, name, list)
	if err != nil {
		return nil, false, err
	}
	if !changed {
		return data, false, nil
	}
	return form.restore(out), true, nil
}

func remove(format Format, data []byte, key []string, name string, list bool) ([]byte, bool, error) {
	switch format {
	case JSON, JSONC:
		return removeJSON(data, key, name)
	case YAML:
		return removeYAML(data, key, name, list)
	case TOML:
		return removeTOML(data, key, name)
	}
	return nil, false, fmt.Errorf("unknown format %q", format)
}

// LookupEntry returns name's entry under key, decoded to maps and slices.
func LookupEntry(format Format, data []byte, key []string, name string, list bool) (map[string]any, bool, error) {
	var v any
	var ok bool
	var err error
	_, data = readForm(data)
	switch format {
	case JSON, JSONC:
		v, ok, err = lookupJSON(data, key, name)
	case YAML:
		v, ok, err = lookupYAML(data, key, name, list)
	case TOML:
		v, ok, err = lookupTOML(data, key, name)
	default:
		return nil, false, fmt.Errorf("unknown format %q", format)
	}
	if err != nil || !ok {
		return nil, ok, err
	}
	m, isMap := plain(v).(map[string]any)
	if !isMap {
		return nil, true, fmt.Errorf("the %s entry is not an object", name)
	}
	return m, true, nil
}

// Decode parses a whole config file of the given format; it is how callers
// check that a file is valid.
func Decode(format Format, data []byte) (any, error) {
	_, data = readForm(data)
	switch format {
	case JSON, JSONC:
		return decodeJSON(data)
	case YAML:
		return decodeYAML(data)
	case TOML:
		return decodeTOML(data)
	}
	return nil, fmt.Errorf("unknown format %q", format)
}

// readFile reads a file that may not exist. A symbolic link (a dotfile
// manager's) is read through: the content and permissions are its
// target's, which is what Apply writes. A link to nothing is an error.
func readFile(path string) (data []byte, perm fs.FileMode, exists bool, err error) {
	target, err := atomicfile.Resolve(path)
	if err != nil {
		return nil, 0, false, err
	}
	fi, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("%s is not a regular file", target)
	}
	data, err = os.ReadFile(target)
	if err != nil {
		return nil, 0, false, err
	}
	return data, fi.Mode().Perm(), true, nil
}

// writable refuses a change to a read-only file: a person (or a tool such
// as home-manager, whose files are read-only) protected it, and replacing
// it would defeat that. An unchanged file is fine.
func writable(ch Change) error {
	if ch.Action == Unchanged || !ch.Existed || ch.Perm&0o200 != 0 {
		return nil
	}
	where := ch.Path
	if target, err := atomicfile.Resolve(ch.Path); err == nil && target != ch.Path {
		where = ch.Path + " (a link to " + target + ")"
	}
	return fmt.Errorf("%s is read-only, so agentos leaves it alone (nothing was changed); make it writable, or change it where it is generated", where)
}

// isLink reports whether path is a symbolic link: removing "the file"
// would remove the link, so an emptied linked file is written instead.
func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// PlanEntry plans writing e into t's file. A malformed file fails the plan
// with the file and the parser's position, and is left untouched.
func PlanEntry(t Target, e Entry) (Change, error) {
	c := t.Client
	ch := Change{Path: t.Path, Kind: "config", Client: c.ID, UserOwned: true}
	data, perm, exists, err := readFile(t.Path)
	if err != nil {
		return Change{}, err
	}
	ch.Before, ch.Perm, ch.Existed = data, perm, exists
	e.AutoApprove = keptApprovals(t, data, e.AutoApprove)
	out, changed, err := Merge(c.Format, data, t.Key, ServerName, c.List, c.Emit(e), c.FreshDoc)
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w; fix the file (nothing was changed)", t.Path, err)
	}
	switch {
	case !exists:
		ch.Action = Created
		ch.UserOwned = false
	case changed:
		ch.Action = Updated
	default:
		ch.Action = Unchanged
	}
	ch.After = out
	if !changed {
		ch.After = data
	}
	return ch, writable(ch)
}

// keptApprovals adds to ours the tool names the user auto-approved in the
// entry being replaced, so that rewriting the entry (a secondary connected
// anew after the server moved) takes no approval away.
func keptApprovals(t Target, data []byte, ours []string) []string {
	field := t.Client.Shape.AutoApprove
	if field == "" || len(ours) == 0 || len(data) == 0 {
		return ours
	}
	old, ok, err := LookupEntry(t.Client.Format, data, t.Key, ServerName, t.Client.List)
	if err != nil || !ok {
		return ours // a malformed file fails the merge with its own message
	}
	list, _ := old[field].([]any)
	out := append([]string(nil), ours...)
	for _, v := range list {
		if name, ok := v.(string); ok && name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// PlanRemoveEntry plans removing agentos's entry from t's file. original
// is what the file held before agentos first edited it (its backup; nil
// when agentos created the file): an emptied per-project section goes
// only as far as what agentos added.
func PlanRemoveEntry(t Target, original []byte) (Change, error) {
	c := t.Client
	ch := Change{Path: t.Path, Kind: "config", Client: c.ID, Action: Unchanged, UserOwned: true}
	data, perm, exists, err := readFile(t.Path)
	if err != nil || !exists {
		return ch, err
	}
	ch.Before, ch.Perm, ch.Existed, ch.After = data, perm, true, data
	out, changed, err := Remove(c.Format, data, t.Key, ServerName, c.List)
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w; fix the file (nothing was changed)", t.Path, err)
	}
	if changed {
		ch.Action, ch.After = Updated, out
		if t.Scope == ScopeProject && !isLink(t.Path) && isOnlyOurs(c, out, t.Key) {
			// The file held only our entry: install created it, so it goes.
			ch.Action, ch.After = Removed, nil
		} else if t.Scope == ScopeLocal && c.LocalScope {
			if ch.After, err = dropEmptyProject(c.Format, out, t.Key, original); err != nil {
				return Change{}, fmt.Errorf("%s: %w; fix the file (nothing was changed)", t.Path, err)
			}
		}
	}
	return ch, writable(ch)
}

// dropEmptyProject removes the project's entry from a user file holding
// per-project settings (key is projects/<root>/<servers>) when all it has
// left is an empty servers collection: what install created there. The
// projects object goes too when it is then empty and original (the file
// before install) had none.
func dropEmptyProject(format Format, data []byte, key []string, original []byte) ([]byte, error) {
	if len(key) < 3 {
		return data, nil
	}
	v, err := Decode(format, data)
	if err != nil {
		return nil, err
	}
	for _, k := range key[:2] {
		m, ok := v.(map[string]any)
		if !ok {
			return data, nil
		}
		v = m[k]
	}
	project, ok := v.(map[string]any)
	if !ok || len(project) != 1 || !emptyAlong(project, key[2:], nil) {
		return data, nil
	}
	out, _, err := Remove(format, data, key[:1], key[1], false)
	if err != nil {
		return nil, err
	}
	if doc, err := Decode(format, out); err == nil {
		m, _ := doc.(map[string]any)
		if projects, ok := m[key[0]].(map[string]any); ok && len(projects) == 0 && !hasTopKey(format, original, key[0]) {
			out, _, err = Remove(format, out, nil, key[0], false)
		}
	}
	return out, err
}

// hasTopKey reports whether data, a whole config file, has key at its top.
func hasTopKey(format Format, data []byte, key string) bool {
	if len(data) == 0 {
		return false
	}
	doc, err := Decode(format, data)
	if err != nil {
		return true // unreadable: keep what may have been the user's
	}
	m, _ := doc.(map[string]any)
	_, ok := m[key]
	return ok
}

// isOnlyOurs reports whether a config holds nothing but an empty servers
// collection (and a block file's header): what install wrote, now empty.
func isOnlyOurs(c Client, data []byte, key []string) bool {
	v, err := Decode(c.Format, data)
	if err != nil {
		return false
	}
	return emptyAlong(v, key, c.FreshDoc)
}

func emptyAlong(v any, key []string, fresh Object) bool {
	switch t := v.(type) {
	case nil:
		return true
	case []any:
		return len(t) == 0
	case map[string]any:
		for k, x := range t {
			if _, ok := fresh.Get(k); ok {
				continue
			}
			if len(key) == 0 || k != key[0] || !emptyAlong(x, key[1:], nil) {
				return false
			}
		}
		return true
	}
	return false
}

// Markers of the block agentos keeps in shared rules files.
const (
	BlockBegin = "<!-- agentos:begin -->"
	BlockEnd   = "<!-- agentos:end -->"
)

// RulesText is the source text of the agent rules.
func RulesText() ([]byte, error) { return assets.Read(assets.AgentRules) }

// RenderRules renders the rules for one file: a dedicated file is the
// frontmatter, a note and the rules; a shared file's part is the block.
func RenderRules(rf RulesFile, text []byte) []byte {
	body := strings.TrimRight(string(text), "\n") + "\n"
	if rf.Shared {
		return []byte(BlockBegin + "\n" + body + BlockEnd + "\n")
	}
	var b strings.Builder
	if rf.Frontmatter != "" {
		b.WriteString("---\n" + rf.Frontmatter + "\n---\n\n")
	}
	b.WriteString("<!-- Written by agentos install; it replaces this file, so keep your own rules elsewhere. -->\n\n")
	b.WriteString(body)
	return []byte(b.String())
}

// rulesBlock marks our block in a shared rules file.
var rulesBlock = markedblock.Markers{Begin: "<!-- agentos:begin", End: "<!-- agentos:end"}

// MergeBlock puts block into data in place of an existing marked block, or
// appends it.
func MergeBlock(data, block []byte) ([]byte, error) { return rulesBlock.Replace(data, block) }

// RemoveBlock deletes the marked block (and the blank line before it that
// MergeBlock added).
func RemoveBlock(data []byte) ([]byte, bool, error) { return rulesBlock.Remove(data) }

// PlanRules plans c's rules files under root, and its slash-command files
// where it has them.
func PlanRules(c Client, root string, text []byte) ([]Change, error) {
	var out []Change
	for _, rf := range c.Rules {
		path := filepath.Join(root, filepath.FromSlash(rf.Path))
		data, perm, exists, err := readFile(path)
		if err != nil {
			return nil, err
		}
		ch := Change{Path: path, Kind: "rules", Client: c.ID, Before: data, Perm: perm, Existed: exists, UserOwned: rf.Shared && exists}
		rendered := RenderRules(rf, text)
		if rf.Shared {
			if rendered, err = MergeBlock(data, rendered); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		ch.After = rendered
		switch {
		case !exists:
			ch.Action = Created
		case bytes.Equal(data, rendered):
			ch.Action = Unchanged
		default:
			ch.Action = Updated
		}
		if err := writable(ch); err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	cmds, err := planCommands(c, root)
	if err != nil {
		return nil, err
	}
	return append(out, cmds...), nil
}

// AllRulesFiles lists every distinct rules file of the registry.
func AllRulesFiles() []RulesFile {
	seen := map[string]bool{}
	var out []RulesFile
	for _, c := range clients {
		for _, rf := range c.Rules {
			if !seen[rf.Path] {
				seen[rf.Path] = true
				out = append(out, rf)
			}
		}
	}
	return out
}

// PlanRemoveRules plans removing every rules file and block agentos wrote
// under root: dedicated files that still carry our note, and marked blocks.
func PlanRemoveRules(root string) ([]Change, error) {
	var out []Change
	for _, rf := range AllRulesFiles() {
		path := filepath.Join(root, filepath.FromSlash(rf.Path))
		data, perm, exists, err := readFile(path)
		if err != nil {
			return nil, err
		}
		if !exists {
			continue
		}
		ch := Change{Path: path, Kind: "rules", Before: data, Perm: perm, Existed: true, After: data, Action: Unchanged}
		if rf.Shared {
			after, changed, err := RemoveBlock(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if changed {
				ch.UserOwned = true
				ch.Action, ch.After = Updated, after
				if len(bytes.TrimSpace(after)) == 0 && !isLink(path) {
					ch.Action, ch.After = Removed, nil
				}
			}
		} else if bytes.Contains(data, []byte("<!-- Written by agentos install")) {
			ch.Action, ch.After = Removed, nil
		}
		if err := writable(ch); err != nil {
			return nil, err
		}
		if ch.Action != Unchanged {
			out = append(out, ch)
		}
	}
	cmds, err := planRemoveCommands(root)
	if err != nil {
		return nil, err
	}
	return append(out, cmds...), nil
}
