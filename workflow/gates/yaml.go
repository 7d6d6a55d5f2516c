package gates

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// UnmarshalYAML decodes one gate check strictly: the node must be a mapping
// with a known `type`, every other key must belong to that type, every value
// must have the right shape, and the result must pass Validate. Errors name
// the line.
func (c *Check) UnmarshalYAML(n *yaml.Node) error {
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a gate check must be a mapping with a type key, like {type: files_exist, paths: [...]}", n.Line)
	}
	var out Check
	typeNode := mappingValue(n, "type")
	if typeNode == nil {
		return fmt.Errorf("line %d: the gate check has no type (known: %s)", n.Line, strings.Join(Types(), ", "))
	}
	typ, err := yamlString(typeNode, "type")
	if err != nil {
		return err
	}
	allowed, _, ok := keySpec(typ)
	if !ok {
		return fmt.Errorf("line %d: unknown check type %q%s (known: %s)", typeNode.Line, typ, suggest(typ, Types()), strings.Join(Types(), ", "))
	}
	out.Type = typ
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: a gate check's keys must be plain words", k.Line)
		}
		key := k.Value
		if seen[key] {
			return fmt.Errorf("line %d: key %q appears twice in this check", k.Line, key)
		}
		seen[key] = true
		if key != "type" && key != "description" && !slices.Contains(allowed, key) {
			all := append([]string{"type", "description"}, allowed...)
			return fmt.Errorf("line %d: unknown key %q for %s check%s%s", k.Line, key, aType(typ), suggest(key, all), knownKeys(typ))
		}
		var err error
		if _, isExt := extension(typ); isExt && key != "type" && key != "description" {
			if out.Params == nil {
				out.Params = map[string]string{}
			}
			out.Params[key], err = yamlString(v, key)
			if err != nil {
				return err
			}
			continue
		}
		switch key {
		case "type":
		case "description":
			out.Description, err = yamlString(v, key)
		case "paths":
			out.Paths, err = yamlStrings(v, key)
		case "file":
			out.File, err = yamlString(v, key)
		case "sections":
			out.Sections, out.MinWords, err = yamlSections(v)
		case "template":
			out.Template, err = yamlString(v, key)
		case "requirements":
			out.Requirements, err = yamlString(v, key)
		case "run":
			out.Command, err = yamlString(v, key)
		case "workdir":
			out.Workdir, err = yamlString(v, key)
		case "report":
			out.Report, err = yamlString(v, key)
		case "produces":
			out.Produces, err = yamlStrings(v, key)
		case "format":
			out.Format, err = yamlString(v, key)
		case "lines":
			out.Lines, err = yamlString(v, key)
		case "timeout":
			var s string
			if s, err = yamlString(v, key); err == nil {
				out.Timeout, err = time.ParseDuration(s)
				if err != nil {
					err = fmt.Errorf("line %d: timeout %q is not a duration; write it like 90s, 10m or 1h", v.Line, s)
				} else if out.Timeout <= 0 || out.Timeout > MaxCommandTimeout {
					err = fmt.Errorf("line %d: timeout %s is out of range: give one above 0 and at most %s", v.Line, s, MaxCommandTimeout)
				}
			}
		case "threshold":
			var f float64
			if f, err = yamlNumber(v, key); err == nil {
				out.Threshold = &f
			}
		case "fields":
			if v.Kind != yaml.SequenceNode {
				err = fmt.Errorf("line %d: fields must be a list of {name, type, ...} mappings", v.Line)
				break
			}
			out.Fields = []EvidenceField{}
			for _, item := range v.Content {
				var f EvidenceField
				if err = f.UnmarshalYAML(item); err != nil {
					break
				}
				out.Fields = append(out.Fields, f)
			}
		}
		if err != nil {
			return err
		}
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*c = out
	return nil
}

// UnmarshalYAML decodes one evidence field strictly.
func (f *EvidenceField) UnmarshalYAML(n *yaml.Node) error {
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: an evidence field must be a mapping like {name: summary, type: string, min_length: 50}", n.Line)
	}
	known := []string{"name", "type", "min_length", "min_items", "required", "description"}
	var out EvidenceField
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: an evidence field's keys must be plain words", k.Line)
		}
		if seen[k.Value] {
			return fmt.Errorf("line %d: key %q appears twice in this evidence field", k.Line, k.Value)
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "name":
			out.Name, err = yamlString(v, "name")
		case "type":
			out.Type, err = yamlString(v, "type")
		case "description":
			out.Description, err = yamlString(v, "description")
		case "min_length":
			out.MinLength, err = yamlInt(v, "min_length")
		case "min_items":
			out.MinItems, err = yamlInt(v, "min_items")
		case "required":
			var b bool
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				err = fmt.Errorf("line %d: required must be true or false", v.Line)
			} else if err = v.Decode(&b); err == nil {
				out.Required = &b
			}
		default:
			return fmt.Errorf("line %d: unknown key %q for an evidence field%s (known: %s)", k.Line, k.Value, suggest(k.Value, known), strings.Join(known, ", "))
		}
		if err != nil {
			return err
		}
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*f = out
	return nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Kind == yaml.ScalarNode && n.Content[i].Value == key {
			return resolveAlias(n.Content[i+1])
		}
	}
	return nil
}

func yamlString(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return "", fmt.Errorf("line %d: %s must be a string", n.Line, key)
	}
	return n.Value, nil
}

func yamlStrings(n *yaml.Node, key string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: %s must be a list of strings", n.Line, key)
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		item = resolveAlias(item)
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			return nil, fmt.Errorf("line %d: %s must be a list of strings; this item is not a string", item.Line, key)
		}
		out = append(out, item.Value)
	}
	return out, nil
}

// yamlSections decodes a markdown_sections list, whose items are a heading
// (Objectives) or a heading with its minimum ({name: Objectives, min_words: 20}).
func yamlSections(n *yaml.Node) ([]string, map[string]int, error) {
	const shape = "sections must be a list of headings, each a string or {name: Heading, min_words: 20}"
	if n.Kind != yaml.SequenceNode {
		return nil, nil, fmt.Errorf("line %d: %s", n.Line, shape)
	}
	names := make([]string, 0, len(n.Content))
	var mins map[string]int
	for _, item := range n.Content {
		item = resolveAlias(item)
		switch {
		case item.Kind == yaml.ScalarNode && item.Tag == "!!str":
			names = append(names, item.Value)
			continue
		case item.Kind != yaml.MappingNode:
			return nil, nil, fmt.Errorf("line %d: %s; this item is neither", item.Line, shape)
		}
		var name string
		min, seen := 0, map[string]bool{}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], resolveAlias(item.Content[i+1])
			if seen[k.Value] {
				return nil, nil, fmt.Errorf("line %d: key %q appears twice in this section", k.Line, k.Value)
			}
			seen[k.Value] = true
			var err error
			switch k.Value {
			case "name":
				name, err = yamlString(v, "name")
			case "min_words":
				if min, err = yamlInt(v, "min_words"); err == nil && (min < 1 || min > MaxMinWords) {
					err = fmt.Errorf("line %d: min_words %d is out of range: give 1 to %d", v.Line, min, MaxMinWords)
				}
			default:
				err = fmt.Errorf("line %d: unknown key %q for a section%s (known: name, min_words)", k.Line, k.Value, suggest(k.Value, []string{"name", "min_words"}))
			}
			if err != nil {
				return nil, nil, err
			}
		}
		if name == "" {
			return nil, nil, fmt.Errorf("line %d: this section has no name", item.Line)
		}
		names = append(names, name)
		if seen["min_words"] {
			if mins == nil {
				mins = map[string]int{}
			}
			mins[name] = min
		}
	}
	return names, mins, nil
}

func yamlNumber(n *yaml.Node, key string) (float64, error) {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		return 0, fmt.Errorf("line %d: %s must be a number", n.Line, key)
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("line %d: %s must be a number", n.Line, key)
	}
	return f, nil
}

func yamlInt(n *yaml.Node, key string) (int, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		return 0, fmt.Errorf("line %d: %s must be a whole number", n.Line, key)
	}
	var i int
	if err := n.Decode(&i); err != nil {
		return 0, fmt.Errorf("line %d: %s must be a whole number", n.Line, key)
	}
	return i, nil
}
