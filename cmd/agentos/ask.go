package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/server/state"
)

// askTimeout bounds one command's talk with the running server: a search
// takes milliseconds, and an index still opening is waited for two seconds;
// the rest is room for a loaded machine. initTimeout bounds the handshake,
// so that a server that hangs costs seconds before the saved indexes answer.
const (
	askTimeout  = 30 * time.Second
	initTimeout = 5 * time.Second
)

// running is the project's running server, asked through svc_search_project
// as an agent asks it. `agentos search` and `agentos graph` use it so that
// they need not load an index the server already holds in memory.
type running struct {
	c *client.Client
}

// dialRunning connects to the server that serves p, when one does. The
// server is found only through a state file that state.ReadVerified trusts,
// as `agentos status` and `agentos review` find it: a stale or forged file
// gets no token and no MCP message. The request carries the project's auth
// token when there is one. It returns nil and why when no server can be
// asked; the command then loads the indexes itself.
func dialRunning(ctx context.Context, p project.Paths, cfg config.Config) (*running, string) {
	st, err := state.ReadVerified(ctx, p, cfg)
	var stale *state.StaleError
	switch {
	case errors.Is(err, state.ErrMissing):
		return nil, "no server runs for this project (no " + p.Rel(p.StateFile()) + ")"
	case errors.As(err, &stale):
		return nil, "the state file is not trusted, so nothing was sent to the URL it names (" + stale.Reason + ")"
	case err != nil:
		return nil, "the server named by the state file does not answer (" + err.Error() + ")"
	}
	// The token goes only to a server the state file check trusts; a server
	// with server.auth none ignores it.
	token, _ := server.ReadToken(p)
	c, err := server.Dial(ctx, st.URL, token, "agentos-cli", buildinfo.Get().Version, initTimeout)
	if err != nil {
		return nil, err.Error()
	}
	return &running{c: c}, "the running server (pid " + fmt.Sprint(st.PID) + ") answered"
}

func (r *running) Close() { r.c.Close() }

// toolError is an error result of a tool: {error_code, message, details}.
type toolError struct {
	Code    string          `json:"error_code"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
}

// Error is the message as the CLI prints errors: without a final period.
func (e *toolError) Error() string { return strings.TrimSuffix(e.Message, ".") }

// opening reports whether the error says the index is still being opened
// (the server has just started), which the saved index can answer meanwhile.
func (e *toolError) opening() bool {
	var d struct {
		IndexStatus *searchtool.IndexStatus `json:"index_status"`
	}
	if json.Unmarshal(e.Details, &d) != nil || d.IndexStatus == nil {
		return false
	}
	return openingState(d.IndexStatus.State)
}

// openingState reports whether an index in this state has not opened yet.
func openingState(s string) bool {
	return s == searchtool.StateStarting || s == searchtool.StateWaiting || s == searchtool.StateLoading
}

// unreachableError says the server could not be asked after all (it
// stopped, or answered something that is not the tool's answer): the
// command loads the indexes itself.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string {
	return "the running server did not answer: " + e.err.Error()
}

// search calls svc_search_project with args. A tool's error result is a
// *toolError; a failed exchange is an *unreachableError.
func (r *running) search(ctx context.Context, args map[string]any) (searchtool.Output, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "svc_search_project"
	req.Params.Arguments = args
	res, err := r.c.CallTool(ctx, req)
	if err != nil {
		return searchtool.Output{}, &unreachableError{err}
	}
	// An answer is one text, the JSON; an error is a plain line and then
	// its JSON envelope (toolkit.ErrorResult): the last text is the JSON.
	var body []byte
	if n := len(res.Content); n > 0 {
		if t, ok := res.Content[n-1].(mcp.TextContent); ok {
			body = []byte(t.Text)
		}
	}
	if res.IsError {
		te := &toolError{}
		if json.Unmarshal(body, te) != nil || te.Message == "" {
			return searchtool.Output{}, &unreachableError{fmt.Errorf("an error result without a message: %.200s", body)}
		}
		return searchtool.Output{}, te
	}
	var out searchtool.Output
	if err := json.Unmarshal(body, &out); err != nil || out.Action == "" {
		return searchtool.Output{}, &unreachableError{fmt.Errorf("an answer that is not the tool's: %.200s", body)}
	}
	return out, nil
}

// askRunning runs ask against the project's running server when one can be
// asked; local is the way without one. A server that cannot be asked, or
// that stops answering, falls back to local; verbose says on stderr which
// way answered and why.
func askRunning(ctx context.Context, s *streams, p project.Paths, cfg config.Config, verbose bool,
	ask func(context.Context, *running) (answered bool, why string, err error), local func() error) error {
	actx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	r, why := dialRunning(actx, p, cfg)
	if r != nil {
		answered, reason, err := ask(actx, r)
		r.Close()
		var lost *unreachableError
		switch {
		case errors.As(err, &lost):
			why = lost.Error()
		case answered || err != nil:
			if verbose {
				fmt.Fprintf(s.Err, "agentos: %s.\n", why)
			}
			return err
		default:
			why = reason
		}
	}
	if verbose {
		fmt.Fprintf(s.Err, "agentos: loading the saved indexes: %s.\n", why)
	}
	return local()
}
