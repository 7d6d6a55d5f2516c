// Package peeruser tells which OS user owns the other end of a TCP
// connection on the loopback interface: the check that lets a local server
// serve only its own user's processes (server.auth: user) without asking
// the clients for anything, because the kernel already knows who opened the
// socket. Where the system gives no way to ask, Supported is false and
// Owner fails.
package peeruser

import (
	"errors"
	"fmt"
	"net/netip"
)

// ErrNotFound is returned when no socket matches the connection: the client
// went away, or it lives in another network namespace.
var ErrNotFound = errors.New("no socket on this machine matches the connection")

// ErrUnsupported is returned by Owner where the system cannot tell.
var ErrUnsupported = errors.New("this system does not tell which user owns a loopback connection")

// Owner returns the user id owning the client end of the TCP connection
// whose client address is remote and whose server address is local (as the
// server sees them: http.Request.RemoteAddr and the listener's address).
func Owner(remote, local netip.AddrPort) (int, error) {
	if !remote.Addr().IsLoopback() || !local.Addr().Unmap().IsLoopback() {
		return 0, fmt.Errorf("peer %s: not a loopback connection", remote)
	}
	return owner(remote, local)
}
