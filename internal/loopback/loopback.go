// Package loopback decides which host names mean this machine, for the HTTP
// guard, the state file's check and the embedder's warning alike.
package loopback

import (
	"net/netip"
	"strings"
)

// Is reports whether host (a name or an address, IPv6 with or without
// brackets) is "localhost" or a loopback address.
func Is(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}
