package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// repeatable reports whether a message the last primary may have run can be
// sent to the next one: any message but a tool call, and a call of a tool the
// server declares read-only (its readOnlyHint, as tools/list gives it). A
// call that changes something, such as complete_phase or a file's write, is
// not run a second time behind the agent's back.
func (b *bridge) repeatable(ctx context.Context, msg []byte) bool {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return false
	}
	if m.Method != "tools/call" {
		return true
	}
	readOnly, err := b.readOnlyTools(ctx)
	for try := 1; err != nil && try < maxResends && ctx.Err() == nil; try++ {
		// The primary just found may be the one still shutting down, which
		// answered initialize and then ended (see maxResends): ask the next.
		b.log.Info("could not list the primary's tools; going to the next one", "err", err)
		b.mu.Lock()
		gen := b.generation
		b.mu.Unlock()
		if b.reconnect(ctx, gen, true) != nil {
			break
		}
		readOnly, err = b.readOnlyTools(ctx)
	}
	if err != nil {
		b.log.Warn("cannot tell whether a tool only reads; not calling it again", "tool", m.Params.Name, "err", err)
		return false
	}
	return readOnly[m.Params.Name]
}

// readOnlyTools asks the primary which of its tools only read, once for
// the bridge's life: every primary is the same agentos.
func (b *bridge) readOnlyTools(ctx context.Context) (map[string]bool, error) {
	b.mu.Lock()
	known := b.readOnly
	b.mu.Unlock()
	if known != nil {
		return known, nil
	}
	const id = `"agentos-bridge-tools"`
	readOnly := map[string]bool{}
	cursor := ""
	for page := 0; page < 100; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "tools/list", "params": params})
		resp, err := b.post(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("list the tools: %w", err)
		}
		var answer []byte
		err = b.relay(resp, func(m []byte) {
			if isAnswer(m, json.RawMessage(id)) {
				answer = m
			}
		})
		resp.Body.Close()
		if answer == nil {
			return nil, fmt.Errorf("list the tools: no answer (%v, %s)", err, resp.Status)
		}
		var list struct {
			Result mcp.ListToolsResult `json:"result"`
		}
		if err := json.Unmarshal(answer, &list); err != nil {
			return nil, fmt.Errorf("list the tools: %w", err)
		}
		for _, t := range list.Result.Tools {
			readOnly[t.Name] = t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
		}
		if cursor = string(list.Result.NextCursor); cursor == "" {
			b.mu.Lock()
			b.readOnly = readOnly
			b.mu.Unlock()
			return readOnly, nil
		}
	}
	return nil, fmt.Errorf("list the tools: more than 100 pages")
}
