package server

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// maxNameBytes is the longest method, tool or prompt name a request may
// carry; the protocol asks tool names to be at most 128 characters, and
// ours are far shorter.
const maxNameBytes = 128

// maxURIBytes is the longest resource URI a request may carry; ours are
// agentos://workflows/ and a session id of at most 64 characters.
const maxURIBytes = 1024

// shownBytes is how much of an over-long name an error quotes.
const shownBytes = 64

// refuseLongNames refuses a request whose method, tool or prompt name or
// resource URI is longer than any this server knows, before mcp-go
// dispatches it: mcp-go's "not found" errors quote the name whole, so a
// 100 KB name would come back in the answer (and go on into the caller's
// context). It runs as the OnRequestInitialization hook, for every transport,
// and mcp-go answers its error with -32600 (Invalid Request).
func refuseLongNames(_ context.Context, _ any, message any) error {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return nil
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name json.RawMessage `json:"name"`
			URI  json.RawMessage `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil // not for us to judge: mcp-go answers a malformed request
	}
	if len(m.Method) > maxNameBytes {
		return fmt.Errorf("method %s is too long (%d bytes; methods are at most %d)", toolkit.Quoted(m.Method, shownBytes), len(m.Method), maxNameBytes)
	}
	var what string
	var value json.RawMessage
	limit := maxNameBytes
	switch m.Method {
	case "tools/call":
		what, value = "tool name", m.Params.Name
	case "prompts/get":
		what, value = "prompt name", m.Params.Name
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		what, value, limit = "resource URI", m.Params.URI, maxURIBytes
	default:
		return nil
	}
	var s string
	if json.Unmarshal(value, &s) != nil || len(s) <= limit {
		return nil
	}
	hint := ""
	if what == "tool name" {
		hint = "; tools/list names the tools"
	}
	return fmt.Errorf("%s %s is too long (%d bytes; at most %d)%s", what, toolkit.Quoted(s, shownBytes), len(s), limit, hint)
}
