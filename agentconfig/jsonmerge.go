package agentconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// The JSON merge edits the document with hujson, which keeps comments,
// trailing commas and the layout of everything it does not touch; the
// entry itself is laid out like its neighbours.

func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// parseHook, when set by a test, is told of every parse of a whole
// document: a merge parses the file once (a ~/.claude.json can hold a
// megabyte of project history).
var parseHook func()

// parseJSON parses data as JSONC and checks that it holds an object.
func parseJSON(data []byte) (hujson.Value, *hujson.Object, error) {
	if parseHook != nil {
		parseHook()
	}
	v, err := hujson.Parse(bytes.Clone(data))
	if err != nil {
		return hujson.Value{}, nil, fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "hujson: "))
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return hujson.Value{}, nil, fmt.Errorf("must hold a JSON object, not %s", kindName(v.Value.Kind()))
	}
	return v, root, nil
}

// mergeJSON sets key/name to value in data and reports whether anything
// changed. Missing objects along key are created.
func mergeJSON(data []byte, key []string, name string, value any) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	v, root, err := parseJSON(data)
	if err != nil {
		return nil, false, err
	}
	style := styleOf(root)
	full := append(append([]string(nil), key...), name)
	parent := root
	for depth := range full {
		member := v.Find(pointer(full[:depth+1]))
		last := depth == len(full)-1
		if member == nil {
			var sub any = value
			for i := len(full) - 1; i > depth; i-- {
				sub = Object{{full[i], sub}}
			}
			raw, err := style.renderAt(sub, memberIndent(parent, style, depth+1))
			if err != nil {
				return nil, false, err
			}
			if err := addMember(&v, parent, pointer(full[:depth+1]), raw, style, depth); err != nil {
				return nil, false, err
			}
			return finishJSON(v, full, value)
		}
		if last {
			if equalJSON(*member, value) {
				return data, false, nil
			}
			raw, err := style.renderAt(value, memberIndent(parent, style, depth+1))
			if err != nil {
				return nil, false, err
			}
			if err := v.Patch(patchOp("replace", pointer(full), raw)); err != nil {
				return nil, false, fmt.Errorf("set %s: %w", strings.Join(full, "."), err)
			}
			return finishJSON(v, full, value)
		}
		obj, ok := member.Value.(*hujson.Object)
		if !ok {
			return nil, false, fmt.Errorf("%s must be a JSON object, not %s", strings.Join(full[:depth+1], "."), kindName(member.Value.Kind()))
		}
		parent = obj
	}
	return nil, false, fmt.Errorf("empty key")
}

// removeJSON deletes key/name from data; changed is false when it was absent.
func removeJSON(data []byte, key []string, name string) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return data, false, nil
	}
	v, _, err := parseJSON(data)
	if err != nil {
		return nil, false, err
	}
	full := append(append([]string(nil), key...), name)
	if v.Find(pointer(full)) == nil {
		return data, false, nil
	}
	if err := v.Patch([]byte(`[{"op":"remove","path":` + mustJSON(pointer(full)) + `}]`)); err != nil {
		return nil, false, fmt.Errorf("remove %s: %w", strings.Join(full, "."), err)
	}
	// An object left empty closes where it opened, as it was before the
	// merge broke it over lines.
	if parent, ok := v.Find(pointer(key)).Value.(*hujson.Object); ok && len(parent.Members) == 0 && len(bytes.TrimSpace(parent.AfterExtra)) == 0 {
		parent.AfterExtra = nil
	}
	return v.Pack(), true, nil
}

// lookupJSON returns the value at key/name, decoded.
func lookupJSON(data []byte, key []string, name string) (any, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, false, nil
	}
	v, _, err := parseJSON(data)
	if err != nil {
		return nil, false, err
	}
	m := v.Find(pointer(append(append([]string(nil), key...), name)))
	if m == nil {
		return nil, false, nil
	}
	c := m.Clone()
	c.Standardize()
	var out any
	if err := json.Unmarshal(c.Pack(), &out); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// decodeJSON parses a whole JSONC document.
func decodeJSON(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	// Standardize rewrites comments in place, and the parsed value shares
	// the caller's bytes: work on a copy.
	v, err := hujson.Parse(bytes.Clone(data))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "hujson: "))
	}
	v.Standardize()
	var out any
	if err := json.Unmarshal(v.Pack(), &out); err != nil {
		return nil, err
	}
	return out, nil
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// finishJSON checks that the edited document holds exactly the wanted
// entry and packs it. The document is not parsed again: it is the tree the
// one parse built, changed only through hujson's patches (which parse the
// values they add) and whitespace, so it packs to valid JSONC.
func finishJSON(v hujson.Value, full []string, want any) ([]byte, bool, error) {
	if entry := v.Find(pointer(full)); entry == nil || !equalJSON(*entry, want) {
		return nil, false, fmt.Errorf("the merged file does not hold the agentos entry")
	}
	return v.Pack(), true, nil
}

// layoutStyle is how a document is laid out: one member per line with a
// given indent unit, or all on one line.
type layoutStyle struct {
	multiline bool
	unit      string
}

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

func memberIndent(obj *hujson.Object, style layoutStyle, depth int) string {
	if len(obj.Members) > 0 {
		if indent, ok := lineIndent(obj.Members[0].Name.BeforeExtra); ok {
			return indent
		}
	}
	return strings.Repeat(style.unit, depth)
}

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

func (s layoutStyle) renderAt(value any, indent string) ([]byte, error) {
	raw, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("render entry: %w", err)
	}
	if !s.multiline {
		return raw, nil
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, indent, s.unit); err != nil {
		return nil, fmt.Errorf("render entry: %w", err)
	}
	return b.Bytes(), nil
}

func addMember(v *hujson.Value, obj *hujson.Object, ptr string, value []byte, style layoutStyle, depth int) error {
	indent := memberIndent(obj, style, depth+1)
	if err := v.Patch(patchOp("add", ptr, value)); err != nil {
		return fmt.Errorf("add %s: %w", ptr, err)
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
		obj.AfterExtra = append(obj.AfterExtra, "\n"+strings.Repeat(style.unit, depth)...)
	}
	return nil
}

func patchOp(op, path string, value []byte) []byte {
	head, _ := json.Marshal(map[string]string{"op": op, "path": path})
	var b bytes.Buffer
	b.WriteString("[")
	b.Write(head[:len(head)-1])
	b.WriteString(`,"value":`)
	b.Write(value)
	b.WriteString("}]")
	return b.Bytes()
}

func equalJSON(v hujson.Value, want any) bool {
	v = v.Clone()
	v.Standardize()
	var got any
	if json.Unmarshal(v.Pack(), &got) != nil {
		return false
	}
	return sameValue(got, want)
}

// sameValue compares two values after normalising their Go types.
func sameValue(a, b any) bool {
	return reflect.DeepEqual(plain(a), plain(b))
}

// plain normalises a value through JSON: Objects become maps, every number
// a float64.
func plain(v any) any {
	raw, err := json.Marshal(normalizeValue(v))
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(raw, &out) != nil {
		return v
	}
	return out
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
