package server

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Dial opens an MCP session with the running server at url, as the client
// named name, sending the project's auth token when there is one. The
// commands that ask the running server (doctor, search, graph) use it; url
// must come from a state file state.Verify trusts, since the token goes to
// it. handshake, when not zero, bounds the initialize exchange, so a server
// that hangs in it costs no more. The caller closes the client.
func Dial(ctx context.Context, url, token, name, version string, handshake time.Duration) (*client.Client, error) {
	var opts []transport.StreamableHTTPCOption
	if token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	}
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("cannot reach the server at %s: %w", url, err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: version}
	ictx := ctx
	if handshake > 0 {
		var cancel context.CancelFunc
		ictx, cancel = context.WithTimeout(ctx, handshake)
		defer cancel()
	}
	if _, err := c.Initialize(ictx, init); err != nil {
		c.Close()
		return nil, fmt.Errorf("the server at %s refused to start a session: %w", url, err)
	}
	return c, nil
}
