package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/state"
)

// primaryWait bounds how long a second server waits for a primary that holds
// the lock but has not written a state file it can trust yet (it is starting).
const primaryWait = 5 * time.Second

// runSecondary handles a serve started while another process is the
// project's primary. A stdio or dual server becomes a bridge to it, so every
// agent shares one server, and stands by to take over (standby) when the
// primary exits; an HTTP-only server refuses to start a diverging copy. Only
// a state file that state.Verify trusts is bridged to; with any other,
// nothing (no token, no message) is sent anywhere.
func runSecondary(ctx context.Context, opts Options) error {
	pid, holderTransport := lockHolder(opts.Project)
	if holderTransport == TransportStdio {
		return &AlreadyRunningError{PID: pid}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// The standby, once primary, serves until ctx ends: cancel first.
	defer func() { cancel(); wg.Wait() }()
	if opts.Transport.stdio() {
		wg.Go(func() { standby(ctx, opts) })
	}
	st, err := waitForPrimary(ctx, opts.Project, opts.Config)
	if err != nil {
		running := &AlreadyRunningError{PID: pid, NoStateFile: errors.Is(err, state.ErrMissing) && ctx.Err() == nil}
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
	if !opts.Transport.stdio() {
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
		primary: st.PID,
		token:   token,
		out:     opts.Stdout,
		log:     opts.Logger,
	}
	return b.run(ctx, opts.Stdin)
}

// standby waits for the project lock while this process bridges to the
// primary. When the primary exits (or dies) and this process is the first
// to take the lock, it serves as the new primary, on the same recorded port,
// until ctx ends: every bridge, this process's own among them, finds it
// through the state file and re-initializes its session there. The
// workflow state and indexes are the project's files, so they carry on.
func standby(ctx context.Context, opts Options) {
	lock, err := waitForLock(ctx, opts.Project, TransportDual)
	if lock == nil {
		if ctx.Err() == nil {
			opts.Logger.Error("cannot wait for the project lock; this process will not take over if the primary exits", "err", err)
		}
		return
	}
	defer lock.release()
	opts.Logger.Info("the primary server exited; taking over as the primary")
	opts.Transport = TransportDual
	s, err := newServer(opts)
	if err != nil {
		opts.Logger.Error("cannot take over as the primary", "err", err)
		return
	}
	s.bridged = true
	if err := s.serve(ctx); err != nil {
		opts.Logger.Error("the server that took over stopped", "err", err)
	}
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
