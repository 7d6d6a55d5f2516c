package clock

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func TestCurrentDate(t *testing.T) {
	fixed := time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC)
	tool := New(func() time.Time { return fixed })
	s := server.NewMCPServer("t", "1", server.WithOutputSchemaValidation())
	s.AddTool(tool.Def, tool.Handler)
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	call := func(args map[string]any) *mcp.CallToolResult {
		req := mcp.CallToolRequest{}
		req.Params.Name = "current_date"
		req.Params.Arguments = args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	res := call(map[string]any{"timezone": "Asia/Tokyo"})
	if res.IsError {
		t.Fatalf("error: %v", res.Content)
	}
	got := describe(fixed.In(mustLoad(t, "Asia/Tokyo")))
	if got.ISODate != "2026-03-02" || got.SpecPrefix != "2026-03-02-" || got.Weekday != "Monday" ||
		got.UTCOffset != "+09:00" || got.Timezone != "Asia/Tokyo" || got.Unix != fixed.Unix() || got.Month != "March" {
		t.Errorf("Tokyo: %+v", got)
	}
	if res := call(map[string]any{"timezone": "Nowhere/Special"}); !res.IsError {
		t.Error("unknown zone accepted")
	}
	if res := call(nil); res.IsError {
		t.Errorf("default zone: %v", res.Content)
	}
}

func mustLoad(t *testing.T, name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
