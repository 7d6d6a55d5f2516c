package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server/searchtool"
)

// SelfTestResult is what SelfTest found.
type SelfTestResult struct {
	Tools        int // tools listed
	SearchHits   int // sections the standards search returned
	ServerName   string
	IndexedFiles int
	// SearchSkipped says why the search was not tried: the configured
	// external embedder cannot be used (the files are not at fault).
	SearchSkipped string
}

// SelfTest builds the project's server in this process without taking the
// project's lock or opening a transport, waits (within ctx) for the
// standards index, and checks that it answers tools/list, a standards search
// and get_server_info over an in-process MCP client. The upgrade runs it to
// validate a project before it keeps the result.
func SelfTest(ctx context.Context, opts Options) (SelfTestResult, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Transport = TransportStdio
	s, err := newServer(opts)
	if err != nil {
		return SelfTestResult{}, fmt.Errorf("build the server: %w", err)
	}
	defer s.browser.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.search.Start(ctx)
	defer s.search.Close()

	var res SelfTestResult
	std, err := waitStandards(ctx, s.search)
	if err != nil {
		p := opts.Config.Search.Embedder.Provider
		if p == "" || p == "builtin" {
			return res, err
		}
		// An external embedder (a model service that is down, say) is the
		// configuration's, not the project files': say so, test the rest.
		res.SearchSkipped = fmt.Sprintf("the %s embedder: %v", p, err)
	}
	if std.State == searchtool.StateDisabled {
		res.SearchSkipped = "the standards index is off: " + std.Detail
	}
	res.IndexedFiles = std.FilesDone

	c, err := client.NewInProcessClient(s.mcp)
	if err != nil {
		return res, fmt.Errorf("connect: %w", err)
	}
	defer c.Close()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		return res, fmt.Errorf("initialize: %w", err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return res, fmt.Errorf("tools/list: %w", err)
	}
	res.Tools = len(tools.Tools)
	if res.Tools == 0 {
		return res, errors.New("tools/list: no tools")
	}
	if res.SearchSkipped == "" {
		out, err := callTool(ctx, c, "search_standards", map[string]any{"query": "testing standards", "n_results": 3})
		if err != nil {
			return res, err
		}
		if m, ok := out.StructuredContent.(map[string]any); ok {
			if results, ok := m["results"].([]any); ok {
				res.SearchHits = len(results)
			}
		}
		if res.SearchHits == 0 && std.FilesDone > 0 {
			return res, fmt.Errorf("search_standards: no results from %d indexed files", std.FilesDone)
		}
	}
	out, err := callTool(ctx, c, "get_server_info", map[string]any{})
	if err != nil {
		return res, err
	}
	if m, ok := out.StructuredContent.(map[string]any); ok {
		if srv, ok := m["server"].(map[string]any); ok {
			res.ServerName, _ = srv["name"].(string)
		}
	}
	return res, nil
}

// waitStandards waits until the standards index is ready (or failed).
func waitStandards(ctx context.Context, svc *searchtool.Service) (searchtool.IndexStatus, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		st := svc.Status()[0]
		switch st.State {
		case searchtool.StateReady:
			return st, nil
		case searchtool.StateFailed:
			return st, fmt.Errorf("the standards index failed: %s", st.Detail)
		case searchtool.StateDisabled:
			return st, nil
		}
		select {
		case <-ctx.Done():
			return st, fmt.Errorf("the standards index is still %s: %w", st.State, ctx.Err())
		case <-tick.C:
		}
	}
}

func callTool(ctx context.Context, c *client.Client, name string, args map[string]any) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	out, err := c.CallTool(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if out.IsError {
		msg := ""
		for _, ct := range out.Content {
			if t, ok := ct.(mcp.TextContent); ok {
				msg += t.Text
			}
		}
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	return out, nil
}
