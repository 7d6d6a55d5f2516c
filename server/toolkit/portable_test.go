package toolkit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

type sample struct {
	Names   []string          `json:"names" jsonschema:"some names"`
	Limit   *int              `json:"limit,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	Details any               `json:"details,omitempty" jsonschema:"anything"`
	Nested  []struct {
		Tags []string `json:"tags"`
	} `json:"nested"`
}

func portableOutput(t *testing.T) (before, after map[string]any) {
	t.Helper()
	def := mcp.NewTool("t", mcp.WithString("q", mcp.Required()), mcp.WithOutputSchema[sample]())
	data, _ := json.Marshal(def)
	var orig struct {
		Output map[string]any `json:"outputSchema"`
	}
	json.Unmarshal(data, &orig)
	got, err := Portable(def)
	if err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(got)
	var out struct {
		Input  map[string]any `json:"inputSchema"`
		Output map[string]any `json:"outputSchema"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if out.Input["type"] != "object" || out.Input["properties"].(map[string]any)["q"] == nil {
		t.Errorf("input schema lost: %v", out.Input)
	}
	return orig.Output, out.Output
}

// The rewritten schema has no type arrays and no schema without a keyword
// (what the Inspector's --strict flags), anywhere.
func TestPortableLeavesNothingToFlag(t *testing.T) {
	_, after := portableOutput(t)
	if after["type"] != "object" {
		t.Fatalf("the output schema must stay an object schema: %v", after)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch s := v.(type) {
		case bool:
			if s || !strings.HasSuffix(path, ".additionalProperties") {
				t.Errorf("%s: bare %v", path, s)
			}
		case map[string]any:
			if _, isList := s["type"].([]any); isList {
				t.Errorf("%s: type array %v", path, s["type"])
			}
			if constrains(s) == 0 {
				t.Errorf("%s: no keyword: %v", path, s)
			}
			for k, sub := range s {
				if k != "properties" {
					walk(path+"."+k, sub)
					continue
				}
				for name, p := range sub.(map[string]any) {
					walk(path+".properties."+name, p)
				}
			}
		case []any:
			for _, sub := range s {
				walk(path+"[]", sub)
			}
		}
	}
	for name, p := range after["properties"].(map[string]any) {
		walk(name, p)
	}
	names := after["properties"].(map[string]any)["names"].(map[string]any)
	if names["description"] != "some names" {
		t.Errorf("the description is not kept outside the branches: %v", names)
	}
}

// The rewrite changes the spelling, not the contract: the values the
// original schema accepts and refuses, the rewritten one does too.
func TestPortableKeepsTheContract(t *testing.T) {
	before, after := portableOutput(t)
	compile := func(m map[string]any) *jsonschema.Resolved {
		data, _ := json.Marshal(m)
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := compile(before), compile(after)
	for _, doc := range []string{
		`{"names": null, "nested": null}`,
		`{"names": ["a"], "nested": [{"tags": null}], "limit": 3, "labels": {"k": "v"}, "details": {"files": ["x"]}}`,
		`{"names": [], "nested": [], "details": [1, "two"]}`,
		`{"names": [1], "nested": []}`,
		`{"names": "a", "nested": []}`,
		`{"names": [], "nested": [{"tags": "x"}]}`,
		`{"names": [], "nested": [], "limit": "3"}`,
		`{"names": [], "nested": [], "extra": 1}`,
		`{"nested": []}`,
	} {
		var v any
		json.Unmarshal([]byte(doc), &v)
		errA, errB := a.Validate(v), b.Validate(v)
		if (errA == nil) != (errB == nil) {
			t.Errorf("%s: original says %v, rewritten says %v", doc, errA, errB)
		}
	}
}

func TestPortableSplitsKeywordsByType(t *testing.T) {
	s := portable(map[string]any{"type": []any{"string", "array", "null"}, "minLength": 1.0, "items": map[string]any{"type": "integer"}, "description": "d"}, false).(map[string]any)
	data, _ := json.Marshal(s)
	want := `{"anyOf":[{"minLength":1,"type":"string"},{"items":{"type":"integer"},"type":"array"},{"type":"null"}],"description":"d"}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	if !strings.Contains(string(data), `"description":"d"`) {
		t.Error("description lost")
	}
}
