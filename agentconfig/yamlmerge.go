package agentconfig

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The YAML merge splices text: a hand-kept YAML file (Goose's, Continue's)
// keeps every line the person wrote, its indentation, blank lines,
// comments, anchors and block scalars, because it is never re-encoded. The
// parser only finds where agentos's entry is or goes (line and column), and
// checks the result: it must parse, hold exactly our entry and hold every
// other setting as before. Only the entry's own lines are rendered, in the
// file's indentation.

// parseYAML parses data into its document node, whose content is a mapping.
func parseYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("must hold a YAML mapping at the top level")
	}
	return &doc, nil
}

// mappingValue returns the value node of key in m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// toNode renders v as a node, keeping an Object's member order.
func toNode(v any) *yaml.Node {
	switch t := v.(type) {
	case Object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, f := range t {
			n.Content = append(n.Content, scalar(f.Key), toNode(f.Value))
		}
		return n
	case map[string]string:
		return sortedMapping(t)
	case map[string]any:
		return sortedMapping(t)
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, s := range t {
			n.Content = append(n.Content, toNode(s))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, s := range t {
			n.Content = append(n.Content, toNode(s))
		}
		return n
	default:
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return scalar(fmt.Sprint(v))
		}
		return &n
	}
}

func scalar(s string) *yaml.Node {
	var n yaml.Node
	n.Encode(s) // a string always encodes; quoting follows yaml.v3's rules
	return &n
}

// findYAML walks key from the top mapping; the last node found, the key
// node that names it (nil for the top) and how many keys were found.
func findYAML(top *yaml.Node, key []string) (at, name *yaml.Node, found int) {
	at = top
	for i, k := range key {
		if at.Kind != yaml.MappingNode {
			return at, name, i
		}
		j := memberIndex(at, k)
		if j < 0 {
			return at, name, i
		}
		at, name = at.Content[j+1], at.Content[j]
	}
	return at, name, len(key)
}

// memberIndex is the index of key's key node in mapping m, or -1.
func memberIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

// itemIndex is the index of the list item whose name is name, or -1.
func itemIndex(seq *yaml.Node, name string) int {
	for i, item := range seq.Content {
		if item.Kind == yaml.MappingNode {
			if n := mappingValue(item, "name"); n != nil && n.Value == name {
				return i
			}
		}
	}
	return -1
}

// yamlText is a file's lines (each without its "\n") for splicing.
type yamlText struct {
	lines []string
	final bool // the last line ended with "\n"
}

func splitYAML(data []byte) yamlText {
	s := string(data)
	t := yamlText{final: strings.HasSuffix(s, "\n")}
	if s = strings.TrimSuffix(s, "\n"); s != "" || !t.final {
		t.lines = strings.Split(s, "\n")
	}
	if len(data) == 0 {
		t.lines = nil
	}
	return t
}

func (t yamlText) bytes() []byte {
	out := strings.Join(t.lines, "\n")
	if len(t.lines) > 0 {
		out += "\n" // a file we edit ends its last line
	}
	return []byte(out)
}

// splice replaces lines [from, to) with repl.
func (t *yamlText) splice(from, to int, repl []string) {
	t.lines = append(t.lines[:from], append(append([]string(nil), repl...), t.lines[to:]...)...)
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// extent is the last line (0-based) of the member or item that starts on
// line start with its key or dash at column col: the following lines
// indented deeper belong to it, and for a member (not an item) also a
// sequence written at its own indent. Blank lines and shallower comments
// belong to it only when more of it follows.
func (t yamlText) extent(start, col int, member bool) int {
	end := start
	for i := start + 1; i < len(t.lines); i++ {
		line := t.lines[i]
		trimmed := strings.TrimSpace(line)
		ind := indentOf(line)
		switch {
		case trimmed != "" && (ind > col || member && ind == col && (trimmed == "-" || strings.HasPrefix(trimmed, "- "))):
			end = i
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		default:
			return end
		}
	}
	return end
}

// yamlUnit is the file's indentation step: how much deeper the first
// nested block mapping sits than its key, 2 when there is none.
func yamlUnit(n *yaml.Node) int {
	if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Line > k.Line {
				if d := v.Content[0].Column - k.Column; d >= 2 {
					return d
				}
			}
			if u := yamlUnit(v); u != 2 {
				return u
			}
		}
	}
	for _, c := range n.Content {
		if n.Kind != yaml.MappingNode {
			if u := yamlUnit(c); u != 2 {
				return u
			}
		}
	}
	return 2
}

// renderLines renders n in block style with the given indent step, as
// lines indented by col.
func renderLines(n *yaml.Node, unit, col int) ([]string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(unit)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("render YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render YAML: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	pad := strings.Repeat(" ", col)
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return lines, nil
}

// renderItem renders a list item: "- " at col, its lines under the dash's
// content column.
func renderItem(v *yaml.Node, unit, col int) ([]string, error) {
	lines, err := renderLines(v, unit, col+2)
	if err != nil {
		return nil, err
	}
	lines[0] = strings.Repeat(" ", col) + "- " + strings.TrimLeft(lines[0], " ")
	return lines, nil
}

// dashColumn finds the column of the dash that opens the list item whose
// content starts at (line, col), both 0-based; -1 when it is not on that line.
func (t yamlText) dashColumn(line, col int) int {
	l := t.lines[line]
	for i := min(col, len(l)) - 1; i >= 0; i-- {
		switch l[i] {
		case '-':
			return i
		case ' ':
		default:
			return -1
		}
	}
	return -1
}

// emptyValue cuts an empty collection or null written after a key or on
// its own line ("{}", "[]", "~", "null") and returns the line the members
// go after. A collection with members in flow style cannot take a block
// entry without rewriting it, so it is refused.
func (t *yamlText) emptyValue(at, keyNode *yaml.Node, path string) (int, error) {
	if at.Kind == yaml.ScalarNode && at.Tag == "!!null" && at.Value == "" {
		return keyNode.Line - 1, nil
	}
	if len(at.Content) > 0 || at.Kind == yaml.ScalarNode && at.Tag != "!!null" {
		return 0, fmt.Errorf("%s is written in flow style ({...} or [...]); agentos will not rewrite it: write it as an indented block, or add the entry by hand", path)
	}
	line, col := at.Line-1, at.Column-1
	l := t.lines[line]
	width := len(at.Value) // ~ or null
	if at.Kind != yaml.ScalarNode {
		closer := map[byte]byte{'{': '}', '[': ']'}[l[col]]
		width = strings.IndexByte(l[col:], closer) + 1
	}
	rest := strings.TrimRight(l[:col], " ") + l[col+width:]
	if strings.TrimSpace(rest) == "" {
		t.splice(line, line+1, nil)
		return line - 1, nil
	}
	t.lines[line] = rest
	return line, nil
}

// mergeYAML sets name's entry under key: a mapping member, or (list) the
// sequence item whose name is name.
func mergeYAML(data []byte, key []string, name string, list bool, value any, fresh Object) ([]byte, bool, error) {
	if current, found, err := lookupYAML(data, key, name, list); err != nil {
		return nil, false, err
	} else if found && sameValue(current, value) {
		return data, false, nil
	}
	if len(bytes.TrimSpace(data)) == 0 && len(fresh) > 0 {
		lines, err := renderLines(toNode(fresh), 2, 0)
		if err != nil {
			return nil, false, err
		}
		data = yamlText{lines: lines}.bytes()
	}
	doc, err := parseYAML(data)
	if err != nil {
		return nil, false, err
	}
	before, err := decodeYAML(data)
	if err != nil {
		return nil, false, err
	}
	t := splitYAML(data)
	if len(bytes.TrimSpace(data)) == 0 {
		t.lines = nil // a blank file has nothing to keep
	}
	unit := yamlUnit(doc.Content[0])
	at, keyNode, found := findYAML(doc.Content[0], key)
	if found < len(key) && at.Kind != yaml.MappingNode && !(at.Kind == yaml.ScalarNode && at.Tag == "!!null") {
		return nil, false, fmt.Errorf("%s must be a mapping", strings.Join(key[:found], "."))
	}
	entry := toNode(value)
	// The member to add to the collection at (or, for a list, the item).
	add := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(name), entry}}
	item := list && found == len(key)
	if found < len(key) {
		var leaf *yaml.Node = add
		if list {
			leaf = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}}
		}
		for i := len(key) - 1; i >= found; i-- {
			leaf = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(key[i]), leaf}}
		}
		add = leaf // the missing levels, down to our entry
	} else if list && at.Kind != yaml.SequenceNode && !(at.Kind == yaml.ScalarNode && at.Tag == "!!null") {
		return nil, false, fmt.Errorf("%s must be a list", strings.Join(key, "."))
	} else if !list && at.Kind != yaml.MappingNode && !(at.Kind == yaml.ScalarNode && at.Tag == "!!null") {
		return nil, false, fmt.Errorf("%s must be a mapping", strings.Join(key, "."))
	}
	path := strings.Join(key[:found], ".")
	switch {
	case found == len(key) && !list && memberIndex(at, name) >= 0 || item && itemIndex(at, name) >= 0:
		// Our entry is there: its lines are replaced in place.
		if at.Style&yaml.FlowStyle != 0 {
			return nil, false, fmt.Errorf("%s is written in flow style ({...} or [...]); agentos will not rewrite it: write it as an indented block, or change the entry by hand", path)
		}
		var start, col, last int
		var repl []string
		if item {
			n := at.Content[itemIndex(at, name)]
			start = n.Line - 1
			if col = t.dashColumn(start, n.Column-1); col < 0 {
				return nil, false, fmt.Errorf("the %s item in %s does not start with \"- \" on its first line; edit it by hand", name, path)
			}
			last = t.extent(start, col, false)
			repl, err = renderItem(entry, unit, col)
		} else {
			k := at.Content[memberIndex(at, name)]
			start, col = k.Line-1, k.Column-1
			last = t.extent(start, col, true)
			repl, err = renderLines(add, unit, col)
		}
		if err != nil {
			return nil, false, err
		}
		t.splice(start, last+1, repl)
	default:
		// A new member or item: after the collection's last one, in its
		// indentation, or under the key of an empty one.
		var after, col int
		switch {
		case at == doc.Content[0] && found == 0:
			after, col = len(t.lines)-1, 0
			if len(at.Content) > 0 {
				col = at.Content[0].Column - 1
			}
		case (at.Kind == yaml.MappingNode || at.Kind == yaml.SequenceNode) && len(at.Content) > 0 && at.Style&yaml.FlowStyle == 0:
			lastNode := at.Content[len(at.Content)-1]
			if at.Kind == yaml.MappingNode {
				k := at.Content[len(at.Content)-2]
				after, col = t.extent(k.Line-1, k.Column-1, true), k.Column-1
			} else {
				if col = t.dashColumn(lastNode.Line-1, lastNode.Column-1); col < 0 {
					return nil, false, fmt.Errorf("the last item in %s does not start with \"- \" on its first line; edit it by hand", path)
				}
				after = t.extent(lastNode.Line-1, col, false)
			}
		default:
			if after, err = t.emptyValue(at, keyNode, path); err != nil {
				return nil, false, err
			}
			col = keyNode.Column - 1 + unit
		}
		var lines []string
		if item {
			lines, err = renderItem(entry, unit, col)
		} else {
			lines, err = renderLines(add, unit, col)
		}
		if err != nil {
			return nil, false, err
		}
		t.splice(after+1, after+1, lines)
	}
	out := t.bytes()
	after, err := decodeYAML(out)
	if err != nil {
		return nil, false, fmt.Errorf("the merged file does not parse: %w", err)
	}
	if got, ok, err := lookupYAML(out, key, name, list); err != nil || !ok || !sameValue(got, value) {
		return nil, false, fmt.Errorf("the merged file does not hold the agentos entry")
	}
	if !sameValue(dropEntry(before, key, name, list), dropEntry(after, key, name, list)) {
		return nil, false, fmt.Errorf("merging would change other settings; edit it by hand")
	}
	return out, true, nil
}

// removeYAML deletes name's entry under key: its lines go, every other
// line stays. A collection left empty is written {} or [].
func removeYAML(data []byte, key []string, name string, list bool) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return data, false, nil
	}
	doc, err := parseYAML(data)
	if err != nil {
		return nil, false, err
	}
	at, keyNode, found := findYAML(doc.Content[0], key)
	if found < len(key) {
		return data, false, nil
	}
	t := splitYAML(data)
	path := strings.Join(key, ".")
	var start, last int
	switch i := -1; at.Kind {
	case yaml.SequenceNode:
		if i = itemIndex(at, name); i < 0 {
			return data, false, nil
		}
		n := at.Content[i]
		start = n.Line - 1
		col := t.dashColumn(start, n.Column-1)
		if col < 0 || at.Style&yaml.FlowStyle != 0 {
			return nil, false, fmt.Errorf("the %s item in %s is not a block item (\"- \"); remove it by hand", name, path)
		}
		last = t.extent(start, col, false)
	case yaml.MappingNode:
		if i = memberIndex(at, name); i < 0 {
			return data, false, nil
		}
		if at.Style&yaml.FlowStyle != 0 {
			return nil, false, fmt.Errorf("%s is written in flow style ({...}); remove the %s entry by hand", path, name)
		}
		k := at.Content[i]
		start = k.Line - 1
		last = t.extent(start, k.Column-1, true)
	default:
		return data, false, nil
	}
	before, err := decodeYAML(data)
	if err != nil {
		return nil, false, err
	}
	t.splice(start, last+1, nil)
	if len(at.Content) == map[bool]int{true: 1, false: 2}[at.Kind == yaml.SequenceNode] && keyNode != nil {
		// An empty block collection has no spelling: it becomes {} or [].
		empty := map[bool]string{true: " []", false: " {}"}[at.Kind == yaml.SequenceNode]
		l := t.lines[keyNode.Line-1]
		if i := keyColon(l, keyNode.Column-1); i >= 0 {
			t.lines[keyNode.Line-1] = l[:i+1] + empty + l[i+1:]
		}
	}
	out := t.bytes()
	after, err := decodeYAML(out)
	if err != nil {
		return nil, false, fmt.Errorf("the edited file does not parse: %w", err)
	}
	if _, ok, _ := lookupYAML(out, key, name, list); ok || !sameValue(dropEntry(before, key, name, list), dropEntry(after, key, name, list)) {
		return nil, false, fmt.Errorf("removing the %s entry would change other settings; remove it by hand", name)
	}
	return out, true, nil
}

// keyColon is the index of the ":" that ends the key starting at col on
// line l, when nothing but a comment follows it; -1 otherwise.
func keyColon(l string, col int) int {
	i := col
	if i < len(l) && (l[i] == '"' || l[i] == '\'') {
		if j := strings.IndexByte(l[i+1:], l[i]); j >= 0 {
			i += j + 2
		}
	}
	j := strings.IndexByte(l[i:], ':')
	if j < 0 {
		return -1
	}
	i += j
	if rest := strings.TrimSpace(l[i+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
		return -1
	}
	return i
}

// dropEntry is doc without name's entry under key, and without the
// collections along key that are left empty: what a merge or a removal may
// change, so the rest must compare equal.
func dropEntry(doc any, key []string, name string, list bool) any {
	if doc == nil {
		return map[string]any{} // an empty file
	}
	m, ok := plain(doc).(map[string]any)
	if !ok {
		return plain(doc)
	}
	if len(key) == 0 {
		delete(m, name)
		return m
	}
	switch sub := m[key[0]].(type) {
	case map[string]any:
		if len(key) == 1 && list {
			break
		}
		pruned := dropEntry(sub, key[1:], name, list).(map[string]any)
		if len(pruned) == 0 {
			delete(m, key[0])
		} else {
			m[key[0]] = pruned
		}
	case []any:
		if len(key) != 1 || !list {
			break
		}
		var kept []any
		for _, item := range sub {
			if im, ok := item.(map[string]any); ok && im["name"] == name {
				continue
			}
			kept = append(kept, item)
		}
		if len(kept) == 0 {
			delete(m, key[0])
		} else {
			m[key[0]] = kept
		}
	case nil:
		delete(m, key[0])
	}
	return m
}

// lookupYAML returns name's entry under key, decoded.
func lookupYAML(data []byte, key []string, name string, list bool) (any, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, false, nil
	}
	doc, err := parseYAML(data)
	if err != nil {
		return nil, false, err
	}
	at, _, found := findYAML(doc.Content[0], key)
	if found < len(key) {
		return nil, false, nil
	}
	var n *yaml.Node
	switch at.Kind {
	case yaml.SequenceNode:
		for _, item := range at.Content {
			if item.Kind == yaml.MappingNode {
				if v := mappingValue(item, "name"); v != nil && v.Value == name {
					n = item
				}
			}
		}
	case yaml.MappingNode:
		n = mappingValue(at, name)
	}
	if n == nil {
		return nil, false, nil
	}
	var out any
	if err := n.Decode(&out); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

func decodeYAML(data []byte) (any, error) {
	var out any
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return out, nil
}

// sortedMapping renders a map as a mapping node with its keys sorted, so the
// output does not depend on map order.
func sortedMapping[V any](m map[string]V) *yaml.Node {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, k := range keys {
		n.Content = append(n.Content, scalar(k), toNode(m[k]))
	}
	return n
}
