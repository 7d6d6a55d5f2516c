// Package info owns the get_server_info tool: what a connected agent can learn
// about the server it talks to (transport, address, process, project,
// subsystems, other clients) and its health.
package info

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/server/state"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// Status is a snapshot of the running server, provided by the server package.
type Status struct {
	InstanceID string      `json:"instance_id" jsonschema:"Random id of this server process; equal ids mean the same server"`
	PID        int         `json:"pid"`
	StartedAt  time.Time   `json:"started_at"`
	Transport  string      `json:"transport" jsonschema:"dual, stdio or http"`
	URL        string      `json:"url,omitempty" jsonschema:"Streamable HTTP endpoint, when HTTP is enabled"`
	Port       int         `json:"port,omitempty"`
	Auth       string      `json:"auth" jsonschema:"none or token"`
	Project    Project     `json:"project"`
	StateFile  string      `json:"state_file,omitempty"`
	Subsystems []Subsystem `json:"subsystems"`
	Clients    []Client    `json:"clients"`
}

// Project names the project being served.
type Project struct {
	Name string `json:"name"`
	Root string `json:"root"`
}

// Subsystem is one part of the server and its state.
type Subsystem struct {
	Name   string `json:"name"`
	State  string `json:"state" jsonschema:"ready, building, degraded, unavailable, disabled or failed"`
	Detail string `json:"detail,omitempty"`
}

// Client is one connected MCP client session.
type Client struct {
	Name      string    `json:"name"`
	Version   string    `json:"version,omitempty"`
	Transport string    `json:"transport"`
	LastSeen  time.Time `json:"last_seen"`
}

// Source provides the server's status.
type Source interface {
	Status() Status
}

type input struct {
	Action string `json:"action"`
}

// Output is the result of get_server_info; which fields are set depends on the action.
type Output struct {
	Action           string      `json:"action"`
	Server           *Server     `json:"server,omitempty"`
	Transport        string      `json:"transport,omitempty"`
	URL              string      `json:"url,omitempty"`
	Port             int         `json:"port,omitempty"`
	Auth             string      `json:"auth,omitempty"`
	Project          *Project    `json:"project,omitempty"`
	Subsystems       []Subsystem `json:"subsystems,omitempty"`
	ConnectedClients *int        `json:"connected_clients,omitempty"`
	Clients          []Client    `json:"clients,omitempty"`
	Healthy          *bool       `json:"healthy,omitempty"`
	Checks           []Check     `json:"checks,omitempty"`
	Version          *Version    `json:"version,omitempty"`
}

// Server describes the server process.
type Server struct {
	Name          string  `json:"name"`
	Version       string  `json:"version"`
	InstanceID    string  `json:"instance_id"`
	PID           int     `json:"pid"`
	StartedAt     string  `json:"started_at"`
	UptimeSeconds float64 `json:"uptime_seconds"`
}

// Check is one health check.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Version describes the build and protocol.
type Version struct {
	buildinfo.Info
	Platform        string `json:"platform"`
	ProtocolVersion string `json:"protocol_version"`
}

// New returns the get_server_info tool reading from src.
func New(src Source, now func() time.Time) toolkit.Tool {
	def := mcp.NewTool("get_server_info",
		mcp.WithDescription("Information about this agentos server. status (default): transport, HTTP URL, pid, uptime, project, subsystems and connected clients. health: checks that the server can serve this project. version: build and protocol version."),
		mcp.WithString("action", mcp.Enum("status", "health", "version"), mcp.DefaultString("status"),
			mcp.Description("status, health or version")),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Server info", true, false, true, false),
	)
	return toolkit.Tool{Def: def, Handler: toolkit.Handler(func(ctx context.Context, _ mcp.CallToolRequest, in input) (Output, error) {
		switch in.Action {
		case "", "status":
			return status(src.Status(), now()), nil
		case "health":
			return health(src.Status()), nil
		case "version":
			return version(), nil
		default:
			return Output{}, toolkit.Validation("action", "action must be status, health or version, not %q", in.Action)
		}
	})}
}

func status(st Status, now time.Time) Output {
	n := len(st.Clients)
	return Output{
		Action: "status",
		Server: &Server{
			Name:          buildinfo.Name,
			Version:       buildinfo.Get().Version,
			InstanceID:    st.InstanceID,
			PID:           st.PID,
			StartedAt:     st.StartedAt.UTC().Format(time.RFC3339),
			UptimeSeconds: now.Sub(st.StartedAt).Round(time.Second).Seconds(),
		},
		Transport:        st.Transport,
		URL:              st.URL,
		Port:             st.Port,
		Auth:             st.Auth,
		Project:          &st.Project,
		Subsystems:       st.Subsystems,
		ConnectedClients: &n,
		Clients:          st.Clients,
	}
}

func health(st Status) Output {
	var checks []Check
	add := func(name string, err error) {
		c := Check{Name: name, OK: err == nil}
		if err != nil {
			c.Detail = err.Error()
		}
		checks = append(checks, c)
	}
	add("project_root", dirWritable(st.Project.Root))
	add("agentos_dir", dirWritable(filepath.Join(st.Project.Root, ".agentos")))
	if st.StateFile != "" {
		add("state_file", stateFileOurs(st))
	}
	for _, s := range st.Subsystems {
		if s.State == "failed" {
			add("subsystem_"+s.Name, fmt.Errorf("%s", s.Detail))
		} else {
			add("subsystem_"+s.Name, nil)
		}
	}
	healthy := true
	for _, c := range checks {
		healthy = healthy && c.OK
	}
	return Output{Action: "health", Healthy: &healthy, Checks: checks}
}

func version() Output {
	return Output{Action: "version", Version: &Version{
		Info:            buildinfo.Get(),
		Platform:        runtime.GOOS + "/" + runtime.GOARCH,
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION,
	}}
}

func dirWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".agentos-health-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func stateFileOurs(st Status) error {
	f, err := state.Read(st.StateFile)
	if err != nil {
		return err
	}
	if f.PID != st.PID || f.URL != st.URL {
		return fmt.Errorf("state file %s names another server (pid %d, %s)", st.StateFile, f.PID, f.URL)
	}
	return nil
}
