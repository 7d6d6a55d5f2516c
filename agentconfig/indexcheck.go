package agentconfig

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server"
)

// checkIndexes asks the running server for its search indexes' status
// (svc_search_project, action index_status), as an agent would.
func checkIndexes(ctx context.Context, url, token string) (Check, bool) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := server.Dial(ctx, url, token, "agentos-doctor", "1", 0)
	if err != nil {
		return Check{Name: "indexes", Detail: err.Error(), Fix: "run `agentos status`"}, true
	}
	defer c.Close()
	req := mcp.CallToolRequest{}
	req.Params.Name = "svc_search_project"
	req.Params.Arguments = map[string]any{"action": "index_status"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		if strings.Contains(err.Error(), "not found") {
			return Check{}, false // a server without search
		}
		return Check{Name: "indexes", Detail: err.Error(), Fix: "see .agentos/.cache/logs/server.log"}, true
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Indexes []struct {
			Index      string `json:"index"`
			State      string `json:"state"`
			FilesDone  int    `json:"files_done"`
			FilesTotal int    `json:"files_total"`
			Detail     string `json:"detail"`
		} `json:"indexes"`
	}
	if res.IsError || json.Unmarshal(raw, &out) != nil || len(out.Indexes) == 0 {
		return Check{}, false
	}
	var parts []string
	ok := true
	for _, ix := range out.Indexes {
		s := ix.Index + " " + ix.State
		if ix.FilesTotal > 0 && ix.State != "ready" {
			s += fmt.Sprintf(" (%d/%d files)", ix.FilesDone, ix.FilesTotal)
		}
		if ix.State == "failed" {
			ok = false
			s += ": " + ix.Detail
		}
		parts = append(parts, s)
	}
	ch := Check{Name: "indexes", OK: ok, Detail: strings.Join(parts, "; ")}
	if !ok {
		ch.Fix = "see .agentos/.cache/logs/server.log; fix the cause (often the code.* settings in .agentos/config/mcp.yaml) and restart the primary agent"
	}
	return ch, true
}
