package installer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/agentos-dev/agentos/internal/project"
)

// ServerName is the key of agentos's entry under mcpServers in .mcp.json.
const ServerName = "agentos"

// ServerArgs are the arguments Claude Code starts the pinned binary with.
var ServerArgs = []string{"serve", "--transport", "dual", "--log-level", "INFO"}

// serverEntry is the .mcp.json entry that starts the project's server.
type serverEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

func entryFor(p project.Paths) serverEntry {
	return serverEntry{
		Command: PinnedBinary(p),
		Args:    append([]string(nil), ServerArgs...),
		Env:     map[string]string{project.EnvRoot: p.Root},
	}
}

// planMCPJSON plans agentos's entry in the project's .mcp.json, the file in
// which Claude Code looks for project-scoped MCP servers. Other servers, keys,
// comments and formatting are kept.
func planMCPJSON(p project.Paths) (change, error) {
	path := filepath.Join(p.Root, ".mcp.json")
	step := Step{Kind: StepMCPJSON, Path: p.Rel(path), Action: Unchanged}
	want := entryFor(p)
	original, perm, exists, err := readOptional(path)
	if err != nil {
		return change{}, err
	}
	if !exists {
		data, err := newMCPJSON(want)
		if err != nil {
			return change{}, err
		}
		step.Action = Created
		return change{step: step, apply: func() error { return writeFile(path, data, 0o644) }}, nil
	}
	merged, changed, err := mergeMCPJSON(original, want)
	if err != nil {
		return change{}, fmt.Errorf("install: %s: %w", path, err)
	}
	if !changed {
		return change{step: step}, nil
	}
	bak, err := planBackup(p, ".mcp.json", original, perm)
	if err != nil {
		return change{}, err
	}
	step.Action = Updated
	step.Backup = bak.rel(p)
	return change{step: step, apply: func() error {
		if err := bak.write(); err != nil {
			return err
		}
		return writeFile(path, merged, perm)
	}}, nil
}

// newMCPJSON renders a fresh .mcp.json holding only agentos's entry, in the
// two-space style Claude Code itself writes.
func newMCPJSON(want serverEntry) ([]byte, error) {
	doc := map[string]map[string]serverEntry{"mcpServers": {ServerName: want}}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("install: render .mcp.json: %w", err)
	}
	return append(data, '\n'), nil
}

// mergeMCPJSON sets mcpServers.agentos in data and reports whether anything
// changed. data may hold comments and trailing commas; everything outside
// the entry is kept as written.
func mergeMCPJSON(data []byte, want serverEntry) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		out, err := newMCPJSON(want)
		return out, true, err
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, false, fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "hujson: "))
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, false, fmt.Errorf("must hold a JSON object, not %s", kindName(v.Value.Kind()))
	}
	style := styleOf(root)
	servers := v.Find("/mcpServers")
	if servers == nil {
		value, err := style.renderAt(map[string]serverEntry{ServerName: want}, memberIndent(root, style, 1))
		if err != nil {
			return nil, false, err
		}
		if err := addMember(&v, root, "/mcpServers", value, style, 0); err != nil {
			return nil, false, err
		}
		return finish(v, want)
	}
	obj, ok := servers.Value.(*hujson.Object)
	if !ok {
		return nil, false, fmt.Errorf("mcpServers must be a JSON object, not %s", kindName(servers.Value.Kind()))
	}
	if current := servers.Find("/" + ServerName); current != nil {
		if equalJSON(*current, want) {
			return data, false, nil
		}
		value, err := style.renderAt(want, memberIndent(obj, style, 2))
		if err != nil {
			return nil, false, err
		}
		if err := v.Patch(patchOp("replace", "/mcpServers/"+ServerName, value)); err != nil {
			return nil, false, fmt.Errorf("set mcpServers.%s: %w", ServerName, err)
		}
		return finish(v, want)
	}
	value, err := style.renderAt(want, memberIndent(obj, style, 2))
	if err != nil {
		return nil, false, err
	}
	if err := addMember(&v, obj, "/mcpServers/"+ServerName, value, style, 1); err != nil {
		return nil, false, err
	}
	return finish(v, want)
}

// finish packs the edited document and checks that it is valid and holds
// exactly the wanted entry before anything is written.
func finish(v hujson.Value, want serverEntry) ([]byte, bool, error) {
	out := v.Pack()
	check, err := hujson.Parse(out)
	if err != nil {
		return nil, false, fmt.Errorf("the merged file does not parse: %w", err)
	}
	std := check.Clone()
	std.Standardize()
	if !json.Valid(std.Pack()) {
		return nil, false, fmt.Errorf("the merged file is not valid JSON")
	}
	if entry := check.Find("/mcpServers/" + ServerName); entry == nil || !equalJSON(*entry, want) {
		return nil, false, fmt.Errorf("the merged file does not hold the agentos entry")
	}
	return out, true, nil
}

// layoutStyle is how a document is laid out: one member per line with a
// given indent unit, or all on one line.
type layoutStyle struct {
	multiline bool
	unit      string // one level of indentation
}

// styleOf infers the document's layout from its top-level object. An empty
// object gets the two-space style Claude Code writes.
func styleOf(root *hujson.Object) layoutStyle {
	if len(root.Members) == 0 {
		return layoutStyle{multiline: true, unit: "  "}
	}
	indent, ok := lineIndent(root.Members[0].Name.BeforeExtra)
	if !ok {
		return layoutStyle{}
	}
	if indent == "" {
		indent = "  "
	}
	return layoutStyle{multiline: true, unit: indent}
}

// memberIndent is the indentation of obj's members, which sit at depth (the
// top-level object's members are at depth 1): the indentation its existing
// members use, or depth units.
func memberIndent(obj *hujson.Object, style layoutStyle, depth int) string {
	if len(obj.Members) > 0 {
		if indent, ok := lineIndent(obj.Members[0].Name.BeforeExtra); ok {
			return indent
		}
	}
	return strings.Repeat(style.unit, depth)
}

// lineIndent returns the whitespace after the last newline of extra, and
// false when extra has no newline (the value shares its line).
func lineIndent(extra hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	rest := extra[i+1:]
	if len(bytes.Trim(rest, " \t")) != 0 {
		return "", false
	}
	return string(rest), true
}

// renderAt renders value for a member indented by indent, so its closing
// brace lines up with the member's name.
func (s layoutStyle) renderAt(value any, indent string) ([]byte, error) {
	var out []byte
	var err error
	if s.multiline {
		out, err = json.MarshalIndent(value, indent, s.unit)
	} else {
		out, err = json.Marshal(value)
	}
	if err != nil {
		return nil, fmt.Errorf("render entry: %w", err)
	}
	return out, nil
}

// addMember adds a member to obj (found at pointer's parent, which sits at
// depth) with hujson's patch, which keeps the comments around its neighbours,
// then lays out the new member like its siblings: hujson inserts it bare.
func addMember(v *hujson.Value, obj *hujson.Object, pointer string, value []byte, style layoutStyle, depth int) error {
	indent := memberIndent(obj, style, depth+1)
	if err := v.Patch(patchOp("add", pointer, value)); err != nil {
		return fmt.Errorf("add %s: %w", pointer, err)
	}
	m := &obj.Members[len(obj.Members)-1]
	if !style.multiline {
		return nil
	}
	before := bytes.TrimRight(m.Name.BeforeExtra, " \t")
	if !bytes.HasSuffix(before, []byte("\n")) {
		before = append(before, '\n')
	}
	m.Name.BeforeExtra = append(before, indent...)
	m.Value.BeforeExtra = hujson.Extra(" ")
	if _, ok := lineIndent(obj.AfterExtra); !ok {
		// The object was empty or closed on the last member's line.
		obj.AfterExtra = append(obj.AfterExtra, "\n"+strings.Repeat(style.unit, depth)...)
	}
	return nil
}

// patchOp builds a one-operation JSON Patch whose value is the raw JSON
// value, so its layout survives into the document.
func patchOp(op, path string, value []byte) []byte {
	head, _ := json.Marshal(map[string]string{"op": op, "path": path}) // strings always marshal
	var b bytes.Buffer
	b.WriteString("[")
	b.Write(head[:len(head)-1])
	b.WriteString(`,"value":`)
	b.Write(value)
	b.WriteString("}]")
	return b.Bytes()
}

// equalJSON reports whether v holds the same JSON value as want, whatever
// its layout or comments.
func equalJSON(v hujson.Value, want any) bool {
	v = v.Clone()
	v.Standardize()
	var got, exp any
	if json.Unmarshal(v.Pack(), &got) != nil {
		return false
	}
	raw, err := json.Marshal(want)
	if err != nil || json.Unmarshal(raw, &exp) != nil {
		return false
	}
	return reflect.DeepEqual(got, exp)
}

func kindName(k hujson.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '[':
		return "an array"
	default:
		return "an object"
	}
}
