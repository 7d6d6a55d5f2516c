package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/proc"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// Probe is what a look from outside finds about a project's server. Its URL
// and State come only from a state file that state.Verify trusts; so does
// its PID, or from the kernel's list of the lock's holders.
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

// ProbeProject reads the state file and verifies it (state.Verify: its URL,
// its pid, the project lock, the endpoint's answer).
func ProbeProject(ctx context.Context, p project.Paths) Probe {
	st, err := state.ReadVerified(ctx, p, config.LoadOrDefault(p.Config()))
	switch {
	case errors.Is(err, state.ErrMissing):
		pid, t := lockHolder(p)
		switch {
		case !holdsLock(p, pid):
			return Probe{Reason: fmt.Sprintf("no state file (%s): no server with HTTP is running for this project", p.Rel(p.StateFile()))}
		case t == TransportStdio:
			// A stdio-only server writes no state file but does hold the lock.
			return Probe{Running: true, Transport: string(t), PID: pid, Reason: "serving its IDE over stdio only; other agents cannot connect"}
		default:
			return Probe{Reason: fmt.Sprintf("a server (pid %d) holds the project lock but has not written its state file yet: it is starting; try again in a moment", pid)}
		}
	case err != nil:
		pr := Probe{Reason: err.Error()}
		// The kernel's word on who holds the lock, where it can be had: a
		// server runs whatever the file says (and upgrade stops it by this pid).
		if pid := kernelLockHolder(p); pid > 0 {
			pr.PID = pid
			var stale *state.StaleError
			if errors.As(err, &stale) {
				pr.Reason += fmt.Sprintf("; pid %d holds the project lock, so a server does run: restart it (or the agent that launched it) to have it write its state file again", pid)
			}
		}
		return pr
	}
	pr := Probe{Running: true, Transport: st.Transport, URL: st.URL, PID: st.PID, StartedAt: st.StartedAt, State: &st}
	if t := st.Started(); !t.IsZero() {
		pr.Uptime = time.Since(t).Round(time.Second).String()
	}
	return pr
}

// kernelLockHolder is the pid holding the project lock as the kernel reports
// it; 0 when none does or the platform cannot tell.
func kernelLockHolder(p project.Paths) int {
	holders, err := proc.LockHolders(p.Lock())
	if err != nil || len(holders) == 0 {
		return 0
	}
	return holders[0]
}

// holdsLock reports whether pid (read from the lock's owner record, which
// any process could have written) is alive and, where the kernel lists a
// lock's holders, holds the project lock.
func holdsLock(p project.Paths, pid int) bool {
	if !proc.Alive(pid) {
		return false
	}
	holders, err := proc.LockHolders(p.Lock())
	return err != nil || slices.Contains(holders, pid)
}
