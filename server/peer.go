package server

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync"

	"github.com/agentos-dev/agentos/internal/peeruser"
)

// peer is the owner of one HTTP connection, looked up once, when the first
// request on it needs it (server.auth: user). It is looked up as the request
// arrives rather than when the connection is accepted, so a slow look-up
// never holds the accept loop.
type peer struct {
	conn net.Conn
	once sync.Once
	uid  int
	err  error
}

type peerKey struct{}

// withPeer is the http.Server's ConnContext: it attaches the connection's
// peer to every request on it.
func withPeer(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, &peer{conn: c})
}

// sameUser reports whether the request comes from a process of the OS user
// this server runs as, and if not, why.
func sameUser(ctx context.Context) (bool, string) {
	p, _ := ctx.Value(peerKey{}).(*peer)
	if p == nil {
		return false, "the connection's owner is unknown"
	}
	p.once.Do(func() {
		remote, err1 := netip.ParseAddrPort(p.conn.RemoteAddr().String())
		local, err2 := netip.ParseAddrPort(p.conn.LocalAddr().String())
		if err1 != nil || err2 != nil {
			p.err = fmt.Errorf("addresses %s and %s", p.conn.RemoteAddr(), p.conn.LocalAddr())
			return
		}
		p.uid, p.err = peeruser.Owner(remote, local)
	})
	if p.err != nil {
		return false, fmt.Sprintf("the connection's owner could not be told (%v)", p.err)
	}
	if p.uid != os.Geteuid() {
		return false, fmt.Sprintf("the connection belongs to user id %d", p.uid)
	}
	return true, ""
}
