package server

import (
	"context"
	"time"

	"github.com/agentos-dev/agentos/server/state"
)

// primaryWait bounds how long a second server waits for a primary that holds
// the lock but has not written its state file yet (it is starting).
const primaryWait = 5 * time.Second

// runSecondary handles a serve started while another process is the
// project's primary: a stdio server becomes a bridge to it, so a stdio-only
// client shares its state; anything else refuses to start a diverging copy.
func runSecondary(ctx context.Context, opts Options) error {
	pid, holderTransport := lockHolder(opts.Project)
	if holderTransport == TransportStdio {
		return &AlreadyRunningError{PID: pid}
	}
	st, err := waitForPrimary(ctx, opts.Project.StateFile())
	if err != nil {
		return &AlreadyRunningError{PID: pid}
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
		stateFile: opts.Project.StateFile(),
		url:       st.URL,
		token:     token,
		out:       opts.Stdout,
		log:       opts.Logger,
	}
	return b.run(ctx, opts.Stdin)
}

// waitForPrimary polls the state file until it names a live process.
func waitForPrimary(ctx context.Context, path string) (state.File, error) {
	deadline := time.Now().Add(primaryWait)
	for {
		st, err := state.Read(path)
		if err == nil && !st.Stale() {
			return st, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = state.ErrMissing
			}
			return state.File{}, err
		}
		select {
		case <-ctx.Done():
			return state.File{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
