package agentconfig

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// The YAML merge edits the yaml.v3 node tree, which carries comments, key
// order and scalar styles through a re-encode; only the entry's node is new.

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

// findYAML walks key from the top mapping; the last node found, and how
// many keys were found.
func findYAML(top *yaml.Node, key []string) (*yaml.Node, int) {
	n := top
	for i, k := range key {
		if n.Kind != yaml.MappingNode {
			return n, i
		}
		next := mappingValue(n, k)
		if next == nil {
			return n, i
		}
		n = next
	}
	return n, len(key)
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
		raw, err := encodeYAML(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{toNode(fresh)}})
		if err != nil {
			return nil, false, err
		}
		data = raw
	}
	doc, err := parseYAML(data)
	if err != nil {
		return nil, false, err
	}
	top := doc.Content[0]
	at, found := findYAML(top, key)
	if found < len(key) && at.Kind != yaml.MappingNode {
		return nil, false, fmt.Errorf("%s must be a mapping", strings.Join(key[:found], "."))
	}
	entry := toNode(value)
	switch {
	case found < len(key):
		// Build the missing levels down to the servers collection.
		var leaf *yaml.Node
		if list {
			leaf = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}}
		} else {
			leaf = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(name), entry}}
		}
		for i := len(key) - 1; i > found; i-- {
			leaf = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(key[i]), leaf}}
		}
		at.Content = append(at.Content, scalar(key[found]), leaf)
	case list:
		if at.Kind != yaml.SequenceNode {
			if at.Kind == yaml.ScalarNode && at.Tag == "!!null" {
				*at = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			} else {
				return nil, false, fmt.Errorf("%s must be a list", strings.Join(key, "."))
			}
		}
		if len(at.Content) == 0 {
			at.Style &^= yaml.FlowStyle // an empty [] grows into a block list
		}
		replaced := false
		for i, item := range at.Content {
			if item.Kind == yaml.MappingNode {
				if n := mappingValue(item, "name"); n != nil && n.Value == name {
					entry.HeadComment = item.HeadComment
					at.Content[i] = entry
					replaced = true
					break
				}
			}
		}
		if !replaced {
			at.Content = append(at.Content, entry)
		}
	default:
		if at.Kind != yaml.MappingNode {
			if at.Kind == yaml.ScalarNode && at.Tag == "!!null" {
				*at = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			} else {
				return nil, false, fmt.Errorf("%s must be a mapping", strings.Join(key, "."))
			}
		}
		if len(at.Content) == 0 {
			at.Style &^= yaml.FlowStyle
		}
		if old := mappingValue(at, name); old != nil {
			*old = *entry
		} else {
			at.Content = append(at.Content, scalar(name), entry)
		}
	}
	out, err := encodeYAML(doc)
	if err != nil {
		return nil, false, err
	}
	got, ok, err := lookupYAML(out, key, name, list)
	if err != nil || !ok || !sameValue(got, value) {
		return nil, false, fmt.Errorf("the merged file does not hold the agentos entry")
	}
	return out, true, nil
}

// removeYAML deletes name's entry under key.
func removeYAML(data []byte, key []string, name string, list bool) ([]byte, bool, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return data, false, nil
	}
	doc, err := parseYAML(data)
	if err != nil {
		return nil, false, err
	}
	at, found := findYAML(doc.Content[0], key)
	if found < len(key) {
		return data, false, nil
	}
	changed := false
	switch at.Kind {
	case yaml.SequenceNode:
		for i, item := range at.Content {
			if item.Kind == yaml.MappingNode {
				if n := mappingValue(item, "name"); n != nil && n.Value == name {
					at.Content = append(at.Content[:i], at.Content[i+1:]...)
					changed = true
					break
				}
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(at.Content); i += 2 {
			if at.Content[i].Value == name {
				at.Content = append(at.Content[:i], at.Content[i+2:]...)
				changed = true
				break
			}
		}
	}
	if !changed {
		return data, false, nil
	}
	if len(at.Content) == 0 {
		at.Style |= yaml.FlowStyle // an empty block collection has no spelling
	}
	out, err := encodeYAML(doc)
	if err != nil {
		return nil, false, err
	}
	if _, err := decodeYAML(out); err != nil {
		return nil, false, fmt.Errorf("the edited file does not parse: %w", err)
	}
	return out, true, nil
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
	at, found := findYAML(doc.Content[0], key)
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

func encodeYAML(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("render YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render YAML: %w", err)
	}
	return b.Bytes(), nil
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
