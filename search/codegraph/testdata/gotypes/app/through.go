package app

import (
	"io"

	"example.com/fix/store"
)

// Through calls through standard library interfaces, on a function's
// second result and on a value received from a channel.
func Through(c io.Closer, err error, l *store.List) string {
	c.Close()
	_, s := store.Open("p")
	s.Sync()
	it := <-l.Feed()
	it.Touch()
	return err.Error()
}
