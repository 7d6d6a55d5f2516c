package app

import "example.com/fix/store"

// Capitals ranges over a map whose key alone is a named type.
func Capitals() int {
	names := map[store.Level]string{0: "LOW"}
	n := 0
	for lvl, want := range names {
		if lvl.CapitalString() == want {
			n++
		}
	}
	return n
}
