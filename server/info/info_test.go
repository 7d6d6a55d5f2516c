package info

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/server/state"
)

type fixedSource Status

func (f fixedSource) Status() Status { return Status(f) }

func TestGetServerInfo(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".agentos"), 0o755)
	started := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sf := filepath.Join(root, ".agentos", ".mcp_server_state.json")
	src := fixedSource{
		InstanceID: "abc", PID: os.Getpid(), StartedAt: started, Transport: "dual",
		URL: "http://127.0.0.1:4242/mcp", Port: 4242, Auth: "none",
		Project:    Project{Name: "p", Root: root},
		StateFile:  sf,
		Subsystems: []Subsystem{{Name: "http", State: "ready"}},
		Clients:    []Client{{Name: "ide", Transport: "stdio"}},
	}
	tool := New(src, func() time.Time { return started.Add(90 * time.Second) })
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
	call := func(action string) (Output, *mcp.CallToolResult) {
		req := mcp.CallToolRequest{}
		req.Params.Name = "get_server_info"
		if action != "" {
			req.Params.Arguments = map[string]any{"action": action}
		}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		var out Output
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		return out, res
	}

	out, res := call("")
	if res.IsError || out.Action != "status" || out.Server.UptimeSeconds != 90 || out.Transport != "dual" ||
		*out.ConnectedClients != 1 || out.Server.InstanceID != "abc" || out.Project.Root != root {
		t.Errorf("status: %+v %v", out, res.Content)
	}

	// Health fails while the state file names nobody, passes once it names us.
	out, _ = call("health")
	if *out.Healthy {
		t.Errorf("healthy without a state file: %+v", out.Checks)
	}
	st := state.New("dual", "127.0.0.1", 4242, os.Getpid(), started, "dev", state.Project{Name: "p", Root: root}, "none")
	if err := state.Write(sf, st); err != nil {
		t.Fatal(err)
	}
	out, _ = call("health")
	if !*out.Healthy {
		t.Errorf("unhealthy: %+v", out.Checks)
	}

	out, _ = call("version")
	if out.Version == nil || out.Version.Name != "agentos" || out.Version.ProtocolVersion == "" {
		t.Errorf("version: %+v", out)
	}
	if _, res := call("reboot"); !res.IsError {
		t.Error("unknown action accepted")
	}
}
