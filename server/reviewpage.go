package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server/info"
	"github.com/agentos-dev/agentos/server/review"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/server/state"
)

// mountReview serves the review page under review.Prefix and keeps
// svc_browser off the server's own port. The key that opens review links is
// the auth token, created here whatever server.auth says: it lives under
// .agentos/.cache/, which no MCP tool can read, so only a person's command
// (or a program with its own shell, which is out of reach) can present it.
func (s *server) mountReview(mux *http.ServeMux, port int) error {
	key, err := loadToken(s.opts.Project, config.AuthToken)
	if err != nil {
		return err
	}
	s.browser.RefuseOwnPort(port)
	mux.Handle(review.Prefix, review.New(review.Options{
		Project: s.opts.Project,
		Engine:  s.workflows,
		Agents:  func() []info.Client { return s.clients.list() },
		Indexes: func() []searchtool.IndexStatus { return s.search.Status() },
		Key:     key,
		Logger:  s.log.With("subsystem", "review"),
	}))
	return nil
}

// NoServerError says no primary server runs for the project, so nothing
// can serve the review page.
type NoServerError struct{ Reason string }

func (e *NoServerError) Error() string {
	return "no agentos server is running for this project: " + e.Reason + "; start one with `agentos serve --transport dual` in a terminal, or open the project in your agent, then run `agentos review` again"
}

// OpenReview finds project p's primary server through its state file,
// trusted only once state.ReadVerified checks it, and asks it for a review
// link with the auth token. The link lives until it is closed or ctx ends.
func OpenReview(ctx context.Context, p project.Paths, cfg config.Config) (*review.Link, error) {
	st, err := state.ReadVerified(ctx, p, cfg)
	var stale *state.StaleError
	switch {
	case errors.Is(err, state.ErrMissing):
		return nil, &NoServerError{Reason: "there is no " + p.Rel(p.StateFile())}
	case errors.As(err, &stale):
		return nil, &NoServerError{Reason: "its state file is not trusted, so nothing was sent to the URL it names (" + stale.Reason + ")"}
	case err != nil:
		return nil, fmt.Errorf("the agentos server named by %s does not answer (%v); wait until it has started, or restart it", p.Rel(p.StateFile()), err)
	}
	key, err := ReadToken(p)
	if err != nil {
		return nil, fmt.Errorf("the review page needs the server's auth token, which it creates when it starts (%w); restart the server with this version of agentos", err)
	}
	return review.RequestLink(ctx, fmt.Sprintf("http://%s:%d", Host, st.Port), key)
}
