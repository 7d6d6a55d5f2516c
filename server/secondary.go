package server

import (
	"context"
	"errors"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// primaryWait bounds how long a second server waits for a primary that holds
// the lock but has not written a state file it can trust yet (it is starting).
const primaryWait = 5 * time.Second

// runSecondary handles a serve started while another process is the
// project's primary: a stdio server becomes a bridge to it, so a stdio-only
// client shares its state; anything else refuses to start a diverging copy.
// Only a state file that state.Verify trusts is bridged to; with any other,
// nothing (no token, no message) is sent anywhere.
func runSecondary(ctx context.Context, opts Options) error {
	pid, holderTransport := lockHolder(opts.Project)
	if holderTransport == TransportStdio {
		return &AlreadyRunningError{PID: pid}
	}
	st, err := waitForPrimary(ctx, opts.Project, opts.Config)
	if err != nil {
		running := &AlreadyRunningError{PID: pid}
		if !errors.Is(err, state.ErrMissing) && ctx.Err() == nil {
			// The message asks the person to stop the holder: name the one
			// the kernel names, where it can, not the owner record's.
			if holder := kernelLockHolder(opts.Project); holder > 0 {
				running.PID = holder
			}
			running.Untrusted = err.Error()
			opts.Logger.Error("the state file cannot be trusted; not bridging to the URL it names", "err", err)
		}
		return running
	}
	if opts.Transport != TransportStdio {
		return &AlreadyRunningError{PID: st.PID, URL: st.URL}
	}
	opts.Logger.Info("another server is the primary; bridging stdio to it", "url", st.URL, "pid", st.PID)
	token := ""
	if st.Auth == "token" {
		if token, err = ReadToken(opts.Project); err != nil {
			return err
		}
	}
	b := &bridge{
		project: opts.Project,
		config:  opts.Config,
		url:     st.URL,
		token:   token,
		out:     opts.Stdout,
		log:     opts.Logger,
	}
	return b.run(ctx, opts.Stdin)
}

// waitForPrimary polls the state file until state.Verify trusts it, or
// returns the last reason it did not. A file refused as stale is not checked
// again until it changes: a server that starts writes a new one, and the URL
// a forged file names gets one liveness request, not one per poll.
func waitForPrimary(ctx context.Context, p project.Paths, cfg config.Config) (state.File, error) {
	deadline := time.Now().Add(primaryWait)
	var refused state.File
	var staleErr *state.StaleError
	for {
		st, err := state.Read(p.StateFile())
		if err == nil {
			if staleErr != nil && st == refused {
				err = staleErr
			} else {
				if err = state.Verify(ctx, st, p, cfg); err == nil {
					return st, nil
				}
				refused, staleErr = st, nil
				errors.As(err, &staleErr)
			}
		}
		if time.Now().After(deadline) {
			return state.File{}, err
		}
		select {
		case <-ctx.Done():
			return state.File{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
