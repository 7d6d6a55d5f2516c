package fsys

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// TestThroughMCPClient drives the tool through a real MCP server and client,
// with the server validating inputs and outputs against the declared schemas.
func TestThroughMCPClient(t *testing.T) {
	f := newFixture(t)
	srv := server.NewMCPServer("test", "1.0.0",
		server.WithToolCapabilities(true),
		server.WithInputSchemaValidation(),
		server.WithOutputSchemaValidation(),
	)
	srv.AddTool(f.tool.Def, f.tool.Handler)
	c, err := client.NewInProcessClient(srv)
	must(t, err)
	defer c.Close()
	ctx := context.Background()
	must(t, c.Start(ctx))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test-client", Version: "1.0.0"}
	_, err = c.Initialize(ctx, init)
	must(t, err)

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	must(t, err)
	if len(tools.Tools) != 1 || tools.Tools[0].Name != Name || *tools.Tools[0].Annotations.DestructiveHint != true {
		t.Fatalf("tools/list: %+v", tools.Tools)
	}

	call := func(args map[string]any) *mcp.CallToolResult {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name = Name
		req.Params.Arguments = args
		res, err := c.CallTool(ctx, req)
		must(t, err)
		return res
	}
	structured := func(res *mcp.CallToolResult) map[string]any {
		t.Helper()
		var m map[string]any
		decode(t, res.StructuredContent, &m)
		return m
	}

	// Every action's successful output must satisfy the output schema.
	successes := []map[string]any{
		{"action": "write", "path": "notes/todo.md", "content": "- [ ] ship\n"},
		{"action": "append", "path": "notes/todo.md", "content": "- [ ] test\n"},
		{"action": "read", "path": "notes/todo.md", "max_lines": 1},
		{"action": "list", "path": "notes"},
		{"action": "list", "path": "notes/empty-or-not", "recursive": true},
		{"action": "stat", "path": "inlink"},
		{"action": "exists", "path": "nope"},
		{"action": "glob", "pattern": "**/*.md"},
		{"action": "mkdir", "path": "notes/archive"},
		{"action": "copy", "path": "notes/todo.md", "destination": "notes/archive/todo.md"},
		{"action": "move", "path": "notes/archive/todo.md", "destination": "notes/archive/done.md"},
		{"action": "delete", "path": "notes/archive", "recursive": true},
	}
	must(t, mkdirAll(f.path("notes/empty-or-not")))
	for _, args := range successes {
		res := call(args)
		if res.IsError {
			t.Fatalf("%v: %s", args, textOf(res))
		}
		if got := structured(res)["action"]; got != args["action"] {
			t.Errorf("%v: structured action %v", args, got)
		}
	}
	read := structured(call(map[string]any{"action": "read", "path": "notes/todo.md"}))
	if read["content"] != "- [ ] ship\n- [ ] test\n" || read["truncated"] != false {
		t.Errorf("read back: %v", read)
	}

	// Errors arrive as isError results carrying the envelope.
	res := call(map[string]any{"action": "read", "path": "../outside/secret.txt"})
	e, _ := toolkit.Envelope(res)
	if !res.IsError || e.Code != toolkit.CodeForbidden || res.StructuredContent != nil {
		t.Errorf("escape: isError %v, %+v", res.IsError, e)
	}
	if !strings.HasPrefix(textOf(res), toolkit.CodeForbidden+": ") {
		t.Errorf("the first line does not say the code and message: %s", textOf(res))
	}

	// The server rejects arguments the schema does not allow.
	res = call(map[string]any{"action": "shred", "path": "README.md"})
	if !res.IsError {
		t.Errorf("unknown action accepted: %s", textOf(res))
	}
}
