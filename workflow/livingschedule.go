package workflow

import (
	"context"
	"log/slog"
	"time"
)

// agentWorking is how recently an active session must have changed for an
// agent to count as working on it: an abandoned session does not hold the
// schedule back for ever.
const agentWorking = 30 * time.Minute

// CheckSpecsEvery checks every finished spec each interval until ctx ends:
// the schedule a person sets with workflow.specs_check_every. A check runs
// the project's tests, so it never starts while an agent works — while a
// gate runs, or a session is active and changed in the last 30 minutes —
// and the log says each time it waits, and what each check found.
func (e *Engine) CheckSpecsEvery(ctx context.Context, every time.Duration, log *slog.Logger) {
	log = log.With("subsystem", "specs")
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if busy := e.agentBusy(); busy != "" {
			log.Info("scheduled check of the finished specs postponed: an agent is working", "why", busy)
			continue
		}
		specs, err := e.CheckSpecs(ctx, nil)
		if err != nil {
			if ctx.Err() == nil {
				log.Error("scheduled check of the finished specs failed", "err", err)
			}
			continue
		}
		for _, s := range specs {
			log.Info("finished spec checked", "spec", s.Spec, "state", s.State)
		}
	}
}

// agentBusy says why an agent counts as working now; "" when none does.
func (e *Engine) agentBusy() string {
	if g := e.RunningGates(); len(g) > 0 {
		return "a gate runs for " + g[0]
	}
	sessions, _, err := e.store.List()
	if err != nil {
		return "the sessions cannot be read: " + err.Error()
	}
	now := e.set.Now()
	for _, s := range sessions {
		if s.Status == StatusActive && now.Sub(s.UpdatedAt) < agentWorking {
			return "session " + s.ID + " is active"
		}
	}
	return ""
}
