package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestErrorResult(t *testing.T) {
	res := ErrorResult(Validation("path", "path is empty"))
	if !res.IsError {
		t.Fatal("not an error")
	}
	text := res.Content[len(res.Content)-1].(mcp.TextContent).Text
	var body map[string]any
	if err := json.Unmarshal([]byte(text), &body); err != nil {
		t.Fatal(err)
	}
	if body["error_code"] != "VALIDATION_ERROR" || body["message"] != "path is empty" || body["details"].(map[string]any)["field"] != "path" {
		t.Errorf("body = %v", body)
	}
	// Internal errors never leak their text.
	res = ErrorResult(errors.New("open /secret/thing: permission denied"))
	if text := res.Content[len(res.Content)-1].(mcp.TextContent).Text; strings.Contains(text, "secret") || !strings.Contains(text, "INTERNAL_ERROR") {
		t.Errorf("internal error leaked: %s", text)
	}
}

func TestHandlerBindsAndWraps(t *testing.T) {
	type in struct {
		N int `json:"n"`
	}
	h := Handler(func(_ context.Context, _ mcp.CallToolRequest, a in) (map[string]int, error) {
		if a.N < 0 {
			return nil, Validation("n", "n must not be negative")
		}
		return map[string]int{"double": a.N * 2}, nil
	})
	call := func(args any) *mcp.CallToolResult {
		req := mcp.CallToolRequest{}
		req.Params.Arguments = args
		res, err := h(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(map[string]any{"n": 4}); res.IsError || !strings.Contains(res.Content[0].(mcp.TextContent).Text, `"double":8`) {
		t.Errorf("ok call: %+v", res)
	}
	if res := call(map[string]any{"n": -1}); !res.IsError {
		t.Error("validation error lost")
	}
	if res := call(map[string]any{"n": "four"}); !res.IsError || !strings.Contains(res.Content[len(res.Content)-1].(mcp.TextContent).Text, "VALIDATION_ERROR") {
		t.Errorf("bad argument type: %+v", res)
	}
}

func TestBindErrorNamesTheField(t *testing.T) {
	type in struct {
		Phase int `json:"phase"`
	}
	h := Handler(func(_ context.Context, _ mcp.CallToolRequest, a in) (int, error) { return a.Phase, nil })
	req := mcp.CallToolRequest{}
	req.Params.Arguments = map[string]any{"phase": "two"}
	res, _ := h(context.Background(), req)
	var body Error
	json.Unmarshal([]byte(res.Content[len(res.Content)-1].(mcp.TextContent).Text), &body)
	if body.Code != CodeValidation || body.Details.(map[string]any)["field"] != "phase" || !strings.Contains(body.Message, "number") {
		t.Errorf("body = %+v", body)
	}
}
