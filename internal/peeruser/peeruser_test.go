package peeruser

import (
	"net"
	"net/netip"
	"os"
	"testing"
)

// TestOwnerOfALoopbackConnection: both ends of a real connection are this
// process's, so its owner is this user; a port no one uses has none.
func TestOwnerOfALoopbackConnection(t *testing.T) {
	if !Supported {
		t.Skip("this system cannot tell a connection's owner")
	}
	for _, network := range []string{"tcp4", "tcp6"} {
		host := map[string]string{"tcp4": "127.0.0.1:0", "tcp6": "[::1]:0"}[network]
		ln, err := net.Listen(network, host)
		if err != nil {
			t.Logf("%s: %v", network, err)
			continue
		}
		defer ln.Close()
		accepted := make(chan net.Conn, 1)
		go func() {
			c, _ := ln.Accept()
			accepted <- c
		}()
		client, err := net.Dial(network, ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		server := <-accepted
		defer server.Close()
		remote := netip.MustParseAddrPort(server.RemoteAddr().String())
		local := netip.MustParseAddrPort(server.LocalAddr().String())
		uid, err := Owner(remote, local)
		if err != nil {
			t.Fatalf("%s: %v", network, err)
		}
		if uid != os.Getuid() {
			t.Errorf("%s: owner %d, want %d", network, uid, os.Getuid())
		}
		gone := netip.AddrPortFrom(remote.Addr(), 1)
		if _, err := Owner(gone, local); err == nil {
			t.Errorf("%s: a connection that does not exist has an owner", network)
		}
	}
	if _, err := Owner(netip.MustParseAddrPort("192.0.2.1:5000"), netip.MustParseAddrPort("127.0.0.1:4242")); err == nil {
		t.Error("a connection from another machine has an owner")
	}
}
