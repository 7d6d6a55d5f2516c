package loopback

import "testing"

func TestIs(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true,
		"10.0.0.1": false, "0.0.0.0": false, "example.com": false, "localhost.example.com": false, "": false, "::": false,
	} {
		if got := Is(host); got != want {
			t.Errorf("Is(%q) = %v, want %v", host, got, want)
		}
	}
}
