package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// TestEveryAnswerFitsItsToolsSchema calls every tool as a client does, on
// a path that succeeds and on one that fails, and checks each answer
// against the outputSchema the tool declares with a JSON Schema validator:
// an answer's structured content must validate, and an error carries none
// (its envelope is its text), since clients built on the MCP SDKs validate
// structured content even on errors and would show the model a schema
// error in place of the refusal.
func TestEveryAnswerFitsItsToolsSchema(t *testing.T) {
	p, cfg := testProject(t)
	r := start(t, Options{Project: p, Config: cfg, Transport: TransportHTTP})
	c, _ := httpSession(t, r.status.URL, "schema-check")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// A call that succeeds, per tool, where one needs no setup.
	succeeds := map[string]map[string]any{
		"get_server_info":    {},
		"current_date":       {"timezone": "Europe/Paris"},
		"svc_filesystem":     {"action": "list", "path": "."},
		"svc_workflow":       {"action": "list_workflows"},
		"search_standards":   {"query": "error handling"},
		"svc_search_project": {"action": "index_status"},
	}
	seen := map[string]bool{}
	for _, tool := range list.Tools {
		seen[tool.Name] = true
		raw, err := json.Marshal(tool.OutputSchema)
		if err != nil || tool.OutputSchema.Type == "" {
			t.Errorf("%s declares no output schema", tool.Name)
			continue
		}
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		call := func(args map[string]any) *mcp.CallToolResult {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = tool.Name, args
			res, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			return res
		}
		// Every tool binds its arguments: a number where a string belongs fails.
		bad := call(map[string]any{"action": 42, "query": 42, "path": 42, "timezone": 42})
		if !bad.IsError || bad.StructuredContent != nil {
			t.Errorf("%s: an error result carries structured content: %+v", tool.Name, bad.StructuredContent)
		}
		// Gemini CLI turns a first text that parses as JSON into structured
		// content: the first line is plain, the envelope follows.
		if first := textOf(bad); json.Valid([]byte(first)) {
			t.Errorf("%s: the error's first text is JSON: %s", tool.Name, first)
		}
		if env, ok := toolkit.Envelope(bad); !ok || env.Message == "" || !strings.HasPrefix(textOf(bad), env.Code+": "+env.Message) {
			t.Errorf("%s: the error carries no envelope, or its first line is not it: %+v", tool.Name, bad.Content)
		}
		args, ok := succeeds[tool.Name]
		if !ok {
			continue
		}
		good := call(args)
		if good.IsError {
			t.Errorf("%s: %s", tool.Name, textOf(good))
			continue
		}
		var instance any
		data, _ := json.Marshal(good.StructuredContent)
		if err := json.Unmarshal(data, &instance); err != nil {
			t.Fatal(err)
		}
		if err := resolved.Validate(instance); err != nil {
			t.Errorf("%s: the answer does not fit its own schema: %v\n%s", tool.Name, err, data)
		}
	}
	for name := range succeeds {
		if !seen[name] {
			t.Errorf("%s is not listed", name)
		}
	}
}

func textOf(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
