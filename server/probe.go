package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agentos-dev/agentos/internal/proc"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// Probe is what a look from outside finds about a project's server.
type Probe struct {
	Running   bool        `json:"running"`
	Reason    string      `json:"reason,omitempty"` // why it is not running, or a note
	Transport string      `json:"transport,omitempty"`
	URL       string      `json:"url,omitempty"`
	PID       int         `json:"pid,omitempty"`
	StartedAt string      `json:"started_at,omitempty"`
	Uptime    string      `json:"uptime,omitempty"`
	State     *state.File `json:"state,omitempty"`
}

// ProbeProject checks the state file, the process it names and the endpoint.
func ProbeProject(ctx context.Context, p project.Paths) Probe {
	st, err := state.Read(p.StateFile())
	if errors.Is(err, state.ErrMissing) {
		// A stdio-only server writes no state file but does hold the lock.
		if pid, t := lockHolder(p); t == TransportStdio && proc.Alive(pid) {
			return Probe{Running: true, Transport: string(t), PID: pid, Reason: "serving its IDE over stdio only; other agents cannot connect"}
		}
		return Probe{Reason: fmt.Sprintf("no state file (%s): no server with HTTP is running for this project", p.Rel(p.StateFile()))}
	}
	if err != nil {
		return Probe{Reason: err.Error()}
	}
	pr := Probe{Transport: st.Transport, URL: st.URL, PID: st.PID, StartedAt: st.StartedAt, State: &st}
	if st.Stale() {
		pr.Reason = fmt.Sprintf("stale state file: pid %d is not running (the server did not shut down cleanly); the next start replaces it", st.PID)
		return pr
	}
	if err := checkLiveness(ctx, p, st); err != nil {
		pr.Reason = fmt.Sprintf("pid %d is alive but %s is not answering: %v", st.PID, st.URL, err)
		return pr
	}
	pr.Running = true
	if t := st.Started(); !t.IsZero() {
		pr.Uptime = time.Since(t).Round(time.Second).String()
	}
	return pr
}

// checkLiveness makes the plain GET /mcp liveness request.
func checkLiveness(ctx context.Context, p project.Paths, st state.File) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, st.URL, nil)
	if err != nil {
		return err
	}
	if st.Auth == "token" {
		if tok, err := ReadToken(p); err == nil {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %s", resp.Status)
	}
	var body struct {
		PID int `json:"pid"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return fmt.Errorf("unexpected answer: %w", err)
	}
	if body.PID != st.PID {
		return fmt.Errorf("another process (pid %d) answers on that port", body.PID)
	}
	return nil
}
