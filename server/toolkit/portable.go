package toolkit

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Portable returns def with input and output schemas every client can map
// onto its own schema dialect (the MCP Inspector's --strict check finds
// nothing in them), for the same values as before:
//   - a nullable field (`"type": ["null", "array"]`, how Go's schema
//     generator spells a slice, map or pointer) becomes
//     `"anyOf": [{"type": "null"}, {"type": "array", …}]`;
//   - a field of Go type any (a bare `true`, or `{}` with only a
//     description) becomes an explicit choice of every JSON type.
//
// The registry applies it to every tool, so no tool package has to.
func Portable(def mcp.Tool) (mcp.Tool, error) {
	data, err := json.Marshal(def)
	if err != nil {
		return def, fmt.Errorf("tool %s: encode: %w", def.Name, err)
	}
	var raw struct {
		Input  json.RawMessage `json:"inputSchema"`
		Output json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return def, fmt.Errorf("tool %s: decode: %w", def.Name, err)
	}
	rewrite := func(schema json.RawMessage) (json.RawMessage, error) {
		var v any
		if err := json.Unmarshal(schema, &v); err != nil {
			return nil, err
		}
		return json.Marshal(portable(v, true))
	}
	if raw.Input != nil {
		in, err := rewrite(raw.Input)
		if err != nil {
			return def, fmt.Errorf("tool %s: input schema: %w", def.Name, err)
		}
		def.InputSchema, def.RawInputSchema = mcp.ToolInputSchema{}, in
	}
	if raw.Output != nil {
		out, err := rewrite(raw.Output)
		if err != nil {
			return def, fmt.Errorf("tool %s: output schema: %w", def.Name, err)
		}
		def.OutputSchema, def.RawOutputSchema = mcp.ToolOutputSchema{}, out
	}
	return def, nil
}

// anyJSON is the explicit spelling of "any JSON value".
func anyJSON() []any {
	var out []any
	for _, t := range []string{"object", "array", "string", "number", "boolean", "null"} {
		out = append(out, map[string]any{"type": t})
	}
	return out
}

// annotations are the keywords that say what a value is for, not what it
// may be: they stay on the outside when a schema is split into branches.
var annotations = []string{"description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"}

// portable rewrites one schema and, recursively, its subschemas. top is the
// tool's own input or output schema, which must stay a plain object schema.
func portable(v any, top bool) any {
	if b, ok := v.(bool); ok {
		if b {
			return map[string]any{"anyOf": anyJSON()}
		}
		return v
	}
	s, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for _, key := range []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"} {
		if m, ok := s[key].(map[string]any); ok {
			for k, sub := range m {
				m[k] = portable(sub, false)
			}
		}
	}
	for _, key := range []string{"items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties"} {
		if sub, ok := s[key]; ok {
			if _, isBool := sub.(bool); !isBool || key == "items" {
				s[key] = portable(sub, false)
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := s[key].([]any); ok {
			for i, sub := range list {
				list[i] = portable(sub, false)
			}
		}
	}
	if top {
		return s
	}
	if constrains(s) == 0 {
		s["anyOf"] = anyJSON()
		return s
	}
	types, ok := s["type"].([]any)
	if !ok {
		return s
	}
	outer := map[string]any{}
	for _, k := range annotations {
		if a, ok := s[k]; ok {
			outer[k] = a
			delete(s, k)
		}
	}
	delete(s, "type")
	var branches []any
	for _, t := range types {
		if t == "null" {
			branches = append(branches, map[string]any{"type": "null"})
			continue
		}
		b := map[string]any{"type": t}
		for k, val := range s {
			if appliesTo(k, t) {
				b[k] = val
			}
		}
		branches = append(branches, b)
	}
	outer["anyOf"] = branches
	return outer
}

// constrains counts the keywords of s that say anything about its value.
func constrains(s map[string]any) int {
	n := 0
	for k := range s {
		if !slices.Contains(annotations, k) {
			n++
		}
	}
	return n
}

// appliesTo reports whether keyword k belongs in the branch of JSON type t
// (a keyword of another type's values would only be ignored there).
func appliesTo(k string, t any) bool {
	switch k {
	case "properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependentSchemas", "dependentRequired", "unevaluatedProperties":
		return t == "object"
	case "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "additionalItems", "unevaluatedItems":
		return t == "array"
	case "minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType":
		return t == "string"
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return t == "number" || t == "integer"
	}
	return true // enum, const and the like
}
