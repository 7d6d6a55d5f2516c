//go:build !linux

package peeruser

import "net/netip"

// Supported reports whether Owner can answer on this system.
const Supported = false

func owner(netip.AddrPort, netip.AddrPort) (int, error) { return 0, ErrUnsupported }
