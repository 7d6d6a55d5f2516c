package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRefuseLongNames(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes: cut inside a character would be invalid UTF-8
	uri := "agentos://workflows/" + strings.Repeat("x", 2000)
	for _, tc := range []struct {
		msg, want string // want "": let through
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"svc_workflow"}}`, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + strings.Repeat("t", 128) + `"}}`, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + long + `"}}`, "tool name \"" + strings.Repeat("é", 32) + "\"… is too long (200 bytes; at most 128); tools/list names the tools"},
		{`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"` + long + `"}}`, "prompt name"},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + uri + `"}}`, "resource URI \"agentos://workflows/xxx"},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"agentos://workflows/s-1"}}`, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"` + long + `"}`, "method"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":42}}`, ""}, // mcp-go's to refuse
		{`[1,2]`, ""},
	} {
		err := refuseLongNames(context.Background(), 1, json.RawMessage(tc.msg))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%.80s: refused: %v", tc.msg, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 200 || !utf8.ValidString(err.Error())):
			t.Errorf("%.80s: %v", tc.msg, err)
		}
	}
}
