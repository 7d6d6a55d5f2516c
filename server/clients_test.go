package server

import (
	"testing"
	"time"

	"github.com/agentos-dev/agentos/server/info"
)

// The rules by which a session stops counting, on a clock the test moves.
func TestClientsForgetSessionsThatEnded(t *testing.T) {
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	c := newClients(func() time.Time { return now })
	add := func(id, transport string) {
		c.sessions[id] = &info.Client{Name: id, Transport: transport, LastSeen: now}
	}
	names := func() map[string]bool {
		out := map[string]bool{}
		for _, s := range c.list() {
			out[s.Name] = true
		}
		return out
	}
	add("stdio", "stdio")
	add("quiet", "http")      // never opens a stream
	add("streaming", "http")  // keeps its stream open
	add("vanished", "http")   // its stream closes and nothing follows
	add("reconnects", "http") // its stream closes, then it is heard from again
	_ = c.streamOpened("streaming")
	closeVanished := c.streamOpened("vanished")
	closeReconnects := c.streamOpened("reconnects")

	now = now.Add(time.Second)
	closeVanished()
	closeReconnects()
	now = now.Add(time.Second)
	c.touch("reconnects")
	now = now.Add(streamGrace)
	got := names()
	for name, want := range map[string]bool{"stdio": true, "quiet": true, "streaming": true, "vanished": false, "reconnects": true} {
		if got[name] != want {
			t.Errorf("after its stream closed %s ago: %s counts %v, want %v", streamGrace, name, got[name], want)
		}
	}

	now = now.Add(clientIdle)
	got = names()
	for name, want := range map[string]bool{"stdio": true, "quiet": false, "streaming": true, "reconnects": false} {
		if got[name] != want {
			t.Errorf("after %s of silence: %s counts %v, want %v (an open stream counts)", clientIdle, name, got[name], want)
		}
	}
}
