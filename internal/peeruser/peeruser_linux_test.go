package peeruser

import (
	"encoding/binary"
	"testing"
)

func TestParseAddr(t *testing.T) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("rows below are as a little-endian kernel prints them")
	}
	for in, want := range map[string]string{
		"0100007F:1092":                         "127.0.0.1:4242",
		"00000000000000000000000001000000:1092": "[::1]:4242",
		"0000000000000000FFFF00000100007F:1092": "[::ffff:127.0.0.1]:4242",
	} {
		got, err := parseAddr(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got.String() != want {
			t.Errorf("%s = %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"", "zz:1", "0100007F", "0100007F:xyz", "01:0001"} {
		if _, err := parseAddr(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
