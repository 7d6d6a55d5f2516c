package app

import "example.com/fix/store"

// Table ranges over a table of cases, a slice of an anonymous struct, and
// calls through a case's fields.
func Table() int {
	cases := []struct {
		name  string
		level store.Level
		node  *store.Node
	}{
		{name: "low", level: 0, node: &store.Node{}},
	}
	n := 0
	for _, c := range cases {
		if c.level.CapitalString() == c.name {
			n++
		}
		c.node.Apply(nil)
	}
	return n
}
