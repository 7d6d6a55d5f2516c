// Package state owns the runtime state file .agentos/.mcp_server_state.json:
// its schema, its atomic writing and removal, and Verify, the one check every
// reader (the bridge, status, connect, doctor, secondary-agent setup) makes
// before it trusts the file: it may be stale, or forged.
package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
)

// SchemaVersion is the version of the state file's layout.
const SchemaVersion = 1

// Path of the MCP endpoint on the HTTP transport.
const EndpointPath = "/mcp"

// File is the content of the state file.
type File struct {
	Version       int     `json:"version"`
	Transport     string  `json:"transport"`
	Port          int     `json:"port"`
	Host          string  `json:"host"`
	Path          string  `json:"path"`
	URL           string  `json:"url"`
	PID           int     `json:"pid"`
	StartedAt     string  `json:"started_at"`
	ServerVersion string  `json:"server_version"`
	Project       Project `json:"project"`
	// Auth is "token" when the endpoint needs a bearer token (read from
	// .agentos/.cache/auth_token), else "none".
	Auth string `json:"auth"`
}

// Project identifies the project a server serves.
type Project struct {
	Name string `json:"name"`
	Root string `json:"root"`
}

// New fills a state file for a server listening on host:port.
func New(transport, host string, port, pid int, started time.Time, serverVersion string, project Project, auth string) File {
	return File{
		Version:       SchemaVersion,
		Transport:     transport,
		Port:          port,
		Host:          host,
		Path:          EndpointPath,
		URL:           fmt.Sprintf("http://%s:%d%s", host, port, EndpointPath),
		PID:           pid,
		StartedAt:     started.UTC().Format(time.RFC3339),
		ServerVersion: serverVersion,
		Project:       project,
		Auth:          auth,
	}
}

// Write stores f at path atomically with mode 0600: it names a port that
// other local users have no business with.
func Write(path string, f File) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state file: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write state file: %w", err)
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o600)
}

// ErrMissing is returned by Read when there is no state file.
var ErrMissing = errors.New("no state file")

// Read loads the state file at path.
func Read(path string) (File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return File{}, ErrMissing
	}
	if err != nil {
		return File{}, fmt.Errorf("read state file: %w", err)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("state file %s is not valid JSON: %w", path, err)
	}
	return f, nil
}

// Started parses StartedAt; the zero time when it is malformed.
func (f File) Started() time.Time {
	t, _ := time.Parse(time.RFC3339, f.StartedAt)
	return t
}

// RemoveIfOwned deletes the state file at path if it was written by pid, so a
// server never removes the file of a newer server that replaced it.
func RemoveIfOwned(path string, pid int) error {
	f, err := Read(path)
	if err != nil || f.PID != pid {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove state file: %w", err)
	}
	return nil
}
