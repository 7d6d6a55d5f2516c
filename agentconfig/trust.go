package agentconfig

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// TrustStyle is how a client's trust file records a trusted folder.
type TrustStyle string

// The trust styles of the clients that have a trust gate.
const (
	// TrustTable: a TOML table per project, [projects."<abs path>"] with
	// trust_level = "trusted" (Codex).
	TrustTable TrustStyle = "table"
	// TrustMap: a JSON object from folder to "TRUST_FOLDER" (Gemini CLI,
	// Qwen Code).
	TrustMap TrustStyle = "map"
	// TrustList: a JSON list of folders under "trustedFolders" (Copilot
	// CLI 1.0 reads it there, and `copilot help config` names it; its web
	// documentation still says "trusted_folders", which a file that
	// already uses it keeps).
	TrustList TrustStyle = "list"
)

// Trust is where a client records the folders it trusts.
type Trust struct {
	File   string // a user path as in UserFile: "~/.gemini/trustedFolders.json"
	Format Format
	Style  TrustStyle
	// ProjectOnly is true when the gate covers the project's own config
	// only: an entry in the user config works in any folder.
	ProjectOnly bool
	// Switch, when set, is the user settings file whose
	// security.folderTrust.enabled turns the gate on or off, and SwitchOn
	// its default (on in Gemini CLI, off in Qwen Code).
	Switch   string
	SwitchOn bool
}

// The values the trust files use.
const (
	codexTrusted   = "trusted"
	geminiTrusted  = "TRUST_FOLDER"
	geminiParent   = "TRUST_PARENT"
	geminiDistrust = "DO_NOT_TRUST"
)

// copilotTrustKeys are the keys Copilot CLI has kept its trusted folders
// under: the one the current CLI reads first.
var copilotTrustKeys = []string{"trustedFolders", "trusted_folders"}

// NeedsTrust reports whether the client reads t's entry only in a folder
// it trusts: it has a trust gate, the gate covers the entry's file, and the
// user has not turned the gate off (or, where it is off by default, on).
func (t Target) NeedsTrust(env Env) bool {
	tr := t.Client.Trust
	if tr == nil || tr.ProjectOnly && t.Scope == ScopeUser {
		return false
	}
	if tr.Switch == "" {
		return true
	}
	data, _, exists, err := readFile(filepath.FromSlash(expandPath(tr.Switch, env.withDefaults())))
	if err != nil || !exists {
		return tr.SwitchOn
	}
	doc, err := Decode(JSON, data)
	if err != nil {
		return tr.SwitchOn
	}
	v := doc
	for _, k := range []string{"security", "folderTrust", "enabled"} {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	if on, ok := v.(bool); ok {
		return on
	}
	return tr.SwitchOn
}

// TrustPath is the file that holds c's trusted folders; "" when c has none.
func (c Client) TrustPath(env Env) string {
	if c.Trust == nil {
		return ""
	}
	return filepath.FromSlash(expandPath(c.Trust.File, env.withDefaults()))
}

// TrustHow says in one sentence how to trust root for c, by hand or with
// --trust.
func (c Client) TrustHow(root string, env Env) string {
	file := Display(c.TrustPath(env), "", env.Home)
	var what string
	switch c.Trust.Style {
	case TrustTable:
		what = fmt.Sprintf("add [projects.%s] trust_level = \"trusted\" to %s", tomlKey(root), file)
	case TrustMap:
		what = fmt.Sprintf("add %q: %q to %s", root, geminiTrusted, file)
	case TrustList:
		what = fmt.Sprintf("add %q to the trustedFolders list in %s", root, file)
	}
	return c.Name + " reads this project's MCP config only in a folder it trusts: run `agentos trust --agent " + c.ID + "`, " +
		what + ", or answer its trust prompt when it starts here."
}

// ApproveHow says how to approve t's entry, for a client that holds a new
// project server until a person approves it; "" otherwise.
func (t Target) ApproveHow() string {
	if t.Client.Approve == "" || t.Scope == ScopeUser {
		return ""
	}
	return t.Client.Name + " holds a new project server until you approve it: run `" + t.Client.Approve + "` in the project (again after the entry changes)."
}

// Trusted reports whether c trusts root, from its trust file; a missing
// file trusts nothing.
func (c Client) Trusted(root string, env Env) (bool, error) {
	if c.Trust == nil {
		return true, nil
	}
	path := c.TrustPath(env)
	data, _, exists, err := readFile(path)
	if err != nil || !exists {
		return false, err
	}
	doc, err := Decode(c.Trust.Format, data)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	m, _ := doc.(map[string]any)
	switch c.Trust.Style {
	case TrustTable:
		projects, _ := m["projects"].(map[string]any)
		for dir, v := range projects {
			t, _ := v.(map[string]any)
			if t["trust_level"] == codexTrusted && covers(dir, root) {
				return true, nil
			}
		}
	case TrustMap:
		if m[root] == geminiDistrust {
			return false, nil
		}
		for dir, v := range m {
			switch v {
			case geminiTrusted:
				if covers(dir, root) {
					return true, nil
				}
			case geminiParent:
				if covers(filepath.Dir(dir), root) {
					return true, nil
				}
			}
		}
	case TrustList:
		for _, key := range copilotTrustKeys {
			list, _ := m[key].([]any)
			for _, v := range list {
				if dir, ok := v.(string); ok && covers(dir, root) {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// covers reports whether trusting dir trusts path: the same folder or one
// above it.
func covers(dir, path string) bool {
	if dir == "" {
		return false
	}
	_, ok := within(filepath.Clean(dir), path)
	return ok
}

// PlanTrust plans recording root as trusted in c's own trust file, merged
// like every other edit; Unchanged when c already trusts it.
func PlanTrust(c Client, root string, env Env) (Change, error) {
	path := c.TrustPath(env)
	ch := Change{Path: path, Kind: "trust", Client: c.ID, UserOwned: true, Action: Unchanged}
	if path == "" {
		return ch, fmt.Errorf("%s has no trust setting to write", c.Name)
	}
	trusted, err := c.Trusted(root, env)
	if err != nil {
		return Change{}, fmt.Errorf("%w; fix the file (nothing was changed)", err)
	}
	data, perm, exists, err := readFile(path)
	if err != nil {
		return Change{}, err
	}
	ch.Before, ch.After, ch.Perm, ch.Existed = data, data, perm, exists
	if trusted {
		return ch, nil
	}
	var out []byte
	switch c.Trust.Style {
	case TrustTable:
		value := Object{{"trust_level", codexTrusted}}
		if old, ok, err := LookupEntry(TOML, data, []string{"projects"}, root, false); err == nil && ok {
			value = keepFields(old, value) // a table with other settings of the project keeps them
		}
		out, _, err = Merge(TOML, data, []string{"projects"}, root, false, value, nil)
	case TrustMap:
		out, err = mergeJSONValue(data, []string{root}, geminiTrusted)
	case TrustList:
		out, err = appendJSONList(data, trustListKey(data), root)
	}
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w; fix the file (nothing was changed)", path, err)
	}
	ch.After = out
	ch.Action = Updated
	if !exists {
		ch.Action, ch.UserOwned = Created, false
	}
	return ch, writable(ch)
}

// keepFields is old with ours set over it, old's keys sorted first.
func keepFields(old map[string]any, ours Object) Object {
	keys := make([]string, 0, len(old))
	for k := range old {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out Object
	for _, k := range keys {
		out.set(k, old[k])
	}
	for _, f := range ours {
		out.set(f.Key, f.Value)
	}
	return out
}

// trustListKey is the key of Copilot CLI's trusted folders in data: the one
// the file already uses, else the one the current CLI reads.
func trustListKey(data []byte) string {
	if doc, err := Decode(JSON, data); err == nil {
		if m, ok := doc.(map[string]any); ok {
			for _, k := range copilotTrustKeys {
				if _, ok := m[k]; ok {
					return k
				}
			}
		}
	}
	return copilotTrustKeys[0]
}

// mergeJSONValue sets the member at path (all but the last element objects)
// to a plain value, keeping the rest of the document.
func mergeJSONValue(data []byte, path []string, value any) ([]byte, error) {
	form, text := readForm(data)
	out, _, err := mergeJSON(text, path[:len(path)-1], path[len(path)-1], value)
	if err != nil {
		return nil, err
	}
	return form.restore(out), nil
}

// appendJSONList adds item to the list under key, creating the list when it
// is missing, and keeps the rest of the document byte for byte.
func appendJSONList(data []byte, key, item string) ([]byte, error) {
	form, text := readForm(data)
	if len(strings.TrimSpace(string(text))) == 0 {
		text = []byte("{}\n")
	}
	v, _, err := parseJSON(text)
	if err != nil {
		return nil, err
	}
	member := v.Find(pointer([]string{key}))
	if member == nil {
		out, _, err := mergeJSON(text, nil, key, []string{item})
		if err != nil {
			return nil, err
		}
		return form.restore(out), nil
	}
	if _, ok := member.Value.(*hujson.Array); !ok {
		return nil, fmt.Errorf("%s must be a JSON list, not %s", key, kindName(member.Value.Kind()))
	}
	if err := v.Patch(patchOp("add", pointer([]string{key})+"/-", []byte(mustJSON(item)))); err != nil {
		return nil, fmt.Errorf("add to %s: %w", key, err)
	}
	// The new item goes on its own line when the list's items do.
	if arr := v.Find(pointer([]string{key})).Value.(*hujson.Array); len(arr.Elements) > 1 {
		n := len(arr.Elements)
		arr.Elements[n-1].BeforeExtra = bytes.Clone(arr.Elements[n-2].BeforeExtra)
	}
	return form.restore(v.Pack()), nil
}

// TrustFolder records root as trusted in c's trust file, backing up the
// original once; it returns the change (Unchanged when c trusted it already)
// and where the original was saved.
func TrustFolder(c Client, root string, env Env, b Backups) (Change, string, error) {
	ch, err := PlanTrust(c, root, env)
	if err != nil {
		return Change{}, "", err
	}
	backup, err := Apply(ch, b)
	return ch, backup, err
}

// Untrusted lists the clients that hold an agentos entry for the project
// at root in a file they read only in a folder they trust, and do not trust
// root yet: the clients `agentos trust` acts for when none is named.
func Untrusted(root string, env Env) []Client {
	var out []Client
	for _, c := range clients {
		if c.Trust == nil {
			continue
		}
		for _, t := range TargetsOf(c, root, env) {
			if !hasEntry(t) || !t.NeedsTrust(env) {
				continue
			}
			if ok, _ := c.Trusted(root, env); !ok {
				out = append(out, c)
			}
			break
		}
	}
	return out
}

// hasEntry reports whether t's file holds an agentos entry.
func hasEntry(t Target) bool {
	data, _, exists, err := readFile(t.Path)
	if err != nil || !exists {
		return false
	}
	_, ok, err := LookupEntry(t.Client.Format, data, t.Key, ServerName, t.Client.List)
	return err == nil && ok
}
