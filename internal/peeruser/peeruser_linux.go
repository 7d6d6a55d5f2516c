package peeruser

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// Supported reports whether Owner can answer on this system.
const Supported = true

// owner finds the client's socket in the kernel's table of TCP sockets:
// the row whose local address is the client's and whose remote address is
// the server's, and reads its uid column. Every user may read these tables.
func owner(remote, local netip.AddrPort) (int, error) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		uid, err := scan(table, remote, local)
		if err == nil || !errors.Is(err, ErrNotFound) {
			return uid, err
		}
	}
	return 0, fmt.Errorf("peer %s: %w", remote, ErrNotFound)
}

// scan looks for the connection in one table.
func scan(path string, remote, local netip.AddrPort) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) { // no IPv6 on this kernel
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("peer owner: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 {
			continue
		}
		l, errL := parseAddr(fields[1])
		r, errR := parseAddr(fields[2])
		if errL != nil || errR != nil || !same(l, remote) || !same(r, local) {
			continue
		}
		uid, err := strconv.Atoi(fields[7])
		if err != nil {
			return 0, fmt.Errorf("peer owner: %s: uid %q: %w", path, fields[7], err)
		}
		return uid, nil
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("peer owner: read %s: %w", path, err)
	}
	return 0, ErrNotFound
}

// same compares two addresses, an IPv4 one equal to its IPv4-mapped IPv6 form.
func same(a, b netip.AddrPort) bool {
	return a.Port() == b.Port() && a.Addr().Unmap() == b.Addr().Unmap()
}

// parseAddr decodes the kernel's "HEXADDR:HEXPORT": the address's bytes, in
// network order, are printed as 32-bit numbers read in the machine's own
// byte order; the port is a plain number.
func parseAddr(s string) (netip.AddrPort, error) {
	host, port, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("address %q", s)
	}
	raw, err := hex.DecodeString(host)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("address %q", s)
	}
	p, err := strconv.ParseUint(port, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("port %q", s)
	}
	for i := 0; i < len(raw); i += 4 {
		binary.NativeEndian.PutUint32(raw[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	addr, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(addr, uint16(p)), nil
}
